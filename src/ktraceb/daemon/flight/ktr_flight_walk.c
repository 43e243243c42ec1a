// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Reading a recorder's ring at a dump (ktr_flight__walk): each CPU's
 * records in the order it wrote them, merged by time, slots the programs
 * rewrite meanwhile stepped over, compact entries made whole records again.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ktraceb/bpf_flight.h"
#include "ktr_flight.h"
#include "ktr_flight_priv.h"
#include "daemon/ktr_record.h"

/* A record as a walk finds it: one CPU's next, assembled. */
struct cursor {
	__u64 pos, end; /* the next position to look at, and the CPU's head */
	bool have; /* rec holds a record, at rec_pos */
	__u64 rec_pos;
	size_t len;
	unsigned char rec[KTR_FLIGHT_MAX_SLOTS * KTR_FLIGHT_SLOT_DATA];
};

static struct ktr_flight_slot *flight__slot(struct ktr_flight *fl, __u32 cpu, __u64 pos)
{
	__u32 per = fl->ctl->per_cpu;

	return &fl->slots[(size_t)cpu * per + pos % per];
}

/*
 * Copy a slot out if it holds position pos: its position is read before
 * and after the copy, so a slot the programs rewrite meanwhile is refused.
 */
static bool slot__get(struct ktr_flight_slot *sl, __u64 pos, struct ktr_flight_slot *out)
{
	__u32 p = __atomic_load_n(&sl->pos, __ATOMIC_ACQUIRE);

	if (p != (__u32)pos)
		return false;
	memcpy(out, sl, sizeof(*out));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&sl->pos, __ATOMIC_RELAXED) == (__u32)pos;
}

/* A compact entry back into a record (bpf_flight.h). */
static size_t compact__expand(const struct ktr_flight_compact *c, unsigned char *rec)
{
	struct ktr_header *h = (void *)rec;
	size_t len = ktr_flight_compact__unpack(c, h + 1);

	ktr_record__header(h, c->type, len, ktr_flight_compact__hflags(c), c->pid, c->tid, c->comm,
			   c->mono);
	return sizeof(*h) + len;
}

/*
 * The record at cur->pos of CPU cpu, or the next whole one after it:
 * slots overwritten since, or still being written, are stepped over.
 */
static bool cursor__next(struct ktr_flight *fl, __u32 cpu, struct cursor *cur)
{
	struct ktr_flight_slot sl;

	cur->have = false;
	while (cur->pos < cur->end) {
		__u64 pos = cur->pos;
		size_t n, got = 0;

		if (!slot__get(flight__slot(fl, cpu, pos), pos, &sl)) {
			cur->pos++;
			continue;
		}
		if (sl.idx == KTR_FLIGHT_COMPACT_ENTRY) {
			struct ktr_flight_compact c;

			memcpy(&c, sl.data, sizeof(c));
			cur->len = compact__expand(&c, cur->rec);
			cur->rec_pos = pos;
			cur->pos++;
			return cur->have = true;
		}
		n = sl.nslots;
		if (sl.idx != 0 || n == 0 || n > KTR_FLIGHT_MAX_SLOTS || pos + n > cur->end) {
			cur->pos++; /* the middle of a record, or one not whole yet */
			continue;
		}
		memcpy(cur->rec, sl.data, KTR_FLIGHT_SLOT_DATA);
		for (got = 1; got < n; got++) {
			if (!slot__get(flight__slot(fl, cpu, pos + got), pos + got, &sl) ||
			    sl.idx != got || sl.nslots != n)
				break;
			memcpy(cur->rec + got * KTR_FLIGHT_SLOT_DATA, sl.data,
			       KTR_FLIGHT_SLOT_DATA);
		}
		if (got < n) {
			cur->pos += got;
			continue;
		}
		cur->len = sizeof(struct ktr_header) + ((struct ktr_header *)cur->rec)->ktr_len;
		cur->pos += n;
		if (((struct ktr_header *)cur->rec)->ktr_len < 0 ||
		    cur->len > n * KTR_FLIGHT_SLOT_DATA)
			continue;
		cur->rec_pos = pos;
		return cur->have = true;
	}
	return false;
}

static __u64 rec__ns(const struct cursor *cur)
{
	return ((const struct ktr_header *)cur->rec)->ktr_mono_ns;
}

/* Where each CPU's records begin and end, as the walk sees them. */
static void flight__bounds(struct ktr_flight *fl, __u64 *lo, __u64 *hi)
{
	__u32 per = fl->ctl->per_cpu;

	for (__u32 c = 0; c < fl->ctl->ncpu; c++) {
		__u64 head = __atomic_load_n(&fl->heads[c].head, __ATOMIC_ACQUIRE);
		__u64 floor = fl->heads[c].floor;

		hi[c] = head;
		lo[c] = head > per ? head - per : 0;
		if (lo[c] < floor)
			lo[c] = floor;
	}
}

/*
 * The CPUs' records merged by time: each CPU's in the order it wrote them,
 * the earliest next record of any CPU first.  A record earlier than the
 * one before it (another program ran on that CPU between taking its time
 * and its slots) comes out marked KTRH_OUT_OF_ORDER.  fn NULL: only count.
 */
static int flight__merge(struct ktr_flight *fl, struct cursor *cur, const __u64 *lo,
			 const __u64 *hi, __u64 *kept, __u64 *ooo, ktr_flight_fn fn, void *ctx)
{
	__u32 ncpu = fl->ctl->ncpu;
	__u64 prev = 0;
	int err = 0;

	*kept = *ooo = 0;
	for (__u32 c = 0; c < ncpu; c++) {
		cur[c].pos = lo[c];
		cur[c].end = hi[c];
		cursor__next(fl, c, &cur[c]);
	}
	for (;;) {
		struct ktr_header *h;
		int best = -1;

		for (__u32 c = 0; c < ncpu; c++)
			if (cur[c].have && (best < 0 || rec__ns(&cur[c]) < rec__ns(&cur[best])))
				best = c;
		if (best < 0)
			break;
		h = (void *)cur[best].rec;
		if (h->ktr_mono_ns < prev) {
			h->ktr_flags |= KTRH_OUT_OF_ORDER;
			++*ooo;
		} else {
			prev = h->ktr_mono_ns;
		}
		++*kept;
		if (fn && (err = fn(ctx, h, cur[best].len)))
			break;
		cursor__next(fl, best, &cur[best]);
	}
	return err;
}

/* The KTR_FLIGHT record that opens a part of a dump. */
static int flight__part(struct ktr_flight *fl, __u32 part, __u32 why, __u64 kept, __u64 ooo,
			ktr_flight_fn fn, void *ctx)
{
	struct {
		struct ktr_header h;
		struct ktr_flight_info f;
	} rec;
	__u64 produced = 0;

	for (__u32 c = 0; c < fl->ctl->ncpu; c++)
		produced += fl->heads[c].records + fl->heads[c].kept_out;
	memset(&rec, 0, sizeof(rec));
	ktr_record__own(&rec.h, KTR_FLIGHT, sizeof(rec.f), 0);
	rec.f.kf_kept = kept;
	rec.f.kf_produced = produced;
	rec.f.kf_out_of_order = ooo;
	rec.f.kf_part = part;
	rec.f.kf_why = why;
	if (ktr_flight__frozen(fl)) {
		rec.f.kf_pid = fl->ctl->pid;
		rec.f.kf_status = fl->ctl->status;
	}
	rec.f.kf_compact = !!(fl->ctl->flags & KTR_FLIGHT_F_COMPACT);
	return fn(ctx, &rec.h, sizeof(rec));
}

/*
 * Each CPU's last record before the crash began (its head then), or its
 * last record at all: what JTRACE keeps apart as "last recorded per-CPU
 * events", so that a thread stopped on a CPU shows the step it stopped at.
 */
static int flight__last_per_cpu(struct ktr_flight *fl, struct cursor *cur, const __u64 *lo,
				const __u64 *hi, __u32 why, ktr_flight_fn fn, void *ctx)
{
	__u32 ncpu = fl->ctl->ncpu;
	__u64 *last = calloc(ncpu, sizeof(*last)), n = 0;
	int err = 0;

	if (!last)
		return -ENOMEM;
	for (__u32 c = 0; c < ncpu; c++) {
		__u64 crash = fl->heads[c].crash;

		cur[c].pos = lo[c];
		cur[c].end = crash && crash - 1 < hi[c] ? crash - 1 : hi[c];
		while (cursor__next(fl, c, &cur[c]))
			last[c] = cur[c].rec_pos + 1;
		n += last[c] != 0;
	}
	if (n)
		err = flight__part(fl, KTR_FLIGHT_LAST_PER_CPU, why, n, 0, fn, ctx);
	for (__u32 c = 0; !err && c < ncpu; c++) {
		if (!last[c])
			continue;
		cur[c].pos = last[c] - 1;
		cur[c].end = hi[c];
		if (cursor__next(fl, c, &cur[c]) && cur[c].rec_pos == last[c] - 1)
			err = fn(ctx, (void *)cur[c].rec, cur[c].len);
	}
	free(last);
	return err;
}

int ktr_flight__walk(struct ktr_flight *fl, __u32 why, ktr_flight_fn fn, void *ctx)
{
	__u32 ncpu = fl->ctl->ncpu;
	struct cursor *cur = calloc(ncpu, sizeof(*cur));
	__u64 *lo = calloc(ncpu, sizeof(*lo)), *hi = calloc(ncpu, sizeof(*hi));
	__u64 kept, ooo, k2, o2;
	int err = -ENOMEM;

	if (!cur || !lo || !hi)
		goto out;
	/* the counts first, for the header; both passes read the same positions */
	flight__bounds(fl, lo, hi);
	flight__merge(fl, cur, lo, hi, &kept, &ooo, NULL, NULL);
	err = flight__part(fl, KTR_FLIGHT_RING, why, kept, ooo, fn, ctx);
	if (!err)
		err = flight__merge(fl, cur, lo, hi, &k2, &o2, fn, ctx);
	if (!err)
		err = flight__last_per_cpu(fl, cur, lo, hi, why, fn, ctx);
out:
	free(cur);
	free(lo);
	free(hi);
	return err;
}
