// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * SET (ktr_request_set.h): a trace file joined as ktr_files.h says, and its
 * processes set as ktr_policy.h does, as far as the caller may.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ktraceb/bpf_flight_flags.h"
#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_ustack.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "daemon/programs/ktr_attach.h"
#include "ktr_conn.h"
#include "daemon/files/ktr_files.h"
#include "daemon/flight/ktr_flight.h"
#include "daemon/targets/ktr_groups.h"
#include "daemon/programs/ktr_loader.h"
#include "daemon/programs/ktr_progs.h"
#include "daemon/programs/ktr_skel.h"
#include "ktr_policy.h"
#include "ktr_request_set.h"
#include "daemon/drain/ktr_ring.h"
#include "daemon/ktr_parts.h"
#include "daemon/files/ktr_selection.h"
#include "daemon/events/ktr_syswide.h"
#include "daemon/events/ktr_tp.h"
#include "trstr.h"

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
static bool set__own_held_child(const struct ktr_caller *c, pid_t pid)
{
	if (c->uid == 0)
		return true;
	return ktr_procs__tgid(pid) == pid && ktr_procs__parent(pid) == c->pid &&
	       same_exe(pid, c->pid) && ktr_caller__alive(c);
}

const char *ktr_request_set__check(const struct ktr_caller *c, const struct ktr_request *req,
				   int nevents)
{
	bool syswide = req->flags & KTR_REQ_SYSWIDE;

	if (!(req->facs & KTRFAC_MASK) || req->iosize > KTR_IOSIZE_MAX)
		return "no facility, or I/O size too large";
	if (req->ustack_kib > KTR_USTACK_KIB_MAX)
		return "stack copy size too large";
	if ((req->flight_flags & KTR_FLIGHT_F_COMPACT) && nevents)
		return "kernel events are not for a compact recorder (-R ...,compact)";
	if (req->flight_bytes && syswide)
		return "system-wide (-S) is not for a recorder (-R)";
	if (!(req->facs & ktr_facs_that(KTR_FAC_EVENTS)) != !nevents)
		return "kernel events without their facility, or the facility without events";
	if (syswide && !nevents)
		return "system-wide (-S) is for kernel events (-e)";
	if (req->select.usdt[0] && !(req->facs & ktr_facs_that(KTR_FAC_PROBES)))
		return "USDT patterns without the user facility";
	if (req->select.usdt[0] && (syswide || (req->flight_flags & KTR_FLIGHT_F_COMPACT)))
		return "USDT patterns are not for -S or a compact recorder";
	if (syswide && req->pid == 0 &&
	    (req->flags &
	     ~(KTR_REQ_SYSWIDE | KTR_REQ_GZIP | KTR_REQ_DEFAULT_FACS | KTR_REQ_VERBOSE)))
		return "flags for a process, and no process";
	if (req->ring_bytes &&
	    (req->ring_bytes < 4096 || (req->ring_bytes & (req->ring_bytes - 1))))
		return "ring buffer size not a power of two of 4k or more";
	if ((req->flags & KTR_REQ_AWAIT_EXEC) &&
	    (req->pid < 0 || (req->flags & KTR_REQ_DESCEND) || !set__own_held_child(c, req->pid)))
		return "await-exec is only for your own child before its exec";
	return NULL;
}

int ktr_request_set__may(const struct ktr_parts *k, const struct ktr_caller *c,
			 const struct ktr_request *req, char *msg)
{
	/* every task's events, other users' included: root's alone, as KTR and ktrdump */
	if ((req->flags & KTR_REQ_SYSWIDE) && c->uid != 0) {
		ktr_proto__msg_add(msg, "-S: system-wide tracing is root's alone\n");
		return -EPERM;
	}
	return 0;
}

int ktr_request__targets(const struct ktr_request *req, pid_t **pids, char *msg)
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
static int request__foreground(const struct ktr_parts *k, struct ktr_conn *cn, int r, char *msg)
{
	const struct ktr_caller *c = ktr_conn__caller(cn);
	struct ktr_tracefile *f = ktr_files__get(k->files, r);

	if (c->uid != 0 && c->uid != f->owner) {
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
 * One nobody asked for (of the default -t, not given) goes unsaid.
 */
static const struct ktr_request *request__for_kernel(const struct ktr_request *req,
						     struct ktr_request *eff, char *msg)
{
	const struct ktr_request *out = req;
	__u32 unasked = req->flags & KTR_REQ_DEFAULT_FACS ? KTR_DEF_POINTS : 0;

	for (unsigned int i = 0; i < ktr_ntrpoints; i++) {
		const struct ktr_trpoint *opt = ktr_prog_optional(i);
		const char *why = opt ? ktr_loader__missing(opt->facs) : NULL;

		if (!why || !(req->facs & opt->facs))
			continue;
		if (!(unasked & opt->facs))
			ktr_proto__msg_add(msg, "%s are not recorded on this kernel: %s\n",
					   opt->lacks, why);
		if (out == req)
			*eff = *req;
		out = eff;
		eff->facs &= ~opt->facs;
	}
	/* -e's events go with their facility */
	if (out == eff && !(eff->facs & ktr_facs_that(KTR_FAC_EVENTS)))
		memset(eff->events, 0, sizeof(eff->events));
	return out;
}

/*
 * The trace file joined (fd taken over), once the request is known to be
 * one this kernel, this caller and tracefs allow: its route, or -errno
 * (-ENOTSUP: nothing asked can be recorded here).  *set: its events.
 */
static int set__join(const struct ktr_parts *k, const struct ktr_caller *c,
		     const struct ktr_request *req, int fd, struct ktr_tp_set **set, char *msg)
{
	int err, r;

	*set = NULL;
	if (!(req->facs & KTRFAC_MASK) || ((req->flags & KTR_REQ_SYSWIDE) && !req->events[0][0])) {
		close(fd);
		return -ENOTSUP;
	}
	/* root's daemon: a user's kernel events only where perf would allow them */
	err = req->events[0][0] && k->config->shared && c->uid != 0 ? ktr_tp__user_may(msg) : 0;
	if (!err)
		err = request__resolve(req, set, msg);
	if (err) {
		close(fd);
		return err;
	}
	r = ktr_files__join(k->files, c, fd, req->flight_bytes, req->flight_flags,
			    req->flags & KTR_REQ_GZIP, msg);
	if (r < 0)
		ktr_tp__set_free(*set);
	return r;
}

/*
 * Route r ready for its processes: its events' formats written and the
 * events attached before any process records a hit, its waiter allowed,
 * the programs attached, the system-wide trace begun.  0 or -errno.
 */
static int set__ready(const struct ktr_parts *k, struct ktr_conn *cn, const struct ktr_request *req,
		      int r, struct ktr_tp_set *set, char *msg)
{
	int err;

	if (set && (err = ktr_tp__want(k->tp, r, ktr_files__get(k->files, r), set, msg)))
		return err;
	if ((req->flags & KTR_REQ_FOREGROUND) && (err = request__foreground(k, cn, r, msg)))
		return err;
	if ((err = ktr_attach__start(k->attach))) {
		ktr_proto__msg_add(msg, "cannot attach the BPF programs: %s\n", strerror(-err));
		return err;
	}
	/* before the processes are set: no CALL is missed */
	ktr_attach__enter(k->attach, ktr_files__need_enter(k->files));
	ktr_attach__stages(k->attach, ktr_files__need_stage(k->files));
	if (req->flags & KTR_REQ_SYSWIDE)
		return ktr_syswide__start(k->syswide, r, req->pid == 0, msg);
	return 0;
}

/* The processes set into route r: how many, and *err. */
static int set__procs(const struct ktr_parts *k, struct ktr_conn *cn, const struct ktr_request *req,
		      int r, char *msg, int *err)
{
	struct ktr_request eff;
	pid_t *pids;
	int n = ktr_request__targets(req, &pids, msg), done;

	if (n == 0) {
		*err = -ESRCH;
		return 0;
	}
	done = ktr_policy__set(k, ktr_conn__caller(cn), ktr_policy__for_file(k, req, r, &eff), pids,
			       n, r, msg);
	free(pids);
	*err = done ? 0 : -EPERM;
	if (done && (req->flags & KTR_REQ_FOREGROUND))
		ktr_tracefile__wait(ktr_files__get(k->files, r), cn);
	/* switches ('w') from the first moment on, not from the next tick */
	if (done)
		ktr_attach__more(k->attach, req->facs);
	/* a recording outlives a daemon killed from now on, not from the next tick */
	if (done && req->flight_bytes)
		ktr_attach__pins(k->attach, ktr_files__recording(k->files));
	return done;
}

/*
 * -b: more room in the ring, for a request that was accepted alone (a
 * refused one changes nothing shared).  Its first records may be in the
 * old ring: the swap keeps every record, in order (ktr_ring.h).
 */
static int set__grow_ring(const struct ktr_parts *k, struct ktr_conn *cn,
			  const struct ktr_request *req, int done, int err, char *msg)
{
	if (done > 0 && !err && req->ring_bytes)
		ktr_ring__grow(k->ring, req->ring_bytes,
			       k->config->shared && ktr_conn__caller(cn)->uid != 0, msg);
	return done;
}

/* The request, its facilities this kernel has: how many processes were set, and *err. */
static int set__serve(const struct ktr_parts *k, struct ktr_conn *cn, const struct ktr_request *req,
		      int fd, char *msg, int *err)
{
	struct ktr_tp_set *set;
	int r, done;

	r = set__join(k, ktr_conn__caller(cn), req, fd, &set, msg);
	if (r < 0) {
		*err = r;
		return 0;
	}
	*err = ktr_selection__join(k->selection, r, ktr_files__get(k->files, r), req, msg);
	if (*err) {
		ktr_tp__set_free(set);
		return 0;
	}
	*err = set__ready(k, cn, req, r, set, msg);
	if (*err)
		return 0;
	if (req->flags & KTR_REQ_CGROUP)
		done = ktr_groups__set(k, cn, req, r, msg, err);
	else if (req->pid == 0)
		done = 1; /* system-wide alone: the machine, no process */
	else
		done = set__procs(k, cn, req, r, msg, err);
	return set__grow_ring(k, cn, req, done, *err, msg);
}

int ktr_request_set__serve(const struct ktr_parts *k, struct ktr_conn *cn,
			   const struct ktr_request *req, int fd, char *msg, int *err)
{
	char lacking[KTR_REPLY_MSG_MAX] = "", all[KTR_REPLY_MSG_MAX];
	struct ktr_request avail;
	int done;

	/* -v: which build of the programs runs, said first (ktr_skel.h) */
	if (req->flags & KTR_REQ_VERBOSE)
		ktr_proto__msg_add(lacking, "BPF programs: the build %s\n", ktr_skel__build());
	done = set__serve(k, cn, request__for_kernel(req, &avail, lacking), fd, msg, err);
	/*
	 * What this kernel cannot record is said, first, of a trace that runs
	 * without it, or that it leaves nothing to record (ENOTSUP); a trace
	 * refused for another reason says that reason alone.
	 */
	if (lacking[0] && (!*err || *err == -ENOTSUP)) {
		snprintf(all, sizeof(all), "%s%s", lacking, msg);
		memcpy(msg, all, KTR_REPLY_MSG_MAX);
	}
	return done;
}
