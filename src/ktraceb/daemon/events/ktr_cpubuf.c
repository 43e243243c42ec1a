// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_flight.h"
#include "ktraceb/bpf_sample.h"
#include "daemon/ktr_clock.h"
#include "ktr_cpubuf.h"
#include "daemon/files/ktr_files.h"
#include "daemon/ktr_record.h"

#define CPUBUF_MAX_CPUS KTR_FLIGHT_MAX_CPUS /* KTRH_CPUID holds 8 bits */

/* One record read, copied out of its buffer until the batch is merged. */
struct cpubuf_rec {
	__u64 mono_ns;
	unsigned int seq; /* read order: equal times keep it */
	size_t len;
	struct ktr_header *h;
};

struct ktr_cpubuf {
	struct perf_buffer *pb;
	struct ktr_files *files;
	__u32 route;
	struct cpubuf_rec *recs;
	unsigned int nrecs, cap;
	__u64 lost_total[CPUBUF_MAX_CPUS];
	__u64 lost_new[CPUBUF_MAX_CPUS];
};

/* PERF_SAMPLE_RAW: the size, then what bpf_perf_event_output() gave (padded to 8). */
struct cpubuf_raw {
	struct perf_event_header header;
	__u32 size;
	char data[];
};

struct cpubuf_lost {
	struct perf_event_header header;
	__u64 id;
	__u64 lost;
};

static int cpubuf__keep(struct ktr_cpubuf *b, const void *data, size_t size)
{
	const struct ktr_sample *s = data;
	const struct ktr_header *h = (const void *)(s + 1);
	struct cpubuf_rec *r;
	size_t len;

	if (size < sizeof(*s) + sizeof(*h) || s->route != b->route || h->ktr_len < 0)
		return 0;
	len = sizeof(*h) + (size_t)h->ktr_len;
	if (len > size - sizeof(*s))
		return 0;
	if (b->nrecs == b->cap) {
		unsigned int cap = b->cap ? b->cap * 2 : 1024;

		r = realloc(b->recs, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		b->recs = r;
		b->cap = cap;
	}
	r = &b->recs[b->nrecs];
	r->h = malloc(len);
	if (!r->h)
		return -ENOMEM;
	memcpy(r->h, h, len);
	r->len = len;
	r->mono_ns = h->ktr_mono_ns;
	r->seq = b->nrecs++;
	return 0;
}

static enum bpf_perf_event_ret cpubuf__event(void *ctx, int cpu, struct perf_event_header *e)
{
	struct ktr_cpubuf *b = ctx;

	if (e->type == PERF_RECORD_SAMPLE && e->size >= sizeof(struct cpubuf_raw)) {
		const struct cpubuf_raw *raw = (const void *)e;

		/* no memory to keep it: lost, and counted as the kernel's losses are */
		if (raw->size <= e->size - sizeof(*raw) && cpubuf__keep(b, raw->data, raw->size) &&
		    cpu >= 0 && cpu < CPUBUF_MAX_CPUS)
			b->lost_new[cpu]++;
	} else if (e->type == PERF_RECORD_LOST && e->size >= sizeof(struct cpubuf_lost) &&
		   cpu >= 0 && cpu < CPUBUF_MAX_CPUS) {
		b->lost_new[cpu] += ((const struct cpubuf_lost *)e)->lost;
	}
	return LIBBPF_PERF_EVENT_CONT;
}

struct ktr_cpubuf *ktr_cpubuf__new(int map_fd, struct ktr_files *files, __u32 route,
				   size_t bytes_per_cpu)
{
	struct ktr_cpubuf *b = calloc(1, sizeof(*b));
	size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = 1;
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		.watermark = 1,
	};

	if (!b)
		return NULL;
	while (pages * 2 * page <= bytes_per_cpu)
		pages *= 2; /* a power of two, as perf requires */
	/* woken when a quarter is waiting; the daemon's tick reads the rest */
	attr.wakeup_watermark = (__u32)(pages * page / 4);
	b->files = files;
	b->route = route;
	b->pb = perf_buffer__new_raw(map_fd, pages, &attr, cpubuf__event, b, NULL);
	if (!b->pb) {
		int err = errno;

		free(b);
		errno = err ? err : ENOMEM;
		return NULL;
	}
	return b;
}

int ktr_cpubuf__epoll_fd(const struct ktr_cpubuf *b)
{
	return perf_buffer__epoll_fd(b->pb);
}

static int cpubuf__cmp(const void *a, const void *b)
{
	const struct cpubuf_rec *x = a, *y = b;

	if (x->mono_ns != y->mono_ns)
		return x->mono_ns < y->mono_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A CPU's losses since the last read, as KTR_LOST with that CPU in its header. */
static void cpubuf__write_lost(struct ktr_cpubuf *b, struct ktr_tracefile *f, int cpu, __s64 wall)
{
	struct {
		struct ktr_header h;
		struct ktr_lost l;
	} rec;

	memset(&rec, 0, sizeof(rec));
	b->lost_total[cpu] += b->lost_new[cpu];
	rec.l.lost = b->lost_new[cpu];
	rec.l.lost_total = b->lost_total[cpu];
	b->lost_new[cpu] = 0;
	ktr_record__own(&rec.h, KTR_LOST, sizeof(rec.l), KTRH_CPUID_ENCODE(cpu) | KTRH_SYSWIDE);
	ktr_tracefile__append(f, &rec.h, sizeof(rec), wall);
	/*
	 * In the trace's total (its END, ktraceb's last line), but said here
	 * only: the trace's own LOST records (ktr_tracefile.c) leave them out.
	 */
	f->lost_cpus += rec.l.lost;
	f->lost_said += rec.l.lost;
}

void ktr_cpubuf__drain(struct ktr_cpubuf *b)
{
	struct ktr_tracefile *f = ktr_files__get(b->files, b->route);
	__s64 wall = ktr_wall_offset_ns();

	perf_buffer__consume(b->pb);
	qsort(b->recs, b->nrecs, sizeof(b->recs[0]), cpubuf__cmp);
	for (unsigned int i = 0; i < b->nrecs; i++) {
		if (f)
			ktr_tracefile__append(f, b->recs[i].h, b->recs[i].len, wall);
		free(b->recs[i].h);
	}
	b->nrecs = 0;
	for (int cpu = 0; cpu < CPUBUF_MAX_CPUS; cpu++)
		if (b->lost_new[cpu] && f)
			cpubuf__write_lost(b, f, cpu, wall);
}

void ktr_cpubuf__free(struct ktr_cpubuf *b)
{
	if (!b)
		return;
	ktr_cpubuf__drain(b);
	perf_buffer__free(b->pb);
	free(b->recs);
	free(b);
}
