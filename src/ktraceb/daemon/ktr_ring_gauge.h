/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * How full the BPF ring buffer is and how fast it fills, read from its
 * producer and consumer positions (mapped read-only beside libbpf's
 * reader).  The daemon's writer asks it before a slow step (compressing a
 * -z member, ktr_writer.h): may it take that long, the ring staying under
 * half full at the pace it fills now?
 */
#ifndef KTRACEB_KTR_RING_GAUGE_H
#define KTRACEB_KTR_RING_GAUGE_H

#include <stdbool.h>

struct ktr_ring_gauge;

/* A gauge of the ring buffer map ring_fd, or NULL (then nothing is known of it). */
struct ktr_ring_gauge *ktr_ring_gauge__new(int ring_fd);
void ktr_ring_gauge__free(struct ktr_ring_gauge *g);
/*
 * True if the bytes waiting in the ring, and what comes in during ns more
 * at the pace it came in since the last question, stay under half of it.
 */
bool ktr_ring_gauge__may_take(void *gauge, long long ns);

#endif /* KTRACEB_KTR_RING_GAUGE_H */
