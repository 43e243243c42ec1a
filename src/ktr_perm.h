/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * BSD's ktrcanset() on Linux credentials, and finding the processes a
 * request names (a pid, its descendants, a process group), from /proc.
 */
#ifndef KTRACEB_KTR_PERM_H
#define KTRACEB_KTR_PERM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

struct ktr_caller {
	pid_t pid;
	uid_t uid;
	gid_t gid;
};

/*
 * May caller set or clear tracing on process target, whose current facs
 * (0 if untraced) are given?  Root may, anyone else only if: the caller's
 * uid is the target's real uid and its real and saved uids are equal; the
 * caller's gid is the target's real gid and its real and saved gids are
 * equal; the target did not gain privileges by exec (it is dumpable); root
 * did not set its tracing (KTRFAC_ROOT).  Returns 0, or -errno with why set
 * to a short reason.
 */
int ktr_perm__canset(const struct ktr_caller *caller, pid_t target, __u32 facs, const char **why);

/* Is the caller in the pid namespace this process (the daemon) sees pids in? */
bool ktr_perm__same_pidns(pid_t caller);

/*
 * The processes a request names: pid > 0 that process (and with descend
 * every current descendant), pid < 0 the members of process group -pid
 * (and their descendants).  *out is malloc'ed; returns the count (0 if
 * none exist) or -errno.
 */
int ktr_procs__collect(pid_t pid, bool descend, pid_t **out);

/* The thread-group id of a pid (a thread id maps to its process), or -errno. */
int ktr_procs__tgid(pid_t pid);

#endif /* KTRACEB_KTR_PERM_H */
