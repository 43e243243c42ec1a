// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kdump_decode.h"
#include "kdump_decode_stack.h"
#include "kdump_mappings.h"
#include "kdump_syms.h"
#include "kdump_unwind.h"

struct kd_stacks {
	struct kdump_syms *syms; /* the objects named so far */
	struct kd_mappings *maps; /* where the processes mapped them */
	struct kd_unwinder *unwinder;
	bool read; /* the whole file's OBJECT and MAPPING records given (reader) */
	bool read_now; /* the reader is giving them */
	/* MAPPING records: the reader's, and the file's so far (the same first ones) */
	unsigned long mappings_read, mappings_seen;
	void (*reader)(void *ctx, struct kd_decoder *d);
	void *reader_ctx;
	/* the last stack's frames, named */
	struct kd_unwound unwound;
	struct ktr_ustack_frame frames[KTR_USTACK_MAXFRAMES];
	struct kdump_frame_name names[KD_UNWIND_MAX];
	__u64 regs[KTR_UREGS_MAXREGS];
};

_Static_assert(KD_UNWIND_MAX >= KTR_USTACK_MAXFRAMES, "a walk's frames fit the names");

struct kd_stacks *kd_stacks__new(void)
{
	struct kd_stacks *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->syms = kdump_syms__new();
	k->maps = kd_mappings__new();
	k->unwinder = k->syms ? kd_unwinder__new(k->syms) : NULL;
	if (!k->unwinder || !k->maps) {
		kd_stacks__free(k);
		return NULL;
	}
	return k;
}

void kd_stacks__free(struct kd_stacks *k)
{
	if (!k)
		return;
	kd_unwinder__free(k->unwinder);
	kd_mappings__free(k->maps);
	kdump_syms__free(k->syms);
	free(k);
}

void kd_stacks__set_reader(struct kd_stacks *k, void (*fn)(void *ctx, struct kd_decoder *d),
			   void *ctx)
{
	k->reader = fn;
	k->reader_ctx = ctx;
}

int kd_object__parse(const void *data, size_t len, struct ktr_object *o,
		     struct ktr_object_load loads[KTR_OBJECT_MAXLOADS], const char **path)
{
	const char *p;
	size_t off;

	if (len < sizeof(*o))
		return -1;
	memcpy(o, data, sizeof(*o));
	off = sizeof(*o) + o->ko_nloads * sizeof(*loads);
	if (o->ko_build_id_len < 1 || o->ko_build_id_len > sizeof(o->ko_build_id) ||
	    o->ko_nloads > KTR_OBJECT_MAXLOADS || len <= off)
		return -1;
	p = (const char *)data + off;
	if (strnlen(p, len - off) + 1 != len - off)
		return -1;
	memcpy(loads, (const char *)data + sizeof(*o), o->ko_nloads * sizeof(*loads));
	*path = p;
	return 0;
}

void kd_stacks__add_object(struct kd_stacks *k, const struct ktr_object *o,
			   const struct ktr_object_load *loads, const char *path)
{
	kdump_syms__object(k->syms, o, loads, path);
}

void kd_stacks__add_mapping(struct kd_stacks *k, const struct ktr_header *h,
			    const struct ktr_mapping *m)
{
	if (k->read_now)
		k->mappings_read++;
	kd_mappings__add(k->maps, h->ktr_pid, h->ktr_mono_ns, m);
}

int kd_stacks__object(struct kd_stacks *k, struct kd_event *ev)
{
	struct ktr_object_load loads[KTR_OBJECT_MAXLOADS];
	const struct ktr_object *o = (const void *)ev->data;
	struct ktr_object copy;

	if (kd_object__parse(ev->data, ev->len, &copy, loads, &ev->object.path) < 0) {
		ev->valid = false;
		return 0;
	}
	ev->object.build_id = o->ko_build_id;
	ev->object.id_len = copy.ko_build_id_len;
	if (!k->read)
		kd_stacks__add_object(k, &copy, loads, ev->object.path);
	return 0;
}

int kd_stacks__mapping(struct kd_stacks *k, struct kd_event *ev)
{
	struct ktr_mapping m;

	if (ev->len != sizeof(m)) {
		ev->valid = false;
		return 0;
	}
	memcpy(&m, ev->data, sizeof(m));
	/* past those the reader gave: a file being written (kdump -l) */
	if (++k->mappings_seen > k->mappings_read)
		kd_stacks__add_mapping(k, ev->h, &m);
	return 0;
}

/* The kernel's walk: each frame named and checked; the first that is no frame ends it. */
static void stack__walk(struct kd_stacks *k, struct kd_event *ev, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		kdump_syms__name(k->syms, &k->frames[i], i, i ? &k->names[i - 1] : NULL,
				 &k->names[i]);
		if (i > 0 && k->names[i].not_frame) {
			ev->ustack.stop = k->names[i].doubt;
			n = i;
			break;
		}
	}
	ev->ustack.n = n;
	ev->ustack.frames = k->frames;
}

/*
 * The registers and stack copy after the frames (off), unwound.  false
 * if they do not fit the record.
 */
static bool stack__unwind(struct kd_stacks *k, struct kd_event *ev, size_t off)
{
	const unsigned char *p = (const unsigned char *)ev->data + off;
	const struct kd_mapping *maps;
	struct ktr_uregs ur;
	size_t have, nmaps;
	__u64 key;

	if (ev->len < off + sizeof(ur))
		return false;
	memcpy(&ur, p, sizeof(ur));
	have = ev->len - off - sizeof(ur);
	if (ur.ur_nregs == 0 || ur.ur_nregs > KTR_UREGS_MAXREGS || have < 8u * ur.ur_nregs)
		return false;
	memcpy(k->regs, p + sizeof(ur), 8u * ur.ur_nregs);
	have -= 8u * ur.ur_nregs;
	/* a flight recorder may have cut the copy short: what the record holds */
	if (ur.ur_stack_len > have)
		ur.ur_stack_len = have;
	else if (ur.ur_stack_len < have)
		return false;
	nmaps = kd_mappings__at(k->maps, ev->h->ktr_pid, ev->h->ktr_mono_ns, &maps, &key);
	kd_unwinder__run(k->unwinder, ev->h->ktr_pid, ev->h->ktr_tid, &ur, k->regs,
			 p + sizeof(ur) + 8u * ur.ur_nregs, ur.ur_stack_len, maps, nmaps, key,
			 &k->unwound);
	for (unsigned int i = 0; i < k->unwound.n; i++)
		kdump_syms__name_unwound(k->syms, &k->unwound.f[i], &k->names[i]);
	ev->ustack.how = KD_STACK_DWARF;
	ev->ustack.n = k->unwound.n;
	ev->ustack.frames = k->unwound.f;
	ev->ustack.stack_bytes = ur.ur_stack_len;
	ev->ustack.stop = k->unwound.stop[0] ? k->unwound.stop : NULL;
	return true;
}

/*
 * The frames of a stack, each named.  The objects and mappings a stack
 * needs may be described further on in the file (the daemon describes an
 * object when it has read it): the first stack has the whole file's read
 * first, when the file can be read twice.
 */
int kd_stacks__ustack(struct kd_stacks *k, struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_ustack us;
	size_t off;

	if (ev->len < sizeof(us))
		return (ev->valid = false), 0;
	memcpy(&us, ev->data, sizeof(us));
	off = sizeof(us) + (size_t)us.us_nframes * sizeof(struct ktr_ustack_frame);
	if (us.us_nframes > KTR_USTACK_MAXFRAMES || ev->len < off ||
	    (!(us.us_flags & KTR_USTACK_F_REGS) && ev->len != off))
		return (ev->valid = false), 0;
	if (!k->read && k->reader) {
		kd_mappings__clear(k->maps);
		k->read = k->read_now = true;
		k->reader(k->reader_ctx, d);
		k->read_now = false;
	}
	ev->ustack.names = k->names;
	ev->ustack.how = (us.us_flags & KTR_USTACK_F_SHED) ? KD_STACK_SHED : KD_STACK_WALK;
	if (us.us_flags & KTR_USTACK_F_REGS) {
		if (!stack__unwind(k, ev, off))
			ev->valid = false;
		return 0;
	}
	memcpy(k->frames, (const char *)ev->data + sizeof(us),
	       us.us_nframes * sizeof(struct ktr_ustack_frame));
	stack__walk(k, ev, us.us_nframes);
	return 0;
}
