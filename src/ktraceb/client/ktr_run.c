// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The command's ways to run but one: -p/-g (and -S alone) start a trace
 * and return, -c/-C clear, -D dumps a recording (ktr_command.c runs a
 * command).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "common/ktr_cgroupfs.h"
#include "common/ktr_perm.h"
#include "common/ktr_pin_dir.h"
#include "common/ktr_proto.h"
#include "ktr_client.h"
#include "ktr_container.h"
#include "ktr_options.h"
#include "ktr_others.h"
#include "ktr_run.h"
#include "ktr_talk.h"
#include "ktr_trfile.h"

/* Is pid among the pids that follow "tracing stopped for pid" in line? */
static bool log__names(const char *line, pid_t pid)
{
	const char *p = strstr(line, "tracing stopped for pid");
	char *end;

	for (p = p ? p + strlen("tracing stopped for pid") : NULL; p && *p == ' '; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v == pid)
			return true;
	}
	return false;
}

/*
 * pid, not traced, after root's daemon ended: if the daemon's log says a
 * trace of it was stopped (a full disk, its file removed), say its last
 * such line, as the daemon would have.  Root alone reads the log.
 */
static void said_in_log(pid_t pid)
{
	char path[128], line[1024], last[1024] = "";
	FILE *f;

	ktr_client__log_path(path, sizeof(path));
	f = geteuid() == 0 ? fopen(path, "re") : NULL;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (log__names(line, pid))
			snprintf(last, sizeof(last), "%s", line);
	fclose(f);
	/* "TIME ktracebd[PID]: MESSAGE": said with its time (the pid may be another's now) */
	if (last[0] && strstr(last, "]: "))
		fprintf(stderr, "ktraceb: pid %d: not traced: its trace ended at %.*s: %s", pid,
			(int)strcspn(last, " "), last, strstr(last, "]: ") + 3);
}

/*
 * -G group: the group's path below the cgroup2 root and its id, into req
 * (KTR_REQ_CGROUP).  A group to clear may be gone (removed, its trace
 * waiting for it to be made again): its path is enough.  A container
 * (RUNTIME:NAME) is its first process's group, or, not running, the group
 * it will have, traced from when it is made (ktr_container.h).
 */
static void run__group(const struct ktr_options *o, struct ktr_request *req)
{
	char mnt[PATH_MAX], why[512], cpath[KTR_CGROUP_PATH_MAX];
	const char *group = o->group;
	int err, waits = 0;

	if (ktr_container__named(group)) {
		waits = ktr_container__resolve(group, cpath, sizeof(cpath), why, sizeof(why));
		if (waits < 0)
			errx(1, "-G %s: %s", o->group, why);
		group = cpath;
		if (!o->clear)
			ktr_container__label(o->group, req->container, sizeof(req->container));
	}
	if (ktr_cgroupfs__mount(mnt, sizeof(mnt)) < 0)
		errx(1,
		     "-G %s: no cgroup2 file system is mounted (cgroup v2; mount -t cgroup2 "
		     "none DIR)",
		     o->group);
	err = ktr_cgroupfs__resolve(mnt, group, req->cgroup, &req->cgroup_id, why, sizeof(why));
	if (err && !((o->clear || waits) && err == -ENOENT && ktr_cgroupfs__path_ok(req->cgroup)))
		errx(1, "-G %s", why);
	req->flags |= KTR_REQ_CGROUP;
	if (waits && !o->clear && err == -ENOENT) { /* not made yet: waited for */
		req->flags |= KTR_REQ_CGROUP_WAIT;
		warnx("-G %s: not running: its group %s is traced from when it starts", o->group,
		      req->cgroup);
	}
}

/*
 * No daemon runs, so nothing is traced: answer -c -p/-g as BSD would,
 * from the permission rules alone (the process must exist, and be ours).
 */
static int clear_untraced(const struct ktr_options *o)
{
	struct ktr_caller self;
	int tgid = o->pid > 0 ? ktr_procs__tgid(o->pid) : o->pid, n = 0, ok = 0;
	pid_t *pids = NULL;

	ktr_caller__self(&self);
	if (o->pid < 0 || tgid > 0)
		n = ktr_procs__collect(tgid, o->descend, &pids);
	if (n <= 0) {
		free(pids);
		if (o->pid > 0)
			warnx("pid %d: no such process", o->pid);
		else
			warnx("process group %d: no such process group", -o->pid);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		struct ktr_perm_no no;

		if (ktr_perm__canset(&self, &(struct ktr_target){ .pid = pids[i] }, &no) == 0)
			ok++;
		else
			warnx("pid %d: %s", pids[i], no.why);
		said_in_log(pids[i]);
	}
	free(pids);
	return ok ? 0 : 1;
}

/* -c, -C: clear; never starts a daemon (if none runs, nothing is traced). */
int ktr_run__clear(const struct ktr_options *o)
{
	struct ktr_request req = { 0 };
	struct ktr_reply rep;
	int sock, error = 0, fd = -1;

	if (o->clear && !o->pid && !o->group) {
		/* BSD opens the file to stop tracing into it: only a writer may */
		fd = open(o->tracefile, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			err(1, "%s", o->tracefile);
		req.op = KTR_OP_CLEARFILE;
	} else {
		req.op = o->clear_all ? KTR_OP_CLEARALL : KTR_OP_CLEAR;
		req.pid = o->pid;
		req.flags = o->descend ? KTR_REQ_DESCEND : 0;
		req.facs = o->facs_given ? (__u32)(o->facs & KTRFAC_MASK) : 0;
		if (o->group)
			run__group(o, &req);
	}
	sock = ktr_talk__connect(o, false, -1);
	if (sock >= 0)
		error = ktr_talk__request(o, &sock, &req, fd, &rep);
	else if (req.op == KTR_OP_CLEAR && !o->group)
		error = clear_untraced(o);
	/* a group is traced by the daemon that serves its caller alone */
	if (!o->group)
		ktr_others__clear(sock, &req, fd);
	if (fd >= 0)
		close(fd);
	return error ? 1 : 0;
}

/* -D: a recording's ring into its file now; the recording goes on. */
int ktr_run__dump(const struct ktr_options *o)
{
	struct ktr_request req = { .op = KTR_OP_DUMP };
	struct ktr_reply rep;
	int fd, sock, error;

	/* as -c: only a writer of the file may */
	fd = open(o->tracefile, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		err(1, "%s", o->tracefile);
	/* a daemon killed -9 left recordings: a new one takes them over (ktr_pin_dir.h) */
	sock = ktr_talk__connect(o, geteuid() == 0 && ktr_pin__left(), -1);
	if (sock < 0)
		errx(1, "%s: no recording (no ktraceb daemon runs)", o->tracefile);
	error = ktr_talk__request(o, &sock, &req, fd, &rep);
	close(fd);
	if (error)
		return 1;
	fprintf(stderr, "ktraceb: %u records written to %s\n", rep.count, o->tracefile);
	return 0;
}

/* -p, -g, -G: start tracing and return at once (or stay, with -F). */
int ktr_run__attach(const struct ktr_options *o)
{
	struct ktr_request req = { 0 };
	struct ktr_reply rep;
	int fd, sock, err;

	if (o->group)
		run__group(o, &req); /* before the file: a group that is not there makes none */
	fd = ktr_trfile__open(o);
	sock = ktr_talk__connect(o, true, fd);

	req.op = KTR_OP_SET;
	req.facs = o->facs;
	req.pid = o->pid;
	req.iosize = o->iosize;
	req.ustack_kib = o->ustack_kib;
	req.flags |= (o->descend ? KTR_REQ_DESCEND : 0) | (o->foreground ? KTR_REQ_FOREGROUND : 0) |
		     (o->gzip ? KTR_REQ_GZIP : 0) | (o->syswide ? KTR_REQ_SYSWIDE : 0) |
		     ktr_options__say_flags(o);
	req.flight_bytes = o->flight_bytes;
	req.flight_flags = o->flight_flags;
	req.ring_bytes = o->ring_given ? o->bpf.ring_bytes : 0;
	memcpy(req.events, o->events, sizeof(req.events));
	ktr_options__request_select(o, &req.select);
	err = ktr_talk__request(o, &sock, &req, fd, &rep);
	if (err || !rep.count)
		ktr_trfile__discard(o, fd);
	close(fd);
	if (err || !rep.count)
		return err == EOPNOTSUPP ? EX_UNAVAILABLE : 1;
	if (o->group)
		return o->foreground && ktr_talk__wait_done(o, sock, -1, NULL, NULL) ? 1 : 0;
	if (!o->pid)
		return 0; /* -S alone: the machine, no process */
	/* a process another daemon traced for us moves here: clear it there */
	req.op = KTR_OP_CLEAR;
	req.facs = 0;
	req.flags &= KTR_REQ_DESCEND;
	memset(req.events, 0, sizeof(req.events));
	ktr_others__clear(sock, &req, -1);
	if (!o->foreground)
		return 0;
	/* a daemon that ended is said once: the trace is over, nothing is left to wait for */
	return ktr_talk__wait_done(o, sock, -1, NULL, NULL) ? 1 : 0;
}
