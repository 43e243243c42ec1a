/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The shared maps and configuration as every program but maps.bpf.c sees
 * them (extern: the libbpf linker resolves them to maps.bpf.c's), with
 * the configuration the loader writes into .rodata before load.
 */
#ifndef KTRACEB_MAPS_BPF_H
#define KTRACEB_MAPS_BPF_H

#include "map_shapes.bpf.h"
#include "old_kernel.bpf.h"
#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_kernel.h"
#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_ustack.h"

extern KTR_MAP_RB_HOLDER rb_holder SEC(".maps");
extern KTR_MAP_PROCS procs SEC(".maps");
extern KTR_MAP_LOST lost SEC(".maps");
extern KTR_MAP_SCRATCH_HOLDER scratch_holder SEC(".maps");
extern KTR_MAP_STAGES stages SEC(".maps");
extern KTR_MAP_QUIET usdt_quiet SEC(".maps");
extern KTR_MAP_HOLD_STOPS hold_stops SEC(".maps");
extern KTR_MAP_SELECTS selects SEC(".maps");
extern KTR_MAP_FLIGHTS flights SEC(".maps");
extern KTR_MAP_FLIGHT_CTLS flight_ctls SEC(".maps");
extern KTR_MAP_GROUPS groups SEC(".maps");
extern KTR_MAP_GROUP_IDS group_ids SEC(".maps");
extern KTR_MAP_GROUP_PATHS group_paths SEC(".maps");

/* Set by the loader between open and load. */
extern const volatile __u8 ktr_nargs64[KTR_MAX_SYSCALLS];
extern const volatile __u8 ktr_pathmask64[KTR_MAX_SYSCALLS];
extern const volatile __u8 ktr_nargs32[KTR_MAX_SYSCALLS];
extern const volatile __u8 ktr_pathmask32[KTR_MAX_SYSCALLS];
extern const volatile __u32 ktr_ncpus;
extern const volatile __u8 ktr_genio64[KTR_MAX_SYSCALLS];
extern const volatile struct ktr_capture ktr_captures64[KTR_MAX_SYSCALLS][KTR_CAPTURES];
extern const volatile __u8 ktr_capwhen64[KTR_MAX_SYSCALLS];
extern const volatile __u32 ktr_between64[KTR_MAX_SYSCALLS];
extern const volatile __u32 ktr_refuse_prog;
extern const volatile __u32 ktr_kernel_lacks; /* KTR_LACKS_* (bpf_kernel.h) */

extern __u64 ktr_traced[KTR_TRACED_WORDS];
extern struct ktr_proc_copy ktr_proc_copies[KTR_PROC_COPIES];
extern __u64 ktr_procs_gen;
extern __u64 ktr_group_levels;
extern __u64 ktr_wakeup_bytes;
extern __u32 ktr_ring_mask; /* the daemon's rings less one (ring.bpf.h, rec__ring_of) */
extern __u64 ktr_stack_room;
extern struct ktr_ustack_budget ktr_ustack_budgets[KTR_MAX_ROUTES];
extern struct ktr_wakeup_tick ktr_wakeup_ticks[KTR_WAKEUP_CPUS];
extern __u32 ktr_stage_bytes; /* a stage is sent on past this */
/* the daemon's: the switch program is attached, nonzero, a new number each time (bpf_stage.h) */
extern __u32 ktr_stage_on;

/*
 * A syscall number already checked to be in the loader's tables (0 <= id <
 * KTR_MAX_SYSCALLS), as an index into them: masked again in the register
 * the index is used from.  Linux 6.1's verifier does not carry a bound
 * checked on one load of a spilled value over to another load of it, and
 * clang reloads at will; the asm keeps clang from dropping the mask as
 * redundant after the check.
 */
static __always_inline __u32 sys__index(long id)
{
	__u64 i = id;

	asm volatile("%0 &= %1" : "+r"(i) : "i"(KTR_MAX_SYSCALLS - 1));
	return i;
}

/* The tests' fault injection (bpf_kernel.h, KTR_REFUSE_*): dead code unless asked. */
static __always_inline void prog__refuse_for_tests(__u32 which)
{
	if (ktr_refuse_prog == which)
		asm volatile("r0 = *(u64 *)(r10 + 8)" ::: "r0");
}

/* The tests' stage that nothing but a full one sends on (KTR_REFUSE_STAGE_SEND). */
static __always_inline bool prog__stage_stuck_for_tests(void)
{
	return ktr_refuse_prog == KTR_REFUSE_STAGE_SEND;
}

#endif /* KTRACEB_MAPS_BPF_H */
