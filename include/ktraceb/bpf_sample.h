/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the BPF programs put into the ring buffer, as the daemon reads it
 * there: the sample prefix and its route, the notes to the daemon itself,
 * and each CPU's count of samples that decides when to wake the drainer.
 * Never on disk; the records are in ktr.h.
 *
 * A ring sample is struct ktr_sample followed by one whole on-disk record
 * (struct ktr_header + ktr_len bytes).  The drainer writes the record bytes
 * as they are, after filling in ktr_time; the sample may be longer than the
 * record (fixed-size reservations), never shorter.  A CPU's stage sends its
 * records as one sample of its own (bpf_stage.h).
 */
#ifndef KTRACEB_BPF_SAMPLE_H
#define KTRACEB_BPF_SAMPLE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * Trace files one daemon can feed at once (route ids; 0 is never a file:
 * its loss counter is the sum of all, so the drainer reads one counter per
 * poll to know whether any file lost records).
 */
#define KTR_MAX_ROUTES 16384

struct ktr_sample {
	__u32 route; /* which trace file: its index in the daemon's table (ktr_files.h) */
	__u32 reserved;
};

/*
 * A sample for the daemon itself rather than a file (route 0): a process
 * traced with 'u' exec'd, mapped a file executable (dlopen) or forked, so
 * its files must be scanned for USDT probes (ktr_usdt.c); a recorder froze
 * (KTR_NOTE_FLIGHT, route: the recording's); a traced process ended
 * (KTR_NOTE_EXIT).  struct ktr_sample, then this; the ring wakes the daemon
 * at once for it.
 */
#define KTR_ROUTE_DAEMON      0
#define KTR_NOTE_EXEC	      1
#define KTR_NOTE_MMAP	      2
#define KTR_NOTE_FORK	      3
#define KTR_NOTE_FLIGHT	      4 /* a recorder froze: the daemon writes it */
#define KTR_NOTE_EXIT	      5 /* a traced process ended: its file may be done */
#define KTR_NOTE_ENTER	      6 /* a process entered a traced cgroup: its probes need a scan */
#define KTR_NOTE_CHILD_TRACED 0x1 /* FORK: the child inherited the tracing */
#define KTR_NOTE_HELD	      0x2 /* the process waits for SIGCONT (KTR_PS_HOLD) */
struct ktr_note {
	__u32 kind; /* KTR_NOTE_* */
	__u32 pid; /* the process (FORK: the parent) */
	__u32 child; /* FORK: the child */
	__u32 flags; /* KTR_NOTE_CHILD_TRACED, KTR_NOTE_HELD */
};

/*
 * The daemon's ring buffers: one per possible CPU, at most this many (a
 * power of two).  A thread's records all go into one of them, chosen by its
 * thread id (ring.bpf.h, rec__ring_of), so each ring keeps a thread's
 * records in the order it made them, and threads on different CPUs seldom
 * reserve in the same ring.
 */
#define KTR_RINGS_MAX 8

/*
 * ktr_wakeup_ticks (.bss): each CPU's count of records put into the ring
 * buffer, so that it asks whether to wake the drainer only at every
 * KTR_WAKEUP_EVERY-th (ring.bpf.h, rec__wakeup_flag).
 */
#define KTR_WAKEUP_EVERY 64
#define KTR_WAKEUP_CPUS	 256 /* counters; CPUs beyond share them */
struct ktr_wakeup_tick {
	__u32 n;
	__u32 pad[15]; /* a cache line each: no CPU writes another's */
};

#endif /* KTRACEB_BPF_SAMPLE_H */
