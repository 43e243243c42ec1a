/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What kdump_syms.c (finding and naming) and kdump_syms_check.c (the checks
 * of a frame-pointer walk's frames, which kdump_syms.c calls) share: an
 * object as found.
 */
#ifndef KDUMP_SYMS_INT_H
#define KDUMP_SYMS_INT_H

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "kdump_syms.h"

struct syms_object {
	__u8 id[20];
	char *path; /* from KTR_OBJECT; NULL if none came */
	struct ktr_object_load trace_loads[KTR_OBJECT_MAXLOADS]; /* its PT_LOADs, as the trace says */
	unsigned int ntrace_loads;
	bool tried;
	Dwfl *dwfl; /* NULL: no file found */
	Dwfl_Module *mod;
	bool dwarf_tried, dwarf_ok; /* may its DWARF be read (kd_module_dwarf_usable) */
	/* the object's own symbols alone (.dynsym): an exported function's name */
	Dwfl *own_dwfl;
	Dwfl_Module *own_mod;
	const char *from; /* the file reported to dwfl */
	char *from_buf;
	Elf *code; /* the object itself, for its code bytes; NULL if gone */
	int code_fd;
	char *code_path; /* where it was found */
	GElf_Half machine;
	GElf_Phdr *loads;
	size_t nloads;
	struct syms_named *named; /* the last names found, by address (NAMED_SLOTS) */
};

/* A frame's name, kept: a stack's frames come again and again, and a symbol lookup is slow */
#define NAMED_SLOTS 256
struct syms_named {
	__u64 vaddr; /* 0: empty */
	struct kdump_frame_name name;
};

struct kdump_syms {
	struct syms_object *v;
	size_t n, cap;
	char *(*demangle)(const char *, char *, size_t *, int *);
	bool demangle_tried;
};

/* The object of that build id, looked for on first use; NULL past OBJECTS_MAX. */
struct syms_object *syms__object(struct kdump_syms *s, const __u8 id[20]);
/* The PT_LOAD holding file offset off, or NULL */
const GElf_Phdr *syms__load_of(const struct syms_object *o, __u64 off);
/* sym demangled into out->function */
void syms__function(struct kdump_syms *s, const char *sym, struct kdump_frame_name *out);

/*
 * The return address at file offset off (at vaddr): is there a call just
 * before it, and which function does a direct call go to?  1: a call
 * (*target set for a direct one, else 0); 0: none; -1: unknown (no code
 * at hand).  In kdump_syms_check.c, as is the next.
 */
int syms__call_before(const struct syms_object *o, __u64 off, __u64 vaddr, __u64 *target);
/*
 * Frame i > 0 of a frame-pointer walk: no call before its return address
 * (off, at vaddr)?  Then the doubt into out, and NULL.  Else the symbol a
 * direct call there goes to, when that is a function's start outside the
 * PLT, for the caller to hold against the frame above; else NULL.
 */
const char *syms__check_call(const struct syms_object *o, __u64 off, __u64 vaddr,
			     struct kdump_frame_name *out);

#define LOST_CHAIN "the walk lost the frame chain here (code without frame pointers?)"

#endif /* KDUMP_SYMS_INT_H */
