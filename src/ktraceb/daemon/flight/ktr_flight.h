/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A flight recorder's ring (ktraceb -R): the records of one recording,
 * kept by the BPF programs in a BPF array of their own (bpf_flight.h), the
 * oldest overwritten when a new one needs room; nothing reaches the daemon
 * or the disk until a trigger.  A traced process killed by a signal that
 * dumps core (or, with KTR_FLIGHT_F_ON_EXIT, one that exits non-zero)
 * freezes the ring in BPF: what follows (other threads, a restart) cannot
 * overwrite the records that led to it before they are written (those are
 * counted as recorded, not kept, like the overwritten ones).  Each CPU has
 * a region of its own, so a busy CPU cannot push out the last steps of a
 * thread stopped on another; the dump repeats each CPU's last record
 * before the crash began after the ring.
 *
 * Compact entries (KTR_FLIGHT_F_COMPACT) keep only the essentials of each
 * syscall: its return (time, pid, tid, number, error, value), and the PSIG
 * and EXIT that end a crash, one 64-byte slot each where a CALL and RET
 * pair takes four: four times the history in the same memory.
 */
#ifndef KTRACEB_KTR_FLIGHT_H
#define KTRACEB_KTR_FLIGHT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "ktraceb/ktr.h"
#include "common/ktr_proto.h"
#include "common/ktr_usdt_sel.h"

/*
 * Who a recording belongs to and where it goes, kept in its ring (the
 * daemon's part of it), so that a daemon started after this one died can
 * still write it (ktr_flight__adopt).
 */
#define KTR_FLIGHT_META_MAGIC 0x4b544652 /* "KTFR" */
#define KTR_FLIGHT_FILE_GZIP  0x1	   /* -z: each dump a gzip member */
struct ktr_flight_meta {
	__u32 magic;
	__u32 route;
	__u32 uid, gid; /* the file's owner, the caller */
	__u64 dev, ino; /* the file */
	__u64 bytes;
	__u32 flags;
	__u32 file_flags; /* KTR_FLIGHT_FILE_*: how the file is written */
	char path[PATH_MAX]; /* the file's path when the recording began */
	char usdt[KTR_USDT_SEL_TEXT]; /* its USDT patterns, for a daemon that takes it over */
};

struct ktr_flight;

/* Where the programs find the recordings: the two maps of maps, by route. */
struct ktr_flight_maps {
	int rings_fd; /* flights: the rings */
	int ctls_fd; /* flight_ctls: their control maps */
};

/* The smallest ring this machine's CPUs can share (each region its largest record twice). */
__u64 ktr_flight__min_bytes(void);

/*
 * A ring of bytes (rounded down to whole slots) for route, with its control
 * map, put into maps where the programs find them; NULL with errno.
 */
struct ktr_flight *ktr_flight__new(const struct ktr_flight_maps *maps, __u32 route, __u64 bytes,
				   unsigned int flags, const struct ktr_flight_meta *meta);
/*
 * A ring laid out in mem (bytes, zeroed here) as the BPF map is, for ncpu
 * CPUs: for tools and tests that fill or read one outside BPF.  mem stays
 * the caller's.
 */
struct ktr_flight *ktr_flight__of_memory(void *mem, __u64 bytes, int ncpu, unsigned int flags);

/*
 * A ring a dead daemon pinned (fd, its pin; its control map's pin is found
 * by route), put into maps at route: NULL with errno (and fd closed) if it
 * is not one of ours or not consistent.
 */
struct ktr_flight *ktr_flight__open(int fd, const struct ktr_flight_maps *maps, __u32 route,
				    const char *pin);
/* Out of the maps, unpinned, gone. */
void ktr_flight__free(struct ktr_flight *fl);
__u64 ktr_flight__bytes(const struct ktr_flight *fl);
const struct ktr_flight_meta *ktr_flight__meta(const struct ktr_flight *fl);
/* Its USDT patterns, kept with it (meta->usdt). */
void ktr_flight__set_usdt(struct ktr_flight *fl, const char *text);

/* A trigger froze the ring: it waits to be written. */
bool ktr_flight__frozen(const struct ktr_flight *fl);

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
