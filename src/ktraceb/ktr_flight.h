/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A flight recorder's ring (ktraceb -R): the records of one recording, kept
 * in memory, the oldest overwritten when a new one needs room; nothing goes
 * to disk until a trigger.  A traced process killed by a signal that dumps
 * core (or, with KTR_FLIGHT_ON_EXIT, one that exits non-zero) triggers: the
 * ring freezes there, so what follows (other threads, a restart) cannot
 * overwrite the records that led to it before they are written (they are
 * counted as recorded, not kept, like the overwritten ones).  Beside the
 * ring, the last record of each CPU is kept (as it was when the crash's
 * fatal signal was delivered), so that a busy CPU cannot push out the last
 * step of a thread stopped on another.
 *
 * Compact entries (KTR_FLIGHT_COMPACT) keep only the essentials of each
 * syscall: its return (time, pid, tid, number, error, value), and the PSIG
 * and EXIT that end a crash: 52 bytes where a CALL and RET pair takes 170
 * and more, so the same memory holds three times the history or more.
 */
#ifndef KTRACEB_KTR_FLIGHT_H
#define KTRACEB_KTR_FLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "ktraceb/ktr.h"

#define KTR_FLIGHT_COMPACT 0x1 /* -R size,compact */
#define KTR_FLIGHT_ON_EXIT 0x2 /* -R size,exit: a non-zero exit triggers too */
#define KTR_FLIGHT_FLAGS   (KTR_FLIGHT_COMPACT | KTR_FLIGHT_ON_EXIT)

#define KTR_FLIGHT_MIN_BYTES (64ull << 10)
#define KTR_FLIGHT_MAX_BYTES (4ull << 30)

struct ktr_flight;

struct ktr_flight *ktr_flight__new(__u64 bytes, unsigned int flags);
void ktr_flight__free(struct ktr_flight *fl);
__u64 ktr_flight__bytes(const struct ktr_flight *fl);

/*
 * Keep one record (header and payload, len bytes in all).  Returns true
 * when it is a trigger: the ring is frozen from then on until reset.
 */
bool ktr_flight__add(struct ktr_flight *fl, const struct ktr_header *h, size_t len);

/* Why and by whom the ring froze (KTR_FLIGHT_CRASH, _EXIT; 0 if not frozen). */
void ktr_flight__trigger(const struct ktr_flight *fl, __u32 *why, __s32 *pid, __s32 *status);

/*
 * Hand every kept record to fn in order: the KTR_FLIGHT header of the ring,
 * its records, then the KTR_FLIGHT header of the per-CPU last records and
 * those.  Records are whole and their headers may be marked
 * KTRH_OUT_OF_ORDER.  Returns the first non-zero fn result, or 0.
 */
typedef int (*ktr_flight_fn)(void *ctx, const struct ktr_header *h, size_t len);
int ktr_flight__walk(struct ktr_flight *fl, __u32 why, ktr_flight_fn fn, void *ctx);

/* Empty the ring and unfreeze it (after a trigger's dump). */
void ktr_flight__reset(struct ktr_flight *fl);

#endif /* KTRACEB_KTR_FLIGHT_H */
