/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* Opening, configuring, loading and attaching the BPF programs. */
#ifndef KTRACEB_KTR_LOADER_H
#define KTRACEB_KTR_LOADER_H

#include <stdbool.h>
#include <stddef.h>

struct ktraceb_bpf;

struct ktr_loader_opts {
	size_t ring_bytes;		/* power of two, >= page size */
	bool verbose;			/* libbpf debug output */
};

/*
 * The loaded and attached programs, or NULL with errno set and *why a short
 * reason ("kernel has no BTF", "needs root or CAP_BPF and CAP_PERFMON").
 */
struct ktraceb_bpf *ktr_loader__load(const struct ktr_loader_opts *opts, const char **why);
void ktr_loader__destroy(struct ktraceb_bpf *skel);

#endif /* KTRACEB_KTR_LOADER_H */
