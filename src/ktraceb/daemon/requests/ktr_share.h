/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What each user may hold of what the daemon holds for users, one rule for
 * every pool: a user other than root holds at most a quarter of a pool,
 * and users together never take its last eighth, which is root's.  So one
 * user leaves three quarters to everyone else, and no user, alone or with
 * others, locks root out.  Root is held only to what the pool can hold at
 * all (its owner's own limit: map sizes, descriptors, memory).
 *
 * Each pool's owner counts what is held (by the user, by everyone) and asks
 * here before it gives a user more; man/ktraceb.1 (LIMITS) lists the pools.
 * Memory follows from the pools: a trace file's write buffer, a recorder's
 * ring, a connection's queued replies (the kernel's socket buffer: a client
 * that does not read is dropped) each belong to a pool here.
 */
#ifndef KTRACEB_KTR_SHARE_H
#define KTRACEB_KTR_SHARE_H

#include <stddef.h>
#include <sys/types.h>

enum ktr_pool {
	KTR_POOL_CONNS,	       /* connections */
	KTR_POOL_FILES,	       /* trace files, a write buffer each */
	KTR_POOL_SELECTS,      /* traces with a syscall selection (-e trace=, status=) */
	KTR_POOL_RECORDER_BYTES, /* recorders' rings (-R), in bytes (said in MiB) */
	KTR_POOL_EVENTS,       /* kernel events attached (-e subsys:event) */
	KTR_POOL_EVENT_USES,   /* (trace file, kernel event) pairs */
	KTR_POOL_USDT_PROBES,  /* USDT probes attached in traced processes */
	KTR_POOL_USDT_READS,   /* files being read for their probes, at once */
	KTR_POOL_USDT_WAITING, /* files waiting to be read */
	KTR_POOL_GROUPS,       /* traced cgroups (-G) */
	KTR_POOLS
};

/* How much the pool holds; a user's share of it (a quarter); what users together may hold. */
unsigned long long ktr_share__size(enum ktr_pool p);
unsigned long long ktr_share__user_max(enum ktr_pool p);
unsigned long long ktr_share__users_max(enum ktr_pool p);

/*
 * May uid have n more of pool p, holding mine of it now, while everyone
 * (root too) holds all?  Root always may.  0, or -EDQUOT (uid's share is
 * full) or -EUSERS (what users may hold of the pool is taken) with one
 * line saying which limit, without a newline, in why (size bytes; may be
 * NULL).
 */
int ktr_share__may(enum ktr_pool p, uid_t uid, unsigned long long mine, unsigned long long all,
		   unsigned long long n, char *why, size_t size);

#endif /* KTRACEB_KTR_SHARE_H */
