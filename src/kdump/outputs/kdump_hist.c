// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Durations in log-scale buckets (kdump_hist.h). */
#include "kdump_hist.h"

/* The bucket of ns: its power of two (from 16 ns up), and its top 4 bits below the first */
static unsigned int bucket_of(__u64 ns)
{
	int e;

	if (ns < KD_HIST_SUB)
		return (unsigned int)ns;
	e = 63 - __builtin_clzll(ns); /* 4..63 */
	return KD_HIST_SUB + (e - 4) * KD_HIST_SUB + (unsigned int)((ns >> (e - 4)) & 15);
}

/* The largest duration bucket b holds. */
static __u64 bucket_top(unsigned int b)
{
	unsigned int e, sub;

	if (b < KD_HIST_SUB)
		return b;
	e = (b - KD_HIST_SUB) / KD_HIST_SUB + 4;
	sub = (b - KD_HIST_SUB) % KD_HIST_SUB;
	/* the bucket runs from (16 + sub) << (e - 4) up to the next one */
	if (e == 63 && sub == 15)
		return ~0ull;
	return (((__u64)(KD_HIST_SUB + sub + 1)) << (e - 4)) - 1;
}

void kd_hist__add(struct kd_hist *h, __u64 ns)
{
	h->n++;
	h->count[bucket_of(ns)]++;
	if (ns > h->max)
		h->max = ns;
}

__u64 kd_hist__percentile(const struct kd_hist *h, unsigned int pct)
{
	__u64 want, seen = 0;

	if (!h->n)
		return 0;
	/* the smallest duration with pct per cent of them at or below it */
	want = (h->n / 100) * pct + ((h->n % 100) * pct + 99) / 100;
	if (want < 1)
		want = 1;
	for (unsigned int b = 0; b < KD_HIST_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= want)
			return bucket_top(b) < h->max ? bucket_top(b) : h->max;
	}
	return h->max;
}
