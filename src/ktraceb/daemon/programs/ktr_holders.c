// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_stage.h"
#include "ktr_bpf.h"
#include "ktr_holders.h"

int ktr_holders__new_scratch(struct ktr_bpf *b, int ncpus)
{
	b->scratch_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "scratch", sizeof(__u32),
				       KTR_SCRATCH_SIZE, ncpus, NULL);
	return b->scratch_fd < 0 ? -errno : 0;
}

/*
 * Each holder entry set (to *inner, or to a ring buffer of ring_bytes made
 * first) or taken out (inner NULL).  An update of an array of maps from
 * user space takes effect at once, but the call returns only after an RCU
 * grace period (the kernel's maybe_wait_bpf_programs(): no program uses
 * the old entry any more), 10 ms and often much more: the longest step of
 * a start from kept programs, and of an end.  Nothing here needs that
 * wait, so each entry is updated by a thread of its own, and the loader
 * waits only until the entry reads back as set: the programs use it from
 * then on.  The threads end by themselves after the grace period.
 */
struct holder {
	int holder_fd;
	__u32 key;
	int *inner;
	size_t ring_bytes; /* > 0: *inner is a ring buffer to make */
	__u32 id; /* the inner map's, once it is made */
	int err;
	bool done;
};

/* The rings' entries, then the scratch area's. */
#define SCRATCH_HOLDER KTR_RINGS_MAX
static struct holder holders[KTR_RINGS_MAX + 1];
static pthread_t holder_tids[KTR_RINGS_MAX + 1];
static bool holder_threads[KTR_RINGS_MAX + 1];

static void *holder__run(void *arg)
{
	struct holder *h = arg;
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	int err = 0;

	if (h->ring_bytes) {
		*h->inner = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb", 0, 0, h->ring_bytes, NULL);
		if (*h->inner < 0)
			err = -errno;
	}
	if (!err && h->inner && bpf_obj_get_info_by_fd(*h->inner, &info, &len) < 0)
		err = -errno;
	__atomic_store_n(&h->id, info.id, __ATOMIC_RELEASE);
	if (!err &&
	    (h->inner ? bpf_map_update_elem(h->holder_fd, &h->key, h->inner, 0) :
			bpf_map_delete_elem(h->holder_fd, &h->key)) < 0 &&
	    (h->inner || errno != ENOENT))
		err = -errno;
	h->err = err;
	__atomic_store_n(&h->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Holder entry i's update begun (the last one's thread done first). */
static void holder__start(int i, int holder_fd, __u32 key, int *inner, size_t ring_bytes)
{
	struct holder *h = &holders[i];

	if (holder_threads[i])
		pthread_join(holder_tids[i], NULL);
	*h = (struct holder){
		.holder_fd = holder_fd, .key = key, .inner = inner, .ring_bytes = ring_bytes
	};
	holder_threads[i] = pthread_create(&holder_tids[i], NULL, holder__run, h) == 0;
	if (!holder_threads[i])
		holder__run(h);
}

/* Holder entry i as its update left it, whether or not the call has returned; 0 or -errno. */
static int holder__wait(int i)
{
	struct holder *h = &holders[i];
	__u32 id;

	for (;;) {
		if (__atomic_load_n(&h->done, __ATOMIC_ACQUIRE))
			return h->err;
		id = __atomic_load_n(&h->id, __ATOMIC_ACQUIRE);
		if (!h->inner && bpf_map_lookup_elem(h->holder_fd, &h->key, &id) < 0 &&
		    errno == ENOENT)
			return 0;
		if (h->inner && id && bpf_map_lookup_elem(h->holder_fd, &h->key, &id) == 0 &&
		    id == __atomic_load_n(&h->id, __ATOMIC_ACQUIRE))
			return 0;
		usleep(20);
	}
}

/* Every ring entry's update begun: to fds[i] (made first, ring_bytes > 0), or taken out (fds NULL). */
static void holder__start_rings(struct ktr_bpf *b, int *fds, size_t ring_bytes)
{
	for (int i = 0; i < b->nrings; i++)
		holder__start(i, ktr_bpf__map_fd(b, rb_holder), i, fds ? &fds[i] : NULL,
			      ring_bytes);
}

/* The ring entries' updates as holder__wait() says; the first error. */
static int holder__wait_rings(const struct ktr_bpf *b)
{
	int err = 0, e;

	for (int i = 0; i < b->nrings; i++)
		if ((e = holder__wait(i)) && !err)
			err = e;
	return err;
}

int ktr_holders__rings_for(int ncpus)
{
	int n = 1;

	while (n < ncpus && n < KTR_RINGS_MAX)
		n *= 2;
	return n;
}

void ktr_holders__fill(struct ktr_bpf *b, size_t ring_bytes)
{
	holder__start_rings(b, b->rb_fds, ring_bytes);
	holder__start(SCRATCH_HOLDER, ktr_bpf__map_fd(b, scratch_holder), 0, &b->scratch_fd, 0);
}

int ktr_holders__wait(struct ktr_bpf *b)
{
	int err = holder__wait_rings(b), err2 = holder__wait(SCRATCH_HOLDER);

	if (err || err2)
		return err ? err : err2;
	b->bss->ktr_ring_mask = b->nrings - 1; /* every ring is there to be chosen */
	return 0;
}

int ktr_holders__swap_rings(struct ktr_bpf *b, int *ring_fds)
{
	holder__start_rings(b, ring_fds, 0);
	return holder__wait_rings(b);
}

bool ktr_holders__swap_over(const struct ktr_bpf *b, bool wait)
{
	bool over = true;

	for (int i = 0; i < b->nrings; i++) {
		if (wait && holder_threads[i]) {
			pthread_join(holder_tids[i], NULL);
			holder_threads[i] = false;
		}
		over &= __atomic_load_n(&holders[i].done, __ATOMIC_ACQUIRE);
	}
	return over;
}

void ktr_holders__tell_size(struct ktr_bpf *b, size_t ring_bytes)
{
	b->bss->ktr_wakeup_bytes = ring_bytes / 4;
	b->bss->ktr_stack_room = ring_bytes / 2; /* -k's copies are shed past half the ring */
	/* a stage is at most an eighth of the ring: a small ring still takes many */
	b->bss->ktr_stage_bytes = ring_bytes / 8 < KTR_STAGE_BYTES ? ring_bytes / 8 :
								     KTR_STAGE_BYTES;
}

void ktr_holders__empty(struct ktr_bpf *b)
{
	if (b->bss)
		b->bss->ktr_ring_mask = 0;
	holder__start_rings(b, NULL, 0);
	holder__start(SCRATCH_HOLDER, ktr_bpf__map_fd(b, scratch_holder), 0, NULL, 0);
	holder__wait_rings(b);
	holder__wait(SCRATCH_HOLDER);
}
