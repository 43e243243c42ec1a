/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A scan of one file a traced process maps, made outside the daemon: a
 * child process, forked for it, takes the credentials of the trace's owner
 * (all of them: uid, gid, groups, no capability), opens the file as the
 * process sees it, checks it is the file mapped, reads its USDT notes
 * (common/ktr_usdt_notes.h: linear, capped), faults the process's read-only
 * mappings of it in (a probe's string argument in a page nobody touched
 * yet would read as nothing in BPF), and sends back the notes and its
 * descriptor of the file.  The daemon's loop never waits for it: a file
 * that is huge, hostile or on a filesystem that never answers costs a
 * child its time (KTR_USDT_JOB_MS at most, then it is killed), not the
 * daemon and not the other traces; the daemon believes nothing of the
 * answer it did not check.
 */
#ifndef KTRACEB_KTR_USDT_JOB_H
#define KTRACEB_KTR_USDT_JOB_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "ktr_usdt_elf.h"

#define KTR_USDT_JOB_MS	   5000 /* a scan taking longer is killed */

struct ktr_usdt_job;

/* What a scan asks for: the mapping of pid to scan, as whom. */
struct ktr_usdt_job_spec {
	pid_t pid;
	unsigned long start, end;	/* one executable mapping of the file */
	unsigned long pgoff;		/* the file offset at start */
	dev_t dev;			/* the mapping's file, as /proc/PID/maps shows it */
	ino_t ino;
	char path[4096];		/* its path there, as the process sees it */
	uid_t uid;			/* credentials the child takes */
	gid_t gid;
	bool want_notes;		/* the file is new to the daemon: read its notes */
	bool want_build_id;		/* and its build id (ktraceb -k: ktr_usdt.h's objects) */
	unsigned long rodata;		/* the daemon's: its read-only mappings then (ktr_usdt.c) */
};

/* What it found. */
struct ktr_usdt_job_result {
	int error;			/* 0, or -errno: then why says what failed */
	struct ktr_object_id object;	/* want_build_id: the file's (build_id_len 0: none) */
	char why[320];
	int fd;				/* the file, open for reading (-1 if none) */
	dev_t st_dev;			/* its identity and change time (ns), as the */
	ino_t st_ino;			/* daemon's fstat(2) of fd tells them */
	__u64 ctime_ns;
	int nnotes;			/* notes kept, at most KTR_USDT_FILE_NOTES */
	int seen;			/* notes the file has */
	struct ktr_usdt_note *notes;	/* malloc'ed, nnotes of them */
};

/* Start a scan; NULL with errno set if no child could be started. */
struct ktr_usdt_job *ktr_usdt_job__start(const struct ktr_usdt_job_spec *spec);

/* The descriptor to poll for the answer (readable, or hung up). */
int ktr_usdt_job__fd(const struct ktr_usdt_job *job);

/*
 * Read what arrived: true when the scan is over (its answer in *res, the
 * result's notes and fd now the caller's), false while it goes on.  A
 * child past its time (now_ms) is killed, and the scan fails.
 */
bool ktr_usdt_job__poll(struct ktr_usdt_job *job, long long now_ms,
			struct ktr_usdt_job_result *res);

const struct ktr_usdt_job_spec *ktr_usdt_job__spec(const struct ktr_usdt_job *job);

/* Kill the child if it still runs; free the job (its child is reaped later). */
void ktr_usdt_job__free(struct ktr_usdt_job *job);

/* Reap the children of finished scans that had not exited yet. */
void ktr_usdt_job__reap(void);

#endif /* KTRACEB_KTR_USDT_JOB_H */
