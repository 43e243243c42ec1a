// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The flight recorder's ring (ktr_flight.h): entries of [u32 length][bytes]
 * in one circular buffer, the oldest dropped as a new one needs room.
 * Entries are whole records, or compact entries expanded back into records
 * when the ring is walked.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "ktr_flight.h"

#define FLIGHT_CPUS 256 /* KTRH_CPUID holds 8 bits */

struct flight_compact {
	__u64 mono;
	__s32 pid, tid;
	__s64 value; /* RET: retval; PSIG: handler; EXIT: status */
	char comm[KTR_MAXCOMLEN];
	__s16 code; /* RET: syscall; PSIG: signal */
	__s16 error; /* RET: errno; PSIG: si_code */
	__u8 type;
	__u8 cpu;
	__u16 pad;
};
_Static_assert(sizeof(struct flight_compact) == 48, "compact entries are 48 bytes");

struct flight_last {
	__u64 seq; /* 0: none */
	__u32 len;
	unsigned char rec[KTR_FLIGHT_LAST_MAX];
};

struct ktr_flight {
	unsigned char *buf;
	__u64 cap, head, used; /* head: offset of the oldest entry */
	__u64 count; /* entries kept */
	__u64 produced; /* entries ever added (seq of the next is produced + 1) */
	__u64 oldest_seq; /* seq of the entry at head */
	unsigned int flags;
	bool frozen;
	bool last_frozen; /* the per-CPU records as they were when the crash began */
	__u32 why;
	__s32 pid, status;
	struct flight_last *last; /* [FLIGHT_CPUS] */
};

struct ktr_flight *ktr_flight__new(__u64 bytes, unsigned int flags)
{
	struct ktr_flight *fl = calloc(1, sizeof(*fl));

	if (!fl)
		return NULL;
	fl->buf = malloc(bytes);
	fl->last = calloc(FLIGHT_CPUS, sizeof(*fl->last));
	if (!fl->buf || !fl->last) {
		ktr_flight__free(fl);
		errno = ENOMEM;
		return NULL;
	}
	fl->cap = bytes;
	fl->flags = flags;
	fl->oldest_seq = 1;
	return fl;
}

void ktr_flight__free(struct ktr_flight *fl)
{
	if (!fl)
		return;
	free(fl->buf);
	free(fl->last);
	free(fl);
}

__u64 ktr_flight__bytes(const struct ktr_flight *fl)
{
	return fl->cap;
}

/* Copy n bytes at ring offset off out (in) of the circular buffer. */
static void ring__get(const struct ktr_flight *fl, __u64 off, void *dst, size_t n)
{
	size_t first;

	off %= fl->cap;
	first = fl->cap - off < n ? fl->cap - off : n;
	memcpy(dst, fl->buf + off, first);
	memcpy((unsigned char *)dst + first, fl->buf, n - first);
}

static void ring__put(struct ktr_flight *fl, __u64 off, const void *src, size_t n)
{
	size_t first;

	off %= fl->cap;
	first = fl->cap - off < n ? fl->cap - off : n;
	memcpy(fl->buf + off, src, first);
	memcpy(fl->buf, (const unsigned char *)src + first, n - first);
}

static void ring__drop_oldest(struct ktr_flight *fl)
{
	__u32 n;

	ring__get(fl, fl->head, &n, sizeof(n));
	fl->head = (fl->head + sizeof(n) + n) % fl->cap;
	fl->used -= sizeof(n) + n;
	fl->count--;
	fl->oldest_seq++;
}

static void ring__push(struct ktr_flight *fl, const void *entry, __u32 n)
{
	__u64 need = sizeof(n) + (__u64)n;

	fl->produced++;
	if (need > fl->cap) {
		/* larger than the whole ring: it overwrites everything, itself included */
		fl->head = fl->used = fl->count = 0;
		fl->oldest_seq = fl->produced + 1;
		return;
	}
	while (fl->cap - fl->used < need)
		ring__drop_oldest(fl);
	ring__put(fl, fl->head + fl->used, &n, sizeof(n));
	ring__put(fl, fl->head + fl->used + sizeof(n), entry, n);
	fl->used += need;
	fl->count++;
}

/* The signals whose default action dumps core (signal(7)). */
static bool dumps_core(int sig)
{
	switch (sig) {
	case SIGSEGV:
	case SIGBUS:
	case SIGABRT:
	case SIGILL:
	case SIGFPE:
	case SIGSYS:
	case SIGQUIT:
	case SIGTRAP:
	case SIGXCPU:
	case SIGXFSZ:
		return true;
	}
	return false;
}

static bool flight__is_trigger(struct ktr_flight *fl, const struct ktr_header *h, size_t len)
{
	struct ktr_exit ex;

	if (h->ktr_type != KTR_EXIT || len < sizeof(*h) + sizeof(ex))
		return false;
	memcpy(&ex, h + 1, sizeof(ex));
	if (WIFSIGNALED(ex.status) && dumps_core(WTERMSIG(ex.status)))
		fl->why = KTR_FLIGHT_CRASH;
	else if ((fl->flags & KTR_FLIGHT_ON_EXIT) && WIFEXITED(ex.status) && WEXITSTATUS(ex.status))
		fl->why = KTR_FLIGHT_EXIT;
	else
		return false;
	fl->pid = h->ktr_pid;
	fl->status = ex.status;
	return true;
}

/* The compact entry of a record, false if compact mode keeps none of it. */
static bool compact__of(const struct ktr_header *h, size_t len, struct flight_compact *c)
{
	const void *p = h + 1;

	memset(c, 0, sizeof(*c));
	c->mono = h->ktr_mono_ns;
	c->pid = h->ktr_pid;
	c->tid = h->ktr_tid;
	memcpy(c->comm, h->ktr_comm, sizeof(c->comm));
	c->type = h->ktr_type;
	c->cpu = KTRH_CPUID_DECODE(h->ktr_flags);
	len -= sizeof(*h);
	if (h->ktr_type == KTR_SYSRET && len == sizeof(struct ktr_sysret)) {
		struct ktr_sysret r;

		memcpy(&r, p, sizeof(r));
		c->code = r.ktr_code;
		c->error = r.ktr_error;
		c->value = r.ktr_retval;
		return true;
	}
	if (h->ktr_type == KTR_PSIG && len == sizeof(struct ktr_psig)) {
		struct ktr_psig s;

		memcpy(&s, p, sizeof(s));
		c->code = s.signo;
		c->error = s.code;
		c->value = s.action;
		return true;
	}
	if (h->ktr_type == KTR_EXIT && len == sizeof(struct ktr_exit)) {
		struct ktr_exit e;

		memcpy(&e, p, sizeof(e));
		c->value = e.status;
		return true;
	}
	return false;
}

/* A compact entry back into a record (rec: room for any of the three). */
static size_t compact__expand(const struct flight_compact *c, unsigned char *rec)
{
	struct ktr_header *h = (void *)rec;
	size_t len = 0;

	memset(rec, 0, sizeof(*h) + sizeof(struct ktr_psig));
	h->ktr_type = c->type;
	h->ktr_flags = KTRH_CPUID_ENCODE(c->cpu);
	h->ktr_pid = c->pid;
	h->ktr_tid = c->tid;
	memcpy(h->ktr_comm, c->comm, sizeof(c->comm));
	h->ktr_mono_ns = c->mono;
	if (c->type == KTR_SYSRET) {
		struct ktr_sysret r = { .ktr_code = c->code,
					.ktr_error = c->error,
					.ktr_retval = c->value };

		memcpy(h + 1, &r, len = sizeof(r));
	} else if (c->type == KTR_PSIG) {
		struct ktr_psig s = { .signo = c->code, .code = c->error, .action = c->value };

		memcpy(h + 1, &s, len = sizeof(s));
	} else {
		struct ktr_exit e = { .status = (__s32)c->value };

		memcpy(h + 1, &e, len = sizeof(e));
	}
	h->ktr_len = len;
	return sizeof(*h) + len;
}

/*
 * A signal that will dump core, delivered with its default action: the
 * crash begins.  Each CPU's last record is kept as it is from here on (the
 * dying threads' own last records follow in the ring), so a thread stopped
 * in a long syscall keeps the step it stopped at.
 */
static bool flight__crash_begins(const struct ktr_header *h, size_t len)
{
	struct ktr_psig ps;

	if (h->ktr_type != KTR_PSIG || len < sizeof(*h) + sizeof(ps))
		return false;
	memcpy(&ps, h + 1, sizeof(ps));
	return ps.action == 0 /* SIG_DFL */ && dumps_core(ps.signo);
}

bool ktr_flight__add(struct ktr_flight *fl, const struct ktr_header *h, size_t len)
{
	struct flight_last *last = &fl->last[KTRH_CPUID_DECODE(h->ktr_flags) % FLIGHT_CPUS];
	struct flight_last scratch;
	struct flight_compact c;

	if (len < sizeof(*h))
		return false;
	if (fl->frozen) {
		/* kept out by the freeze: not in the ring, but counted as recorded */
		fl->produced++;
		return false;
	}
	if (flight__crash_begins(h, len))
		fl->last_frozen = true;
	if (fl->last_frozen)
		last = &scratch;
	if ((fl->flags & KTR_FLIGHT_COMPACT) && compact__of(h, len, &c)) {
		ring__push(fl, &c, sizeof(c));
		last->len = sizeof(c);
		memcpy(last->rec, &c, sizeof(c));
	} else if ((fl->flags & KTR_FLIGHT_COMPACT) && h->ktr_type != KTR_LOST &&
		   h->ktr_type != KTR_PROCCTOR) {
		return false; /* compact: a CALL, NAMI, GIO...: not kept */
	} else {
		ring__push(fl, h, len);
		/* the CPU's last, cut to KTR_FLIGHT_LAST_MAX bytes if it must be */
		last->len = len < KTR_FLIGHT_LAST_MAX ? len : KTR_FLIGHT_LAST_MAX;
		memcpy(last->rec, h, last->len);
		((struct ktr_header *)last->rec)->ktr_len = last->len - sizeof(*h);
	}
	last->seq = fl->produced;
	if (!flight__is_trigger(fl, h, len))
		return false;
	fl->frozen = true;
	return true;
}

void ktr_flight__trigger(const struct ktr_flight *fl, __u32 *why, __s32 *pid, __s32 *status)
{
	*why = fl->frozen ? fl->why : 0;
	*pid = fl->frozen ? fl->pid : 0;
	*status = fl->frozen ? fl->status : 0;
}

void ktr_flight__reset(struct ktr_flight *fl)
{
	fl->head = fl->used = fl->count = 0;
	fl->oldest_seq = fl->produced + 1;
	fl->frozen = false;
	fl->last_frozen = false;
	fl->why = 0;
	for (int i = 0; i < FLIGHT_CPUS; i++)
		fl->last[i].seq = 0;
}

/* The KTR_FLIGHT record that opens a part of a dump. */
static int flight__part(struct ktr_flight *fl, __u32 part, __u32 why, __u64 kept, __u64 ooo,
			ktr_flight_fn fn, void *ctx)
{
	struct {
		struct ktr_header h;
		struct ktr_flight_info f;
	} rec;
	struct timespec ts;

	memset(&rec, 0, sizeof(rec));
	rec.h.ktr_len = sizeof(rec.f);
	rec.h.ktr_type = KTR_FLIGHT;
	rec.h.ktr_pid = rec.h.ktr_tid = getpid();
	strcpy(rec.h.ktr_comm, "ktraceb");
	clock_gettime(CLOCK_MONOTONIC, &ts);
	rec.h.ktr_mono_ns = (__u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
	rec.f.kf_kept = kept;
	rec.f.kf_produced = fl->produced;
	rec.f.kf_out_of_order = ooo;
	rec.f.kf_part = part;
	rec.f.kf_why = why;
	if (fl->frozen) {
		rec.f.kf_pid = fl->pid;
		rec.f.kf_status = fl->status;
	}
	rec.f.kf_compact = !!(fl->flags & KTR_FLIGHT_COMPACT);
	return fn(ctx, &rec.h, sizeof(rec));
}

/* One entry as a record: whole, or expanded from a compact entry. */
static int flight__emit(unsigned char *entry, __u32 n, __u64 *prev_ns, __u64 *ooo, ktr_flight_fn fn,
			void *ctx)
{
	unsigned char rec[sizeof(struct ktr_header) + sizeof(struct ktr_psig)];
	struct ktr_header *h = (void *)entry;
	size_t len = n;

	/* a compact entry is 48 bytes, a whole record 64 at least (LOST, PROCCTOR) */
	if (n == sizeof(struct flight_compact)) {
		struct flight_compact c;

		memcpy(&c, entry, sizeof(c));
		len = compact__expand(&c, rec);
		h = (void *)rec;
	}
	if (ooo && h->ktr_mono_ns < *prev_ns) {
		h->ktr_flags |= KTRH_OUT_OF_ORDER;
		++*ooo;
	}
	if (h->ktr_mono_ns > *prev_ns)
		*prev_ns = h->ktr_mono_ns;
	return fn(ctx, h, len);
}

/* The largest entry: a record the BPF side builds in its scratch area, or an ARGS chunk. */
#define ENTRY_MAX (1u << 20)

int ktr_flight__walk(struct ktr_flight *fl, __u32 why, ktr_flight_fn fn, void *ctx)
{
	unsigned char *entry = malloc(ENTRY_MAX);
	__u64 off = fl->head, prev_ns = 0, ooo = 0, marked = 0, nlast = 0;
	int err;

	if (!entry)
		return -ENOMEM;
	/* the out-of-order count first: it goes into the header before the records */
	for (__u64 i = 0; i < fl->count; i++) {
		struct ktr_header h;
		__u32 n;

		ring__get(fl, off, &n, sizeof(n));
		if (n == sizeof(struct flight_compact)) {
			struct flight_compact c;

			ring__get(fl, off + sizeof(n), &c, sizeof(c));
			h.ktr_mono_ns = c.mono;
		} else {
			ring__get(fl, off + sizeof(n), &h, sizeof(h));
		}
		if (h.ktr_mono_ns < prev_ns)
			ooo++;
		else
			prev_ns = h.ktr_mono_ns;
		off += sizeof(n) + n;
	}
	err = flight__part(fl, KTR_FLIGHT_RING, why, fl->count, ooo, fn, ctx);
	off = fl->head;
	prev_ns = 0;
	for (__u64 i = 0; !err && i < fl->count; i++) {
		__u32 n;

		ring__get(fl, off, &n, sizeof(n));
		if (n <= ENTRY_MAX) {
			ring__get(fl, off + sizeof(n), entry, n);
			err = flight__emit(entry, n, &prev_ns, &marked, fn, ctx);
		}
		off += sizeof(n) + n;
	}
	/* the CPUs' last records the ring no longer holds */
	for (int cpu = 0; cpu < FLIGHT_CPUS; cpu++)
		nlast += fl->last[cpu].seq && fl->last[cpu].seq < fl->oldest_seq;
	if (!err && nlast)
		err = flight__part(fl, KTR_FLIGHT_LAST_PER_CPU, why, nlast, 0, fn, ctx);
	prev_ns = 0;
	for (int cpu = 0; !err && cpu < FLIGHT_CPUS; cpu++) {
		struct flight_last *l = &fl->last[cpu];

		if (!l->seq || l->seq >= fl->oldest_seq)
			continue;
		memcpy(entry, l->rec, l->len);
		err = flight__emit(entry, l->len, &prev_ns, NULL, fn, ctx);
	}
	free(entry);
	return err;
}
