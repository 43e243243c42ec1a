// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_drain.h"
#include "ktr_writer.h"

struct ktr_drain {
	struct ring_buffer *ring;
	int lost_fd;
	int ncpus;
	__u64 *percpu; /* lookup buffer, one slot per CPU */
	__s64 wall_offset_ns;
	struct ktr_writer *writers[KTR_MAX_ROUTES];
	unsigned long long lost_seen[KTR_MAX_ROUTES];
	int failed; /* -errno of a writer this round */
};

__s64 ktr_wall_offset_ns(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &rt);
	return ((__s64)rt.tv_sec - mono.tv_sec) * 1000000000 + (rt.tv_nsec - mono.tv_nsec);
}

static int drain__sample(void *ctx, void *data, size_t size)
{
	struct ktr_drain *d = ctx;
	const struct ktr_sample *s = data;
	const struct ktr_header *h = (const void *)(s + 1);
	struct ktr_writer *w;
	size_t len;
	int err;

	if (size < sizeof(*s) + sizeof(*h) || s->route >= KTR_MAX_ROUTES)
		return 0;
	w = d->writers[s->route];
	len = sizeof(*h) + (size_t)h->ktr_len;
	if (!w || h->ktr_len < 0 || len > size - sizeof(*s))
		return 0;
	err = ktr_writer__append(w, h, len, d->wall_offset_ns);
	if (err && !d->failed)
		d->failed = err;
	return 0;
}

struct ktr_drain *ktr_drain__new(struct ktraceb_bpf *skel)
{
	struct ktr_drain *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->ncpus = libbpf_num_possible_cpus();
	if (d->ncpus <= 0)
		goto fail;
	d->percpu = calloc(d->ncpus, sizeof(__u64));
	if (!d->percpu)
		goto fail;
	d->lost_fd = bpf_map__fd(skel->maps.lost);
	d->ring = ring_buffer__new(bpf_map__fd(skel->maps.rb), drain__sample, d, NULL);
	if (!d->ring)
		goto fail;
	d->wall_offset_ns = ktr_wall_offset_ns();
	return d;
fail:
	ktr_drain__free(d);
	errno = errno ? errno : ENOMEM;
	return NULL;
}

void ktr_drain__free(struct ktr_drain *d)
{
	if (!d)
		return;
	ring_buffer__free(d->ring);
	free(d->percpu);
	free(d);
}

void ktr_drain__set_writer(struct ktr_drain *d, __u32 route, struct ktr_writer *w)
{
	if (route < KTR_MAX_ROUTES)
		d->writers[route] = w;
}

unsigned long long ktr_drain__lost(const struct ktr_drain *d, __u32 route)
{
	return route < KTR_MAX_ROUTES ? d->lost_seen[route] : 0;
}

void ktr_drain__reset_lost(struct ktr_drain *d, __u32 route)
{
	if (route >= KTR_MAX_ROUTES)
		return;
	for (int cpu = 0; cpu < d->ncpus; cpu++)
		d->percpu[cpu] = 0;
	bpf_map_update_elem(d->lost_fd, &route, d->percpu, BPF_ANY);
	d->lost_seen[route] = 0;
}

int ktr_drain__epoll_fd(const struct ktr_drain *d)
{
	return ring_buffer__epoll_fd(d->ring);
}

int ktr_drain__account_lost(struct ktr_drain *d, __u32 route)
{
	unsigned long long total = 0;
	struct ktr_lost rec;

	if (route >= KTR_MAX_ROUTES || !d->writers[route])
		return 0;
	if (bpf_map_lookup_elem(d->lost_fd, &route, d->percpu) < 0)
		return 0;
	for (int cpu = 0; cpu < d->ncpus; cpu++)
		total += d->percpu[cpu];
	if (total <= d->lost_seen[route])
		return 0;
	rec.lost = total - d->lost_seen[route];
	rec.lost_total = total;
	d->lost_seen[route] = total;
	return ktr_writer__append_meta(d->writers[route], KTR_LOST, &rec, sizeof(rec),
				       d->wall_offset_ns);
}

/* A KTR_LOST record into every file whose BPF loss counter moved. */
static void drain__account_lost(struct ktr_drain *d)
{
	for (__u32 route = 0; route < KTR_MAX_ROUTES; route++) {
		int err = ktr_drain__account_lost(d, route);

		if (err && !d->failed)
			d->failed = err;
	}
}

static int drain__flush(struct ktr_drain *d)
{
	int failed;

	drain__account_lost(d);
	for (__u32 route = 0; route < KTR_MAX_ROUTES; route++) {
		int err;

		if (!d->writers[route])
			continue;
		err = ktr_writer__flush(d->writers[route]);
		if (err && !d->failed)
			d->failed = err;
	}
	failed = d->failed;
	d->failed = 0;
	return failed;
}

int ktr_drain__poll(struct ktr_drain *d, int timeout_ms)
{
	int n;

	d->wall_offset_ns = ktr_wall_offset_ns();
	n = timeout_ms ? ring_buffer__poll(d->ring, timeout_ms) : 0;
	if (n < 0 && n != -EINTR)
		return n;
	/* BPF wakes us only when the ring fills up: take what arrived meanwhile */
	n = ring_buffer__consume(d->ring);
	if (n < 0)
		return n;
	return drain__flush(d);
}

int ktr_drain__finish(struct ktr_drain *d)
{
	int n = ring_buffer__consume(d->ring);

	if (n < 0)
		return n;
	return drain__flush(d);
}
