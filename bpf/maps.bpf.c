// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The maps and configuration every ktraceb program shares, defined once
 * (maps.bpf.h declares them for the others).  The loader sizes the
 * scratch area's holder (one slot per CPU) before load and fills the
 * syscall tables from the generated syscall table; the daemon puts its
 * ring buffer and scratch area into their holders (map_shapes.bpf.h).
 */
#include "map_shapes.bpf.h"
#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_flight.h"
#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_ustack.h"

KTR_MAP_RB_HOLDER rb_holder SEC(".maps");
KTR_MAP_PROCS procs SEC(".maps");
KTR_MAP_LOST lost SEC(".maps");
KTR_MAP_SCRATCH_HOLDER scratch_holder SEC(".maps");
/* each CPU's records gathered for the ring (bpf_stage.h, stage.bpf.h) */
KTR_MAP_STAGES stages SEC(".maps");
KTR_MAP_QUIET usdt_quiet SEC(".maps");
KTR_MAP_HOLD_STOPS hold_stops SEC(".maps");
/* the traces' syscall selections, by slot (bpf_select.h) */
KTR_MAP_SELECTS selects SEC(".maps");
/* the recorders' rings and control maps, by route: the daemon puts both there */
KTR_MAP_FLIGHTS flights SEC(".maps");
KTR_MAP_FLIGHT_CTLS flight_ctls SEC(".maps");
/* the traced cgroups (ktraceb -G): slots, slots by cgroup id, slots by path */
KTR_MAP_GROUPS groups SEC(".maps");
KTR_MAP_GROUP_IDS group_ids SEC(".maps");
KTR_MAP_GROUP_PATHS group_paths SEC(".maps");

__u64 ktr_traced[KTR_TRACED_WORDS] = {};
struct ktr_proc_copy ktr_proc_copies[KTR_PROC_COPIES] = {};
__u64 ktr_procs_gen = 0;
/* the levels of the traced cgroups, a bit each; 0: none (bpf_groups.h) */
__u64 ktr_group_levels = 0;
/* a quarter of the ring, set by the daemon that made it (map_shapes.bpf.h) */
__u64 ktr_wakeup_bytes = 0;
/* the daemon's rings less one (a power of two less one): a thread's is tid & this */
__u32 ktr_ring_mask = 0;
/* half the ring: -k's stack copies are shed past it (ustack.bpf.h); set by the daemon */
__u64 ktr_stack_room = 0;
/* each trace's bucket for -k's stack copies, by route (bpf_ustack.h) */
struct ktr_ustack_budget ktr_ustack_budgets[KTR_MAX_ROUTES] = {};
struct ktr_wakeup_tick ktr_wakeup_ticks[KTR_WAKEUP_CPUS] = {};
__u32 ktr_stage_on = 0;
/* the daemon's count of the switch program's attachments, the numbers ktr_stage_on takes */
__u32 ktr_stage_attachments = 0;
/* KTR_STAGE_BYTES, less for a ring that could not take a whole stage often; set by the daemon */
__u32 ktr_stage_bytes = 0;

const volatile __u8 ktr_nargs64[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_pathmask64[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_nargs32[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_pathmask32[KTR_MAX_SYSCALLS] = {};
/* possible CPUs: a loop over them is as long for the verifier as here */
const volatile __u32 ktr_ncpus = KTR_FLIGHT_MAX_CPUS;
const volatile __u32 ktr_refuse_prog = 0; /* bpf_kernel.h, KTR_REFUSE_* */
/* what the kernel lacks of what the programs use (bpf_kernel.h, KTR_LACKS_*) */
const volatile __u32 ktr_kernel_lacks = 0;
const volatile __u8 ktr_genio64[KTR_MAX_SYSCALLS] = {};
const volatile struct ktr_capture ktr_captures64[KTR_MAX_SYSCALLS][KTR_CAPTURES] = {};
const volatile __u8 ktr_capwhen64[KTR_MAX_SYSCALLS] = {}; /* its captures' when, or'ed */
/* what comes between a call's CALL and RET (bpf_captures.h) */
const volatile __u32 ktr_between64[KTR_MAX_SYSCALLS] = {};

char LICENSE[] SEC("license") = "Dual BSD/GPL";
