// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The procs map and BSD's ktrops() on it (ktr_procmap.h), and the USDT
 * probes of the processes in it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_shared.h"
#include "daemon/programs/ktr_bpf.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "ktr_clock.h"
#include "daemon/files/ktr_files.h"
#include "daemon/programs/ktr_loader.h"
#include "daemon/files/ktr_mappings.h"
#include "ktr_procmap.h"
#include "ktr_record.h"
#include "ktr_parts.h"
#include "daemon/files/ktr_selection.h"
#include "daemon/usdt/ktr_usdt.h"

struct ktr_procmap {
	struct ktraceb_bpf__bss *bss;
	int fd;
};

struct ktr_procmap *ktr_procmap__new(struct ktr_bpf *b)
{
	struct ktr_procmap *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->bss = b->bss;
	pm->fd = ktr_bpf__map_fd(b, procs);
	return pm;
}

void ktr_procmap__free(struct ktr_procmap *pm)
{
	free(pm);
}

bool ktr_procmap__get(const struct ktr_procmap *pm, __u32 pid, struct ktr_proc_state *ps)
{
	return bpf_map_lookup_elem(pm->fd, &pid, ps) == 0;
}

void ktr_procmap__mark_traced(struct ktr_procmap *pm, __u32 tgid)
{
	__atomic_fetch_or(&pm->bss->ktr_traced[KTR_TRACED_WORD(tgid)], KTR_TRACED_BIT(tgid),
			  __ATOMIC_SEQ_CST);
}

/* Every change of the map goes through these two: the programs' copies go stale. */
int ktr_procmap__put(struct ktr_procmap *pm, __u32 tgid, const struct ktr_proc_state *ps,
		     __u64 flags)
{
	int err = bpf_map_update_elem(pm->fd, &tgid, ps, flags);

	__atomic_fetch_add(&pm->bss->ktr_procs_gen, 1, __ATOMIC_SEQ_CST);
	return err;
}

void ktr_procmap__drop(struct ktr_procmap *pm, __u32 tgid)
{
	bpf_map_delete_elem(pm->fd, &tgid);
	__atomic_fetch_add(&pm->bss->ktr_procs_gen, 1, __ATOMIC_SEQ_CST);
}

void ktr_procmap__untrace_all(struct ktr_procmap *pm)
{
	memset(pm->bss->ktr_traced, 0, sizeof(pm->bss->ktr_traced));
}

int ktr_procmap__keys(const struct ktr_procmap *pm, int r, __u32 **out)
{
	__u32 key, next, *prev = NULL, *keys = NULL, *tmp;
	int n = 0, cap = 0;

	while (bpf_map_get_next_key(pm->fd, prev, &next) == 0) {
		struct ktr_proc_state ps;

		key = next;
		prev = &key;
		if (!ktr_procmap__get(pm, key, &ps))
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

static void procmap__write_ctor(const struct ktr_parts *k, int r, pid_t pid, __u32 sv_flags)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, r);
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
static int procmap__put(const struct ktr_parts *k, const struct ktr_caller *c,
			const struct ktr_request *req, pid_t pid, int r, char *msg)
{
	struct ktr_proc_state ps = { .sv_flags = KTR_SV_LINUX_AMD64 }, old;
	__u32 key = pid;
	const char *why;
	bool traced = ktr_procmap__get(k->procs, key, &old);
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
	ps.ustack_kib = req->ustack_kib;
	ps.select = ktr_selection__slot(k->selection, r);
	ps.flags = (req->flags & KTR_REQ_AWAIT_EXEC) ? KTR_PS_AWAIT_EXEC : 0;
	/*
	 * ktraceb's own command, child of the caller: stopped while its probes
	 * are attached (and, -k, its objects told before its first stack)
	 */
	if ((req->flags & KTR_REQ_AWAIT_EXEC) &&
	    (((ps.facs & KTRFAC_USER) && ktr_loader__usdt_mode() != KTR_USDT_NONE) ||
	     (ps.facs & KTRFAC_USTACK)))
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
static int procmap__start(const struct ktr_parts *k, const struct ktr_caller *c, __u32 pid, int r,
			  char *msg, bool child)
{
	struct ktr_proc_state ps;
	const char *why = "";
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
	err = ktr_perm__canset(c, pid, ps.facs, &why);
	if (!err) {
		ps.flags &= ~KTR_PS_PENDING;
		if (ktr_procmap__put(k->procs, pid, &ps, BPF_EXIST) < 0)
			err = -errno;
	}
	if (err) {
		ktr_procmap__drop(k->procs, pid);
		if (!child)
			ktr_proto__msg_add(msg, "pid %u: %s\n", pid,
					   err == -ENOENT ? "exited" : why);
		return err;
	}
started:
	if (!(ps.flags & KTR_PS_AWAIT_EXEC))
		procmap__write_ctor(k, r, pid, ps.sv_flags);
	/* a command's probes are those of the program it execs, scanned then */
	if ((ps.facs & (KTRFAC_USER | KTRFAC_USTACK)) && !(ps.flags & KTR_PS_AWAIT_EXEC))
		ktr_procmap__usdt_scan(k, pid, r, false, false);
	return 0;
}

/* Pending entries of route r not named by the request: children forked meanwhile. */
static void procmap__activate_children(const struct ktr_parts *k, const struct ktr_caller *c, int r)
{
	__u32 *keys;
	int n = ktr_procmap__keys(k->procs, r, &keys);

	for (int i = 0; i < n; i++)
		procmap__start(k, c, keys[i], r, NULL, true);
	free(keys);
}

int ktr_procmap__set(const struct ktr_parts *k, const struct ktr_caller *c,
		     const struct ktr_request *req, const pid_t *pids, int n, int r, char *msg)
{
	bool *put = calloc(n, sizeof(*put));
	int done = 0;

	if (!put) {
		ktr_proto__msg_add(msg, "%s\n", strerror(ENOMEM));
		return 0;
	}
	for (int i = 0; i < n; i++)
		put[i] = procmap__put(k, c, req, pids[i], r, msg) == 0;
	for (int i = 0; i < n; i++)
		done += put[i] && procmap__start(k, c, pids[i], r, msg, false) == 0;
	if (c->uid != 0 && done)
		procmap__activate_children(k, c, r);
	free(put);
	return done;
}

/*
 * A pending entry the request that made it did not settle: a child forked
 * the moment its parent's tracing started.  Checked as the file's owner,
 * then started or dropped.
 */
static void procmap__settle(const struct ktr_parts *k, __u32 pid, const struct ktr_proc_state *ps)
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
	procmap__start(k, &owner, pid, ps->route, NULL, true);
}

int ktr_procmap__clear(const struct ktr_parts *k, const struct ktr_caller *c, pid_t pid, __u32 facs,
		       char *msg, bool quiet)
{
	struct ktr_proc_state ps;
	__u32 key = pid;
	const char *why;
	bool traced = ktr_procmap__get(k->procs, key, &ps);
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
		ktr_procmap__drop(k->procs, key);
	else
		ktr_procmap__put(k->procs, key, &ps, BPF_EXIST);
	/* its probes stop firing now, not at the next tick */
	if (!(ps.facs & KTRFAC_USER) && k->usdt)
		ktr_usdt__forget(k->usdt, pid);
	return 0;
}

void ktr_procmap__stop_route(const struct ktr_parts *k, int r, char *pids, size_t size)
{
	size_t used = 0;
	__u32 *keys;
	int n = ktr_procmap__keys(k->procs, r, &keys);

	pids[0] = '\0';
	for (int i = 0; i < n; i++) {
		ktr_procmap__drop(k->procs, keys[i]);
		if (k->usdt)
			ktr_usdt__forget(k->usdt, keys[i]);
		if (used < size - 12)
			used += snprintf(pids + used, size - used, " %u", keys[i]);
	}
	free(keys);
}

bool ktr_procmap__scan(const struct ktr_parts *k)
{
	bool want_csw = false;
	__u32 *keys;
	int n = ktr_procmap__keys(k->procs, -1, &keys);

	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r))
		ktr_files__get(k->files, r)->nprocs = 0;
	for (int i = 0; i < n; i++) {
		struct ktr_tracefile *f;
		struct ktr_proc_state ps;

		if (!ktr_procmap__get(k->procs, keys[i], &ps))
			continue;
		f = ktr_files__get(k->files, ps.route);
		/* gone, or no file to write to: a missed exit leaves no stale tracing */
		if ((kill(keys[i], 0) < 0 && errno == ESRCH) || !f) {
			ktr_procmap__drop(k->procs, keys[i]);
			continue;
		}
		if (ps.flags & KTR_PS_PENDING)
			procmap__settle(k, keys[i], &ps);
		f->nprocs++;
		want_csw |= (ps.facs & KTRFAC_CSW) != 0;
	}
	free(keys);
	return want_csw;
}

/* --- USDT: the probes of the processes traced with 'u' ------------------------ */

/* What a process traced with facs has its files scanned for (ktr_usdt.h). */
static unsigned int procmap__usdt_want(__u32 facs)
{
	return ((facs & KTRFAC_USER) ? KTR_USDT_PROBES : 0) |
	       ((facs & KTRFAC_USTACK) ? KTR_USDT_OBJECTS : 0);
}

int ktr_procmap__usdt_scan(const struct ktr_parts *k, pid_t pid, __u32 route, bool exec, bool held)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, route);
	struct ktr_proc_state ps;

	if (!f || !k->usdt || !ktr_procmap__get(k->procs, pid, &ps))
		return 0;
	if (exec && (ps.facs & KTRFAC_USTACK))
		ktr_mappings__exec(f, pid); /* before the new image's mappings */
	return ktr_usdt__scan(k->usdt, pid, f->owner, f->owner_gid, exec, held,
			      procmap__usdt_want(ps.facs),
			      ktr_selection__usdt(k->selection, route));
}

bool ktr_procmap__usdt_traced(const struct ktr_procmap *pm, pid_t pid)
{
	struct ktr_proc_state ps;

	return ktr_procmap__get(pm, pid, &ps) && (ps.facs & (KTRFAC_USER | KTRFAC_USTACK)) &&
	       !(ps.flags & KTR_PS_PENDING);
}

void ktr_procmap__usdt_release(struct ktr_procmap *pm, pid_t pid)
{
	struct ktr_proc_state ps;

	if (ktr_procmap__get(pm, pid, &ps) && (ps.flags & KTR_PS_HELD)) {
		ps.flags &= ~KTR_PS_HELD;
		ktr_procmap__put(pm, pid, &ps, BPF_EXIST);
	}
	kill(pid, SIGCONT);
}

void ktr_procmap__usdt_sweep(const struct ktr_parts *k)
{
	pid_t *pids;
	int n = k->usdt ? ktr_usdt__pids(k->usdt, &pids) : 0;

	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;

		if (!ktr_procmap__get(k->procs, pids[i], &ps) ||
		    !(ps.facs & (KTRFAC_USER | KTRFAC_USTACK)))
			ktr_usdt__forget(k->usdt, pids[i]);
	}
	if (n >= 0 && k->usdt)
		free(pids);
}
