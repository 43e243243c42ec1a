// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_stage.h"
#include "daemon/programs/ktr_bpf.h"
#include "daemon/ktr_clock.h"
#include "ktr_drain.h"
#include "daemon/files/ktr_files.h"
#include "daemon/ktr_record.h"
#include "ktr_queue.h"
#include "ktr_ring.h"
#include "ktr_ring_thread.h"
#include "ktr_stages.h"

/*
 * The most the queue holds before the ring thread stops taking from the
 * ring: four times the default ring, about half a second of two busy
 * writers' records on a small machine (docs/PERFORMANCE.md).
 */
#define KTR_QUEUE_MAX (64u << 20)

/* How long the queue's buffers are kept after it was last used (ktr_queue__trim). */
#define KTR_QUEUE_KEEP_NS 1000000000ull

/*
 * The ring is read by the loop (ktr_drain__poll, _finish), which routes
 * each sample at once, and by the ring thread while the loop is busy
 * (ktr_ring_thread.h says when), which puts them in the queue; the loop
 * routes the queue's first.  All here but the ring and the queue (each
 * has its own lock) and loop_busy_since is the loop's alone.
 */
struct ktr_drain {
	pthread_t loop; /* the loop's thread */
	_Atomic __u64 loop_busy_since; /* when the loop stopped waiting for work; 0 while it waits */
	struct ktr_ring *ring; /* the daemon's */
	struct ktr_queue *queue;
	struct ktr_ring_thread *thread;
	struct ktr_queue_batch batch; /* the last samples taken from the queue */
	__u64 queue_used_ns; /* when the loop last took from the queue */
	bool queue_trimmed; /* its buffers freed since */
	struct ktr_stages *stages;
	struct ktr_files *files;
	ktr_drain_note_fn note_fn;
	void *note_ctx;
	int lost_fd;
	__u64 lost_all_seen; /* slot 0 of the loss array: every file's losses */
	__s64 wall_offset_ns;
};

/*
 * A staged CALL and RET (KTR_STAGED_PAIR, bpf_stage.h; h and room bytes
 * from it) into f as the two records BSD has.
 */
static void drain__pair(struct ktr_drain *d, struct ktr_tracefile *f, const struct ktr_header *h,
			size_t room)
{
	struct {
		struct ktr_header h;
		struct ktr_syscall c;
		__u64 args[KTR_MAXARGS];
	} call;
	struct {
		struct ktr_header h;
		struct ktr_sysret r;
	} ret;
	struct ktr_pair_ret pr;
	size_t len = (size_t)h->ktr_len;

	if (h->ktr_len < (int)sizeof(call.c) || len > sizeof(call.c) + sizeof(call.args) ||
	    sizeof(*h) + len + sizeof(pr) > room)
		return; /* cannot be: BPF wrote it */
	memcpy(&call, h, sizeof(*h) + len);
	call.h.ktr_type = KTR_SYSCALL;
	memcpy(&pr, (const unsigned char *)(h + 1) + len, sizeof(pr));
	ret.h = call.h;
	ret.h.ktr_type = KTR_SYSRET;
	ret.h.ktr_len = sizeof(ret.r);
	ret.h.ktr_mono_ns = pr.mono_ns;
	ret.r = pr.r;
	/* a write error sticks to its file: the RET is refused after it too */
	ktr_tracefile__append(f, &call.h, sizeof(*h) + len, d->wall_offset_ns);
	ktr_tracefile__append(f, &ret.h, sizeof(ret), d->wall_offset_ns);
}

/* One sample: a note, or a record for its file. */
static void drain__one(struct ktr_drain *d, const struct ktr_sample *s, size_t size)
{
	const struct ktr_header *h = (const void *)(s + 1);
	struct ktr_tracefile *f;
	size_t len;

	if (s->route == KTR_ROUTE_DAEMON && size >= sizeof(*s) + sizeof(struct ktr_note)) {
		struct ktr_note note;

		memcpy(&note, s + 1, sizeof(note));
		if (d->note_fn)
			d->note_fn(d->note_ctx, &note);
		return;
	}
	if (size < sizeof(*s) + sizeof(*h))
		return;
	f = ktr_files__get(d->files, s->route);
	if (f && h->ktr_type == KTR_STAGED_PAIR) {
		drain__pair(d, f, h, size - sizeof(*s));
		return;
	}
	len = sizeof(*h) + (size_t)h->ktr_len;
	if (!f || h->ktr_len < 0 || len > size - sizeof(*s))
		return;
	/* a write error sticks to its file, which the daemon then stops */
	ktr_tracefile__append(f, h, len, d->wall_offset_ns);
}

/* A stage's records (bpf_stage.h): each a sample whose reserved field is its stride. */
static void drain__batch(struct ktr_drain *d, const unsigned char *p, size_t n)
{
	while (n >= sizeof(struct ktr_sample)) {
		const struct ktr_sample *s = (const void *)p;
		size_t stride = s->reserved;

		if (stride < sizeof(*s) || stride > n || stride % 8)
			return; /* cannot be: BPF wrote it */
		drain__one(d, s, stride);
		p += stride;
		n -= stride;
	}
}

/* A sample to its file, or, a note, to the daemon. */
static void drain__sample(struct ktr_drain *d, const void *data, size_t size)
{
	const struct ktr_sample *s = data;

	if (size >= sizeof(*s) && s->route == KTR_ROUTE_BATCH)
		drain__batch(d, (const unsigned char *)(s + 1),
			     s->reserved < size - sizeof(*s) ? s->reserved : size - sizeof(*s));
	else if (size >= sizeof(*s))
		drain__one(d, s, size);
}

/*
 * What the queue holds, to the files, in the order it came; the samples
 * it had no room for counted lost for their files.
 */
static void drain__route(struct ktr_drain *d)
{
	struct ktr_queue_batch *b = &d->batch;

	ktr_queue__take(d->queue, b);
	d->queue_used_ns = ktr_mono_ns();
	d->queue_trimmed = false;
	for (size_t at = 0; at < b->len;) {
		const struct ktr_queue_entry *e = (const void *)(b->p + at);

		drain__sample(d, e + 1, e->size);
		at += sizeof(*e) + ((e->size + 7) & ~7u);
	}
	if (!b->dropped)
		return;
	for (__u32 r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r))
		ktr_files__get(d->files, r)->lost_queue += b->dropped[r];
}

/*
 * The ring's read function (ktr_ring.h, the ring's lock held): the ring
 * thread's samples queued, the loop's routed at once, after what the ring
 * thread queued before (it came out of the ring earlier).  Always 0.
 */
static int drain__read(void *ctx, void *data, size_t size)
{
	struct ktr_drain *d = ctx;

	if (!pthread_equal(pthread_self(), d->loop))
		return ktr_queue__put(d->queue, data, size);
	if (!ktr_queue__empty(d->queue))
		drain__route(d);
	drain__sample(d, data, size);
	return 0;
}

struct ktr_drain *ktr_drain__new(struct ktr_bpf *b, struct ktr_ring *ring, struct ktr_files *files,
				 ktr_drain_note_fn note_fn, void *note_ctx)
{
	struct ktr_drain *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->files = files;
	d->note_fn = note_fn;
	d->note_ctx = note_ctx;
	d->lost_fd = ktr_bpf__map_fd(b, lost);
	d->ring = ring;
	d->stages = ktr_stages__new(b);
	d->loop = pthread_self();
	atomic_init(&d->loop_busy_since, ktr_mono_ns());
	d->queue = ktr_queue__new(KTR_QUEUE_MAX);
	if (!d->queue || ktr_ring__read_with(ring, drain__read, d) < 0 ||
	    !(d->thread = ktr_ring_thread__start(ring, d->queue, &d->loop_busy_since))) {
		ktr_drain__free(d);
		errno = errno ? errno : ENOMEM;
		return NULL;
	}
	d->wall_offset_ns = ktr_wall_offset_ns();
	return d;
}

void ktr_drain__free(struct ktr_drain *d)
{
	if (!d)
		return;
	ktr_ring_thread__stop(d->thread);
	ktr_queue__free(d->queue);
	ktr_queue__batch_free(&d->batch);
	ktr_stages__free(d->stages);
	free(d);
}

void ktr_drain__reset_lost(struct ktr_drain *d, __u32 route)
{
	__u64 zero = 0;

	if (route > 0 && route < KTR_MAX_ROUTES)
		bpf_map_update_elem(d->lost_fd, &route, &zero, BPF_ANY);
}

int ktr_drain__epoll_fd(const struct ktr_drain *d)
{
	return ktr_ring__epoll_fd(d->ring);
}

void ktr_drain__busy(struct ktr_drain *d, bool busy)
{
	atomic_store(&d->loop_busy_since, busy ? ktr_mono_ns() : 0);
}

int ktr_drain__account_lost(struct ktr_drain *d, __u32 route)
{
	struct ktr_tracefile *f = ktr_files__get(d->files, route);
	__u64 total = 0;

	if (!f || bpf_map_lookup_elem(d->lost_fd, &route, &total) < 0)
		return 0;
	if (total > f->lost_bpf)
		f->lost_bpf = total; /* its LOST record: at the file's next flush */
	return 0;
}

unsigned int ktr_drain__held(const struct ktr_drain *d, __u32 route)
{
	return ktr_stages__held(d->stages, route);
}

int ktr_drain__account_held(struct ktr_drain *d, __u32 route, unsigned int n)
{
	struct ktr_tracefile *f = ktr_files__get(d->files, route);

	if (f)
		f->lost_held += n;
	return 0;
}

/* Every file's BPF loss counter read again, if any moved. */
static void drain__account_lost(struct ktr_drain *d)
{
	__u32 all = 0;
	__u64 total = 0;

	/* one lookup per poll while nothing is lost, whatever the number of files */
	if (bpf_map_lookup_elem(d->lost_fd, &all, &total) < 0 || total == d->lost_all_seen)
		return;
	d->lost_all_seen = total;
	for (__u32 r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r))
		ktr_drain__account_lost(d, r);
}

/*
 * Each file's losses said in a LOST record, and its records on their way
 * to its file (its writer's thread writes them).  Write errors stick to
 * their files (ktr_tracefile__error): not returned.
 */
static void drain__flush(struct ktr_drain *d)
{
	drain__account_lost(d);
	for (__u32 r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r))
		ktr_tracefile__flush(ktr_files__get(d->files, r), d->wall_offset_ns);
}

/* Everything recorded until now to the files: wait, as ktr_ring__consume. */
static int drain__now(struct ktr_drain *d, bool wait)
{
	int n;

	d->wall_offset_ns = ktr_wall_offset_ns();
	/* BPF wakes us only when the ring fills up: take what arrived meanwhile */
	ktr_stages__send(d->stages);
	n = ktr_ring__consume(d->ring, wait);
	/* what the ring thread queued, if the ring had nothing after it */
	if (!ktr_queue__empty(d->queue))
		drain__route(d);
	else if (!d->queue_trimmed && ktr_mono_ns() - d->queue_used_ns > KTR_QUEUE_KEEP_NS) {
		ktr_queue__trim(d->queue, &d->batch);
		d->queue_trimmed = true;
	}
	if (n < 0)
		return n;
	drain__flush(d);
	return 0;
}

int ktr_drain__poll(struct ktr_drain *d, int timeout_ms)
{
	if (timeout_ms) {
		struct epoll_event ev;

		epoll_wait(ktr_ring__epoll_fd(d->ring), &ev, 1, timeout_ms);
	}
	return drain__now(d, false);
}

int ktr_drain__finish(struct ktr_drain *d)
{
	return drain__now(d, true);
}
