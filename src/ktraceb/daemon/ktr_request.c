// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What a request may ask, and doing it.  Every field is checked against
 * the caller pinned at accept (ktr_creds.h) before anything changes:
 * unknown ops, flags or facility bits are refused, KTRFAC_ROOT never comes
 * from a request, AWAIT_EXEC only names the caller's own child that has
 * not exec'd yet, GZIP only comes with a SET, SYSWIDE only from root with
 * kernel events, a file named by its inode (CLEARINODE) only by root in
 * root's daemon, and a trace file is joined only as ktr_files.h says.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ktraceb/bpf_shared.h"
#include "ktr_clock.h"
#include "ktr_daemon_priv.h"
#include "ktr_flight.h"
#include "ktr_loader.h"
#include "ktr_recorder.h"
#include "common/ktr_proto.h"
#include "ktr_tp.h"
#include "common/ktr_tracefs.h"

static bool same_exe(pid_t a, pid_t b)
{
	char pa[64], pb[64];
	struct stat sa, sb;

	snprintf(pa, sizeof(pa), "/proc/%d/exe", a);
	snprintf(pb, sizeof(pb), "/proc/%d/exe", b);
	return stat(pa, &sa) == 0 && stat(pb, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * AWAIT_EXEC records nothing until the target's next execve: only for a
 * child the caller itself forked and still holds before its exec (ktraceb
 * command mode), which is still running the caller's own program.
 */
static bool request__own_held_child(const struct ktr_caller *c, pid_t pid)
{
	if (c->uid == 0)
		return true;
	return ktr_procs__tgid(pid) == pid && ktr_procs__parent(pid) == c->pid &&
	       same_exe(pid, c->pid) && ktr_caller__alive(c);
}

static bool request__pid_ok(__s32 pid)
{
	return pid != 0 && pid != INT_MIN;
}

/*
 * The event names of a request: each NUL-terminated, NUL-padded and a
 * well-formed name or glob, the used ones first.  How many, or -1 with *bad.
 */
static int request__events(const struct ktr_request *req, const char **bad)
{
	static const char zero[KTR_TP_NAME_MAX];
	int n = 0;

	for (int i = 0; i < KTR_TP_REQ_MAX; i++) {
		const char *e = req->events[i];
		size_t len = strnlen(e, KTR_TP_NAME_MAX);
		const char *why;

		if (len == KTR_TP_NAME_MAX) {
			*bad = "event name too long";
			return -1;
		}
		if (memcmp(e + len, zero, KTR_TP_NAME_MAX - len) != 0) {
			*bad = "event name not NUL-padded";
			return -1;
		}
		if (len == 0)
			continue;
		if (n != i) {
			*bad = "event names not packed";
			return -1;
		}
		if (!ktr_tracefs__name_ok(e, true, &why)) {
			*bad = why;
			return -1;
		}
		n++;
	}
	return n;
}

/* Is the request well formed and may this caller make it?  0 or -errno with a line in msg. */
static int request__check(const struct daemon *d, const struct ktr_caller *c,
			  const struct ktr_request *req, int fd, char *msg)
{
	bool clear = req->op == KTR_OP_CLEAR || req->op == KTR_OP_CLEARFILE ||
		     req->op == KTR_OP_CLEARALL || req->op == KTR_OP_CLEARINODE;
	bool syswide = req->flags & KTR_REQ_SYSWIDE;
	const char *bad = NULL;
	int nevents = request__events(req, &bad);

	/* a user's daemon serves its user, and root's clears (ktraceb -C) */
	if (!d->shared && c->uid != d->owner && !(c->uid == 0 && clear)) {
		ktr_proto__msg_add(msg, "this ktraceb daemon serves uid %u only\n", d->owner);
		return -EPERM;
	}
	if (!c->same_pidns) {
		ktr_proto__msg_add(msg, "caller is in another pid namespace\n");
		return -EPERM;
	}
	if (nevents < 0)
		; /* bad says why */
	else if (req->op < KTR_OP_SET || req->op > KTR_OP_CLEARINODE)
		bad = "unknown operation";
	else if (req->op != KTR_OP_CLEARINODE && (req->file_dev || req->file_ino))
		bad = "file identity only a CLEARINODE takes";
	else if (req->op == KTR_OP_CLEARINODE && (req->pid || req->facs))
		bad = "process or facilities in a CLEARINODE";
	else if (req->facs & ~KTR_REQ_FACS)
		bad = "unknown facility bits";
	else if (req->flags & ~KTR_REQ_FLAGS)
		bad = "unknown flags";
	else if (req->reserved)
		bad = "reserved fields set";
	else if (req->op != KTR_OP_SET && (req->flight_bytes || req->flight_flags))
		bad = "recorder fields only a SET takes";
	else if (!req->flight_bytes && req->flight_flags)
		bad = "recorder flags without a recorder";
	else if ((req->op == KTR_OP_SET || req->op == KTR_OP_CLEARFILE || req->op == KTR_OP_DUMP) !=
		 (fd >= 0))
		bad = fd >= 0 ? "descriptor not expected" : "no trace file descriptor";
	else if ((req->op == KTR_OP_SET || req->op == KTR_OP_CLEAR) && !request__pid_ok(req->pid) &&
		 !(syswide && req->pid == 0))
		bad = "no process or process group";
	else if (req->op != KTR_OP_SET && (req->flags & ~KTR_REQ_DESCEND))
		bad = "flags only a SET takes";
	else if (req->op == KTR_OP_SET &&
		 (!(req->facs & KTRFAC_MASK) || req->iosize > KTR_IOSIZE_MAX))
		bad = "no facility, or I/O size too large";
	else if (req->op != KTR_OP_SET && nevents)
		bad = "event names only a SET takes";
	else if ((req->flight_flags & KTR_FLIGHT_COMPACT) && nevents)
		bad = "kernel events are not for a compact recorder (-R ...,compact)";
	else if (req->flight_bytes && syswide)
		bad = "system-wide (-S) is not for a recorder (-R)";
	else if (req->op == KTR_OP_SET && !(req->facs & KTRFAC_TRACEPOINT) != !nevents)
		bad = "kernel events without their facility, or the facility without events";
	else if (syswide && !nevents)
		bad = "system-wide (-S) is for kernel events (-e)";
	else if (syswide && req->pid == 0 && (req->flags & ~(KTR_REQ_SYSWIDE | KTR_REQ_GZIP)))
		bad = "flags for a process, and no process";
	else if ((req->flags & KTR_REQ_AWAIT_EXEC) &&
		 (req->pid < 0 || (req->flags & KTR_REQ_DESCEND) ||
		  !request__own_held_child(c, req->pid)))
		bad = "await-exec is only for your own child before its exec";
	if (bad) {
		ktr_proto__msg_add(msg, "bad request: %s\n", bad);
		return -EINVAL;
	}
	/*
	 * A file named by its identity, with no descriptor to prove the caller
	 * may write it: root's, to a user's daemon, which holds only its
	 * user's files (ktr_others.h).  Root's daemon takes it from root alone.
	 */
	if (req->op == KTR_OP_CLEARINODE && d->shared && c->uid != 0) {
		ktr_proto__msg_add(msg, "a trace file named by its inode: root's alone here\n");
		return -EPERM;
	}
	/* every task's events, other users' included: root's alone, as KTR and ktrdump */
	if (syswide && c->uid != 0) {
		ktr_proto__msg_add(msg, "-S: system-wide tracing is root's alone\n");
		return -EPERM;
	}
	return 0;
}

/* The processes a SET or CLEAR names; 0 with a line in msg if none. */
static int request__collect(const struct ktr_request *req, pid_t **pids, char *msg)
{
	/* a thread id names its process, as everywhere in the daemon */
	int tgid = req->pid > 0 ? ktr_procs__tgid(req->pid) : req->pid, n = 0;

	*pids = NULL;
	if (req->pid < 0 || tgid > 0)
		n = ktr_procs__collect(tgid, req->flags & KTR_REQ_DESCEND, pids);
	if (n > 0)
		return n;
	free(*pids);
	*pids = NULL;
	if (req->pid > 0)
		ktr_proto__msg_add(msg, "pid %d: no such process\n", req->pid);
	else
		ktr_proto__msg_add(msg, "process group %d: no such process group\n", -req->pid);
	return 0;
}

/* May cn be the foreground of route r (get its DONE, stop it)? */
static int request__foreground(struct daemon *d, struct ktr_conn *cn, int r, char *msg)
{
	struct ktr_tracefile *f = ktr_files__get(d->files, r);

	if (cn->cred.uid != 0 && cn->cred.uid != f->owner) {
		ktr_proto__msg_add(msg, "%s: a trace of uid %u\n", ktr_tracefile__path(f),
				   f->owner);
		return -EPERM;
	}
	if (f->fg && f->fg != cn) {
		ktr_proto__msg_add(msg, "%s: another ktraceb already waits for this trace\n",
				   ktr_tracefile__path(f));
		return -EBUSY;
	}
	return 0;
}

/*
 * The request as file r takes it: a compact recorder keeps only returns,
 * signals and exits, so the programs need not even build the rest.
 */
static const struct ktr_request *request__for_file(struct daemon *d, const struct ktr_request *req,
						   int r, struct ktr_request *eff)
{
	const struct ktr_tracefile *f = ktr_files__get(d->files, r);

	if (!f || !f->flight || !(ktr_flight__meta(f->flight)->flags & KTR_FLIGHT_COMPACT))
		return req;
	*eff = *req;
	eff->facs &= KTRFAC_SYSRET | KTRFAC_PSIG | ~KTRFAC_MASK;
	return eff;
}

/* -e: the events resolved by the daemon, before anything changes; NULL if none asked. */
static int request__resolve(const struct ktr_request *req, struct ktr_tp_set **set, char *msg)
{
	unsigned int n = 0;

	*set = NULL;
	while (n < KTR_TP_REQ_MAX && req->events[n][0])
		n++;
	return n ? ktr_tp__resolve(req->events, n, set, msg) : 0;
}

/*
 * The request without the facilities this kernel cannot record (a program
 * it refused, a feature it lacks), each said in one line: the rest runs.
 */
static const struct ktr_request *request__for_kernel(const struct ktr_request *req,
						     struct ktr_request *eff, char *msg)
{
	static const struct {
		__u32 fac;
		const char *what;
	} optional[] = {
		{ KTRFAC_CSW, "-t w: context switches" },
		{ KTRFAC_USER, "-t u: USDT probes" },
		{ KTRFAC_TRACEPOINT, "-e: kernel events" },
	};
	const struct ktr_request *out = req;

	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++) {
		const char *why = ktr_loader__missing(optional[i].fac);

		if (!(req->facs & optional[i].fac) || !why)
			continue;
		ktr_proto__msg_add(msg, "%s are not recorded on this kernel: %s\n",
				   optional[i].what, why);
		if (out == req)
			*eff = *req;
		out = eff;
		eff->facs &= ~optional[i].fac;
		if (optional[i].fac == KTRFAC_TRACEPOINT)
			memset(eff->events, 0, sizeof(eff->events));
	}
	return out;
}

static int request__set(struct daemon *d, struct ktr_conn *cn, const struct ktr_request *req,
			int fd, char *msg, int *err)
{
	struct ktr_tp_set *set;
	int r, n, done;
	struct ktr_request eff, avail;
	pid_t *pids;

	req = request__for_kernel(req, &avail, msg);
	if (!(req->facs & KTRFAC_MASK) || ((req->flags & KTR_REQ_SYSWIDE) && !req->events[0][0])) {
		*err = -ENOTSUP;
		close(fd);
		return 0;
	}

	/* root's daemon: a user's kernel events only where perf would allow them */
	*err = req->events[0][0] && d->shared && cn->cred.uid != 0 ? ktr_tp__user_may(msg) : 0;
	if (!*err)
		*err = request__resolve(req, &set, msg);
	if (*err) {
		close(fd);
		return 0;
	}
	r = ktr_files__join(d->files, &cn->cred, fd, req->flight_bytes, req->flight_flags,
			    req->flags & KTR_REQ_GZIP, msg);
	if (r < 0) {
		ktr_tp__set_free(set);
		*err = r;
		return 0;
	}
	/* formats written and events attached before any process records a hit */
	if (set && (*err = ktr_tp__want(d->tp, r, ktr_files__get(d->files, r), set, msg)))
		return 0;
	if ((req->flags & KTR_REQ_FOREGROUND) && (*err = request__foreground(d, cn, r, msg)))
		return 0;
	if ((*err = ktr_daemon__attach(d))) {
		ktr_proto__msg_add(msg, "cannot attach the BPF programs: %s\n", strerror(-*err));
		return 0;
	}
	ktr_daemon__enter(d); /* before the processes are set: no CALL is missed */
	if ((req->flags & KTR_REQ_SYSWIDE) &&
	    (*err = ktr_daemon__syswide(d, r, req->pid == 0, msg)))
		return 0;
	if (req->pid == 0)
		return 1; /* system-wide alone: the machine, no process */
	n = request__collect(req, &pids, msg);
	if (n == 0) {
		*err = -ESRCH;
		return 0;
	}
	done = ktr_procmap__set(d, &cn->cred, request__for_file(d, req, r, &eff), pids, n, r, msg);
	free(pids);
	*err = done ? 0 : -EPERM;
	if (done && (req->flags & KTR_REQ_FOREGROUND))
		ktr_tracefile__wait(ktr_files__get(d->files, r), cn);
	/* switches from the first moment on, not from the next tick */
	if (done && (req->facs & KTRFAC_CSW))
		ktr_daemon__csw(d, true);
	/* a recording outlives a daemon killed from now on, not from the next tick */
	if (done && req->flight_bytes)
		ktr_daemon__pins(d);
	return done;
}

static int request__clear(struct daemon *d, struct ktr_conn *cn, const struct ktr_request *req,
			  char *msg, int *err)
{
	pid_t *pids;
	int n = request__collect(req, &pids, msg), done = 0;

	*err = -ESRCH;
	if (n == 0)
		return 0;
	for (int i = 0; i < n; i++)
		done += ktr_procmap__clear(d, &cn->cred, pids[i], req->facs, msg, false) == 0;
	free(pids);
	*err = done ? 0 : -EPERM;
	return done;
}

/* CLEARFILE (-c) and CLEARALL (-C): every traced process the caller may clear. */
static int request__clear_all(struct daemon *d, struct ktr_conn *cn, int r, char *msg)
{
	__u32 *keys;
	int n = ktr_procmap__keys(d, r, &keys), done = 0;

	/* -C passes over what the caller may not clear, silently (BSD) */
	for (int i = 0; i < n; i++)
		done += ktr_procmap__clear(d, &cn->cred, keys[i], 0, msg, r < 0) == 0;
	free(keys);
	return done;
}

/* -c of the system-wide trace's file, or -C: root ends it.  Ended? */
static bool request__end_syswide(struct daemon *d, struct ktr_conn *cn, int r)
{
	if (!d->syswide_route || (__u32)r != d->syswide_route || cn->cred.uid != 0)
		return false;
	ktr_daemon__syswide_end(d); /* the next tick finishes its file */
	return true;
}

/* -D: the recorder's ring, written now; the recording goes on. */
static int request__dump(struct daemon *d, struct ktr_conn *cn, int fd, char *msg, int *err)
{
	int r = ktr_files__own_fd(d->files, &cn->cred, fd, msg);
	unsigned long long n = 0;
	struct ktr_tracefile *f;

	close(fd);
	*err = r < 0 ? r : 0;
	if (r < 0)
		return 0;
	f = ktr_files__get(d->files, r);
	if (cn->cred.uid != 0 && cn->cred.uid != f->owner) {
		ktr_proto__msg_add(msg, "%s: a recording of uid %u\n", ktr_tracefile__path(f),
				   f->owner);
		*err = -EPERM;
		return 0;
	}
	if (!f->flight) {
		ktr_proto__msg_add(msg, "%s: a trace, not a recording (-R)\n",
				   ktr_tracefile__path(f));
		*err = -EINVAL;
		return 0;
	}
	if (ktr_now_ms() - f->last_dump_ms < KTR_DUMP_INTERVAL_MS) {
		ktr_proto__msg_add(msg, "%s: dumped less than %d ms ago\n", ktr_tracefile__path(f),
				   KTR_DUMP_INTERVAL_MS);
		*err = -EBUSY;
		return 0;
	}
	ktr_daemon__drain(d); /* everything recorded until now */
	*err = ktr_recorder__dump(f, KTR_FLIGHT_DEMAND, &n);
	f->last_dump_ms = ktr_now_ms();
	if (*err)
		ktr_proto__msg_add(msg, "%s: %s\n", ktr_tracefile__path(f), strerror(-*err));
	return (int)(n > INT_MAX ? INT_MAX : n);
}

void ktr_request__handle(struct daemon *d, struct ktr_conn *cn, const struct ktr_request *req,
			 int fd)
{
	char *msg = calloc(1, KTR_REPLY_MSG_MAX);
	int err, done = 0, r;

	if (!msg) {
		if (fd >= 0)
			close(fd);
		cn->dead = true;
		return;
	}
	d->req_msg = msg; /* warnings made while serving it are its answer's */
	err = request__check(d, &cn->cred, req, fd, msg);
	if (err) {
		if (fd >= 0)
			close(fd);
	} else if (req->op == KTR_OP_SET) {
		done = request__set(d, cn, req, fd, msg, &err);
	} else if (req->op == KTR_OP_CLEAR) {
		done = request__clear(d, cn, req, msg, &err);
	} else if (req->op == KTR_OP_CLEARFILE || req->op == KTR_OP_CLEARINODE) {
		/* only a file this daemon already writes: a descriptor or its identity */
		r = fd >= 0 ? ktr_files__find_fd(d->files, fd) :
			      ktr_files__find(d->files, req->file_dev, req->file_ino);
		if (fd >= 0)
			close(fd);
		done = r > 0 ? request__clear_all(d, cn, r, msg) : 0;
		done += r > 0 && request__end_syswide(d, cn, r);
		err = r > 0 && !done && msg[0] ? -EPERM : 0;
	} else if (req->op == KTR_OP_CLEARALL) {
		done = request__clear_all(d, cn, -1, msg);
		done += request__end_syswide(d, cn, (int)d->syswide_route);
	} else if (req->op == KTR_OP_DUMP) {
		done = request__dump(d, cn, fd, msg, &err);
	} else {
		/* STOP: the foreground trace of this connection, no answer but DONE */
		for (r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r))
			if (ktr_files__get(d->files, r)->fg == cn)
				ktr_daemon__stop_file(d, r, 0, NULL);
		d->req_msg = NULL;
		free(msg);
		return;
	}
	d->req_msg = NULL;
	ktr_conn__reply(cn, KTR_REPLY_RESULT, -err, done, msg, 0, 0, d->ring_bytes);
	free(msg);
}
