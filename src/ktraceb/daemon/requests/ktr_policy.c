// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* BSD's ktrops() on the procs map (ktr_policy.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_flight_flags.h"
#include "ktraceb/bpf_procs.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "daemon/files/ktr_files.h"
#include "daemon/files/ktr_selection.h"
#include "daemon/flight/ktr_flight.h"
#include "daemon/programs/ktr_loader.h"
#include "daemon/usdt/ktr_usdt.h"
#include "daemon/ktr_clock.h"
#include "daemon/targets/ktr_fds.h"
#include "daemon/ktr_parts.h"
#include "ktr_policy.h"
#include "daemon/targets/ktr_proc_usdt.h"
#include "daemon/targets/ktr_procmap.h"
#include "daemon/ktr_record.h"
#include "trstr.h"

/*
 * The PROCCTOR of process pid in route r's file, then the descriptors it
 * has (ktr_fds.h: a process running before its trace, -p or -g),
 * read through its /proc directory once its entry in the procs map says it
 * is still the process checked (BPF drops the entry when it ends).
 */
static void policy__write_ctor(const struct ktr_parts *k, int r, pid_t pid, __u32 sv_flags)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, r);
	struct ktr_proc_ctor ctor = { .sv_flags = sv_flags };
	char path[64], comm[32] = "";
	struct ktr_proc_state ps;
	struct ktr_header h;
	FILE *cf;
	int dir;

	if (!f)
		return;
	snprintf(path, sizeof(path), "/proc/%d", pid);
	dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	cf = fopen(path, "re");
	if (cf) {
		if (fgets(comm, sizeof(comm), cf))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(cf);
	}
	ktr_record__header(&h, KTR_PROCCTOR, sizeof(ctor), 0, pid, pid, comm, ktr_mono_ns());
	ktr_tracefile__append_made(f, &h, &ctor, ktr_wall_offset_ns());
	if (dir >= 0 && ktr_procmap__get(k->procs, pid, &ps) && ps.route == (__u32)r)
		ktr_fds__write(f, dir, pid, comm);
	if (dir >= 0)
		close(dir);
}

/* Step 1 for one process: check, then write its entry (PENDING unless root). */
static int policy__put(const struct ktr_parts *k, const struct ktr_caller *c,
		       const struct ktr_request *req, pid_t pid, int r, char *msg)
{
	struct ktr_proc_state ps = { .sv_flags = KTR_SV_LINUX_AMD64 }, old;
	__u32 key = pid;
	struct ktr_perm_no no;
	bool traced = ktr_procmap__get(k->procs, key, &old);
	int err = ktr_perm__canset(
		c, &(struct ktr_target){ .pid = pid, .facs = traced ? old.facs : 0 }, &no);

	if (!err && pid == getpid()) {
		no.why = "is the ktraceb daemon (its writes would trace themselves)";
		err = -EINVAL;
	}
	if (err) {
		ktr_proto__msg_add(msg, "pid %d: %s\n", pid, no.why);
		return err;
	}
	/* BSD ktrops(): move it to this file, OR in the facilities */
	if (traced)
		ps = old;
	ps.facs |= req->facs & KTR_REQ_FACS;
	if (c->uid == 0)
		ps.facs |= KTRFAC_ROOT;
	ps.route = r;
	ps.iosize = req->iosize;
	ps.ustack_kib = req->ustack_kib;
	ps.select = ktr_selection__slot(k->selection, r);
	ps.flags = (req->flags & KTR_REQ_AWAIT_EXEC) ? KTR_PS_AWAIT_EXEC : 0;
	/*
	 * ktraceb's own command, child of the caller: stopped while its probes
	 * are attached (and, -k, its objects told before its first stack)
	 */
	if ((req->flags & KTR_REQ_AWAIT_EXEC) && (((ps.facs & ktr_facs_that(KTR_FAC_PROBES)) &&
						   ktr_loader__usdt_mode() != KTR_USDT_NONE) ||
						  (ps.facs & ktr_facs_that(KTR_FAC_OBJECTS))))
		ps.flags |= KTR_PS_HOLD;
	if (c->uid != 0)
		ps.flags |= KTR_PS_PENDING;
	ktr_procmap__mark_traced(k->procs, key);
	if (ktr_procmap__put(k->procs, key, &ps, BPF_ANY) < 0) {
		err = -errno;
		ktr_proto__msg_add(msg, "pid %d: %s\n", pid, strerror(-err));
		return err;
	}
	return 0;
}

/*
 * Steps 2 and 3 for one entry: check again, then start it, with its
 * PROCCTOR.  child: a pending child forked meanwhile, not named by the
 * request (no message; entries not pending are left alone).
 */
static int policy__start(const struct ktr_parts *k, const struct ktr_caller *c, __u32 pid, int r,
			 char *msg, bool child)
{
	struct ktr_proc_state ps;
	struct ktr_perm_no no = { .why = "" };
	int err = 0;

	if (!ktr_procmap__get(k->procs, pid, &ps) || ps.route != (__u32)r) {
		/* BPF dropped it: it exited, or exec'd a set-id program */
		if (!child)
			ktr_proto__msg_add(msg, "pid %u: exited or exec'd a set-id program\n", pid);
		return -ESRCH;
	}
	if (!(ps.flags & KTR_PS_PENDING)) {
		if (child)
			return 0;
		goto started;
	}
	err = ktr_perm__canset(c, &(struct ktr_target){ .pid = pid, .facs = ps.facs }, &no);
	if (!err) {
		ps.flags &= ~KTR_PS_PENDING;
		if (ktr_procmap__put(k->procs, pid, &ps, BPF_EXIST) < 0)
			err = -errno;
	}
	if (err) {
		ktr_procmap__drop(k->procs, pid);
		if (!child)
			ktr_proto__msg_add(msg, "pid %u: %s\n", pid,
					   err == -ENOENT ? "exited" : no.why);
		return err;
	}
started:
	if (!(ps.flags & KTR_PS_AWAIT_EXEC))
		policy__write_ctor(k, r, pid, ps.sv_flags);
	/* a command's probes are those of the program it execs, scanned then */
	if ((ps.facs & ktr_facs_that(KTR_FAC_SCANNED)) && !(ps.flags & KTR_PS_AWAIT_EXEC))
		ktr_proc_usdt__scan(k, pid, r, false, false);
	return 0;
}

/* Pending entries of route r not named by the request: children forked meanwhile. */
static void policy__activate_children(const struct ktr_parts *k, const struct ktr_caller *c, int r)
{
	__u32 *keys;
	int n = ktr_procmap__keys(k->procs, r, &keys);

	for (int i = 0; i < n; i++)
		policy__start(k, c, keys[i], r, NULL, true);
	free(keys);
}

int ktr_policy__set(const struct ktr_parts *k, const struct ktr_caller *c,
		    const struct ktr_request *req, const pid_t *pids, int n, int r, char *msg)
{
	bool *put = calloc(n, sizeof(*put));
	int done = 0;

	if (!put) {
		ktr_proto__msg_add(msg, "%s\n", strerror(ENOMEM));
		return 0;
	}
	for (int i = 0; i < n; i++)
		put[i] = policy__put(k, c, req, pids[i], r, msg) == 0;
	for (int i = 0; i < n; i++)
		done += put[i] && policy__start(k, c, pids[i], r, msg, false) == 0;
	if (c->uid != 0 && done)
		policy__activate_children(k, c, r);
	free(put);
	return done;
}

void ktr_policy__settle(const struct ktr_parts *k, __u32 pid, const struct ktr_proc_state *ps)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, ps->route);
	struct ktr_caller owner = { .pid = 0, .pidfd = -1, .same_pidns = true };

	if (!f) {
		ktr_procmap__drop(k->procs, pid);
		return;
	}
	/*
	 * Only the file's owner sets pending entries into it (ktr_files.h), so
	 * its ids stand for the caller; with no caller process to descend
	 * from, Yama's scope 1 refuses rather than guesses.
	 */
	owner.uid = f->owner;
	owner.gid = f->owner_gid;
	policy__start(k, &owner, pid, ps->route, NULL, true);
}

int ktr_policy__clear(const struct ktr_parts *k, const struct ktr_caller *c, pid_t pid, __u32 facs,
		      char *msg, bool quiet)
{
	struct ktr_proc_state ps;
	__u32 key = pid;
	struct ktr_perm_no no;
	bool traced = ktr_procmap__get(k->procs, key, &ps);
	/* BSD: clearing an untraced process succeeds if the caller may trace it */
	int err = ktr_perm__canset(
		c, &(struct ktr_target){ .pid = pid, .facs = traced ? ps.facs : 0 }, &no);

	if (err) {
		if (!quiet)
			ktr_proto__msg_add(msg, "pid %d: %s\n", pid, no.why);
		return err;
	}
	if (!traced)
		return 0;
	ps.facs &= ~(facs ? facs & KTRFAC_MASK : KTRFAC_MASK);
	if (!(ps.facs & KTRFAC_MASK))
		ktr_procmap__drop(k->procs, key);
	else
		ktr_procmap__put(k->procs, key, &ps, BPF_EXIST);
	/* its probes stop firing now, not at the next tick */
	if (!(ps.facs & ktr_facs_that(KTR_FAC_PROBES)) && k->usdt)
		ktr_usdt__forget(k->usdt, pid);
	return 0;
}

/*
 * The request as file r takes it: a compact recorder keeps only returns,
 * signals and exits, so the programs need not even build the rest.
 */
const struct ktr_request *ktr_policy__for_file(const struct ktr_parts *k,
					       const struct ktr_request *req, int r,
					       struct ktr_request *eff)
{
	const struct ktr_tracefile *f = ktr_files__get(k->files, r);

	if (!f || !f->flight || !(ktr_flight__meta(f->flight)->flags & KTR_FLIGHT_F_COMPACT))
		return req;
	*eff = *req;
	eff->facs &= ktr_facs_compact() | ~KTRFAC_MASK;
	return eff;
}
