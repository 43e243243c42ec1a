// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's loop: connections and requests (ktr_conn.c, ktr_request.c)
 * as they come, the ring drained when BPF wakes us, and every KTR_TICK_MS
 * a tick that looks at the procs map, ends the trace files nobody traces
 * into any more and the connections that idle.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_clock.h"
#include "ktr_cpubuf.h"
#include "common/ktr_creds.h"
#include "ktr_daemon.h"
#include "ktr_daemon_priv.h"
#include "ktr_drain.h"
#include "ktr_flight.h"
#include "ktr_pin.h"
#include "ktr_recorder.h"
#include "ktr_loader.h"
#include "common/ktr_proto.h"
#include "ktr_tp.h"
#include "ktr_usdt.h"

static volatile sig_atomic_t daemon_exiting;

static void daemon__on_signal(int sig)
{
	daemon_exiting = sig;
}

/* End a file: last losses, last flush, DONE to its foreground client. */
static void daemon__finish_file(struct daemon *d, int r)
{
	struct ktr_tracefile *f = ktr_files__get(d->files, r);
	int err;

	/* losses counted since the tick's drain still go into this file */
	ktr_drain__account_lost(d->drain, r);
	if ((__u32)r == d->syswide_route)
		ktr_daemon__syswide_end(d);
	if (ktr_recorder__due(f))
		ktr_recorder__dump_frozen(f);
	err = ktr_tracefile__finish(f);
	if (f->fg)
		ktr_conn__reply(f->fg, KTR_REPLY_DONE, f->stop_err ? f->stop_err : -err, 0,
				f->stop_msg, ktr_tracefile__records(f), f->lost_seen,
				d->ring_bytes);
	ktr_drain__reset_lost(d->drain, r);
	ktr_tp__forget(d->tp, r);
	ktr_files__close(d->files, r);
}

/* Stop every process tracing into route r; the next tick finishes it. */
void ktr_daemon__stop_file(struct daemon *d, int r, int err, const char *why)
{
	struct ktr_tracefile *f = ktr_files__get(d->files, r);
	char pids[200] = "";
	size_t used = 0;
	__u32 *keys;
	int n;

	if (!f)
		return;
	n = ktr_procmap__keys(d, r, &keys);
	for (int i = 0; i < n; i++) {
		ktr_daemon__procs_drop(d, keys[i]);
		if (d->usdt)
			ktr_usdt__forget(d->usdt, keys[i]);
		if (used < sizeof(pids) - 12)
			used += snprintf(pids + used, sizeof(pids) - used, " %u", keys[i]);
	}
	free(keys);
	if (why) {
		f->stop_err = err;
		snprintf(f->stop_msg, sizeof(f->stop_msg), "%s: %s; tracing stopped for pid%s\n",
			 ktr_tracefile__path(f), why, pids[0] ? pids : "s: none");
		syslog(LOG_NOTICE, "%s", f->stop_msg);
	}
}

int ktr_daemon__usdt_scan(struct daemon *d, pid_t pid, __u32 route, bool exec, bool held)
{
	struct ktr_tracefile *f = ktr_files__get(d->files, route);

	if (!f || !d->usdt)
		return 0;
	return ktr_usdt__scan(d->usdt, pid, f->owner, f->owner_gid, exec, held);
}

/* A process stopped for its probes (KTR_PS_HELD) goes on. */
static void daemon__usdt_release(void *ctx, pid_t pid)
{
	struct daemon *d = ctx;
	struct ktr_proc_state ps;
	__u32 key = pid;

	if (bpf_map_lookup_elem(d->procs_fd, &key, &ps) == 0 && (ps.flags & KTR_PS_HELD)) {
		ps.flags &= ~KTR_PS_HELD;
		ktr_daemon__procs_put(d, key, &ps, BPF_EXIST);
	}
	kill(pid, SIGCONT);
}

static bool daemon__usdt_traced(void *ctx, pid_t pid)
{
	struct daemon *d = ctx;
	struct ktr_proc_state ps;
	__u32 key = pid;

	return bpf_map_lookup_elem(d->procs_fd, &key, &ps) == 0 && (ps.facs & KTRFAC_USER) &&
	       !(ps.flags & KTR_PS_PENDING);
}

/*
 * Something about pid's probes failed: one line in the log, and to the
 * trace's owner: in the answer to the request being served, or to the
 * foreground ktraceb waiting for the trace.  Each line once per trace.
 */
static void daemon__usdt_warn(void *ctx, pid_t pid, const char *line)
{
	struct daemon *d = ctx;
	struct ktr_proc_state ps;
	struct ktr_tracefile *f = NULL;
	__u32 key = pid;

	if (bpf_map_lookup_elem(d->procs_fd, &key, &ps) == 0)
		f = ktr_files__get(d->files, ps.route);
	if (f && !ktr_tracefile__first_time(f, line))
		return;
	syslog(LOG_WARNING, "pid %d: %s", pid, line);
	if (d->req_msg)
		ktr_proto__msg_add(d->req_msg, "%s\n", line);
	else if (f && f->fg)
		ktr_conn__note(f->fg, line);
}

/*
 * A note from BPF: a process traced with 'u' exec'd, mapped a file
 * executable or forked.  A process stopped for it (KTR_PS_HOLD) is
 * continued once the files are looked at and their probes attached
 * (daemon__usdt_release); whatever happens, nothing may leave it stopped.
 */
static void daemon__note(void *ctx, const struct ktr_note *n)
{
	struct daemon *d = ctx;
	struct ktr_proc_state ps;
	__u32 key = n->pid;
	bool traced = bpf_map_lookup_elem(d->procs_fd, &key, &ps) == 0 && (ps.facs & KTRFAC_USER) &&
		      !(ps.flags & KTR_PS_PENDING);
	bool held = n->flags & KTR_NOTE_HELD;

	if (n->kind == KTR_NOTE_EXIT) {
		d->exited = true;
		return;
	}
	if (n->kind == KTR_NOTE_FLIGHT) {
		struct ktr_tracefile *f = ktr_files__get(d->files, n->child);

		if (f && ktr_recorder__due(f))
			ktr_recorder__dump_frozen(f);
		return;
	}
	if (n->kind == KTR_NOTE_FORK) {
		if (traced && d->usdt)
			ktr_usdt__fork(d->usdt, n->pid, n->child, n->flags & KTR_NOTE_CHILD_TRACED);
		return;
	}
	if (traced &&
	    ktr_daemon__usdt_scan(d, n->pid, ps.route, n->kind == KTR_NOTE_EXEC, held) > 0)
		return; /* continued when its looks are over */
	if (held)
		daemon__usdt_release(d, n->pid);
}

/* Disarm the probes of processes no longer traced with 'u'. */
static void daemon__usdt_sweep(struct daemon *d)
{
	pid_t *pids;
	int n = d->usdt ? ktr_usdt__pids(d->usdt, &pids) : 0;

	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;
		__u32 key = pids[i];

		if (bpf_map_lookup_elem(d->procs_fd, &key, &ps) < 0 || !(ps.facs & KTRFAC_USER))
			ktr_usdt__forget(d->usdt, pids[i]);
	}
	if (n >= 0 && d->usdt)
		free(pids);
}

/* Count processes per file, drop entries whose process or file is gone. */
static bool daemon__scan(struct daemon *d)
{
	bool want_csw = false;
	__u32 *keys;
	int n = ktr_procmap__keys(d, -1, &keys);

	for (__u32 r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r))
		ktr_files__get(d->files, r)->nprocs = 0;
	for (int i = 0; i < n; i++) {
		struct ktr_tracefile *f;
		struct ktr_proc_state ps;

		if (bpf_map_lookup_elem(d->procs_fd, &keys[i], &ps) < 0)
			continue;
		f = ktr_files__get(d->files, ps.route);
		/* gone, or no file to write to: a missed exit leaves no stale tracing */
		if ((kill(keys[i], 0) < 0 && errno == ESRCH) || !f) {
			ktr_daemon__procs_drop(d, keys[i]);
			continue;
		}
		if (ps.flags & KTR_PS_PENDING)
			ktr_procmap__settle(d, keys[i], &ps);
		f->nprocs++;
		want_csw |= (ps.facs & KTRFAC_CSW) != 0;
	}
	free(keys);
	return want_csw;
}

/* sched_switch costs every switch on the machine: attached only while wanted. */
void ktr_daemon__csw(struct daemon *d, bool want)
{
	if (want && ktr_loader__missing(KTRFAC_CSW))
		return; /* said to each trace that asked (ktr_request.c) */
	if (ktr_loader__attach_csw(d->skel, want) < 0)
		syslog(LOG_WARNING, "cannot attach the context-switch program");
}

void ktr_daemon__enter(struct daemon *d)
{
	bool want = ktr_files__need_enter(d->files);

	if (ktr_loader__attach_enter(d->skel, want) < 0)
		syslog(LOG_WARNING, "cannot attach the syscall entry program");
	else if (want && d->pinned)
		ktr_pin__keep(d->skel, true); /* its link outlives us with the others */
}

/*
 * The ring itself failed (not a file): no record can reach any file any
 * more, so every trace ends, saying why.
 */
static void daemon__ring_failed(struct daemon *d, int err)
{
	char why[128];

	snprintf(why, sizeof(why), "ring buffer: %s", strerror(-err));
	syslog(LOG_ERR, "%s", why);
	for (__u32 r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r))
		ktr_daemon__stop_file(d, r, -err, why);
}

void ktr_daemon__drain(struct daemon *d)
{
	int err = ktr_drain__poll(d->drain, 0);

	if (err < 0 && err != -EINTR)
		daemon__ring_failed(d, err);
	if (d->cpubuf)
		ktr_cpubuf__drain(d->cpubuf);
}

/* Per-CPU buffers of the ring's size shared out, within 64 KiB and 4 MiB each. */
static size_t daemon__cpubuf_bytes(const struct daemon *d)
{
	int ncpus = libbpf_num_possible_cpus();
	size_t each = d->ring_bytes / (size_t)(ncpus > 0 ? ncpus : 1);

	return each < (64u << 10) ? 64u << 10 : each > (4u << 20) ? 4u << 20 : each;
}

int ktr_daemon__syswide(struct daemon *d, int r, bool alone, char *msg)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = d };

	if (d->syswide_route && d->syswide_route != (__u32)r) {
		ktr_proto__msg_add(msg, "-S: a system-wide trace already runs (into %s)\n",
				   ktr_tracefile__path(ktr_files__get(d->files, d->syswide_route)));
		return -EBUSY;
	}
	if (d->syswide_route)
		return 0;
	d->cpubuf = ktr_cpubuf__new(bpf_map__fd(d->skel->maps.tp_cpu_out), d->files, r,
				    daemon__cpubuf_bytes(d));
	if (!d->cpubuf) {
		int err = -errno;

		ktr_proto__msg_add(msg, "-S: cannot open the per-CPU buffers: %s\n",
				   strerror(-err));
		return err;
	}
	epoll_ctl(d->ep, EPOLL_CTL_ADD, ktr_cpubuf__epoll_fd(d->cpubuf), &ev);
	d->syswide_alone = alone;
	d->syswide_route = r;
	d->skel->bss->ktr_syswide_route = r;
	return 0;
}

void ktr_daemon__syswide_end(struct daemon *d)
{
	d->skel->bss->ktr_syswide_route = 0;
	d->syswide_alone = false;
	if (d->cpubuf) {
		epoll_ctl(d->ep, EPOLL_CTL_DEL, ktr_cpubuf__epoll_fd(d->cpubuf), NULL);
		ktr_cpubuf__free(d->cpubuf); /* what it still holds, into the file */
		d->cpubuf = NULL;
	}
	d->syswide_route = 0;
}

/*
 * While a recording exists, the links and the procs map are pinned too, so
 * a daemon killed -9 leaves the recordings recording (ktr_pin.h).
 */
void ktr_daemon__pins(struct daemon *d)
{
	bool want = ktr_files__recording(d->files);

	if (want == d->pinned || !ktr_pin__enabled())
		return;
	if (ktr_pin__keep(d->skel, want) == 0 || !want)
		d->pinned = want;
	else if (!d->pin_failed)
		syslog(LOG_WARNING, "cannot pin the programs: recordings end with the daemon");
	d->pin_failed = want && !d->pinned;
}

/* A file that cannot take more: its processes stopped, a system-wide trace into it ended. */
static void daemon__stop_live_file(struct daemon *d, int r, int err, const char *why)
{
	ktr_daemon__stop_file(d, r, err, why);
	if ((__u32)r == d->syswide_route)
		ktr_daemon__syswide_end(d); /* the next tick finishes the file */
}

static void daemon__tick(struct daemon *d)
{
	bool want_csw = daemon__scan(d), busy = false, any_conn;

	ktr_daemon__drain(d);
	for (__u32 r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r)) {
		struct ktr_tracefile *f = ktr_files__get(d->files, r);
		bool alone = r == d->syswide_route && d->syswide_alone;
		int werr;

		busy = true;
		if (ktr_recorder__due(f))
			ktr_recorder__dump_frozen(f);
		werr = ktr_tracefile__error(f);
		if (werr && (f->nprocs || alone)) {
			daemon__stop_live_file(d, r, werr, strerror(werr));
			continue;
		}
		if ((f->nprocs || alone) && ktr_tracefile__unlinked(f)) {
			daemon__stop_live_file(d, r, ENOENT, "trace file deleted");
			continue;
		}
		if (f->nprocs == 0 && !alone)
			daemon__finish_file(d, r);
	}
	ktr_daemon__csw(d, want_csw);
	daemon__usdt_sweep(d);
	ktr_usdt__poll(d->usdt); /* looks past their time end */
	/*
	 * The last trace has ended: the tracepoint programs go at once, so
	 * every process on the machine stops paying for them; they stay
	 * loaded, and a trace that starts before the daemon exits attaches
	 * them again without loading them again.
	 */
	ktr_daemon__pins(d);
	if (ktr_files__count(d->files) && !d->detached)
		ktr_daemon__enter(d);
	if (!ktr_files__count(d->files) && !d->detached) {
		ktr_loader__detach(d->skel);
		d->detached = true;
		/* nothing is traced: every bit may go (none is set again until a trace starts) */
		memset(d->skel->bss->ktr_traced, 0, sizeof(d->skel->bss->ktr_traced));
	}
	ktr_conn__sweep(d, &any_conn);
	busy |= any_conn;
	d->idle_ticks = busy ? 0 : d->idle_ticks + 1;
}

void ktr_daemon__mark_traced(struct daemon *d, __u32 tgid)
{
	__atomic_fetch_or(&d->skel->bss->ktr_traced[KTR_TRACED_WORD(tgid)], KTR_TRACED_BIT(tgid),
			  __ATOMIC_SEQ_CST);
}

/*
 * Every change of the procs map goes through these two: after it, the
 * syscall programs' copies of its entries are stale (bpf_shared.h).
 */
int ktr_daemon__procs_put(struct daemon *d, __u32 tgid, const struct ktr_proc_state *ps,
			  __u64 flags)
{
	int err = bpf_map_update_elem(d->procs_fd, &tgid, ps, flags);

	__atomic_fetch_add(&d->skel->bss->ktr_procs_gen, 1, __ATOMIC_SEQ_CST);
	return err;
}

void ktr_daemon__procs_drop(struct daemon *d, __u32 tgid)
{
	bpf_map_delete_elem(d->procs_fd, &tgid);
	__atomic_fetch_add(&d->skel->bss->ktr_procs_gen, 1, __ATOMIC_SEQ_CST);
}

int ktr_daemon__attach(struct daemon *d)
{
	int err;

	if (!d->detached)
		return 0;
	err = ktr_loader__attach(d->skel);
	if (err)
		return err;
	d->detached = false;
	return 0;
}

static void daemon__teardown(struct daemon *d)
{
	for (__u32 r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r))
		ktr_daemon__stop_file(d, r, 0, NULL);
	ktr_drain__finish(d->drain);
	for (__u32 r = ktr_files__next(d->files, 0); r; r = ktr_files__next(d->files, r))
		daemon__finish_file(d, r);
	ktr_conn__close_all(d);
	ktr_usdt__free(d->usdt);
	if (d->pinned)
		ktr_pin__keep(d->skel, false);
	ktr_tp__free(d->tp);
	ktr_drain__free(d->drain);
	ktr_loader__destroy(d->skel);
	ktr_files__free(d->files);
	d->files = NULL;
	close(d->ep);
	if (d->spare_fd >= 0)
		close(d->spare_fd);
}

/* Tell the clients already queued why there is no daemon, then give up. */
static int daemon__fail(int listen_fd, const char *why)
{
	int sock;

	syslog(LOG_ERR, "%s", why);
	fcntl(listen_fd, F_SETFL, O_NONBLOCK);
	while ((sock = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		struct timeval tv = { .tv_sec = 1 };
		char msg[256];

		/* the client sends its request right after connecting: wait for it */
		setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		snprintf(msg, sizeof(msg), "%s\n", why);
		ktr_conn__refuse(sock, EOPNOTSUPP, msg);
	}
	return 1;
}

/* As many descriptors as we may have: one per trace file and two per client. */
static unsigned int daemon__raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 1024;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	getrlimit(RLIMIT_NOFILE, &rl);
	return rl.rlim_cur > 1u << 20 ? 1u << 20 : (unsigned int)rl.rlim_cur;
}

/* A ring a dead daemon pinned: its recording goes on here, or is removed, said in the log. */
static void daemon__adopt_ring(void *ctx, __u32 route, int fd, const char *pin)
{
	struct daemon *d = ctx;
	struct ktr_flight *fl = ktr_flight__open(fd, ktr_files__flight_maps(d->files), route, pin);
	const char *why = "not a ktraceb recording, or a damaged one";
	int r = -EINVAL;

	if (fl)
		r = ktr_files__adopt(d->files, route, fl, &why);
	if (r >= 0) {
		syslog(LOG_NOTICE, "%s: recording taken over from a daemon that died",
		       ktr_tracefile__path(ktr_files__get(d->files, r)));
		return;
	}
	syslog(LOG_WARNING, "recording %s dropped: %s", pin, why);
	ktr_flight__free(fl);
	unlink(pin); /* its control map's pin goes with it (ktr_pin__old_rings) */
}

/*
 * The programs loaded, and what a daemon killed before us left taken
 * over (ktr_pin.h): its procs map shared, its rings back in the flights
 * map, traces without a ring (their clients are gone) ended; then our
 * programs attached and the dead daemon's links dropped.
 */
static struct ktraceb_bpf *daemon__load(struct daemon *d, const struct ktr_loader_opts *opts,
					const char **why)
{
	struct ktr_loader_opts o = *opts;
	struct ktr_flight_maps maps;
	struct ktraceb_bpf *skel;
	struct ktr_proc_state ps;
	__u32 key, next, *keys = NULL;
	bool want_csw = false;
	size_t n = 0;
	int err;

	o.procs_fd = ktr_pin__init() ? ktr_pin__old_procs() : -1;
	o.defer_attach = true;
	skel = ktr_loader__load(&o, why);
	if (o.procs_fd > 0)
		close(o.procs_fd);
	if (!skel)
		return NULL;
	d->skel = skel;
	d->procs_fd = bpf_map__fd(skel->maps.procs);
	maps.rings_fd = bpf_map__fd(skel->maps.flights);
	maps.ctls_fd = bpf_map__fd(skel->maps.flight_ctls);
	d->files = ktr_files__new(&maps);
	if (!d->files) {
		*why = "out of memory";
		ktr_loader__destroy(skel);
		return d->skel = NULL;
	}
	/* rings first: a ring whose procs map was not pinned yet still has its crash to write */
	ktr_pin__old_rings(daemon__adopt_ring, d);
	if (o.procs_fd > 0) {
		keys = calloc(KTR_MAX_PROCS, sizeof(*keys));
		for (err = bpf_map_get_next_key(d->procs_fd, NULL, &key); keys && !err;
		     err = bpf_map_get_next_key(d->procs_fd, &key, &next), key = next)
			if (bpf_map_lookup_elem(d->procs_fd, &key, &ps) == 0 &&
			    ktr_files__get(d->files, ps.route) &&
			    ktr_files__get(d->files, ps.route)->flight) {
				ktr_daemon__mark_traced(d, key); /* a recording's: ours now */
				want_csw |= (ps.facs & KTRFAC_CSW) != 0;
			} else if (n < KTR_MAX_PROCS) {
				keys[n++] = key;
				if (ps.flags & KTR_PS_HELD)
					kill(key, SIGCONT); /* nothing may stay stopped for us */
			}
		for (size_t i = 0; i < n; i++)
			ktr_daemon__procs_drop(d, keys[i]);
		free(keys);
	}
	err = ktr_loader__attach(skel);
	if (!err)
		ktr_daemon__enter(d);
	/* ours before the dead daemon's go, not at the first tick: no switch unseen */
	if (!err && want_csw)
		ktr_daemon__csw(d, true);
	ktr_pin__drop_old_links();
	if (err) {
		*why = "cannot attach the BPF programs";
		ktr_loader__destroy(skel);
		return d->skel = NULL;
	}
	return skel;
}

/*
 * Recordings taken over (daemon__load): their processes' USDT probes, whose
 * links died with the daemon that attached them, attached again.  Their
 * semaphores, raised by it in each process's memory, are raised once more:
 * they stay raised after the recording ends (the probes' arguments then
 * cost the program a little, and record nothing).
 */
static void daemon__usdt_rescan(struct daemon *d)
{
	struct ktr_proc_state ps;
	__u32 key, next;
	int err;

	for (err = bpf_map_get_next_key(d->procs_fd, NULL, &key); !err;
	     err = bpf_map_get_next_key(d->procs_fd, &key, &next), key = next)
		if (bpf_map_lookup_elem(d->procs_fd, &key, &ps) == 0 && (ps.facs & KTRFAC_USER) &&
		    !(ps.flags & KTR_PS_QUIET))
			ktr_daemon__usdt_scan(d, key, ps.route, false, false);
}

static const char *daemon__setup(struct daemon *d, const struct ktr_loader_opts *opts,
				 int listen_fd)
{
	struct ktr_usdt_hooks hooks = { .warn = daemon__usdt_warn,
					.release = daemon__usdt_release,
					.traced = daemon__usdt_traced,
					.ctx = d };
	struct epoll_event ev = { .events = EPOLLIN };
	const char *why;

	/* BPF sees the kernel's pids; a daemon in a child namespace would mix them up */
	if (!ktr_creds__init_pidns())
		return "the ktraceb daemon must run in the initial pid namespace";
	ktr_creds__daemon_setup();
	d->fd_limit = daemon__raise_nofile();
	d->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	d->ring_bytes = opts->ring_bytes;
	d->skel = daemon__load(d, opts, &why);
	if (!d->skel)
		return why;
	d->skel->bss->ktr_daemon_tgid =
		getpid(); /* a system-wide trace of its own writes would feed itself */
	d->drain = ktr_drain__new(d->skel, d->files, daemon__note, d);
	d->ep = epoll_create1(EPOLL_CLOEXEC);
	if (!d->drain || d->ep < 0)
		return "cannot set up the ring buffer";
	d->usdt = ktr_usdt__new(d->skel, ktr_loader__usdt_mode(), &hooks);
	d->tp = ktr_tp__new(d->skel);
	if (!d->usdt || !d->tp)
		return "out of memory";
	daemon__usdt_rescan(d);
	d->listen_fd = listen_fd;
	fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
	ev.data.ptr = NULL;
	epoll_ctl(d->ep, EPOLL_CTL_ADD, listen_fd, &ev);
	ev.data.ptr = d; /* the ring: wakes us when a quarter full */
	epoll_ctl(d->ep, EPOLL_CTL_ADD, ktr_drain__epoll_fd(d->drain), &ev);
	ev.data.ptr = d->usdt; /* the looks at files with probes */
	epoll_ctl(d->ep, EPOLL_CTL_ADD, ktr_usdt__fd(d->usdt), &ev);
	return NULL;
}

int ktr_daemon__run(const struct ktr_loader_opts *opts, int listen_fd, bool shared, uid_t owner)
{
	struct epoll_event evs[64];
	struct daemon *d = calloc(1, sizeof(*d));
	long long last = 0;
	const char *why;

	openlog("ktraceb", LOG_PID, LOG_DAEMON);
	if (!d)
		return daemon__fail(listen_fd, "out of memory");
	d->ep = -1;
	d->shared = shared;
	d->owner = owner;
	why = daemon__setup(d, opts, listen_fd);
	if (why)
		return daemon__fail(listen_fd, why);
	signal(SIGTERM, daemon__on_signal);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);

	while (!daemon_exiting && d->idle_ticks < KTR_IDLE_TICKS) {
		int n = epoll_wait(d->ep, evs, 64, d->exited ? KTR_EXIT_TICK_MS : KTR_TICK_MS);
		long long now;

		for (int i = 0; i < n; i++) {
			if (evs[i].data.ptr == NULL)
				ktr_conn__accept_all(d);
			else if (evs[i].data.ptr == d->usdt)
				ktr_usdt__poll(d->usdt);
			else if (evs[i].data.ptr != d)
				ktr_conn__readable(d, evs[i].data.ptr);
		}
		now = ktr_now_ms();
		if (n > 0 && now - last < KTR_TICK_MS) {
			ktr_daemon__drain(d); /* ring wakeups between ticks */
			/* a process ended: its trace may be over, its client waiting */
			if (!d->exited || now - last < KTR_EXIT_TICK_MS)
				continue;
		}
		d->exited = false;
		last = now;
		daemon__tick(d);
	}
	/* stop taking requests before the last drain, so none is half served */
	close(listen_fd);
	daemon__teardown(d);
	free(d);
	return 0;
}
