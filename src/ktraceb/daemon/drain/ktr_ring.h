/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's ring buffers, as it reads them (ktr_drain.h) and grows them
 * while traces run (-b asks for more room than the running daemon has).
 * There is one a CPU, up to KTR_RINGS_MAX; each thread's records go into
 * one of them (ring.bpf.h), and one reader reads them all as one stream,
 * merged by time (ktr_ring_set.h).
 *
 * Growing swaps new, bigger rings into the holder the programs reach the
 * rings by (ktr_holders.h).  A program that starts after the update writes
 * into a new ring; one already running may still write into an old ring,
 * until an RCU grace period has passed (the holder's update returns only
 * then).  A thread's records therefore are all in its old ring before any
 * of them is in its new one, and the reader keeps to that: it reads the
 * old rings alone until the grace period is over, then to their end, and
 * only then the new ones, which meanwhile only fill (they are the bigger).
 * No record is lost at the swap, and none of a thread's comes before one
 * it made earlier.  The rings never shrink: they go with the daemon, a
 * second after the last trace.
 *
 * Two threads read them: the ring thread (ktr_ring_thread.h) and the loop
 * (ktr_drain.h), which also grows them.  Each function below takes the
 * rings' lock, so one reads or grows at a time and the read function is
 * called in each ring's order; ktr_ring__free is called alone.
 */
#ifndef KTRACEB_KTR_RING_H
#define KTRACEB_KTR_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

struct ktr_bpf;
struct ktr_ring;

/*
 * The most root's daemon grows its rings to, all together, for a user
 * other than root (ktraceb(1), -b): each ring this divided by the rings.
 */
#define KTR_RING_USER_MAX (64ull << 20)
/* The most it grows each ring to for anyone (-b's own limit). */
#define KTR_RING_MAX	  (1ull << 30)

/*
 * b's rings (b->rb_fds, in their holder); *bytes is each one's size, and
 * kept so as they grow.  NULL if out of memory.
 */
struct ktr_ring *ktr_ring__new(struct ktr_bpf *b, unsigned long long *bytes);
void ktr_ring__free(struct ktr_ring *r);
/* Its records are read by fn(ctx, ...), as libbpf's ring_buffer__new() says; 0 or -errno. */
int ktr_ring__read_with(struct ktr_ring *r, ring_buffer_sample_fn fn, void *ctx);
/* An fd that polls readable when the programs wake the reader (the same fd however it grows). */
int ktr_ring__epoll_fd(const struct ktr_ring *r);
/*
 * Every record there is read, in order (the ring swapped out first, to
 * its end once no program writes into it; wait: that is waited for).
 * How many, or the -errno of the ring itself.
 */
int ktr_ring__consume(struct ktr_ring *r, bool wait);
/*
 * As ktr_ring__consume(r, false), unless the ring is being read or grown
 * now or the loop waits to, or, half_full, no ring is half full: then 0.
 * The ring thread's: it lets go, -EAGAIN, as soon as the loop waits for
 * the rings (the loop routes at once what it reads).
 */
int ktr_ring__consume_if_free(struct ktr_ring *r, bool half_full);
/*
 * A swap under way finished (waited for), the old ring read to its end:
 * before a trace ends, none of its records may still wait in the new ring
 * unread.  As ktr_ring__consume.
 */
int ktr_ring__settle(struct ktr_ring *r);
/*
 * -b: a trace asks for rings of want bytes each (a power of two); a
 * user's ask capped (KTR_RING_USER_MAX, capped).  Bigger ones than the
 * current are swapped in before this returns; why not, if they are not,
 * in msg.
 */
void ktr_ring__grow(struct ktr_ring *r, unsigned long long want, bool capped, char *msg);

#endif /* KTRACEB_KTR_RING_H */
