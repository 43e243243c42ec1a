/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The state of the daemon's USDT support (ktr_usdt.h is its face), shared
 * by its parts: the daemon's calls (ktr_usdt.c), the traced processes and
 * what they map (ktr_usdt_proc.h), the scans of their files, run within
 * each user's limits (ktr_usdt_scan.h, each scan a child: ktr_usdt_job.h),
 * the probes attached and taken out (ktr_usdt_attach.h), and the files
 * with probes, their sites described to BPF (ktr_usdt_file.h).  Each part
 * calls only the parts listed after it.
 */
#ifndef KTRACEB_KTR_USDT_STATE_H
#define KTRACEB_KTR_USDT_STATE_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>

#include "ktraceb/bpf_usdt.h"
#include "common/ktr_proc_maps.h"
#include "common/ktr_usdt_sel.h"
#include "ktr_usdt.h"
#include "ktr_usdt_job.h"

/*
 * What one user may take of what every trace shares: probes attached (the
 * kernel keeps a consumer for each, per process), scans of files under way
 * and waiting, each its share of the pool (ktr_share.h).  Root's traces
 * count nothing.
 */
#define UID_SLOTS      64
#define SCANS_MAX      16 /* at once, all users */
#define SCANS_QUEUED   256

/* A file with probes, as a scan found it; kept while a traced process uses it. */
struct usdt_file {
	dev_t dev; /* as /proc/PID/maps and uprobes know it */
	ino_t ino;
	char *path; /* for messages */
	int fd; /* the scan's descriptor: what the probes are attached through */
	struct ktr_usdt_note *notes;
	int nnotes;
	__u32 *ids; /* the site id of each note, 0 if none was free */
	unsigned int uses;
	struct usdt_file *next;
};

/*
 * The probes some traced processes arm beside the ktraceb provider's
 * (their trace file's -e usdt: patterns), shared by those with the same.
 */
struct usdt_sel {
	struct ktr_usdt_sel sel;
	unsigned int refs;
	struct usdt_sel *next;
};

/* One process's probes in one file (none armed, if its patterns take in none there). */
struct usdt_use {
	struct usdt_file *f;
	int multi_fd; /* its uprobe_multi link, or -1 */
	int *links; /* else a perf-event uprobe per note (its link's descriptor, or -1) */
	unsigned int nprobes; /* attached, charged to the owner */
	unsigned long rodata; /* its read-only mappings when last faulted in (usdt_maps__rodata) */
};

#define USDT_CHECKED_MAX 16
struct usdt_proc {
	pid_t pid;
	uid_t owner; /* the trace's: charged for its probes */
	gid_t owner_gid;
	struct usdt_sel *sel; /* what it arms; NULL: the ktraceb provider's probes alone */
	struct usdt_use *uses;
	int nuses;
	unsigned int scans; /* scans it waits for */
	bool held; /* stopped until they end */
	bool probes; /* traced with 'u': its files' probes attached */
	bool objects; /* traced with -k: its objects' build ids told (hooks.object) */
	/*
	 * The files without probes it maps whose ctime the daemon has checked
	 * since its exec (ktr_usdt_file.h): each a statx, once, not at every
	 * scan; the oldest forgotten past USDT_CHECKED_MAX.
	 */
	struct usdt_file_id {
		dev_t dev;
		ino_t ino;
	} checked[USDT_CHECKED_MAX];
	unsigned int nchecked; /* how many checked so far: the next goes at nchecked % MAX */
	struct usdt_proc *next;
};

/*
 * An object file a scan read the build id of (-k), kept for the next
 * process that maps it: the last USDT_OBJECTS_MAX of them.
 */
#define USDT_OBJECTS_MAX 1024
struct usdt_object {
	dev_t dev;
	ino_t ino;
	struct ktr_object_id id; /* build_id_len 0: the slot is free */
	char *path;
};

/* A scan of a file for a process: running (job set) or waiting its turn. */
struct usdt_scan {
	struct ktr_usdt_job_spec spec;
	struct ktr_usdt_job *job;
	struct usdt_scan *next;
};

struct ktr_usdt {
	struct ktr_bpf *b;
	enum ktr_usdt_mode mode;
	struct ktr_usdt_hooks hooks;
	int sites_fd;
	int quiet_fd;
	int ep; /* the running scans' sockets */
	struct usdt_file *files;
	struct usdt_proc *procs;
	struct usdt_sel *sels;
	struct usdt_scan *scans;
	unsigned int nrunning, nqueued;
	struct usdt_object objects[USDT_OBJECTS_MAX];
	unsigned int next_object;
	unsigned char used_ids[KTR_MAX_USDT_SITES / 8];
	__u32 next_id;
	struct {
		uid_t uid;
		unsigned int probes;
		unsigned int scans;
	} charges[UID_SLOTS];
};

static inline void __attribute__((format(printf, 3, 4)))
usdt__warn(struct ktr_usdt *u, pid_t pid, const char *fmt, ...)
{
	char line[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (u->hooks.warn)
		u->hooks.warn(u->hooks.ctx, pid, line);
}

#endif /* KTRACEB_KTR_USDT_STATE_H */
