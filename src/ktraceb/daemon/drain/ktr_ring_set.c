// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The daemon's rings read as one stream, merged by time (ktr_ring_set.h says how). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_stage.h"
#include "ktr_ring_set.h"

/*
 * Bytes handed on from a ring before BPF is told (its consumer position
 * stored): not at every sample, which would move the cache line that every
 * reservation and fill-level query on the ring reads.
 */
#define GIVE_BACK_EVERY (64u << 10)

/* One ring, mapped as libbpf maps it: its next sample read in place. */
struct part {
	int fd; /* the caller's */
	unsigned long *consumer; /* the consumer's page: its position first */
	const unsigned long *producer; /* the producer's page, then the data, twice over */
	const unsigned char *data; /* mapped twice: a sample that wraps is whole */
	size_t map_len;
	unsigned long mask; /* the data's size less one (a power of two) */
	unsigned long cons; /* where the next sample starts */
	unsigned long prod; /* the producer's position, as last read */
	unsigned long given; /* the consumer position BPF sees */
	const unsigned char *head; /* the next sample, committed, in place; NULL: none seen */
	__u32 head_len;
	__u64 head_time;
	__u64 last_time; /* the last sample's */
};

struct ktr_ring_set {
	ring_buffer_sample_fn fn;
	void *ctx;
	int ep;
	int n;
	struct part parts[KTR_RINGS_MAX];
};

/* A sample's time: its first record's; before, when it has none (a note to the daemon). */
static __u64 sample__time(const unsigned char *p, size_t size, __u64 before)
{
	struct ktr_sample s;
	struct ktr_header h;

	if (size < sizeof(s))
		return before;
	memcpy(&s, p, sizeof(s));
	if (s.route == KTR_ROUTE_BATCH) { /* a stage's records: the first one's */
		p += sizeof(s);
		size -= sizeof(s);
		if (size < sizeof(s))
			return before;
		memcpy(&s, p, sizeof(s));
	}
	if (s.route == KTR_ROUTE_DAEMON || size < sizeof(s) + sizeof(h))
		return before;
	memcpy(&h, p + sizeof(s), sizeof(h));
	return h.ktr_mono_ns;
}

/* Bytes a sample of len takes in the ring: its 8-byte header, then it, to 8. */
static unsigned long sample__stride(__u32 len)
{
	len &= ~BPF_RINGBUF_DISCARD_BIT;
	return ((unsigned long)len + BPF_RINGBUF_HDR_SZ + 7) & ~7ul;
}

/* What was handed on from p, given back to BPF as room. */
static void part__give_back(struct part *p)
{
	if (p->given == p->cons)
		return;
	__atomic_store_n(p->consumer, p->cons, __ATOMIC_RELEASE);
	p->given = p->cons;
}

/*
 * p's next sample, if one is committed: true and p->head set.  Discarded
 * ones are skipped; when there is none (yet), what was handed on is given
 * back.
 */
static bool part__peek(struct part *p)
{
	while (!p->head) {
		const __u32 *hdr;
		__u32 len;

		if (p->cons == p->prod) {
			p->prod = __atomic_load_n(p->producer, __ATOMIC_ACQUIRE);
			if (p->cons == p->prod) {
				part__give_back(p);
				return false;
			}
		}
		hdr = (const __u32 *)(p->data + (p->cons & p->mask));
		len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
		if (len & BPF_RINGBUF_BUSY_BIT) { /* reserved, not yet committed */
			part__give_back(p);
			return false;
		}
		if (len & BPF_RINGBUF_DISCARD_BIT) {
			p->cons += sample__stride(len);
			continue;
		}
		p->head = (const unsigned char *)hdr + BPF_RINGBUF_HDR_SZ;
		p->head_len = len;
		p->head_time = p->last_time = sample__time(p->head, len, p->last_time);
	}
	return true;
}

/* Ring fd mapped into p, and polled through ep; 0 or -errno. */
static int part__map(struct part *p, int fd, int ep)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
	struct bpf_map_info info;
	__u32 info_len = sizeof(info);
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &info_len) < 0)
		return -errno;
	if (info.type != BPF_MAP_TYPE_RINGBUF || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1)))
		return -EINVAL;
	m = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	p->consumer = m;
	/* the data twice, as the kernel maps it: read-only */
	p->map_len = (size_t)page + 2 * (size_t)info.max_entries;
	m = mmap(NULL, p->map_len, PROT_READ, MAP_SHARED, fd, page);
	if (m == MAP_FAILED)
		return -errno;
	p->producer = m;
	p->data = (const unsigned char *)m + page;
	p->mask = info.max_entries - 1;
	p->cons = p->given = __atomic_load_n(p->consumer, __ATOMIC_ACQUIRE);
	p->prod = p->cons;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0)
		return -errno;
	p->fd = fd;
	return 0;
}

static void part__unmap(struct part *p, int ep)
{
	long page = sysconf(_SC_PAGESIZE);

	/* the fd stays open (the caller's, and the holder's map holds the ring): out of ep by hand */
	if (p->fd >= 0)
		epoll_ctl(ep, EPOLL_CTL_DEL, p->fd, NULL);
	if (p->producer)
		munmap((void *)p->producer, p->map_len);
	if (p->consumer)
		munmap(p->consumer, (size_t)page);
}

struct ktr_ring_set *ktr_ring_set__new(const int *fds, int n, ring_buffer_sample_fn fn, void *ctx,
				       int ep)
{
	struct ktr_ring_set *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->fn = fn;
	s->ctx = ctx;
	s->ep = ep;
	for (int i = 0; i < n && i < KTR_RINGS_MAX; i++) {
		int err;

		s->parts[i].fd = -1;
		s->n = i + 1;
		if ((err = part__map(&s->parts[i], fds[i], ep))) {
			ktr_ring_set__free(s);
			errno = -err;
			return NULL;
		}
	}
	return s;
}

void ktr_ring_set__free(struct ktr_ring_set *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++)
		part__unmap(&s->parts[i], s->ep);
	free(s);
}

bool ktr_ring_set__half_full(const struct ktr_ring_set *s)
{
	for (int i = 0; i < s->n; i++) {
		const struct part *p = &s->parts[i];
		unsigned long prod = __atomic_load_n(p->producer, __ATOMIC_ACQUIRE);

		if (prod - p->cons >= (p->mask + 1) / 2)
			return true;
	}
	return false;
}

int ktr_ring_set__consume(struct ktr_ring_set *s)
{
	unsigned long budget = 0;
	int total = 0;

	/* at most what the rings hold now: a storm that never lets up still lets the caller go */
	for (int i = 0; i < s->n; i++)
		budget += s->parts[i].mask + 1;
	while (budget) {
		struct part *best = NULL;
		const unsigned char *data;
		unsigned long stride;
		int err;

		/* the earliest of the rings' next samples; each ring's in its own order */
		for (int i = 0; i < s->n; i++) {
			struct part *p = &s->parts[i];

			if (part__peek(p) && (!best || p->head_time < best->head_time))
				best = p;
		}
		if (!best)
			break;
		data = best->head;
		stride = sample__stride(best->head_len);
		best->head = NULL;
		best->cons += stride;
		budget = stride < budget ? budget - stride : 0;
		/* read where it lies: BPF may not reuse its bytes until it is given back, after */
		err = s->fn(s->ctx, (void *)data, best->head_len);
		if (best->cons - best->given >= GIVE_BACK_EVERY)
			part__give_back(best);
		if (err < 0) {
			total = err;
			break;
		}
		total++;
	}
	for (int i = 0; i < s->n; i++)
		part__give_back(&s->parts[i]);
	return total;
}
