/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The programs' attachment: which of the loaded programs are attached, and
 * what is pinned.  Every program attached costs every process on the
 * machine, traced or not, a call, so each is attached only while a trace
 * needs it: the always-on ones (the syscall, process and signal
 * tracepoints) while some trace runs, sys_enter while one needs CALL
 * records (compact recorders keep returns only), a facility's program
 * whose row says so (KTR_ATTACH_TRACED, trstr.c) while some process is
 * traced with the facility (sched_switch, 'w'), and sched_switch also
 * while the stages are on (some trace takes its records from the ring
 * buffer, bpf_stage.h).  While a recording exists, the links and the
 * procs map are pinned too, so a daemon killed -9 leaves the recordings
 * recording (ktr_pin.h).
 */
#ifndef KTRACEB_KTR_ATTACH_H
#define KTRACEB_KTR_ATTACH_H

#include <stdbool.h>
#include <linux/types.h>

struct ktr_attach;
struct ktr_bpf;

/* b's programs, loaded and not attached yet. */
struct ktr_attach *ktr_attach__new(struct ktr_bpf *b);
/* Unpinned (the daemon ends: its recordings with it). */
void ktr_attach__free(struct ktr_attach *a);

/* Before a trace starts: the always-on programs attached (again).  0 or -errno. */
int ktr_attach__start(struct ktr_attach *a);
/*
 * The last trace has ended: the always-on programs go at once, loaded
 * still, so a trace that starts before the daemon exits attaches them
 * again without loading them again.  True if they were attached till now.
 */
bool ktr_attach__idle(struct ktr_attach *a);
/* sys_enter attached (want) or detached; nothing while the rest is detached. */
void ktr_attach__enter(struct ktr_attach *a, bool want);
/*
 * The stages on (want: some trace takes its records from the ring buffer)
 * or off; sched_switch is attached for them.  Nothing while the rest is
 * detached.
 */
void ktr_attach__stages(struct ktr_attach *a, bool want);
/*
 * facs: the facilities of every traced process together (the tick's
 * count).  The program of each facility attached only while some process
 * is traced with it (its row's KTR_ATTACH_TRACED, trstr.c: sched_switch
 * for 'w') is attached if facs has it, detached if not.
 */
void ktr_attach__facs(struct ktr_attach *a, __u32 facs);
/* Those of facs attached now too: a trace set with them, not the next tick. */
void ktr_attach__more(struct ktr_attach *a, __u32 facs);
/* The cgroup programs loaded (at the first -G): 0, or -errno with *why. */
int ktr_attach__load_groups(struct ktr_attach *a, const char **why);
/*
 * The cgroup programs attached (want: a cgroup is traced, ktr_groups.h) or
 * detached; nothing while the rest is detached.  0 or -errno.
 */
int ktr_attach__groups(struct ktr_attach *a, bool want);
/* The links and the procs map pinned (want: a recording exists) or unpinned. */
void ktr_attach__pins(struct ktr_attach *a, bool want);

#endif /* KTRACEB_KTR_ATTACH_H */
