// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The maps and configuration every ktraceb program shares, defined once.
 * The loader sizes rb (power of two) and scratch (one slot per CPU) before
 * load and fills the syscall tables from the generated syscall table.
 */
#define KTR_DEFINE_MAPS
#include "ktraceb.bpf.h"

KTR_MAP_RB rb SEC(".maps");
KTR_MAP_PROCS procs SEC(".maps");
KTR_MAP_LOST lost SEC(".maps");
KTR_MAP_SCRATCH scratch SEC(".maps");

const volatile __u8 ktr_nargs64[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_pathmask64[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_nargs32[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_pathmask32[KTR_MAX_SYSCALLS] = {};
const volatile __u64 ktr_wakeup_bytes = 1 << 22;
const volatile __u8 ktr_genio64[KTR_MAX_SYSCALLS] = {};
const volatile struct ktr_capture ktr_captures64[KTR_MAX_SYSCALLS][KTR_CAPTURES] = {};

char LICENSE[] SEC("license") = "Dual BSD/GPL";
