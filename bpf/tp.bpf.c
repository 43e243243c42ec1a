// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Any kernel tracepoint by name (ktraceb -e subsys:event, KTR_TRACEPOINT).
 * One program, attached by the daemon to each event some trace asks for,
 * and to no other, with the event id as its attach cookie: its context is
 * the raw trace entry, but the kernel has put a pt_regs pointer over its
 * first 8 bytes (the common fields; perf_trace_run_bpf_submit()), so the
 * copy gets common_type back from the cookie and zeroes the other common
 * fields (the header says whose the record is).  A program per event would
 * be simpler to read but would cost one verification per event; this one is
 * verified once.  A hit is recorded when the current task's
 * process is traced with KTRFAC_TRACEPOINT into a file that wants this
 * event (tp_wanted); the entry is copied as the kernel wrote it.
 */
#include "ktraceb.bpf.h"

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

SEC("tracepoint")
int ktr_tp_record(void *ctx)
{
	struct ktr_proc_state *ps = proc__lookup();
	struct ktr_tp_event *ev;
	struct ktr_tp_key key;
	struct tp_rec *r;
	__u32 n;

	if (!ps || (ps->flags & KTR_PS_QUIET) || !(ps->facs & KTRFAC_TRACEPOINT))
		return 0;
	key.route = ps->route;
	key.id = (__u32)bpf_get_attach_cookie(ctx);
	if (!bpf_map_lookup_elem(&tp_wanted, &key))
		return 0;
	ev = bpf_map_lookup_elem(&tp_events, &key.id);
	r = (struct tp_rec *)rec__scratch();
	if (!ev || !r)
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
	/* never a kernel pointer into the file */
	*(__u64 *)r->raw = key.id & 0xffff;
	r->t.kt_id = key.id;
	r->t.kt_len = n;
	rec__send(&r->s, ps->route, KTR_TRACEPOINT, sizeof(r->t) + n);
	return 0;
}
