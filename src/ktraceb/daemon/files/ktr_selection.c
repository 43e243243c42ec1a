// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_select.h"
#include "common/ktr_proto.h"
#include "daemon/ktr_clock.h"
#include "daemon/flight/ktr_flight.h"
#include "daemon/ktr_record.h"
#include "ktr_selection.h"
#include "daemon/requests/ktr_share.h"
#include "ktr_tracefile.h"
#include "trstr.h"

/* A route's USDT patterns, if it has any (else the ktraceb provider's probes alone). */
struct usdt_route {
	__u32 route;
	struct ktr_usdt_sel sel;
	char text[KTR_USDT_SEL_TEXT]; /* as the request gave them */
	struct usdt_route *next;
};

struct ktr_selection {
	int map_fd;
	/* which routes have had their first request (KTR_MAX_ROUTES bits) */
	__u64 decided[KTR_MAX_ROUTES / 64];
	struct {
		__u32 route; /* 0: the slot is free */
		uid_t owner; /* its file's (ktr_share.h) */
		struct ktr_request_select sel;
	} slots[KTR_MAX_SELECTS]; /* slot 0 is never used: "every call" */
	/* which routes have had their first request with 'u', and their patterns */
	__u64 usdt_decided[KTR_MAX_ROUTES / 64];
	struct usdt_route *usdt;
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
	while (s && s->usdt) {
		struct usdt_route *u = s->usdt;

		s->usdt = u->next;
		free(u);
	}
	free(s);
}

static bool bit__test(const __u64 *bits, __u32 r)
{
	return r < KTR_MAX_ROUTES && (bits[r / 64] >> (r % 64)) & 1;
}

static bool route__decided(const struct ktr_selection *s, __u32 r)
{
	return bit__test(s->decided, r);
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

/* A KTR_FILTER record: what the trace selects (flags: KTR_FILTER_*, text: as given). */
static void filter__write(struct ktr_tracefile *f, __u32 status, __u32 flags, const char *text)
{
	struct {
		struct ktr_filter f;
		char text[1024];
	} rec = { 0 };
	size_t len = strnlen(text, sizeof(rec.text) - 1);
	struct ktr_header h;

	rec.f.kf_status = status;
	rec.f.kf_flags = flags;
	memcpy(rec.text, text, len);
	ktr_record__own(&h, KTR_FILTER, sizeof(rec.f) + len + 1, 0);
	ktr_tracefile__append_made(f, &h, &rec, ktr_wall_offset_ns());
}

/* The file's first record after INFO: what the trace selects. */
static void selection__write(struct ktr_tracefile *f, const struct ktr_request_select *sel)
{
	char text[sizeof(sel->text)];

	snprintf(text, sizeof(text), "%.*s", (int)sizeof(sel->text) - 1, sel->text);
	filter__write(f, sel->status, sel->status ? KTR_FILTER_CALLS_AT_RETURN : 0, text);
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

/* --- USDT patterns: decided by a file's first request with 'u' ------------------ */

static struct usdt_route *usdt__find(const struct ktr_selection *s, __u32 r)
{
	for (struct usdt_route *u = s->usdt; u; u = u->next)
		if (u->route == r)
			return u;
	return NULL;
}

const struct ktr_usdt_sel *ktr_selection__usdt(const struct ktr_selection *s, __u32 r)
{
	const struct usdt_route *u = usdt__find(s, r);

	return u ? &u->sel : NULL;
}

/* A request with 'u' into a file decided already brings the same patterns: 0 or -EEXIST. */
static int usdt__agree(const struct ktr_selection *s, __u32 r, struct ktr_tracefile *f,
		       const struct ktr_request *req, char *msg)
{
	static const struct ktr_usdt_sel none;
	const struct usdt_route *had = usdt__find(s, r);
	struct ktr_usdt_sel sel;
	const char *why;

	if (!(req->facs & ktr_facs_that(KTR_FAC_PROBES)) || !bit__test(s->usdt_decided, r))
		return 0;
	if (ktr_usdt_sel__parse(&sel, req->select.usdt, &why) == 0 &&
	    ktr_usdt_sel__same(had ? &had->sel : &none, &sel))
		return 0;
	ktr_proto__msg_add(msg, "%s: traced with %s%s%s: give the same -e usdt: patterns\n",
			   ktr_tracefile__path(f),
			   had ? "the USDT patterns '" : "the ktraceb provider's probes alone",
			   had ? had->text : "", had ? "'" : "");
	return -EEXIST;
}

/*
 * The probes known to fire at high rates that sel arms: said in one line
 * (the first three named), and, write, in the file (all of them).
 */
static void usdt__tell_hot(const struct ktr_usdt_sel *sel, struct ktr_tracefile *f, bool write,
			   char *msg)
{
	char all[1024], shown[256], more[32] = "";
	unsigned int n = ktr_usdt_sel__hot(sel, all, sizeof(all));
	size_t cut = 0;

	if (!n)
		return;
	if (write)
		filter__write(f, 0, KTR_FILTER_USDT_HOT, all);
	for (unsigned int i = 0; i < 3 && i < n; i++)
		cut += strcspn(all + cut, " ") + (i + 1 < 3 && i + 1 < n);
	snprintf(shown, sizeof(shown), "%.*s", (int)cut, all);
	if (n > 3)
		snprintf(more, sizeof(more), " and %u more", n - 3);
	ktr_proto__msg_add(msg,
			   "USDT: probes that fire at high rates armed where a program has them: "
			   "%s%s (each hit is a record: expect it to run several times slower)\n",
			   shown, more);
}

/* Route r's patterns: kept, and written to its file (a recorder's keeps them for a takeover). */
static int usdt__keep(struct ktr_selection *s, __u32 r, struct ktr_tracefile *f,
		      const struct ktr_usdt_sel *sel, const char *text)
{
	struct usdt_route *u = calloc(1, sizeof(*u));

	if (!u)
		return -ENOMEM;
	u->route = r;
	u->sel = *sel;
	snprintf(u->text, sizeof(u->text), "%s", text);
	u->next = s->usdt;
	s->usdt = u;
	if (f) {
		filter__write(f, 0, KTR_FILTER_USDT, u->text);
		if (f->flight)
			ktr_flight__set_usdt(f->flight, u->text);
	}
	return 0;
}

/* The first request with 'u' decides the file's patterns; each is told of the busy ones. */
static int usdt__decide(struct ktr_selection *s, __u32 r, struct ktr_tracefile *f,
			const struct ktr_request *req, char *msg)
{
	bool first = !bit__test(s->usdt_decided, r);
	struct ktr_usdt_sel sel;
	const char *why;

	if (!(req->facs & ktr_facs_that(KTR_FAC_PROBES)))
		return 0;
	if (ktr_usdt_sel__parse(&sel, req->select.usdt, &why) < 0) {
		ktr_proto__msg_add(msg, "-e usdt: %s\n", why); /* checked before: never */
		return -EINVAL;
	}
	if (first && sel.n && usdt__keep(s, r, f, &sel, req->select.usdt) < 0) {
		ktr_proto__msg_add(msg, "%s: out of memory\n", ktr_tracefile__path(f));
		return -ENOMEM;
	}
	s->usdt_decided[r / 64] |= 1ULL << (r % 64);
	usdt__tell_hot(&sel, f, first, msg);
	return 0;
}

void ktr_selection__adopt_usdt(struct ktr_selection *s, __u32 r, const char *text, size_t size)
{
	char copy[KTR_USDT_SEL_TEXT];
	struct ktr_usdt_sel sel;
	const char *why;

	if (r >= KTR_MAX_ROUTES || bit__test(s->usdt_decided, r) || !size ||
	    strnlen(text, size) >= sizeof(copy))
		return;
	snprintf(copy, sizeof(copy), "%.*s", (int)strnlen(text, size), text);
	if (!copy[0] || ktr_usdt_sel__parse(&sel, copy, &why) < 0 ||
	    usdt__keep(s, r, NULL, &sel, copy) < 0)
		return;
	s->usdt_decided[r / 64] |= 1ULL << (r % 64);
}

/* --- the syscall selection: decided by a file's first request --------------------- */

static int syscalls__join(struct ktr_selection *s, __u32 r, struct ktr_tracefile *f,
			  const struct ktr_request *req, char *msg)
{
	const struct ktr_request_select *sel = &req->select;
	__u16 slot = ktr_selection__slot(s, r);

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

int ktr_selection__join(struct ktr_selection *s, __u32 r, struct ktr_tracefile *f,
			const struct ktr_request *req, char *msg)
{
	int err;

	if (r >= KTR_MAX_ROUTES)
		return -EINVAL;
	/* nothing changes unless both agree with what the file has */
	err = usdt__agree(s, r, f, req, msg);
	if (!err)
		err = syscalls__join(s, r, f, req, msg);
	if (!err)
		err = usdt__decide(s, r, f, req, msg);
	return err;
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

	for (struct usdt_route **pp = &s->usdt; *pp; pp = &(*pp)->next)
		if ((*pp)->route == r) {
			struct usdt_route *u = *pp;

			*pp = u->next;
			free(u);
			break;
		}
	if (r < KTR_MAX_ROUTES) {
		s->decided[r / 64] &= ~(1ULL << (r % 64));
		s->usdt_decided[r / 64] &= ~(1ULL << (r % 64));
	}
	if (slot) {
		struct ktr_select_map none = { 0 };
		__u32 key = slot;

		bpf_map_update_elem(s->map_fd, &key, &none, BPF_ANY);
		memset(&s->slots[slot], 0, sizeof(s->slots[slot]));
	}
}
