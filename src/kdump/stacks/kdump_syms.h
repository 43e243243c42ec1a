/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The frames of a user stack (KTR_USTACK) named: function, source file and
 * line, from the object file a frame's build id names.  The object is
 * found at the path a KTR_OBJECT record gave it, if the file there still
 * has that build id, else by build id under /usr/lib/debug/.build-id (as
 * gdb and the elfutils tools look), by the rules of kdump_files.h.  A
 * function's name is the one its object exports (.dynsym), else its own
 * or its debug file's symbol table's.  A frame-pointer walk through code
 * built without frame pointers goes astray without a word; each of its
 * frames is checked for what betrays that (not code, no call before a
 * return address, a call to another function than the frame above it)
 * and the doubt said.
 */
#ifndef KDUMP_SYMS_H
#define KDUMP_SYMS_H

#include <gelf.h>
#include <stdbool.h>

#include "ktraceb/ktr.h"

struct kdump_syms;

#define KDUMP_INLINED_MAX 4

struct kdump_frame_name {
	const char *function;	/* demangled; NULL: no symbol covers it */
	unsigned long long function_offset;
	const char *file;	/* NULL: no line information */
	int line;		/* in function, or where it calls the first inlined function */
	/* the functions inlined there, outermost first, each where it calls the next */
	unsigned int ninlined;
	struct {
		char function[128];
		const char *file;
		int line;
	} inlined[KDUMP_INLINED_MAX];
	const char *object;	/* the file the names come from; NULL: none found */
	unsigned long long address; /* the address in the object (its p_vaddr's terms) */
	const char *doubt;	/* why this frame may not be the caller's; NULL if none */
	bool not_frame;		/* the doubt says it is no frame at all: the walk ends before it */
	char function_buf[256];
	char doubt_buf[256];
};

struct kdump_syms *kdump_syms__new(void);
void kdump_syms__free(struct kdump_syms *s);

/*
 * A KTR_OBJECT record's build id, loads (o->ko_nloads) and path: where to
 * look for that id, and how its file offsets turn into addresses.
 */
void kdump_syms__object(struct kdump_syms *s, const struct ktr_object *o,
			const struct ktr_object_load *loads, const char *path);

/*
 * Frame i of a stack; inner is frame i-1's name (NULL for frame 0), for
 * the check that frame i called it.  The strings live in out, or as long
 * as s.
 */
void kdump_syms__name(struct kdump_syms *s, const struct ktr_ustack_frame *f, unsigned int i,
		      const struct kdump_frame_name *inner, struct kdump_frame_name *out);

/* A frame the DWARF unwinder found (kdump_unwind.h): named, not checked. */
void kdump_syms__name_unwound(struct kdump_syms *s, const struct ktr_ustack_frame *f,
			      struct kdump_frame_name *out);

/*
 * The object of that build id on this machine (not its debug file alone),
 * for the unwinder: a new descriptor of it, its path and its PT_LOAD
 * headers (valid as long as s); -1 if there is none.
 */
int kdump_syms__object_file(struct kdump_syms *s, const __u8 id[20], const char **path,
			    const GElf_Phdr **loads, size_t *nloads);

/*
 * Is there a call instruction just before the return address at file
 * offset off of that object?  1 yes, 0 no, -1 cannot tell (no code).
 */
int kdump_syms__call_before(struct kdump_syms *s, const __u8 id[20], __u64 off);

#endif /* KDUMP_SYMS_H */
