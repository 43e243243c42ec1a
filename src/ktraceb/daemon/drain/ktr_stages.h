/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The CPUs' stages (bpf_stage.h) as the daemon sees them: before it takes
 * what the ring holds, it has each CPU whose stage holds records or a
 * waiting CALL send them on, by running the ktr_stage_flush program on
 * that CPU (BPF_PROG_TEST_RUN), so that a thread busy in user space or in
 * a long syscall, which makes no context switch, does not keep its last
 * records from the file.  The stages are read through a mapping of the
 * map, only to know which CPUs to ask.
 */
#ifndef KTRACEB_KTR_STAGES_H
#define KTRACEB_KTR_STAGES_H

#include <linux/types.h>

struct ktr_bpf;
struct ktr_stages;

/* b's stages; NULL if they cannot be mapped (the flushes then go to every CPU). */
struct ktr_stages *ktr_stages__new(const struct ktr_bpf *b);
void ktr_stages__free(struct ktr_stages *s);

/* What each CPU's stage holds, into the ring buffer now. */
void ktr_stages__send(struct ktr_stages *s);

/*
 * Records of route r the stages hold now, a waiting CALL counted as one:
 * what a file that ends now would not have (read from the mapping, a
 * count BPF may be changing: 0 when the stages cannot be mapped).
 */
unsigned int ktr_stages__held(const struct ktr_stages *s, __u32 r);

#endif /* KTRACEB_KTR_STAGES_H */
