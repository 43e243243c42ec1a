/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * USDT probes of the processes traced with 'u' (bpf/user.bpf.c records
 * their hits).
 *
 * Attached per traced process: the probe sites of each file a traced
 * process maps that its trace file's patterns arm (the ktraceb provider's
 * always, others only as -e usdt: names them: ktr_usdt_sel.h) get uprobes
 * filtered to that process (one uprobe_multi
 * link with its pid, 6.6 and later with the process-wide pid filter; else
 * a uprobe perf event per site opened for the pid), so a process nobody
 * traces pays nothing, not even a trap, for somebody else's -t u.  The
 * kernel arms and disarms the probes' semaphores itself (each uprobe
 * carries its semaphore's offset, the reference counter): it raises them
 * in a traced process's memory as the probes go in, lowers them as they
 * come out (a clear, the process's exit, the daemon's), and the daemon
 * never writes into a process's memory.
 *
 * Each file is scanned outside the daemon, by a child with the trace
 * owner's credentials (ktr_usdt_job.h), which is also the check that the
 * owner may read it; the daemon attaches what the scan found when it
 * arrives, and continues a process stopped for its probes (KTR_PS_HOLD)
 * once the scans it waits for are over.  A file's notes and descriptor
 * are kept while some traced process uses it, and no longer.
 */
#ifndef KTRACEB_KTR_USDT_H
#define KTRACEB_KTR_USDT_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "daemon/programs/ktr_loader.h"
#include "ktr_usdt_elf.h"

struct ktr_bpf;
struct ktr_usdt;
struct ktr_usdt_sel;

/* What the daemon is told. */
struct ktr_usdt_hooks {
	/* something about pid's probes went wrong: one line, no newline */
	void (*warn)(void *ctx, pid_t pid, const char *line);
	/* pid, stopped for its probes, may go on: its scans are over */
	void (*release)(void *ctx, pid_t pid);
	/*
	 * Is pid still traced with 'u'?  Asked right before its probes go in:
	 * a set-id exec since its file was scanned ends its tracing (BPF
	 * drops it), and nothing is then attached to, or raised in, it.
	 */
	bool (*traced)(void *ctx, pid_t pid);
	/* pid maps the object at path, of that build id, there (a process traced with -k) */
	void (*object)(void *ctx, pid_t pid, const struct ktr_object_id *id, const char *path,
		       const struct ktr_object_map *where);
	void *ctx;
};

/* What a process's files are scanned for (ktr_usdt__scan). */
#define KTR_USDT_PROBES	 0x1 /* 'u': their USDT probes, attached */
#define KTR_USDT_OBJECTS 0x2 /* -k: their build ids and paths, told (hooks.object) */

/* mode: ktr_loader__usdt_mode(); with KTR_USDT_NONE nothing is ever attached. */
struct ktr_usdt *ktr_usdt__new(struct ktr_bpf *b, enum ktr_usdt_mode mode,
			       const struct ktr_usdt_hooks *hooks);
/* Detach every probe, end every scan (released, each process held for one). */
void ktr_usdt__free(struct ktr_usdt *u);

/* A descriptor that is readable when a scan has something to say. */
int ktr_usdt__fd(const struct ktr_usdt *u);
/* Take what the scans say (and end those past their time): at readable, and each tick. */
void ktr_usdt__poll(struct ktr_usdt *u);

/*
 * Process pid, traced with 'u' or -k (want: KTR_USDT_*) into a file owned
 * by uid/gid, maps what /proc/pid/maps says: attach what is new, and tell
 * the objects' build ids, looking at the files first.  exec: it has a new
 * image (what was attached for the old one goes).  held: it is stopped
 * until its scans are over (hooks.release).  sel: the file's USDT
 * patterns, which probes beside the ktraceb provider's it arms (NULL:
 * those alone; other patterns than before: what it armed goes first).
 * Returns how many scans it waits for, or -errno.
 */
int ktr_usdt__scan(struct ktr_usdt *u, pid_t pid, uid_t uid, gid_t gid, bool exec, bool held,
		   unsigned int want, const struct ktr_usdt_sel *sel);

/* pid forked child: a child traced with the parent gets the parent's probes. */
void ktr_usdt__fork(struct ktr_usdt *u, pid_t pid, pid_t child, bool child_traced);

/* pid is no longer traced with 'u' (cleared, or gone): its probes go. */
void ktr_usdt__forget(struct ktr_usdt *u, pid_t pid);

/* The processes it keeps state for, to check against the procs map. */
int ktr_usdt__pids(const struct ktr_usdt *u, pid_t **out);

#endif /* KTRACEB_KTR_USDT_H */
