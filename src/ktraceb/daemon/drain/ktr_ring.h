/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's ring buffer, as it reads it (ktr_drain.h) and grows it
 * while traces run (-b asks for more room than the running daemon has).
 *
 * Growing swaps a new, bigger ring into the holder the programs reach the
 * ring by (ktr_holders.h).  A program that starts after the update writes
 * into the new ring; one already running may still write into the old
 * ring, until an RCU grace period has passed (the holder's update returns
 * only then).  A thread's records therefore are all in the old ring before
 * any of them is in the new one, and the reader keeps to that: it reads
 * the old ring alone until the grace period is over, then to its end, and
 * only then the new one, which meanwhile only fills (it is the bigger).
 * No record is lost at the swap, and none of a thread's comes before one
 * it made earlier.  The ring never shrinks: it goes with the daemon, a
 * second after the last trace.
 *
 * Two threads read it: the ring thread (ktr_ring_thread.h) and the loop
 * (ktr_drain.h), which also grows it.  Each function below takes the
 * ring's lock, so one reads or grows at a time and the read function is
 * called in the ring's order; ktr_ring__free is called alone.
 */
#ifndef KTRACEB_KTR_RING_H
#define KTRACEB_KTR_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

struct ktr_bpf;
struct ktr_ring;

/* The most root's daemon grows its ring to for a user other than root (ktraceb(1), -b). */
#define KTR_RING_USER_MAX (64ull << 20)
/* The most it grows to for anyone (-b's own limit). */
#define KTR_RING_MAX	  (1ull << 30)

/*
 * b's ring (b->rb_fd, in its holder); *bytes is its size, and kept so as
 * it grows.  NULL if out of memory.
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
/* As ktr_ring__consume(r, false), unless the ring is being read or grown now: then 0. */
int ktr_ring__consume_if_free(struct ktr_ring *r);
/*
 * A swap under way finished (waited for), the old ring read to its end:
 * before a trace ends, none of its records may still wait in the new ring
 * unread.  As ktr_ring__consume.
 */
int ktr_ring__settle(struct ktr_ring *r);
/*
 * -b: a trace asks for a ring of want bytes (a power of two); a user's
 * ask capped (KTR_RING_USER_MAX, capped).  A bigger one than the current
 * is swapped in before this returns; why not, if it is not, in msg.
 */
void ktr_ring__grow(struct ktr_ring *r, unsigned long long want, bool capped, char *msg);

#endif /* KTRACEB_KTR_RING_H */
