/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Kernel events on kernels without BPF attach cookies (before 5.15): the
 * tracepoint program (bpf/tp.bpf.c) cannot ask which event ran it, so
 * each event gets a stub program of its own, a few instructions made here,
 * that writes the event's id where the program reads it (tp_stub_id, this
 * CPU's) and tail-calls it (tp_stub_next).  The stubs are too small for
 * their verification to cost anything; the program is verified once.
 */
#ifndef KTRACEB_KTR_TP_STUB_H
#define KTRACEB_KTR_TP_STUB_H

#include <linux/types.h>

struct ktr_bpf;

/* b's tracepoint program on event id through a stub: the link's descriptor, or -errno. */
int ktr_tp_stub__attach(const struct ktr_bpf *b, __u32 id);

#endif /* KTRACEB_KTR_TP_STUB_H */
