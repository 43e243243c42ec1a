// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The maps and configuration every ktraceb program shares, defined once.
 * The loader sizes rb (power of two) and scratch (one slot per CPU) before
 * load and fills the syscall tables from the generated syscall table.
 */
#define KTR_DEFINE_MAPS
#include "ktraceb.bpf.h"
#include "flight.bpf.h"

KTR_MAP_RB rb SEC(".maps");
KTR_MAP_PROCS procs SEC(".maps");
KTR_MAP_LOST lost SEC(".maps");
KTR_MAP_SCRATCH scratch SEC(".maps");
KTR_MAP_QUIET usdt_quiet SEC(".maps");

__u64 ktr_traced[KTR_TRACED_WORDS] = {};
struct ktr_proc_copy ktr_proc_copies[KTR_PROC_COPIES] = {};
__u64 ktr_procs_gen = 0;
struct ktr_wakeup_tick ktr_wakeup_ticks[KTR_WAKEUP_CPUS] = {};

const volatile __u8 ktr_nargs64[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_pathmask64[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_nargs32[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_pathmask32[KTR_MAX_SYSCALLS] = {};
const volatile __u64 ktr_wakeup_bytes = 1 << 22;
/* possible CPUs: a loop over them is as long for the verifier as here */
const volatile __u32 ktr_ncpus = KTR_FLIGHT_MAX_CPUS;
const volatile __u32 ktr_refuse_prog = 0; /* bpf_shared.h, KTR_REFUSE_* */
const volatile __u8 ktr_genio64[KTR_MAX_SYSCALLS] = {};
const volatile struct ktr_capture ktr_captures64[KTR_MAX_SYSCALLS][KTR_CAPTURES] = {};
const volatile __u8 ktr_capwhen64[KTR_MAX_SYSCALLS] = {}; /* its captures' when, or'ed */

/* ktraceb.bpf.h says why one array for all CPUs, and slot 0 */
__noinline int rec__count_lost(__u32 route)
{
	__u32 all = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &route), *total;

	if (n)
		__sync_fetch_and_add(n, 1);
	total = bpf_map_lookup_elem(&lost, &all);
	if (total)
		__sync_fetch_and_add(total, 1);
	return 0;
}

/*
 * ktr_flags of a record about thread tid: the CPU, and KTRH_THREADED when
 * tid is the current thread and its process has other threads (a record
 * about another thread, a child at its fork, is about a single-threaded
 * process).  One function: the verifier checks a load of task->signal with a
 * search of the kernel's BTF each time it walks one, and it would walk one
 * inlined in every record site of every path.
 */
__noinline __u32 rec__flags(__u32 tid)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 flags = KTRH_CPUID_ENCODE(bpf_get_smp_processor_id());

	if ((__u32)task->pid == tid && task->signal->nr_threads > 1)
		flags |= KTRH_THREADED;
	return flags;
}

/*
 * The recorders' rings and control maps (flight.bpf.h), by route: the
 * daemon puts both there when a recording starts.
 */
KTR_MAP_FLIGHTS flights SEC(".maps");
KTR_MAP_FLIGHT_CTLS flight_ctls SEC(".maps");

__noinline int flight__active(__u32 route)
{
	return bpf_map_lookup_elem(&flight_ctls, &route) != NULL;
}

/* A RET, PSIG or EXIT as a compact entry in one slot; false for anything else. */
static __always_inline bool flight__compact(const struct ktr_header *h, struct ktr_flight_slot *sl)
{
	struct ktr_flight_compact *c = (void *)sl->data;
	const void *p = h + 1;

	if (h->ktr_type == KTR_SYSRET) {
		const struct ktr_sysret *r = p;

		c->code = r->ktr_code;
		c->error = r->ktr_error;
		c->value = r->ktr_retval;
	} else if (h->ktr_type == KTR_PSIG) {
		const struct ktr_psig *g = p;

		c->code = g->signo;
		c->error = g->code;
		c->value = g->action;
	} else if (h->ktr_type == KTR_EXIT) {
		const struct ktr_exit *e = p;

		c->code = 0;
		c->error = 0;
		c->value = e->status;
	} else {
		return false;
	}
	c->mono = h->ktr_mono_ns;
	c->pid = h->ktr_pid;
	c->tid = h->ktr_tid;
	__builtin_memcpy(c->comm, h->ktr_comm, sizeof(c->comm));
	c->type = h->ktr_type;
	c->cpu = KTRH_CPUID_DECODE(h->ktr_flags);
	c->pad = 0;
	return true;
}

/* One slot's worth of a record: plain loads and stores, cheaper than a helper call. */
static __always_inline void flight__copy_slot(struct ktr_flight_slot *sl, const __u64 *src)
{
	__u64 *dst = (__u64 *)sl->data;

	for (int w = 0; w < KTR_FLIGHT_SLOT_DATA / 8; w++)
		dst[w] = src[w];
}

/*
 * One record (the scratch area: a struct ktr_sample, then the record) into
 * its recorder's ring, in this CPU's region: claim its slots by moving the
 * CPU's head (atomically: another program may run on this CPU between our
 * steps), then fill each, its position written last.  A frozen ring keeps
 * the record out and counts it.
 */
__noinline int flight__send(struct ktr_scratch *sc)
{
	struct ktr_sample *s = (void *)sc;
	struct ktr_header *h;
	struct ktr_flight_ctl *ctl;
	struct ktr_flight_head *hd;
	struct ktr_flight_slot *sl;
	__u32 cpu, route, total, n, per;
	__u64 pos;
	void *ring, *ctls;

	if (!sc)
		return 0;
	h = (void *)(s + 1);
	route = s->route;
	ctls = bpf_map_lookup_elem(&flight_ctls, &route);
	ring = bpf_map_lookup_elem(&flights, &route);
	if (!ctls || !ring)
		return 0;
	ctl = flight__ctl(ctls);
	cpu = bpf_get_smp_processor_id();
	hd = flight__head(ctls, cpu);
	if (!ctl || !hd || cpu >= ctl->ncpu)
		return 0;
	if (ctl->state != KTR_FLIGHT_LIVE) {
		__sync_fetch_and_add(&hd->kept_out, 1);
		return 0;
	}
	per = ctl->per_cpu;
	if (!per)
		return 0;
	if (ctl->flags & KTR_FLIGHT_F_COMPACT) {
		int type = h->ktr_type;

		if (type != KTR_SYSRET && type != KTR_PSIG && type != KTR_EXIT)
			return 0; /* compact keeps only these */
		pos = __sync_fetch_and_add(&hd->head, 1);
		hd->records++;
		sl = flight__slot(ring, ctl, hd, cpu, pos);
		if (!sl)
			return 0;
		flight__compact(h, sl);
		sl->idx = KTR_FLIGHT_COMPACT_ENTRY;
		sl->nslots = 1;
		barrier();
		sl->pos = (__u32)pos;
		return 0;
	}
	total = sizeof(*h) + (__u32)h->ktr_len;
	if (total > KTR_FLIGHT_MAX_SLOTS * KTR_FLIGHT_SLOT_DATA) {
		total = KTR_FLIGHT_MAX_SLOTS * KTR_FLIGHT_SLOT_DATA;
		h->ktr_len = total - sizeof(*h); /* cut, as a GIO is cut at -s bytes */
	}
	n = (total + KTR_FLIGHT_SLOT_DATA - 1) / KTR_FLIGHT_SLOT_DATA;
	if (n > per)
		return 0;
	pos = __sync_fetch_and_add(&hd->head, n);
	hd->records++; /* a count, not a position: a rare race costs one in the total */
	for (__u32 i = 0; i < KTR_FLIGHT_MAX_SLOTS; i++) {
		if (i >= n)
			break;
		sl = flight__slot(ring, ctl, hd, cpu, pos + i);
		if (!sl)
			break;
		flight__copy_slot(sl, (const __u64 *)((const char *)h + i * KTR_FLIGHT_SLOT_DATA));
		sl->idx = i;
		sl->nslots = n;
		barrier();
		sl->pos = (__u32)(pos + i);
	}
	return 0;
}

/*
 * A fatal signal with its default action, one that dumps core, reached a
 * recorded process: the crash begins.  Each CPU's head is noted once, so
 * the dump can say which record was each CPU's last before it.
 */
__noinline int flight__crash_begins(__u32 route)
{
	void *ctls = bpf_map_lookup_elem(&flight_ctls, &route);
	struct ktr_flight_head *hd;
	struct ktr_flight_ctl *ctl;

	if (!ctls)
		return 0;
	ctl = flight__ctl(ctls);
	if (!ctl || ctl->state != KTR_FLIGHT_LIVE)
		return 0;
	for (__u32 cpu = 0; cpu < KTR_FLIGHT_MAX_CPUS; cpu++) {
		if (cpu >= ktr_ncpus || cpu >= ctl->ncpu)
			break;
		hd = flight__head(ctls, cpu);
		if (hd && !hd->crash)
			hd->crash = hd->head + 1;
	}
	return 0;
}

/*
 * A recorded process ended (its EXIT is in the ring): a trigger freezes the
 * ring, the first one's why, pid and status kept.  Returns 1 when it froze
 * the ring, for the caller to wake the daemon.
 */
__noinline int flight__exit(__u32 route, __s32 pid, __s32 status)
{
	void *ctls = bpf_map_lookup_elem(&flight_ctls, &route);
	struct ktr_flight_ctl *ctl;
	__u32 why;
	int sig = status & 0x7f;

	if (!ctls)
		return 0;
	ctl = flight__ctl(ctls);
	if (!ctl || ctl->state != KTR_FLIGHT_LIVE)
		return 0;
	if (sig && sig != 0x7f && flight__dumps_core(sig))
		why = KTR_FLIGHT_CRASH;
	else if (!sig && (status & 0xff00) && (ctl->flags & KTR_FLIGHT_F_ON_EXIT))
		why = KTR_FLIGHT_EXIT;
	else
		return 0;
	if (__sync_val_compare_and_swap(&ctl->claim, 0, 1) != 0)
		return 0;
	ctl->why = why;
	ctl->pid = pid;
	ctl->status = status;
	ctl->frozen_ns = bpf_ktime_get_ns();
	barrier();
	ctl->state = KTR_FLIGHT_FROZEN;
	return 1;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
