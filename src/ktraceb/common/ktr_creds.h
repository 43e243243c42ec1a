/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's credentials: who a connection belongs to, pinned when it is
 * accepted, and the credentials trace-file writes are made with.
 *
 * A root daemon writes every trace file as the file's owner: fsuid and
 * fsgid set to the caller who created it and no effective capability, so
 * quotas, ext4's reserved blocks and any check the filesystem makes on
 * the writer see the user, never root (ktr_creds__as_owner).
 */
#ifndef KTRACEB_KTR_CREDS_H
#define KTRACEB_KTR_CREDS_H

#include <stdbool.h>
#include <sys/types.h>

struct ktr_caller;

/*
 * The caller behind an accepted connection: SO_PEERCRED's ids and pid (as
 * they were at connect(2)), a pidfd of that very process (SO_PEERPIDFD,
 * else pidfd_open, checked against a pid reused meanwhile), and whether it
 * lives in the daemon's pid namespace.  0 or -errno.
 */
int ktr_creds__pin(int sock, struct ktr_caller *c);
void ktr_creds__unpin(struct ktr_caller *c);

/* Is this process in the initial pid namespace (where BPF's pids are)? */
bool ktr_creds__init_pidns(void);

/*
 * Once, as the daemon starts: drop supplementary groups (a root daemon's
 * would count for the files' group checks) and capabilities nothing here
 * needs, keep the rest for loading and attaching BPF.
 */
void ktr_creds__daemon_setup(void);

struct ktr_saved_creds {
	uid_t fsuid;
	gid_t fsgid;
	bool caps_dropped;
};

/*
 * Act as uid/gid (fsuid, fsgid) with no effective capability until
 * ktr_creds__restore.  0, or -EPERM if the switch did not take (then
 * nothing must be written); restore is needed either way.
 */
int ktr_creds__as_owner(uid_t uid, gid_t gid, struct ktr_saved_creds *saved);
void ktr_creds__restore(struct ktr_saved_creds *saved);

/*
 * For good, in a child that works for a user: every id uid or gid, no
 * supplementary group, no capability (keep_read: only the capabilities
 * that read files and other processes' memory, for a child working for
 * root).  0 or -errno.
 */
int ktr_creds__become(uid_t uid, gid_t gid, bool keep_read);

#endif /* KTRACEB_KTR_CREDS_H */
