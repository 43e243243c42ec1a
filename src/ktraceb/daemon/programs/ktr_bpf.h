/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The programs and maps a daemon runs, as it holds them whether its loader
 * verified them or found them kept in bpffs by an earlier daemon
 * (ktr_progcache.h): the maps through a skeleton of the object (loaded, or
 * only opened, each map's descriptor reused), the programs and their links
 * by descriptor alone.  libbpf cannot give a struct bpf_program a
 * descriptor it did not load, so every program is attached by its
 * descriptor (ktr_link.h), fresh or kept alike, and the skeleton's
 * programs, links and .bss mapping are never used.
 */
#ifndef KTRACEB_KTR_BPF_H
#define KTRACEB_KTR_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_ustack.h"
#include "ktraceb.skel.h"

/* A program's index in the skeleton (its progs and links are in one order). */
#define KTR_PROG(name)                                                                      \
	((offsetof(struct ktraceb_bpf, progs.name) - offsetof(struct ktraceb_bpf, progs)) / \
	 sizeof(struct bpf_program *))
#define KTR_NPROGS (sizeof(((struct ktraceb_bpf *)0)->progs) / sizeof(struct bpf_program *))

struct ktr_bpf {
	struct ktraceb_bpf *skel; /* its maps only */
	int prog_fd[KTR_NPROGS]; /* -1: not loaded (refused, or USDT's not yet) */
	int link_fd[KTR_NPROGS]; /* a tracepoint program's own link while attached, or -1 */
	bool link_pinned[KTR_NPROGS];
	struct ktraceb_bpf__bss *bss; /* the .bss map, mapped */
	size_t bss_bytes;
	/* the daemon's ring buffers (a thread's is its id & (nrings - 1)) and scratch area, in their holders */
	int rb_fds[KTR_RINGS_MAX];
	int nrings;
	int scratch_fd;
};

/* The descriptor of the map the skeleton calls name (ktr_bpf__map_fd(b, procs)). */
#define ktr_bpf__map_fd(b, name) bpf_map__fd((b)->skel->maps.name)

/* The program of index i's name (KTR_PROG). */
static inline const char *ktr_bpf__prog_name(const struct ktr_bpf *b, size_t i)
{
	return b->skel->skeleton->progs[i].name;
}

#endif /* KTRACEB_KTR_BPF_H */
