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

/*
 * Who asks, pinned when the connection was made (ktr_creds.c): the ids are
 * the kernel's SO_PEERCRED of the connecting process, never re-read by pid,
 * so a later exec or a change of hands of the socket changes nothing.  A
 * non-root caller is credited with no capabilities at all: whatever the
 * process holding the socket has now, the daemon cannot know it had them
 * when it asked.
 */
struct ktr_caller {
	pid_t pid;		/* the process that connected */
	uid_t uid;		/* its ids then (ktraceb never runs set-id: real = effective) */
	gid_t gid;
	int pidfd;		/* that process (liveness, Yama ancestry); -1 if unknown */
	bool same_pidns;	/* it lived in the daemon's pid namespace */
};

/* This process as a caller (ktraceb answering -c itself when no daemon runs). */
void ktr_caller__self(struct ktr_caller *c);
/* Is the process that connected still running (so its pid is still its own)? */
bool ktr_caller__alive(const struct ktr_caller *c);

/*
 * What the check is about: a process (pid > 0), or a traced cgroup (pid 0),
 * which has an owner (the user who traced it; untraced, its directory's
 * owner) but no process of its own.
 */
struct ktr_target {
	pid_t pid;
	uid_t owner;	/* a group's; a process's is its real uid, read in /proc */
	__u32 facs;	/* its tracing now (0: none; with KTRFAC_ROOT: root set it) */
};

/* Why the check refused: a line for the caller, and its kind (KTR_CGROUP_SKIP_*). */
struct ktr_perm_no {
	const char *why;
	int skip;
};

/*
 * BSD's ktrcanset(), the daemon's one ownership check, for every target
 * (-p, -g, -d, a traced group's members, the group itself, a pending entry
 * the tick settles) and every change of a tracing (set, moved to another
 * file, cleared): may caller set or clear tracing on target?  Root may,
 * anyone else only if root did not set its tracing (KTRFAC_ROOT) and the
 * target is his: for a group, he is its owner; for a process, his uid is
 * its real uid and its real and saved uids are equal, his gid its real gid
 * and its real and saved gids are equal, it did not gain privileges by
 * exec (it is dumpable) and holds no capability.  And Yama's ptrace_scope
 * allows it (1: only the caller's descendants; 2, 3: nobody but root).
 * Returns 0, -ESRCH (no such process, or it has exited) or -EPERM, with
 * no set to why.
 */
int ktr_perm__canset(const struct ktr_caller *caller, const struct ktr_target *t,
		     struct ktr_perm_no *no);

/*
 * Yama's rule alone, as ptrace(2) applies it to a caller without
 * CAP_SYS_PTRACE: scope 0 anyone, 1 only a descendant, 2 and 3 nobody.
 * 0 or -EPERM with why set.  scope < 0: read it from the kernel (0 where
 * Yama is not built in).
 */
int ktr_perm__yama(int scope, bool descendant, const char **why);
int ktr_perm__yama_scope(void);
/* Is target a descendant of ancestor (following parents up to init)? */
bool ktr_procs__descends(pid_t target, pid_t ancestor);

/*
 * The processes a request names: pid > 0 that process (and with descend
 * every current descendant), pid < 0 the members of process group -pid
 * (and their descendants).  *out is malloc'ed; returns the count (0 if
 * none exist) or -errno.
 */
int ktr_procs__collect(pid_t pid, bool descend, pid_t **out);

/*
 * The owners (real uids, as ktrcanset matches them) of the processes a
 * request names, as ktr_procs__collect finds them, each once: who else may
 * trace them.  *out is malloc'ed; returns the count (0 if none exist) or
 * -errno.
 */
int ktr_procs__owners(pid_t pid, bool descend, uid_t **out);

/* The thread-group id of a pid (a thread id maps to its process), or -errno. */
int ktr_procs__tgid(pid_t pid);
/* The parent process of a pid, or -errno. */
int ktr_procs__parent(pid_t pid);

#endif /* KTRACEB_KTR_PERM_H */
