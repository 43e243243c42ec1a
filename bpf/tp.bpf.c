// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Any kernel tracepoint by name (ktraceb -e subsys:event, KTR_TRACEPOINT).
 * One program, attached by the daemon to each event some trace asks for,
 * and to no other, with the event id as its attach cookie (before 5.15,
 * through a stub that names the event: tp__event_id): its context is
 * the raw trace entry, but the kernel has put a pt_regs pointer over its
 * first 8 bytes (the common fields; perf_trace_run_bpf_submit()), so the
 * copy gets common_type back from the cookie, the running thread as
 * common_pid, and zeros between.  A program per event would
 * be simpler to read but would cost one verification per event; this one is
 * verified once.  A hit is recorded when the current task's
 * process is traced with KTRFAC_TRACEPOINT into a file that wants this
 * event (tp_wanted); the entry is copied as the kernel wrote it.  If not,
 * a sched: or signal: event whose subject (the task woken, switched in,
 * forked, signalled) is a traced process's is recorded for that process,
 * the header naming the subject (the subject rule, docs/FORMAT.md).  A
 * system-wide trace (ktraceb -S, root's) takes every hit of its events,
 * whatever task runs, into per-CPU perf buffers: a busy CPU fills its own
 * buffer only, and the kernel counts each CPU's losses.  A hit that both a
 * traced process and the system-wide trace record into the same file (-S
 * with a command) is written once, as the system-wide trace's.
 */
#include "procs.bpf.h"
#include "record.bpf.h"
#include "ktraceb/bpf_kernel.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_tp.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KTR_TP_MAX_WANTED);
	__type(key, struct ktr_tp_key);
	__type(value, __u8);
} tp_wanted SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KTR_TP_MAX_EVENTS);
	__type(key, __u32);
	__type(value, struct ktr_tp_event);
} tp_events SEC(".maps");

/* the per-CPU buffers of the system-wide trace (max_entries: libbpf sets the CPUs) */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} tp_cpu_out SEC(".maps");

/*
 * Where the kernel has no attach cookies (KTR_LACKS_ATTACH_COOKIE, before
 * 5.15), the daemon attaches a stub program of its own to each event
 * (ktr_tp_stub.c): it writes the event's id into tp_stub_id, this CPU's,
 * and tail-calls ktr_tp_record, which the daemon puts into tp_stub_next.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} tp_stub_id SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} tp_stub_next SEC(".maps");

/* The id of the event that ran the program: its attach cookie, or what its stub said. */
static __always_inline __u32 tp__event_id(void *ctx)
{
	__u32 zero = 0, *id;

	if (!(ktr_kernel_lacks & KTR_LACKS_ATTACH_COOKIE))
		return (__u32)bpf_get_attach_cookie(ctx);
	id = bpf_map_lookup_elem(&tp_stub_id, &zero);
	return id ? *id : 0;
}

/* Set by the daemon: the system-wide trace's route (0: none), and its own tgid (never traced). */
__u32 ktr_syswide_route = 0;
__u32 ktr_daemon_tgid = 0;

struct tp_rec {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_tracepoint t;
	__u8 raw[KTR_TP_MAX_BYTES];
};

/* The bytes to copy: the fixed part, then the furthest __data_loc end, read from the copy. */
static __always_inline __u32 tp__len(const struct ktr_tp_event *ev, const struct tp_rec *r)
{
	__u32 n = ev->tp_fixed;

	for (int i = 0; i < KTR_TP_MAXLOC; i++) {
		__u32 off = ev->tp_loc[i], loc, end;

		if (i >= ev->tp_nloc)
			break;
		if (off + 4 > ev->tp_fixed || off > KTR_TP_MAX_BYTES - 4)
			continue;
		loc = *(const __u32 *)(r->raw + off);
		end = (loc & 0xffff) + (loc >> 16);
		if (end > n)
			n = end;
	}
	return n > KTR_TP_MAX_BYTES ? KTR_TP_MAX_BYTES : n;
}

/* Does the file of route want event id? */
static __always_inline bool tp__wanted(__u32 route, __u32 id)
{
	struct ktr_tp_key key = { .route = route, .id = id };

	return route && bpf_map_lookup_elem(&tp_wanted, &key);
}

/* The record to the system-wide trace, through this CPU's perf buffer. */
static __always_inline void tp__send_cpu(void *ctx, struct ktr_sample *s, __u32 route, __u64 len)
{
	__u64 size = sizeof(*s) + sizeof(struct ktr_header) + len;

	rec__header_current((struct ktr_header *)(s + 1), KTR_TRACEPOINT, len);
	((struct ktr_header *)(s + 1))->ktr_flags |= KTRH_SYSWIDE;
	s->route = route;
	s->reserved = 0;
	barrier_var(size);
	if (size > sizeof(struct tp_rec))
		size = sizeof(struct tp_rec);
	/* a full buffer: the kernel counts the loss for this CPU (PERF_RECORD_LOST) */
	bpf_perf_event_output(ctx, &tp_cpu_out, BPF_F_CURRENT_CPU, s, size);
}

/* Is process ps recording event id? */
static __always_inline bool tp__records(const struct ktr_proc_state *ps, __u32 id)
{
	return ps && !(ps->flags & KTR_PS_QUIET) && (ps->facs & KTRFAC_TRACEPOINT) &&
	       tp__wanted(ps->route, id);
}

/*
 * The subject's pid, if the event has one and it names a traced process
 * recording the event (looked up as a process id: a process's first
 * thread, or a single-threaded process); 0 if not.
 */
static __always_inline __u32 tp__subject(void *ctx, const struct ktr_tp_event *ev, __u32 id,
					 struct ktr_proc_state **sps)
{
	__u32 off = ev->tp_subject;
	__s32 pid = 0;

	if (!off || off > KTR_TP_MAX_BYTES - sizeof(pid) ||
	    bpf_probe_read_kernel(&pid, sizeof(pid), (char *)ctx + off) || pid <= 0)
		return 0;
	*sps = proc__lookup_tgid(pid);
	return tp__records(*sps, id) ? pid : 0;
}

/* The record to the subject's file: the header names the subject, not current. */
static __always_inline void tp__send_subject(struct tp_rec *r, const struct ktr_tp_event *ev,
					     __u32 route, __u32 pid, __u64 len)
{
	__u32 c = ev->tp_subject_comm;

	r->h.ktr_len = len;
	r->h.ktr_type = KTR_TRACEPOINT;
	r->h.ktr_flags = rec__flags(pid); /* not the current thread: its CPU only */
	r->h.ktr_pid = pid;
	r->h.ktr_tid = pid;
	__builtin_memset(r->h.ktr_comm, 0, sizeof(r->h.ktr_comm));
	if (c && c <= KTR_TP_MAX_BYTES - 16) {
		((__u64 *)r->h.ktr_comm)[0] = *(const __u64 *)(r->raw + c);
		((__u64 *)r->h.ktr_comm)[1] = *(const __u64 *)(r->raw + c + 8);
		r->h.ktr_comm[15] = 0;
	}
	__builtin_memset(r->h.ktr_pad, 0, sizeof(r->h.ktr_pad));
	r->h.ktr_time_sec = 0;
	r->h.ktr_time_usec = 0;
	r->h.ktr_mono_ns = bpf_ktime_get_ns();
	rec__output(&r->s, route, len);
}

SEC("tracepoint")
int ktr_tp_record(void *ctx)
{
	struct ktr_proc_state *ps = proc__lookup(), *sps = NULL;
	__u32 id = tp__event_id(ctx), sys = ktr_syswide_route, subject = 0;
	struct task_struct *task = task__current();
	struct ktr_tp_event *ev = bpf_map_lookup_elem(&tp_events, &id);
	struct tp_rec *r;
	bool for_proc, for_sys;
	__u32 n;

	prog__refuse_for_tests(KTR_REFUSE_TP);
	if (!ev)
		return 0;
	for_proc = tp__records(ps, id);
	for_sys = sys && tp__wanted(sys, id) && task__read(task, tgid) != ktr_daemon_tgid;
	if (!for_proc)
		subject = tp__subject(ctx, ev, id, &sps);
	/* a traced process's hit in the system-wide trace's own file goes in once, as system-wide */
	if (for_sys && for_proc && ps->route == sys)
		for_proc = false;
	if (for_sys && subject && sps && sps->route == sys)
		subject = 0;
	if (!for_proc && !for_sys && !subject)
		return 0;
	r = (struct tp_rec *)rec__scratch();
	if (!r)
		return 0;
	n = ev->tp_fixed;
	if (n == 0 || n > KTR_TP_MAX_BYTES || bpf_probe_read_kernel(r->raw, n, ctx))
		return 0;
	n = tp__len(ev, r);
	if (n > ev->tp_fixed) {
		barrier_var(n);
		if (n == 0 || n > KTR_TP_MAX_BYTES || bpf_probe_read_kernel(r->raw, n, ctx))
			return 0;
	}
	/* never a kernel pointer into the file: common_type, and the running thread as common_pid */
	*(__u64 *)r->raw = (id & 0xffff) | (__u64)task__read(task, pid) << 32;
	r->t.kt_id = id;
	r->t.kt_len = n;
	if (for_proc)
		rec__send(&r->s, ps->route, KTR_TRACEPOINT, sizeof(r->t) + n);
	else if (subject && sps)
		tp__send_subject(r, ev, sps->route, subject, sizeof(r->t) + n);
	if (for_sys)
		tp__send_cpu(ctx, &r->s, sys, sizeof(r->t) + n);
	return 0;
}
