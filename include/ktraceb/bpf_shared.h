/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Types shared by the BPF programs and the loader that never reach a trace
 * file: the ring-buffer sample prefix, the per-process tracing state and the
 * limits both sides agree on.  The on-disk records are in ktr.h.
 *
 * A ring sample is struct ktr_sample followed by one whole on-disk record
 * (struct ktr_header + ktr_len bytes).  The drainer writes the record bytes
 * as they are, after filling in ktr_time; the sample may be longer than the
 * record (fixed-size reservations), never shorter.
 */
#ifndef KTRACEB_BPF_SHARED_H
#define KTRACEB_BPF_SHARED_H

#include "ktraceb/ktr.h"

#define KTR_MAX_ROUTES		64	/* trace files one BPF instance can feed */
#define KTR_MAX_SYSCALLS	512	/* syscall numbers the tables cover */
#define KTR_MAX_PROCS		32768	/* traced processes at once */
#define KTR_SCRATCH_SIZE	(1 << 17) /* largest variable record, header included */
#define KTR_IOSIZE_DEFAULT	4096	/* GENIO bytes kept per I/O by default */

struct ktr_sample {
	__u32 route;			/* which trace file: index into the writers */
	__u32 reserved;
};

/* procs map: tgid -> tracing state of one process (BSD p_traceflag + node) */
struct ktr_proc_state {
	__u32 facs;			/* KTRFAC_* including INHERIT and ROOT */
	__u32 route;
	__u32 flags;			/* KTR_PS_* */
	__u32 sv_flags;			/* ABI, as in KTR_PROCCTOR */
};
#define KTR_PS_AWAIT_EXEC	0x1	/* ignore everything before the first execve */

#endif /* KTRACEB_BPF_SHARED_H */
