// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What a request may ask, and doing it: one entry per kind of request in
 * the table below, with what it takes, its own rules, its permission and
 * its serving beside each other.  Every field is checked against the
 * caller pinned at accept (ktr_creds.h) before anything changes: unknown
 * ops, flags or facility bits are refused, KTRFAC_ROOT never comes from a
 * request, AWAIT_EXEC only names the caller's own child that has not
 * exec'd yet, GZIP only comes with a SET, SYSWIDE only from root with
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

#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_select.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "common/ktr_tracefs.h"
#include "daemon/ktr_clock.h"
#include "ktr_conn.h"
#include "daemon/files/ktr_ends.h"
#include "daemon/files/ktr_files.h"
#include "daemon/targets/ktr_groups.h"
#include "ktr_policy.h"
#include "daemon/targets/ktr_procmap.h"
#include "daemon/files/ktr_recorder.h"
#include "ktr_request.h"
#include "ktr_request_set.h"
#include "daemon/ktr_parts.h"
#include "daemon/files/ktr_stop.h"
#include "daemon/events/ktr_syswide.h"
#include "daemon/ktr_tick.h"

/* What a kind of request takes (every other field must be zero) and is. */
#define TAKES_FD       0x01 /* a trace file's descriptor comes with it */
#define TAKES_FILE_ID  0x02 /* file_dev, file_ino: a file named by its identity */
#define TAKES_RECORDER 0x04 /* flight_bytes, flight_flags */
#define TAKES_EVENTS   0x08 /* events[] */
#define TAKES_FLAGS    0x10 /* every KTR_REQ_* flag, not only KTR_REQ_DESCEND */
#define NEEDS_TARGET   0x20 /* a process or process group (pid) */
#define NO_TARGET      0x40 /* neither a process nor facilities */
#define CLEARS	       0x80 /* root's in a user's daemon too (ktraceb -C reaches them all) */
#define DONE_ONLY      0x100 /* answered by DONE alone */
#define TAKES_SELECT   0x200 /* select: a syscall selection */
#define TAKES_CGROUP   0x400 /* KTR_REQ_CGROUP, cgroup, cgroup_id: a cgroup instead of a pid */
#define TAKES_RING     0x800 /* ring_bytes: -b */

struct request_kind {
	unsigned int takes;
	/* its own rules, after those every request obeys: why it is malformed, or NULL */
	const char *(*check)(const struct ktr_caller *c, const struct ktr_request *req,
			     int nevents);
	/* may c make it, beyond what every request must?  0 or -EPERM with a line in msg */
	int (*may)(const struct ktr_parts *k, const struct ktr_caller *c,
		   const struct ktr_request *req, char *msg);
	/* serve it (fd taken over): how many processes set or cleared (records dumped), *err */
	int (*serve)(const struct ktr_parts *k, struct ktr_conn *cn, const struct ktr_request *req,
		     int fd, char *msg, int *err);
};

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

/* Why a request's USDT patterns are malformed (ktr_usdt_sel.h), or NULL. */
static const char *request__usdt(const char usdt[KTR_USDT_SEL_TEXT])
{
	static const char zero[KTR_USDT_SEL_TEXT];
	size_t len = strnlen(usdt, KTR_USDT_SEL_TEXT);
	struct ktr_usdt_sel sel;
	const char *why;

	if (len == KTR_USDT_SEL_TEXT)
		return "USDT patterns not NUL-terminated";
	if (memcmp(usdt + len, zero, KTR_USDT_SEL_TEXT - len) != 0)
		return "USDT patterns not NUL-padded";
	return ktr_usdt_sel__parse(&sel, usdt, &why) < 0 ? why : NULL;
}

/* Why a request's selections (syscalls, USDT probes) are malformed, or NULL. */
static const char *request__select(const struct ktr_request_select *sel, unsigned int takes)
{
	static const struct ktr_request_select none;

	if (!(takes & TAKES_SELECT))
		return memcmp(sel, &none, sizeof(none)) ? "syscall selection only a SET takes" :
							  NULL;
	if (sel->flags & ~KTR_SELECT_F_CALLS)
		return "unknown selection flags";
	if (sel->status & ~(KTR_SELECT_SUCCESSFUL | KTR_SELECT_FAILED))
		return "unknown selection status";
	if (!memchr(sel->text, '\0', sizeof(sel->text)))
		return "selection text not NUL-terminated";
	if (!sel->flags && !sel->status && sel->text[0])
		return "selection text without a selection";
	return request__usdt(sel->usdt);
}

/*
 * Answered when the files the clear stops have ended (ktr_stop__cleared):
 * serve's *err says so, and the answer is not sent now.
 */
#define ANSWER_LATER EINPROGRESS

/* The clear's answer waits for the ends of routes (n) if any ends: *err ANSWER_LATER. */
static void request__answer_at_end(const struct ktr_parts *k, struct ktr_conn *cn,
				   const __u32 *routes, unsigned int n, int done, char *msg,
				   int *err)
{
	if (ktr_stop__cleared(k, cn, routes, n, -*err, done, msg))
		*err = -ANSWER_LATER;
}

/* CLEARFILE (-c) and CLEARALL (-C): every traced process the caller may clear. */
static int request__clear_all(const struct ktr_parts *k, struct ktr_conn *cn, int r, char *msg)
{
	/* the groups first: none of their processes comes back after */
	int done = ktr_groups__clear_route(k, ktr_conn__caller(cn), r);
	__u32 *keys;
	int n = ktr_procmap__keys(k->procs, r, &keys);

	/* -C passes over what the caller may not clear, silently (BSD) */
	for (int i = 0; i < n; i++)
		done += ktr_policy__clear(k, ktr_conn__caller(cn), keys[i], 0, msg, r < 0) == 0;
	free(keys);
	return done;
}

/* -c of the system-wide trace's file, or -C: root ends it.  Ended? */
static bool request__end_syswide(const struct ktr_parts *k, struct ktr_conn *cn, int r)
{
	__u32 route = ktr_syswide__route(k->syswide);

	if (!route || (__u32)r != route || ktr_conn__caller(cn)->uid != 0)
		return false;
	ktr_syswide__end(k->syswide); /* the next tick finishes its file */
	return true;
}

/* -c of route r (a file this daemon writes, or none: r < 0). */
static int request__clear_file(const struct ktr_parts *k, struct ktr_conn *cn, int r, char *msg,
			       int *err)
{
	int done = r > 0 ? request__clear_all(k, cn, r, msg) : 0;
	__u32 route = r > 0 ? (__u32)r : 0;

	done += r > 0 && request__end_syswide(k, cn, r);
	*err = r > 0 && !done && msg[0] ? -EPERM : 0;
	if (!*err && done)
		request__answer_at_end(k, cn, &route, 1, done, msg, err);
	return done;
}

/* --- each kind ------------------------------------------------------------ */

static int clear__serve(const struct ktr_parts *k, struct ktr_conn *cn,
			const struct ktr_request *req, int fd, char *msg, int *err)
{
	const struct ktr_caller *c = ktr_conn__caller(cn);
	__u32 routes[64];
	unsigned int nr;
	pid_t *pids;
	int n, done = 0;

	if (req->flags & KTR_REQ_CGROUP) {
		__u32 route;

		/* a group whose trace stopped: its file ends as a -p's does, said */
		done = ktr_groups__clear(k, c, req, msg, err, &route);
		if (route)
			request__answer_at_end(k, cn, &route, 1, done, msg, err);
		return done;
	}
	n = ktr_request__targets(req, &pids, msg);
	*err = -ESRCH;
	if (n == 0)
		return 0;
	nr = ktr_stop__routes_of(k, pids, n, 0, routes, 64);
	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;

		/* a trace of it that ended before: how, said once */
		if (!ktr_procmap__get(k->procs, pids[i], &ps))
			ktr_stop__said_before(k, c, pids[i], msg);
		done += ktr_policy__clear(k, c, pids[i], req->facs, msg, false) == 0;
	}
	free(pids);
	*err = done ? 0 : -EPERM;
	if (done)
		request__answer_at_end(k, cn, routes, nr, done, msg, err);
	return done;
}

/* Only a file this daemon already writes, named by a descriptor of it. */
static int clearfile__serve(const struct ktr_parts *k, struct ktr_conn *cn,
			    const struct ktr_request *req, int fd, char *msg, int *err)
{
	int r = ktr_files__find_fd(k->files, fd);

	close(fd);
	return request__clear_file(k, cn, r, msg, err);
}

/*
 * A file named by its identity, with no descriptor to prove the caller
 * may write it: root's, to a user's daemon, which holds only its user's
 * files (ktr_others.h).  Root's daemon takes it from root alone.
 */
static int clearinode__may(const struct ktr_parts *k, const struct ktr_caller *c,
			   const struct ktr_request *req, char *msg)
{
	if (k->config->shared && c->uid != 0) {
		ktr_proto__msg_add(msg, "a trace file named by its inode: root's alone here\n");
		return -EPERM;
	}
	return 0;
}

static int clearinode__serve(const struct ktr_parts *k, struct ktr_conn *cn,
			     const struct ktr_request *req, int fd, char *msg, int *err)
{
	int r = ktr_files__find(k->files, req->file_dev, req->file_ino);

	return request__clear_file(k, cn, r, msg, err);
}

static int clearall__serve(const struct ktr_parts *k, struct ktr_conn *cn,
			   const struct ktr_request *req, int fd, char *msg, int *err)
{
	__u32 *routes = calloc(KTR_MAX_ROUTES, sizeof(*routes));
	unsigned int nr = 0;
	int done;

	for (__u32 r = ktr_files__next(k->files, 0); routes && r; r = ktr_files__next(k->files, r))
		routes[nr++] = r;
	done = request__clear_all(k, cn, -1, msg);
	*err = 0;
	done += request__end_syswide(k, cn, (int)ktr_syswide__route(k->syswide));
	if (done)
		request__answer_at_end(k, cn, routes, nr, done, msg, err);
	free(routes);
	return done;
}

/* STOP: the foreground traces of this connection, no answer but their DONE. */
static int stop__serve(const struct ktr_parts *k, struct ktr_conn *cn,
		       const struct ktr_request *req, int fd, char *msg, int *err)
{
	ktr_stop__waited(k, cn, false);
	return 0;
}

/*
 * -D of a recording that has ended.  One recovered from a daemon that was
 * killed (taken over, its processes gone by then, it wrote what it had):
 * what it recovered, *err 0.  Any other: how it ended, refused as before.
 */
static bool dump__ended(const struct ktr_parts *k, const struct ktr_caller *c, int fd, int r,
			char *msg, int *err, int *done)
{
	struct ktr_tracefile *f = r > 0 ? ktr_files__get(k->files, r) : NULL;
	unsigned long long n = 0;
	const char *line = NULL;
	bool recovered = false;
	char buf[400];
	struct stat st;

	if (f && f->flight && (c->uid == 0 || c->uid == f->owner)) {
		ktr_recorder__describe(f, buf, sizeof(buf));
		line = buf;
		n = f->dumped;
		recovered = f->taken_over;
	} else if (!f && fstat(fd, &st) == 0) {
		line = ktr_ends__recall_file(k->ends, st.st_dev, st.st_ino, c->uid, &n, &recovered);
	}
	if (!line)
		return false;
	msg[0] = '\0'; /* not "no trace goes there": it went there, and ended */
	ktr_proto__msg_add(msg, "%s; the recording has ended\n", line);
	*err = recovered ? 0 : -ENOENT;
	*done = recovered ? (int)(n > INT_MAX ? INT_MAX : n) : 0;
	return true;
}

/* -D: the recorder's ring, written now; the recording goes on. */
static int dump__serve(const struct ktr_parts *k, struct ktr_conn *cn,
		       const struct ktr_request *req, int fd, char *msg, int *err)
{
	const struct ktr_caller *c = ktr_conn__caller(cn);
	int r = ktr_files__own_fd(k->files, c, fd, msg);
	unsigned long long n = 0;
	struct ktr_tracefile *f;
	int done = 0;

	*err = r < 0 ? r : 0;
	if ((r == -ENOENT || (r > 0 && ktr_files__get(k->files, r)->ending)) &&
	    dump__ended(k, c, fd, r, msg, err, &done)) {
		close(fd);
		return done;
	}
	close(fd);
	if (r < 0)
		return 0;
	f = ktr_files__get(k->files, r);
	if (c->uid != 0 && c->uid != f->owner) {
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
	if (f->ending) {
		ktr_proto__msg_add(msg, "%s: the recording has ended\n", ktr_tracefile__path(f));
		*err = -ENOENT;
		return 0;
	}
	if (ktr_now_ms() - f->last_dump_ms < KTR_DUMP_INTERVAL_MS) {
		ktr_proto__msg_add(msg, "%s: dumped less than %d ms ago\n", ktr_tracefile__path(f),
				   KTR_DUMP_INTERVAL_MS);
		*err = -EBUSY;
		return 0;
	}
	ktr_tick__drain(k); /* everything recorded until now */
	*err = ktr_recorder__dump(f, KTR_FLIGHT_DEMAND, &n);
	f->last_dump_ms = ktr_now_ms();
	if (*err)
		ktr_proto__msg_add(msg, "%s: %s\n", ktr_tracefile__path(f), strerror(-*err));
	return (int)(n > INT_MAX ? INT_MAX : n);
}

/* One entry per KTR_OP_*. */
static const struct request_kind kinds[] = {
	[KTR_OP_SET] = { TAKES_FD | TAKES_RECORDER | TAKES_EVENTS | TAKES_FLAGS | NEEDS_TARGET |
				 TAKES_SELECT | TAKES_CGROUP | TAKES_RING,
			 ktr_request_set__check, ktr_request_set__may, ktr_request_set__serve },
	[KTR_OP_CLEAR] = { NEEDS_TARGET | CLEARS | TAKES_CGROUP, NULL, NULL, clear__serve },
	[KTR_OP_CLEARFILE] = { TAKES_FD | CLEARS, NULL, NULL, clearfile__serve },
	[KTR_OP_CLEARALL] = { CLEARS, NULL, NULL, clearall__serve },
	[KTR_OP_STOP] = { DONE_ONLY, NULL, NULL, stop__serve },
	[KTR_OP_DUMP] = { TAKES_FD, NULL, NULL, dump__serve },
	[KTR_OP_CLEARINODE] = { TAKES_FILE_ID | NO_TARGET | CLEARS, NULL, clearinode__may,
				clearinode__serve },
};

/* --- what every request obeys --------------------------------------------- */

static const struct request_kind *request__kind(__u32 op)
{
	return op < sizeof(kinds) / sizeof(kinds[0]) && kinds[op].serve ? &kinds[op] : NULL;
}

/*
 * Why the descriptors that came with a request are not what its kind
 * takes (exactly one with TAKES_FD, else none), or NULL.  Those beyond
 * the first are closed already (ktr_proto.h); the first is closed by
 * ktr_request__handle when the request is refused.
 */
static const char *request__fds(unsigned int takes, const struct ktr_proto_fds *fds)
{
	unsigned int want = takes & TAKES_FD ? 1 : 0;

	if (fds->cut)
		return "control data cut short (too many descriptors)";
	if (fds->n > want)
		return want ? "more than one descriptor" : "descriptor not expected";
	if (want && fds->fd < 0)
		return "no trace file descriptor";
	return NULL;
}

/* Why a request of kind (NULL: unknown) is malformed, or NULL. */
static const char *request__bad(const struct request_kind *kind, const struct ktr_caller *c,
				const struct ktr_request *req, const struct ktr_proto_fds *fds)
{
	const char *bad = NULL;
	int nevents = request__events(req, &bad);
	unsigned int takes = kind ? kind->takes : 0;

	if (nevents < 0)
		return bad;
	if (!kind)
		return "unknown operation";
	if (!(takes & TAKES_FILE_ID) && (req->file_dev || req->file_ino))
		return "file identity only a CLEARINODE takes";
	if ((takes & NO_TARGET) && (req->pid || req->facs))
		return "process or facilities in a CLEARINODE";
	if (req->facs & ~KTR_REQ_FACS)
		return "unknown facility bits";
	if (req->flags & ~KTR_REQ_FLAGS)
		return "unknown flags";
	if (req->ring_bytes && !(takes & TAKES_RING))
		return "ring buffer size only a SET takes";
	if (!(takes & TAKES_RECORDER) && (req->flight_bytes || req->flight_flags))
		return "recorder fields only a SET takes";
	if (!req->flight_bytes && req->flight_flags)
		return "recorder flags without a recorder";
	if ((bad = request__fds(takes, fds)))
		return bad;
	if ((bad = ktr_groups__request_bad(req, takes & TAKES_CGROUP)))
		return bad;
	if ((takes & NEEDS_TARGET) && !request__pid_ok(req->pid) &&
	    !((req->flags & (KTR_REQ_SYSWIDE | KTR_REQ_CGROUP)) && req->pid == 0))
		return "no process or process group";
	if (!(takes & TAKES_FLAGS) && (req->flags & ~(KTR_REQ_DESCEND | KTR_REQ_CGROUP)))
		return "flags only a SET takes";
	if (!(takes & TAKES_EVENTS) && nevents)
		return "event names only a SET takes";
	if ((bad = request__select(&req->select, takes)))
		return bad;
	return kind->check ? kind->check(c, req, nevents) : NULL;
}

/* Is the request well formed and may this caller make it?  0 or -errno with a line in msg. */
static int request__check(const struct ktr_parts *k, const struct request_kind *kind,
			  const struct ktr_caller *c, const struct ktr_request *req,
			  const struct ktr_proto_fds *fds, char *msg)
{
	const char *bad;

	/* a user's daemon serves its user, and root's clears (ktraceb -C) */
	if (!k->config->shared && c->uid != k->config->owner &&
	    !(c->uid == 0 && kind && (kind->takes & CLEARS))) {
		ktr_proto__msg_add(msg, "this ktraceb daemon serves uid %u only\n",
				   k->config->owner);
		return -EPERM;
	}
	if (!c->same_pidns) {
		ktr_proto__msg_add(msg, "caller is in another pid namespace\n");
		return -EPERM;
	}
	bad = request__bad(kind, c, req, fds);
	if (bad) {
		ktr_proto__msg_add(msg, "bad request: %s\n", bad);
		return -EINVAL;
	}
	return kind->may ? kind->may(k, c, req, msg) : 0;
}

void ktr_request__handle(const struct ktr_parts *k, struct ktr_conn *cn,
			 const struct ktr_request *req, const struct ktr_proto_fds *fds, char *msg)
{
	const struct request_kind *kind = request__kind(req->op);
	int err, done = 0, fd = fds->fd;

	if (!msg) {
		if (fd >= 0)
			close(fd);
		ktr_conn__drop(cn);
		return;
	}
	err = request__check(k, kind, ktr_conn__caller(cn), req, fds, msg);
	if (err && fd >= 0)
		close(fd);
	if (!err)
		done = kind->serve(k, cn, req, fd, msg, &err);
	if ((!err && (kind->takes & DONE_ONLY)) || err == -ANSWER_LATER)
		return;
	ktr_conn__reply(cn, KTR_REPLY_RESULT, -err, done, msg, 0, 0, k->config->ring_bytes);
}
