/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What a daemon killed (kill -9, a crash) leaves of its trace files, for
 * the next one: root's daemon keeps, in KTR_RUN_DIR/ktraceb-<build id>.files
 * (root's, 0600, mapped), a slot per route with the file's owner, its
 * identity and path, and how far it is written whole, which each file's
 * writer stores after every write-out (ktr_writer__publish: a store in
 * memory, no system call).  A daemon that ends as it should ends every
 * file and removes it; one that finds it at its start knows its last
 * daemon was killed: each file's records cut by the kill are cut off, and
 * its END says the daemon was killed (ktr_files__end_killed); a recording
 * taken over is cut back so too.
 */
#ifndef KTRACEB_KTR_FILESTATE_H
#define KTRACEB_KTR_FILESTATE_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#define KTR_FILESTATE_MAGIC	0x4b544653 /* "KTFS" */
#define KTR_FILESTATE_GZIP	0x1
#define KTR_FILESTATE_RECORDING 0x2

/* A route's slot: 4 KiB, the path last. */
struct ktr_filestate_slot {
	__u32 magic; /* KTR_FILESTATE_MAGIC while the route has a file */
	__u32 flags; /* KTR_FILESTATE_* */
	__u32 uid, gid;
	__u64 dev, ino;
	__u64 committed; /* bytes written whole: whole records, whole -z members */
	char path[4096 - 40];
};

/*
 * The state file of root's daemon mapped (a user's daemon has none: then
 * every other call does nothing); what a killed daemon left is read first
 * (ktr_filestate__left).  false if there is none.
 */
bool ktr_filestate__open(bool shared);
/* Removed at the daemon's end, every file ended. */
void ktr_filestate__close(bool remove);
/*
 * Each slot the last daemon left (it was killed): fn(ctx, route, slot).
 * Then they are forgotten.
 */
void ktr_filestate__left(void (*fn)(void *ctx, __u32 route, const struct ktr_filestate_slot *s),
			 void *ctx);
/* The slot the last daemon left for route, if it names (dev, ino); NULL if none. */
const struct ktr_filestate_slot *ktr_filestate__old(__u32 route, dev_t dev, ino_t ino);
/* Route r's file from now on; where its writer publishes its committed offset, or NULL. */
__u64 *ktr_filestate__set(__u32 r, uid_t uid, gid_t gid, dev_t dev, ino_t ino, unsigned int flags,
			  const char *path, __u64 committed);
/* Route r has no file any more. */
void ktr_filestate__clear(__u32 r);

#endif /* KTRACEB_KTR_FILESTATE_H */
