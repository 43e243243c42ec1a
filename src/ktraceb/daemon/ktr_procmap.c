// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The procs map: pid -> tracing state, BSD's p_traceflag and trace node.
 *
 * Setting tracing for a non-root caller takes three steps, so that no exec
 * can come between the permission check and the start of tracing:
 *  1. check (ktr_perm__canset), then write the entry PENDING: BPF records
 *     nothing for it, but a set-id exec already deletes it (proc.bpf.c
 *     looks at that before anything else);
 *  2. check again: an exec that finished before step 1 shows now;
 *  3. clear PENDING on the entries still there (BPF_EXIST: never bring back
 *     one BPF deleted), children forked meanwhile included.
 * Root's tracing needs none of it (root may trace anything) and is marked
 * KTRFAC_ROOT, which only this file ever sets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktr_daemon_priv.h"
#include "ktr_clock.h"
#include "ktr_loader.h"
#include "common/ktr_proto.h"
#include "ktr_record.h"
#include "ktr_usdt.h"

/*
 * The traced pids (of route r, or all with r < 0), collected before any is
 * changed: deleting while walking a hash map can revisit or skip keys.
 */
int ktr_procmap__keys(struct daemon *d, int r, __u32 **out)
{
	__u32 key, next, *prev = NULL, *keys = NULL, *tmp;
	int n = 0, cap = 0;

	while (bpf_map_get_next_key(d->procs_fd, prev, &next) == 0) {
		struct ktr_proc_state ps;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(d->procs_fd, &key, &ps) < 0)
			continue;
		if (r >= 0 && ps.route != (__u32)r)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			tmp = reallocarray(keys, cap, sizeof(*keys));
			if (!tmp)
				break;
			keys = tmp;
		}
		keys[n++] = key;
	}
	*out = keys;
	return n;
}

static void procmap__write_ctor(struct daemon *d, int r, pid_t pid, __u32 sv_flags)
{
	struct ktr_tracefile *f = ktr_files__get(d->files, r);
	struct ktr_proc_ctor ctor = { .sv_flags = sv_flags };
	char path[64], comm[32] = "";
	struct ktr_header h;
	FILE *cf;

	if (!f)
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	cf = fopen(path, "re");
	if (cf) {
		if (fgets(comm, sizeof(comm), cf))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(cf);
	}
	ktr_record__header(&h, KTR_PROCCTOR, sizeof(ctor), 0, pid, pid, comm, ktr_mono_ns());
	ktr_tracefile__append_made(f, &h, &ctor, ktr_wall_offset_ns());
}

/* Step 1 for one process: check, then write its entry (PENDING unless root). */
static int procmap__put(struct daemon *d, const struct ktr_caller *c, const struct ktr_request *req,
			pid_t pid, int r, char *msg)
{
	struct ktr_proc_state ps = { .sv_flags = KTR_SV_LINUX_AMD64 }, old;
	__u32 key = pid;
	const char *why;
	bool traced = bpf_map_lookup_elem(d->procs_fd, &key, &old) == 0;
	int err = ktr_perm__canset(c, pid, traced ? old.facs : 0, &why);

	if (!err && pid == getpid()) {
		why = "is the ktraceb daemon (its writes would trace themselves)";
		err = -EINVAL;
	}
	if (err) {
		ktr_proto__msg_add(msg, "pid %d: %s\n", pid, why);
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
	ps.flags = (req->flags & KTR_REQ_AWAIT_EXEC) ? KTR_PS_AWAIT_EXEC : 0;
	/* ktraceb's own command, child of the caller: stopped while its probes are armed */
	if ((req->flags & KTR_REQ_AWAIT_EXEC) && (ps.facs & KTRFAC_USER) &&
	    ktr_loader__usdt_mode() != KTR_USDT_NONE)
		ps.flags |= KTR_PS_HOLD;
	if (c->uid != 0)
		ps.flags |= KTR_PS_PENDING;
	ktr_daemon__mark_traced(d, key);
	if (ktr_daemon__procs_put(d, key, &ps, BPF_ANY) < 0) {
		err = -errno;
		ktr_proto__msg_add(msg, "pid %d: %s\n", pid, strerror(-err));
		return err;
	}
	return 0;
}

/*
 * Steps 2 and 3 for one entry: look again, then start it, with its
 * PROCCTOR.  child: a pending child forked meanwhile, not named by the
 * request (no message; entries not pending are left alone).
 */
static int procmap__start(struct daemon *d, const struct ktr_caller *c, __u32 pid, int r, char *msg,
			  bool child)
{
	struct ktr_proc_state ps;
	const char *why = "";
	int err = 0;

	if (bpf_map_lookup_elem(d->procs_fd, &pid, &ps) < 0 || ps.route != (__u32)r) {
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
	err = ktr_perm__canset(c, pid, ps.facs, &why);
	if (!err) {
		ps.flags &= ~KTR_PS_PENDING;
		if (ktr_daemon__procs_put(d, pid, &ps, BPF_EXIST) < 0)
			err = -errno;
	}
	if (err) {
		ktr_daemon__procs_drop(d, pid);
		if (!child)
			ktr_proto__msg_add(msg, "pid %u: %s\n", pid,
					   err == -ENOENT ? "exited" : why);
		return err;
	}
started:
	if (!(ps.flags & KTR_PS_AWAIT_EXEC))
		procmap__write_ctor(d, r, pid, ps.sv_flags);
	/* a command's probes are those of the program it execs, looked at then */
	if ((ps.facs & KTRFAC_USER) && !(ps.flags & KTR_PS_AWAIT_EXEC))
		ktr_daemon__usdt_scan(d, pid, r, false, false);
	return 0;
}

/* Pending entries of route r not named by the request: children forked meanwhile. */
static void procmap__activate_children(struct daemon *d, const struct ktr_caller *c, int r)
{
	__u32 *keys;
	int n = ktr_procmap__keys(d, r, &keys);

	for (int i = 0; i < n; i++)
		procmap__start(d, c, keys[i], r, NULL, true);
	free(keys);
}

int ktr_procmap__set(struct daemon *d, const struct ktr_caller *c, const struct ktr_request *req,
		     const pid_t *pids, int n, int r, char *msg)
{
	bool *put = calloc(n, sizeof(*put));
	int done = 0;

	if (!put) {
		ktr_proto__msg_add(msg, "%s\n", strerror(ENOMEM));
		return 0;
	}
	for (int i = 0; i < n; i++)
		put[i] = procmap__put(d, c, req, pids[i], r, msg) == 0;
	for (int i = 0; i < n; i++)
		done += put[i] && procmap__start(d, c, pids[i], r, msg, false) == 0;
	if (c->uid != 0 && done)
		procmap__activate_children(d, c, r);
	free(put);
	return done;
}

void ktr_procmap__settle(struct daemon *d, __u32 pid, const struct ktr_proc_state *ps)
{
	struct ktr_tracefile *f = ktr_files__get(d->files, ps->route);
	struct ktr_caller owner = { .pid = 0, .pidfd = -1, .same_pidns = true };

	if (!f) {
		ktr_daemon__procs_drop(d, pid);
		return;
	}
	/*
	 * Only the file's owner sets pending entries into it (ktr_files.h), so
	 * its ids stand for the caller; with no caller process to descend
	 * from, Yama's scope 1 refuses rather than guesses.
	 */
	owner.uid = f->owner;
	owner.gid = f->owner_gid;
	procmap__start(d, &owner, pid, ps->route, NULL, true);
}

int ktr_procmap__clear(struct daemon *d, const struct ktr_caller *c, pid_t pid, __u32 facs,
		       char *msg, bool quiet)
{
	struct ktr_proc_state ps;
	__u32 key = pid;
	const char *why;
	bool traced = bpf_map_lookup_elem(d->procs_fd, &key, &ps) == 0;
	/* BSD: clearing an untraced process succeeds if the caller may trace it */
	int err = ktr_perm__canset(c, pid, traced ? ps.facs : 0, &why);

	if (err) {
		if (!quiet)
			ktr_proto__msg_add(msg, "pid %d: %s\n", pid, why);
		return err;
	}
	if (!traced)
		return 0;
	ps.facs &= ~(facs ? facs & KTRFAC_MASK : KTRFAC_MASK);
	if (!(ps.facs & KTRFAC_MASK))
		ktr_daemon__procs_drop(d, key);
	else
		ktr_daemon__procs_put(d, key, &ps, BPF_EXIST);
	/* its probes stop firing now, not at the next tick */
	if (!(ps.facs & KTRFAC_USER) && d->usdt)
		ktr_usdt__forget(d->usdt, pid);
	return 0;
}
