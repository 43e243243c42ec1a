/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Where each traced process mapped its objects, from a trace's
 * KTR_MAPPING records (ktr.h), for unwinding its stack copies: the
 * mappings of a process at the time of a stack are those its records gave
 * before then (a newer one over an older one replaces it; an exec empties
 * the set; a fork starts from the parent's), and, for a process the daemon
 * read later than the stack (one traced with -p, which does not wait),
 * those it gave afterwards that overlap none of these.
 */
#ifndef KDUMP_MAPPINGS_H
#define KDUMP_MAPPINGS_H

#include <stddef.h>
#include <linux/types.h>

#include "ktraceb/ktr.h"

struct kd_mapping {
	__u64 start, end, pgoff;
	__u8 build_id[20];
};

struct kd_mappings;

struct kd_mappings *kd_mappings__new(void);
void kd_mappings__free(struct kd_mappings *m);
/* Forget every record (the whole file's are given again). */
void kd_mappings__clear(struct kd_mappings *m);
/* A KTR_MAPPING record of process pid, written at time ns. */
void kd_mappings__add(struct kd_mappings *m, __s32 pid, __u64 ns, const struct ktr_mapping *km);
/*
 * pid's mappings at time ns, sorted by address, none overlapping (valid
 * until the next call); *key changes when the set does.  Returns how many.
 */
size_t kd_mappings__at(struct kd_mappings *m, __s32 pid, __u64 ns, const struct kd_mapping **out, __u64 *key);
/* The mapping of maps holding addr, or NULL. */
const struct kd_mapping *kd_mappings__find(const struct kd_mapping *maps, size_t n, __u64 addr);

#endif /* KDUMP_MAPPINGS_H */
