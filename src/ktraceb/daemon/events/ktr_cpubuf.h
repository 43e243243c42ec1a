/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The system-wide trace's per-CPU buffers (ktraceb -S): one perf buffer per
 * CPU, which the tracepoint program fills with the CPU's hits (bpf/tp.bpf.c),
 * so that a busy CPU fills its own buffer only.  Each read takes every
 * CPU's records, merges them by time into the trace file, and writes each
 * CPU's losses (the kernel counts them per buffer) as a KTR_LOST record
 * carrying that CPU in its header (KTRH_CPUID).
 */
#ifndef KTRACEB_KTR_CPUBUF_H
#define KTRACEB_KTR_CPUBUF_H

#include <stddef.h>
#include <linux/types.h>

struct ktr_cpubuf;
struct ktr_files;

/* Buffers of about bytes_per_cpu each on map_fd (BPF_MAP_TYPE_PERF_EVENT_ARRAY), for route. */
struct ktr_cpubuf *ktr_cpubuf__new(int map_fd, struct ktr_files *files, __u32 route,
				   size_t bytes_per_cpu);
/* Readable when some CPU's buffer is a quarter full. */
int ktr_cpubuf__epoll_fd(const struct ktr_cpubuf *b);
/* Everything the buffers hold into the file, merged by time, and the losses. */
void ktr_cpubuf__drain(struct ktr_cpubuf *b);
/* Drained a last time, then closed. */
void ktr_cpubuf__free(struct ktr_cpubuf *b);

#endif /* KTRACEB_KTR_CPUBUF_H */
