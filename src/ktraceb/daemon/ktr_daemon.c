// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's loop: connections and requests (ktr_conn.c, ktr_request.c)
 * as they come, the ring drained when BPF wakes us, and every KTR_TICK_MS
 * a tick (ktr_tick.c) that looks at the procs map, ends the trace files
 * nobody traces into any more and the connections that idle.  The parts it
 * serves from are set up here and handed to the rest as struct ktr_parts;
 * struct daemon is the loop's alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "daemon/programs/ktr_bpf.h"
#include "common/ktr_creds.h"
#include "common/ktr_proto.h"
#include "daemon/programs/ktr_attach.h"
#include "ktr_clock.h"
#include "daemon/requests/ktr_conn.h"
#include "ktr_daemon.h"
#include "daemon/drain/ktr_drain.h"
#include "daemon/files/ktr_ends.h"
#include "daemon/files/ktr_filestate.h"
#include "daemon/files/ktr_files.h"
#include "daemon/targets/ktr_groups.h"
#include "daemon/programs/ktr_loader.h"
#include "ktr_log.h"
#include "daemon/files/ktr_mappings.h"
#include "daemon/drain/ktr_notes.h"
#include "daemon/programs/ktr_pin.h"
#include "daemon/targets/ktr_proc_usdt.h"
#include "daemon/targets/ktr_procmap.h"
#include "daemon/requests/ktr_request.h"
#include "daemon/drain/ktr_ring.h"
#include "ktr_parts.h"
#include "daemon/files/ktr_selection.h"
#include "daemon/files/ktr_stop.h"
#include "daemon/events/ktr_syswide.h"
#include "daemon/targets/ktr_takeover.h"
#include "ktr_tick.h"
#include "daemon/events/ktr_tp.h"
#include "daemon/usdt/ktr_usdt.h"
#include "daemon/files/ktr_writer.h"
#include "trstr.h"

#define KTR_TICK_MS	 50
#define KTR_EXIT_TICK_MS 2 /* an early tick after an exit, at most this often */
#define KTR_IDLE_TICKS	 20 /* exit after a second with nothing to do */

/*
 * What wakes the loop, by its epoll data: NULL the listening socket, the
 * USDT support its file scans, the daemon itself the ring or the system-wide
 * trace's buffers, its writer_fd a trace file's writer, anything else a
 * connection (ktr_conn.h).
 */
struct daemon {
	struct ktr_bpf *bpf;
	struct ktr_config config;
	struct ktr_parts parts; /* each part's state is its own */
	int ep;
	int writer_fd; /* an eventfd: a writer's thread failed or finished (ktr_writer.h) */
	bool exited; /* a traced process ended: tick soon (KTR_EXIT_TICK_MS) */
	bool writer_said; /* a writer's thread ended or failed: tick now */
	int idle_ticks;
	char *answer; /* the answer to the request being served, or NULL */
};

static volatile sig_atomic_t daemon_exiting;

/*
 * A client has connected and waits to be accepted?  An idle daemon stays
 * for it: the socket closed with it waiting would reset its connection,
 * and its request, never read, would fail with nothing said.
 */
static bool daemon__client_waits(int listen_fd)
{
	struct pollfd p = { .fd = listen_fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

static void daemon__on_signal(int sig)
{
	daemon_exiting = sig;
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

	if (ktr_procmap__get(d->parts.procs, pid, &ps))
		f = ktr_files__get(d->parts.files, ps.route);
	if (f && !ktr_tracefile__first_time(f, line))
		return;
	ktr_log(LOG_WARNING, "pid %d: %s", pid, line);
	if (d->answer)
		ktr_proto__msg_add(d->answer, "%s\n", line);
	else if (f && f->fg)
		ktr_conn__note(f->fg, line);
}

static void daemon__usdt_release(void *ctx, pid_t pid)
{
	struct daemon *d = ctx;

	ktr_proc_usdt__release(d->parts.procs, pid);
}

static bool daemon__usdt_traced(void *ctx, pid_t pid)
{
	struct daemon *d = ctx;

	return ktr_proc_usdt__traced(d->parts.procs, pid);
}

/*
 * pid (traced with -k) maps that object there: its trace file describes
 * the object, once, and where pid maps it.
 */
static void daemon__usdt_object(void *ctx, pid_t pid, const struct ktr_object_id *id,
				const char *path, const struct ktr_object_map *where)
{
	struct daemon *d = ctx;
	struct ktr_proc_state ps;
	struct ktr_tracefile *f;

	if (!ktr_procmap__get(d->parts.procs, pid, &ps) ||
	    !(ps.facs & ktr_facs_that(KTR_FAC_OBJECTS)))
		return;
	f = ktr_files__get(d->parts.files, ps.route);
	if (f) {
		ktr_tracefile__describe_object(f, id, path);
		ktr_mappings__describe(f, pid, id, where);
	}
}

/* A note from BPF (ktr_notes.h), as the ring is drained. */
static void daemon__note(void *ctx, const struct ktr_note *n)
{
	struct daemon *d = ctx;

	if (ktr_notes__take(&d->parts, n))
		d->exited = true;
}

/* A writer's thread said something (an error, its end): the tick hears it.  True. */
static bool daemon__writers(struct daemon *d)
{
	__u64 n;

	if (read(d->writer_fd, &n, sizeof(n)) < 0) {
		/* nothing more to read: woken all the same */
	}
	return true;
}

/* A connection is readable: its request served, if one came. */
static void daemon__serve(struct daemon *d, struct ktr_conn *cn)
{
	struct ktr_request req;
	struct ktr_proto_fds fds;

	if (ktr_conn__receive(d->parts.conns, cn, &req, &fds) <= 0)
		return;
	d->answer =
		calloc(1, KTR_REPLY_MSG_MAX); /* warnings made while serving it are its answer's */
	ktr_request__handle(&d->parts, cn, &req, &fds, d->answer);
	free(d->answer);
	d->answer = NULL;
	ktr_conn__served(d->parts.conns, cn);
}

/*
 * The daemon's end: every trace ends (KTR_END_DAEMON), and the last
 * records and END of each file are written, waiting for the writers at
 * most KTR_TEARDOWN_MS in all; a file stuck longer is left to its thread.
 */
#define KTR_TEARDOWN_MS 5000
static void daemon__end_files(struct daemon *d)
{
	const struct ktr_parts *k = &d->parts;
	long long until = ktr_now_ms() + KTR_TEARDOWN_MS;

	ktr_stop__all(k, KTR_END_DAEMON, 0, NULL);
	ktr_drain__finish(k->drain);
	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r))
		ktr_stop__finish(k, r);
	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r)) {
		struct ktr_tracefile *f = ktr_files__get(k->files, r);
		long long left = until - ktr_now_ms();

		if (ktr_writer__wait_done(f->w, left > 0 ? (int)left : 0))
			ktr_stop__ended(k, r);
		else
			ktr_log(LOG_WARNING,
				"%s: still being written when the daemon ended: "
				"its last records are lost",
				ktr_tracefile__path(f));
	}
	/* every file ended: nothing for the next daemon to end (else it ends the rest) */
	ktr_filestate__close(ktr_files__count(k->files) == 0);
}

static void daemon__teardown(struct daemon *d)
{
	const struct ktr_parts *k = &d->parts;

	daemon__end_files(d);
	ktr_ends__free(k->ends);
	ktr_conns__free(k->conns, ktr_tick__conn_gone, (void *)k);
	ktr_usdt__free(k->usdt);
	ktr_attach__free(k->attach);
	ktr_tp__free(k->tp);
	ktr_syswide__free(k->syswide);
	ktr_drain__free(k->drain);
	ktr_ring__free(k->ring);
	ktr_procmap__free(k->procs);
	ktr_groups__free(k->groups);
	ktr_selection__free(k->selection);
	ktr_loader__destroy(d->bpf);
	ktr_files__free(k->files);
	ktr_writer__notify_by(-1);
	close(d->writer_fd);
	close(d->ep);
	ktr_log__close();
}

/*
 * -v: the load's log is over (the client that started us reads it from
 * our stderr, and waits for our answer until it ends, a refusal too):
 * stderr goes back to that client's own.
 */
static void daemon__log_done(const struct ktr_loader_opts *opts)
{
	if (opts->log_done_fd <= 0)
		return;
	fflush(stderr);
	dup2(opts->log_done_fd, STDERR_FILENO);
	close(opts->log_done_fd);
}

/* Tell the clients already queued why there is no daemon, then give up. */
static int daemon__fail(int listen_fd, const char *why)
{
	int sock;

	ktr_log(LOG_ERR, "%s", why);
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

/* The parts the programs' maps are in: trace files, the procs map, the attachment. */
static const char *daemon__parts(struct daemon *d)
{
	struct ktr_flight_maps maps = { .rings_fd = ktr_bpf__map_fd(d->bpf, flights),
					.ctls_fd = ktr_bpf__map_fd(d->bpf, flight_ctls) };

	d->parts.config = &d->config;
	d->parts.files = ktr_files__new(&maps);
	d->parts.procs = ktr_procmap__new(d->bpf);
	d->parts.attach = ktr_attach__new(d->bpf);
	d->parts.selection = ktr_selection__new(ktr_bpf__map_fd(d->bpf, selects));
	d->parts.groups = ktr_groups__new(d->bpf);
	d->parts.ends = ktr_ends__new();
	return d->parts.files && d->parts.procs && d->parts.attach && d->parts.selection &&
			       d->parts.groups && d->parts.ends ?
		       NULL :
		       "out of memory";
}

/*
 * The programs loaded, and the pins of a daemon killed before us taken
 * over (ktr_takeover.h); then our programs attached and the killed daemon's
 * links dropped.  NULL, or why not.
 */
static const char *daemon__load(struct daemon *d, const struct ktr_loader_opts *opts)
{
	struct ktr_loader_opts o = *opts;
	const char *why;
	__u32 facs;
	int err;

	/* what a daemon killed before us was writing (root's daemon) */
	ktr_filestate__open(d->config.shared);
	o.procs_fd = ktr_pin__init() ? ktr_pin__old_procs() : -1;
	o.selects_fd = o.procs_fd > 0 ? ktr_pin__old_selects() : -1;
	o.defer_attach = true;
	d->bpf = ktr_loader__load(&o, &why);
	if (o.procs_fd > 0)
		close(o.procs_fd);
	if (o.selects_fd > 0)
		close(o.selects_fd);
	if (!d->bpf)
		return why;
	why = daemon__parts(d);
	if (why)
		return why;
	facs = ktr_takeover__recordings(&d->parts);
	ktr_takeover__killed(&d->parts);
	/*
	 * Recordings taken over: ours before the dead daemon's go, not at the
	 * first tick, so that nothing goes unseen.  Else at the first trace:
	 * the first tick would detach them again, and a tracepoint attached,
	 * detached and attached again waits for an RCU grace period
	 * (tracepoint_add_func(), TP_TRANSITION_SYNC_1_0_1).
	 */
	err = 0;
	if (ktr_files__count(d->parts.files)) {
		err = ktr_attach__start(d->parts.attach);
		if (!err)
			ktr_attach__enter(d->parts.attach, ktr_files__need_enter(d->parts.files));
		if (!err)
			ktr_attach__stages(d->parts.attach, ktr_files__need_stage(d->parts.files));
		if (!err)
			ktr_attach__more(d->parts.attach, facs);
	}
	ktr_pin__drop_old_links();
	if (err) {
		ktr_loader__destroy(d->bpf);
		d->bpf = NULL;
		return "cannot attach the BPF programs";
	}
	return NULL;
}

/* The loop's own: its epoll, woken by the listening socket, the ring and the USDT scans. */
static void daemon__watch(struct daemon *d, int listen_fd)
{
	struct epoll_event ev = { .events = EPOLLIN };

	ev.data.ptr = NULL;
	epoll_ctl(d->ep, EPOLL_CTL_ADD, listen_fd, &ev);
	ev.data.ptr = d; /* the ring: wakes us when a quarter full */
	epoll_ctl(d->ep, EPOLL_CTL_ADD, ktr_drain__epoll_fd(d->parts.drain), &ev);
	ev.data.ptr = d->parts.usdt; /* the scans of files for probes */
	epoll_ctl(d->ep, EPOLL_CTL_ADD, ktr_usdt__fd(d->parts.usdt), &ev);
	ev.data.ptr = &d->writer_fd; /* a writer failed or finished */
	epoll_ctl(d->ep, EPOLL_CTL_ADD, d->writer_fd, &ev);
}

static const char *daemon__setup(struct daemon *d, const struct ktr_loader_opts *opts,
				 int listen_fd)
{
	struct ktr_usdt_hooks hooks = { .warn = daemon__usdt_warn,
					.release = daemon__usdt_release,
					.traced = daemon__usdt_traced,
					.object = daemon__usdt_object,
					.ctx = d };
	struct ktr_parts *k = &d->parts;
	unsigned int fd_limit;
	const char *why;

	/* BPF sees the kernel's pids; a daemon in a child namespace would mix them up */
	if (!ktr_creds__init_pidns())
		return "the ktraceb daemon must run in the initial pid namespace";
	ktr_creds__daemon_setup();
	fd_limit = daemon__raise_nofile();
	/* before any writer: a recording taken over has one at once */
	d->writer_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ktr_writer__notify_by(d->writer_fd);
	d->config.ring_bytes = opts->ring_bytes;
	why = daemon__load(d, opts);
	if (why)
		return why;
	k->ring = ktr_ring__new(d->bpf, &d->config.ring_bytes);
	k->drain = k->ring ? ktr_drain__new(d->bpf, k->ring, k->files, daemon__note, d) : NULL;
	d->ep = epoll_create1(EPOLL_CLOEXEC);
	if (!k->drain || d->ep < 0 || d->writer_fd < 0)
		return "cannot set up the ring buffer";
	k->usdt = ktr_usdt__new(d->bpf, ktr_loader__usdt_mode(), &hooks);
	k->tp = ktr_tp__new(d->bpf);
	k->syswide = ktr_syswide__new(d->bpf, k->files, d->ep, d, d->config.ring_bytes);
	k->conns = ktr_conns__new(listen_fd, d->ep, fd_limit);
	if (!k->usdt || !k->tp || !k->syswide || !k->conns)
		return "out of memory";
	ktr_takeover__usdt(k);
	daemon__watch(d, listen_fd);
	return NULL;
}

int ktr_daemon__run(const struct ktr_loader_opts *opts, int listen_fd, bool shared, uid_t owner)
{
	struct epoll_event evs[64];
	struct daemon *d = calloc(1, sizeof(*d));
	long long last = 0;
	const char *why;

	openlog("ktraceb", LOG_PID, LOG_DAEMON);
	ktr_log__open(shared, owner);
	if (!d)
		return daemon__fail(listen_fd, "out of memory");
	d->ep = -1;
	d->writer_fd = -1;
	d->config.shared = shared;
	d->config.owner = owner;
	why = daemon__setup(d, opts, listen_fd);
	daemon__log_done(opts);
	if (why) {
		/* nothing of ours stays in bpffs: a directory made for nothing goes */
		ktr_pin__leave();
		return daemon__fail(listen_fd, why);
	}
	signal(SIGTERM, daemon__on_signal);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);

	while (!daemon_exiting && d->idle_ticks < KTR_IDLE_TICKS) {
		int n;
		long long now;

		/* while the loop waits here, it drains the ring itself; else the ring thread does */
		ktr_drain__busy(d->parts.drain, false);
		n = epoll_wait(d->ep, evs, 64, d->exited ? KTR_EXIT_TICK_MS : KTR_TICK_MS);
		ktr_drain__busy(d->parts.drain, true);

		for (int i = 0; i < n; i++) {
			if (evs[i].data.ptr == NULL)
				ktr_conns__accept(d->parts.conns, ktr_files__count(d->parts.files));
			else if (evs[i].data.ptr == d->parts.usdt)
				ktr_usdt__poll(d->parts.usdt);
			else if (evs[i].data.ptr == &d->writer_fd)
				d->writer_said = daemon__writers(d);
			else if (evs[i].data.ptr != d)
				daemon__serve(d, evs[i].data.ptr);
		}
		now = ktr_now_ms();
		if (n > 0 && now - last < KTR_TICK_MS) {
			ktr_tick__drain(&d->parts); /* ring wakeups between ticks */
			/*
			 * A process ended: its trace may be over, its client
			 * waiting.  A writer that ended a file has a client
			 * waiting for that answer at once; there is one such
			 * end a file, no storm to hold back.
			 */
			if (!d->writer_said && (!d->exited || now - last < KTR_EXIT_TICK_MS))
				continue;
		}
		d->exited = false;
		d->writer_said = false;
		last = now;
		d->idle_ticks = ktr_tick__run(&d->parts) ? 0 : d->idle_ticks + 1;
		if (d->idle_ticks >= KTR_IDLE_TICKS && daemon__client_waits(listen_fd))
			d->idle_ticks = 0;
	}
	/* stop taking requests before the last drain, so none is half served */
	close(listen_fd);
	daemon__teardown(d);
	free(d);
	return 0;
}
