/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A histogram of durations in a fixed size, for kdump -Y's slowest and
 * 99th-percentile times: exact below 16 ns, then 16 buckets to each power
 * of two, so a quantile is at most 1/16 above the true value (never
 * below it), whatever the number of calls.
 */
#ifndef KTRACEB_KDUMP_HIST_H
#define KTRACEB_KDUMP_HIST_H

#include <linux/types.h>

#define KD_HIST_SUB	16 /* buckets to a power of two */
#define KD_HIST_BUCKETS (KD_HIST_SUB + (64 - 4) * KD_HIST_SUB)

struct kd_hist {
	__u64 n; /* the durations added */
	__u64 max;
	__u64 count[KD_HIST_BUCKETS];
};

void kd_hist__add(struct kd_hist *h, __u64 ns);
/*
 * The pct-th percentile (1..100) of the durations added: the top of the
 * bucket that holds it, never above the largest; 0 if none was added.
 */
__u64 kd_hist__percentile(const struct kd_hist *h, unsigned int pct);

#endif /* KTRACEB_KDUMP_HIST_H */
