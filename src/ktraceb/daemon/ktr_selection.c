// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_shared.h"
#include "common/ktr_proto.h"
#include "ktr_clock.h"
#include "ktr_record.h"
#include "ktr_selection.h"
#include "ktr_share.h"
#include "ktr_tracefile.h"

struct ktr_selection {
	int map_fd;
	/* which routes have had their first request (KTR_MAX_ROUTES bits) */
	__u64 decided[KTR_MAX_ROUTES / 64];
	struct {
		__u32 route; /* 0: the slot is free */
		uid_t owner; /* its file's (ktr_share.h) */
		struct ktr_request_select sel;
	} slots[KTR_MAX_SELECTS]; /* slot 0 is never used: "every call" */
};

struct ktr_selection *ktr_selection__new(int selects_fd)
{
	struct ktr_selection *s = calloc(1, sizeof(*s));

	if (s)
		s->map_fd = selects_fd;
	return s;
}

void ktr_selection__free(struct ktr_selection *s)
{
	free(s);
}

static bool route__decided(const struct ktr_selection *s, __u32 r)
{
	return r < KTR_MAX_ROUTES && (s->decided[r / 64] >> (r % 64)) & 1;
}

static bool select__any(const struct ktr_request_select *sel)
{
	return sel->flags || sel->status;
}

__u16 ktr_selection__slot(const struct ktr_selection *s, __u32 r)
{
	for (unsigned int i = 1; r && i < KTR_MAX_SELECTS; i++)
		if (s->slots[i].route == r)
			return i;
	return 0;
}

/* The file's first record after INFO: what the trace selects. */
static void selection__write(struct ktr_tracefile *f, const struct ktr_request_select *sel)
{
	struct {
		struct ktr_filter f;
		char text[sizeof(sel->text)];
	} rec = { 0 };
	size_t len = strnlen(sel->text, sizeof(sel->text) - 1);
	struct ktr_header h;

	rec.f.kf_status = sel->status;
	rec.f.kf_flags = sel->status ? KTR_FILTER_CALLS_AT_RETURN : 0;
	memcpy(rec.text, sel->text, len);
	ktr_record__own(&h, KTR_FILTER, sizeof(rec.f) + len + 1, 0);
	ktr_tracefile__append_made(f, &h, &rec, ktr_wall_offset_ns());
}

/* Slots held by uid, and by everyone in *all. */
static unsigned int selection__held(const struct ktr_selection *s, uid_t uid, unsigned int *all)
{
	unsigned int n = 0;

	*all = 0;
	for (unsigned int i = 1; i < KTR_MAX_SELECTS; i++)
		if (s->slots[i].route) {
			++*all;
			n += s->slots[i].owner == uid;
		}
	return n;
}

/* May f's owner have one more slot (ktr_share.h)?  0, or -errno with a line in msg. */
static int selection__may(const struct ktr_selection *s, const struct ktr_tracefile *f, char *msg)
{
	unsigned int all, mine = selection__held(s, f->owner, &all);
	char why[256];
	int err = ktr_share__may(KTR_POOL_SELECTS, f->owner, mine, all, 1, why, sizeof(why));

	if (err)
		ktr_proto__msg_add(msg, "%s: %s\n", ktr_tracefile__path(f), why);
	return err;
}

/* A slot for route r of owner, filled in BPF's map; 0 if none is free. */
static __u16 selection__take(struct ktr_selection *s, __u32 r, uid_t owner,
			     const struct ktr_request_select *sel)
{
	struct ktr_select_map m = { .status = sel->status };

	for (__u32 i = 1; i < KTR_MAX_SELECTS; i++) {
		if (s->slots[i].route)
			continue;
		for (int w = 0; w < KTR_SELECT_WORDS; w++) {
			/* status= alone: every call, filtered by its return */
			m.native[w] = (sel->flags & KTR_SELECT_F_CALLS) ? sel->native[w] : ~0ULL;
			m.compat[w] = (sel->flags & KTR_SELECT_F_CALLS) ? sel->compat[w] : ~0ULL;
		}
		if (bpf_map_update_elem(s->map_fd, &i, &m, BPF_ANY) < 0)
			return 0;
		s->slots[i].route = r;
		s->slots[i].owner = owner;
		s->slots[i].sel = *sel;
		return i;
	}
	return 0;
}

int ktr_selection__join(struct ktr_selection *s, __u32 r, struct ktr_tracefile *f,
			const struct ktr_request *req, char *msg)
{
	const struct ktr_request_select *sel = &req->select;
	__u16 slot = ktr_selection__slot(s, r);

	if (r >= KTR_MAX_ROUTES)
		return -EINVAL;
	if (route__decided(s, r)) {
		const struct ktr_request_select *had = slot ? &s->slots[slot].sel : NULL;

		if ((!had && !select__any(sel)) ||
		    (had && had->flags == sel->flags && had->status == sel->status &&
		     !memcmp(had->native, sel->native, sizeof(had->native)) &&
		     !memcmp(had->compat, sel->compat, sizeof(had->compat))))
			return 0;
		ktr_proto__msg_add(msg, "%s: traced with %s%s%s: give the same selection\n",
				   ktr_tracefile__path(f), had ? "the syscall selection '" : "",
				   had ? had->text : "every system call", had ? "'" : "");
		return -EEXIST;
	}
	if (select__any(sel)) {
		int err = selection__may(s, f, msg);

		if (err)
			return err;
		if (!selection__take(s, r, f->owner, sel)) {
			ktr_proto__msg_add(msg,
					   "%s: too many traces with a syscall selection at once\n",
					   ktr_tracefile__path(f));
			return -EBUSY;
		}
		selection__write(f, sel);
	}
	s->decided[r / 64] |= 1ULL << (r % 64);
	return 0;
}

void ktr_selection__adopt(struct ktr_selection *s, __u32 r, uid_t owner, __u16 slot)
{
	struct ktr_select_map m;
	__u32 key = slot;

	if (r >= KTR_MAX_ROUTES || route__decided(s, r))
		return;
	s->decided[r / 64] |= 1ULL << (r % 64);
	if (!slot || slot >= KTR_MAX_SELECTS || s->slots[slot].route ||
	    bpf_map_lookup_elem(s->map_fd, &key, &m) < 0)
		return;
	s->slots[slot].route = r;
	s->slots[slot].owner = owner;
	s->slots[slot].sel.flags = KTR_SELECT_F_CALLS;
	s->slots[slot].sel.status = m.status;
	memcpy(s->slots[slot].sel.native, m.native, sizeof(m.native));
	memcpy(s->slots[slot].sel.compat, m.compat, sizeof(m.compat));
	snprintf(s->slots[slot].sel.text, sizeof(s->slots[slot].sel.text),
		 "(as set before the daemon that recorded it died)");
}

void ktr_selection__leave(struct ktr_selection *s, __u32 r)
{
	__u16 slot = ktr_selection__slot(s, r);

	if (r < KTR_MAX_ROUTES)
		s->decided[r / 64] &= ~(1ULL << (r % 64));
	if (slot) {
		struct ktr_select_map none = { 0 };
		__u32 key = slot;

		bpf_map_update_elem(s->map_fd, &key, &none, BPF_ANY);
		memset(&s->slots[slot], 0, sizeof(s->slots[slot]));
	}
}
