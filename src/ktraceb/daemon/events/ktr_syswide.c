// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <bpf/libbpf.h>

#include "daemon/programs/ktr_bpf.h"
#include "common/ktr_proto.h"
#include "ktr_cpubuf.h"
#include "daemon/files/ktr_files.h"
#include "ktr_syswide.h"

struct ktr_syswide {
	struct ktr_bpf *b;
	struct ktr_files *files;
	int ep;
	void *wake;
	unsigned long long ring_bytes;
	__u32 route; /* 0 if none runs */
	bool alone; /* it has no process: ends at -c or -C only */
	struct ktr_cpubuf *cpubuf; /* its per-CPU buffers */
};

struct ktr_syswide *ktr_syswide__new(struct ktr_bpf *b, struct ktr_files *files, int ep, void *wake,
				     unsigned long long ring_bytes)
{
	struct ktr_syswide *sw = calloc(1, sizeof(*sw));

	if (!sw)
		return NULL;
	sw->b = b;
	sw->files = files;
	sw->ep = ep;
	sw->wake = wake;
	sw->ring_bytes = ring_bytes;
	return sw;
}

void ktr_syswide__free(struct ktr_syswide *sw)
{
	if (!sw)
		return;
	ktr_syswide__end(sw);
	free(sw);
}

/* Per-CPU buffers of the ring's size shared out, within 64 KiB and 4 MiB each. */
static size_t syswide__cpubuf_bytes(const struct ktr_syswide *sw)
{
	int ncpus = libbpf_num_possible_cpus();
	size_t each = sw->ring_bytes / (size_t)(ncpus > 0 ? ncpus : 1);

	return each < (64u << 10) ? 64u << 10 : each > (4u << 20) ? 4u << 20 : each;
}

int ktr_syswide__start(struct ktr_syswide *sw, __u32 r, bool alone, char *msg)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = sw->wake };

	if (sw->route && sw->route != r) {
		ktr_proto__msg_add(msg, "-S: a system-wide trace already runs (into %s)\n",
				   ktr_tracefile__path(ktr_files__get(sw->files, sw->route)));
		return -EBUSY;
	}
	if (sw->route)
		return 0;
	sw->cpubuf = ktr_cpubuf__new(ktr_bpf__map_fd(sw->b, tp_cpu_out), sw->files, r,
				     syswide__cpubuf_bytes(sw));
	if (!sw->cpubuf) {
		int err = -errno;

		ktr_proto__msg_add(msg, "-S: cannot open the per-CPU buffers: %s\n",
				   strerror(-err));
		return err;
	}
	epoll_ctl(sw->ep, EPOLL_CTL_ADD, ktr_cpubuf__epoll_fd(sw->cpubuf), &ev);
	sw->alone = alone;
	sw->route = r;
	sw->b->bss->ktr_syswide_route = r;
	return 0;
}

void ktr_syswide__end(struct ktr_syswide *sw)
{
	sw->b->bss->ktr_syswide_route = 0;
	sw->alone = false;
	if (sw->cpubuf) {
		epoll_ctl(sw->ep, EPOLL_CTL_DEL, ktr_cpubuf__epoll_fd(sw->cpubuf), NULL);
		ktr_cpubuf__free(sw->cpubuf); /* what it still holds, into the file */
		sw->cpubuf = NULL;
	}
	sw->route = 0;
}

__u32 ktr_syswide__route(const struct ktr_syswide *sw)
{
	return sw->route;
}

bool ktr_syswide__alone(const struct ktr_syswide *sw, __u32 r)
{
	return sw->route && r == sw->route && sw->alone;
}

void ktr_syswide__drain(struct ktr_syswide *sw)
{
	if (sw->cpubuf)
		ktr_cpubuf__drain(sw->cpubuf);
}
