/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The stage (stages map, one element per possible CPU): the records a CPU
 * makes gathered in place, then copied into the ring buffer together as
 * one sample whose route is KTR_ROUTE_BATCH: a reservation and a commit of
 * the ring cost a traced syscall more than building its two records.  The
 * batch sample's reserved field is the bytes that follow it: records, each
 * a struct ktr_sample (route; reserved: its stride, a multiple of 8), its
 * header and payload.  A stage holds one file's records at a time.
 *
 * What keeps a thread's records in order: a thread leaves its CPU only
 * through a context switch, and the switch program (csw.bpf.c) sends that
 * CPU's stage on first, while the thread is still current; a record that
 * bypasses the stage (too long, a recorder's, a note to the daemon) sends
 * the stage on first too.  Staging is on only while the switch program is
 * attached (ktr_stage_on, .bss: nonzero then, a new number each time).
 * The daemon sends on what a CPU busy in user space has kept at each tick,
 * by running ktr_stage_flush there (BPF_PROG_TEST_RUN on that CPU).
 *
 * A syscall whose return brings no record but the RET (no path, data or
 * structure: bpf_captures.h, ktr_between64) keeps its CALL in call at
 * entry, no record made: at its return it becomes a CALL record with its
 * entry time right before the RET, both into the stage.  A call that
 * blocks has its CALL made at the switch that takes its thread off the
 * CPU, so a hung call is in the file as in BSD.  busy is set while a
 * program changes the stage: a program that interrupts it there (a kernel
 * event in an interrupt, the daemon's flush) leaves the stage alone and
 * goes to the ring directly.
 */
#ifndef KTRACEB_BPF_STAGE_H
#define KTRACEB_BPF_STAGE_H

#include "ktraceb/ktr.h"
#include "ktraceb/bpf_sample.h"

/*
 * A kept CALL and its RET as one staged record (syscall.bpf.c,
 * syscall__pair_out): the CALL's header with ktr_type KTR_STAGED_PAIR and
 * ktr_len its payload's, that payload (struct ktr_syscall and its
 * arguments), then struct ktr_pair_ret.  The drain writes the two records
 * BSD has: the CALL, and the RET with the CALL's header, its own type,
 * length and time.  A stage counts it as two records (nrec).  Never in a
 * file.
 */
#define KTR_STAGED_PAIR	 0x7e01
struct ktr_pair_ret {
	__u64 mono_ns; /* the return's */
	struct ktr_sysret r;
};
#define KTR_STAGE_BYTES	 4096 /* gathered before one copy into the ring */
/*
 * The longest staged record: a CALL and its RET, a path, a read's or
 * write's data of up to 1,968 bytes (genio.bpf.h).  Data longer than that
 * goes into the ring on its own, after the stage is sent on: two copies
 * into the ring a call (docs/PERFORMANCE.md, dd bs=1k -t ci).
 */
#define KTR_STAGE_SLACK	 2048
#define KTR_ROUTE_BATCH	 0xffffffffu
struct ktr_stage_call {
	__u32 tid; /* the thread in that syscall, 0 for none */
	__u32 route;
	__u64 mono_ns; /* when it entered */
	__s16 code;
	__s16 narg;
	__u32 facs; /* the trace's facilities at entry: its return needs no other look */
	__u64 args[KTR_MAXARGS];
};
struct ktr_stage {
	__u32 busy;
	__u32 nrec; /* records in buf */
	__u32 route; /* their file */
	__u32 len; /* their bytes */
	struct ktr_stage_call call;
	/*
	 * The switch program's (csw.bpf.c): the thread the last switch it saw
	 * on this CPU put on it, and the attachment that saw it (ktr_stage_on).
	 */
	__u32 switched_in;
	__u32 switched_in_on;
	__u64 pad2[2];
	struct ktr_sample head; /* route KTR_ROUTE_BATCH, reserved: len */
	unsigned char buf[KTR_STAGE_BYTES + KTR_STAGE_SLACK];
};

#endif /* KTRACEB_BPF_STAGE_H */
