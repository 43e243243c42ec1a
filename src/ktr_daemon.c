// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_daemon.h"
#include "ktr_drain.h"
#include "ktr_loader.h"
#include "ktr_perm.h"
#include "ktr_proto.h"
#include "ktr_writer.h"

#define TICK_MS	    50
#define IDLE_TICKS  20 /* exit after a second with nothing to do */
#define MAX_CLIENTS 64

struct route {
	struct ktr_writer *w; /* NULL: free slot */
	dev_t dev;
	ino_t ino;
	int fg_sock; /* foreground client waiting for DONE, or -1 */
	unsigned int nprocs; /* processes tracing into it, last scan */
	char stop_msg[256]; /* why it stopped early, for DONE */
	int stop_err;
};

struct client {
	int sock; /* -1: free slot */
	struct ktr_caller cred;
};

struct daemon {
	struct ktraceb_bpf *skel;
	struct ktr_drain *drain;
	int procs_fd;
	int listen_fd;
	int ep;
	bool shared;
	uid_t owner;
	struct bpf_link *csw_link;
	struct route routes[KTR_MAX_ROUTES];
	struct client clients[MAX_CLIENTS];
	int idle_ticks;
};

static volatile sig_atomic_t daemon_exiting;

static void daemon__on_signal(int sig)
{
	daemon_exiting = sig;
}

/* Append a line to a reply message, keeping it NUL-terminated. */
static void msg__add(char *msg, const char *fmt, ...)
{
	size_t used = strlen(msg);
	va_list ap;

	if (used >= KTR_REPLY_MSG_MAX - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(msg + used, KTR_REPLY_MSG_MAX - used, fmt, ap);
	va_end(ap);
}

static int route__find(struct daemon *d, dev_t dev, ino_t ino)
{
	for (int r = 0; r < KTR_MAX_ROUTES; r++)
		if (d->routes[r].w && d->routes[r].dev == dev && d->routes[r].ino == ino)
			return r;
	return -1;
}

static void route__write_fileinfo(struct route *rt)
{
	struct ktr_fileinfo fi;
	FILE *f;

	memset(&fi, 0, sizeof(fi));
	memcpy(fi.fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC));
	fi.fi_version = KTR_FORMAT_VERSION;
	fi.fi_hdrsize = sizeof(struct ktr_header);
	fi.fi_byteorder = KTR_BYTEORDER_MARK;
#if defined(__x86_64__)
	strcpy(fi.fi_machine, "x86_64");
#endif
	f = fopen("/proc/sys/kernel/osrelease", "re");
	if (f) {
		if (fgets(fi.fi_release, sizeof(fi.fi_release), f))
			fi.fi_release[strcspn(fi.fi_release, "\n")] = '\0';
		fclose(f);
	}
	fi.fi_clock = CLOCK_MONOTONIC;
	fi.fi_wall_offset_ns = ktr_wall_offset_ns();
	snprintf(fi.fi_tool, sizeof(fi.fi_tool), "ktraceb %s", KTRACEB_VERSION);
	ktr_writer__append_meta(rt->w, KTR_FILEINFO, &fi, sizeof(fi), fi.fi_wall_offset_ns);
}

/* The route for the file behind fd, created if new; -errno if none is free. */
static int route__get(struct daemon *d, int fd, char *msg)
{
	struct stat st;
	int r;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		msg__add(msg, "trace file: not a regular file\n");
		return -EACCES;
	}
	r = route__find(d, st.st_dev, st.st_ino);
	if (r >= 0) {
		close(fd);
		return r;
	}
	for (r = 0; r < KTR_MAX_ROUTES; r++)
		if (!d->routes[r].w)
			break;
	if (r == KTR_MAX_ROUTES) {
		close(fd);
		msg__add(msg, "too many trace files in use\n");
		return -ENFILE;
	}
	d->routes[r].w = ktr_writer__new(fd);
	if (!d->routes[r].w) {
		close(fd);
		return -ENOMEM;
	}
	d->routes[r].dev = st.st_dev;
	d->routes[r].ino = st.st_ino;
	d->routes[r].fg_sock = -1;
	d->routes[r].nprocs = 0;
	d->routes[r].stop_msg[0] = '\0';
	d->routes[r].stop_err = 0;
	route__write_fileinfo(&d->routes[r]);
	ktr_drain__set_writer(d->drain, r, d->routes[r].w);
	return r;
}

static unsigned long long daemon_ring_bytes;

static void reply__send(int sock, int type, int error, unsigned int count, const char *msg,
			unsigned long long records, unsigned long long lost)
{
	struct ktr_reply *rep = calloc(1, sizeof(*rep));

	if (!rep)
		return;
	rep->magic = KTR_PROTO_MAGIC;
	rep->type = type;
	rep->error = error;
	rep->count = count;
	rep->records = records;
	rep->lost = lost;
	rep->ring_bytes = daemon_ring_bytes;
	snprintf(rep->msg, sizeof(rep->msg), "%s", msg ? msg : "");
	ktr_proto__send(sock, rep, sizeof(*rep), -1);
	free(rep);
}

/* End a route: last flush, DONE to its foreground client, close the file. */
static void route__finish(struct daemon *d, int r)
{
	struct route *rt = &d->routes[r];
	int err;

	/* losses counted since the tick's drain still go into this file */
	ktr_drain__account_lost(d->drain, r);
	ktr_drain__set_writer(d->drain, r, NULL);
	err = ktr_writer__finish(rt->w);
	if (rt->fg_sock >= 0)
		reply__send(rt->fg_sock, KTR_REPLY_DONE, rt->stop_err ? rt->stop_err : -err, 0,
			    rt->stop_msg, ktr_writer__records(rt->w), ktr_drain__lost(d->drain, r));
	ktr_writer__free(rt->w);
	rt->w = NULL;
	rt->fg_sock = -1;
	ktr_drain__reset_lost(d->drain, r);
}

/*
 * The traced pids (of route r, or all with r < 0), collected before any is
 * changed: deleting while walking a hash map can revisit or skip keys.
 */
static int procs__keys(struct daemon *d, int r, __u32 **out)
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

/* Stop every process tracing into route r; the next tick finishes it. */
static void route__stop(struct daemon *d, int r, int err, const char *why)
{
	char pids[200] = "";
	size_t used = 0;
	__u32 *keys;
	int n = procs__keys(d, r, &keys);

	for (int i = 0; i < n; i++) {
		bpf_map_delete_elem(d->procs_fd, &keys[i]);
		if (used < sizeof(pids) - 12)
			used += snprintf(pids + used, sizeof(pids) - used, " %u", keys[i]);
	}
	free(keys);
	if (why) {
		d->routes[r].stop_err = err;
		snprintf(d->routes[r].stop_msg, sizeof(d->routes[r].stop_msg),
			 "%s: %s; tracing stopped for pid%s\n", ktr_writer__path(d->routes[r].w),
			 why, pids[0] ? pids : "s: none");
		syslog(LOG_NOTICE, "%s", d->routes[r].stop_msg);
	}
}

static void proc__write_ctor(struct daemon *d, int r, pid_t pid, __u32 sv_flags)
{
	struct ktr_proc_ctor ctor = { .sv_flags = sv_flags };
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	ktr_writer__append_proc(d->routes[r].w, KTR_PROCCTOR, pid, pid, comm, &ctor, sizeof(ctor),
				ktr_wall_offset_ns());
}

/* SET on one process: BSD ktrops(): move it to the route, OR in the facilities. */
static int proc__set(struct daemon *d, const struct ktr_caller *c, const struct ktr_request *req,
		     pid_t pid, int r, char *msg)
{
	struct ktr_proc_state ps = { 0 }, old;
	__u32 key = pid;
	const char *why;
	bool traced = bpf_map_lookup_elem(d->procs_fd, &key, &old) == 0;
	int err = ktr_perm__canset(c, pid, traced ? old.facs : 0, &why);

	if (!err && pid == getpid()) {
		why = "is the ktraceb daemon (its writes would trace themselves)";
		err = -EINVAL;
	}
	if (err) {
		msg__add(msg, "pid %d: %s\n", pid, why);
		return err;
	}
	if (traced) {
		ps = old;
		ps.facs |= req->facs;
	} else {
		ps.facs = req->facs;
		ps.sv_flags = KTR_SV_LINUX_AMD64;
	}
	ps.route = r;
	ps.iosize = req->iosize;
	ps.flags = (req->flags & KTR_REQ_AWAIT_EXEC) ? KTR_PS_AWAIT_EXEC : 0;
	if (c->uid == 0)
		ps.facs |= KTRFAC_ROOT;
	if (bpf_map_update_elem(d->procs_fd, &key, &ps, BPF_ANY) < 0) {
		msg__add(msg, "pid %d: %s\n", pid, strerror(errno));
		return -errno;
	}
	if (!(req->flags & KTR_REQ_AWAIT_EXEC))
		proc__write_ctor(d, r, pid, ps.sv_flags);
	return 0;
}

/* CLEAR on one process: BSD ktrops() clear; facs == 0 clears everything. */
static int proc__clear(struct daemon *d, const struct ktr_caller *c, pid_t pid, __u32 facs,
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
			msg__add(msg, "pid %d: %s\n", pid, why);
		return err;
	}
	if (!traced)
		return 0;
	ps.facs &= ~(facs ? facs : KTRFAC_MASK);
	if (!(ps.facs & KTRFAC_MASK))
		bpf_map_delete_elem(d->procs_fd, &key);
	else
		bpf_map_update_elem(d->procs_fd, &key, &ps, BPF_EXIST);
	return 0;
}

/* SET or CLEAR on what the request names; returns processes changed. */
static int request__targets(struct daemon *d, struct client *cl, const struct ktr_request *req,
			    int r, char *msg, int *err)
{
	/* a thread id names its process, as everywhere in this file */
	int tgid = req->pid > 0 ? ktr_procs__tgid(req->pid) : req->pid;
	pid_t *pids = NULL;
	int n = 0, done = 0;

	if (req->pid < 0 || tgid > 0)
		n = ktr_procs__collect(tgid, req->flags & KTR_REQ_DESCEND, &pids);

	if (n <= 0) {
		*err = n < 0 ? n : -ESRCH;
		msg__add(msg,
			 req->pid > 0 ? "pid %d: no such process\n" :
					"process group %d: no such process group\n",
			 req->pid > 0 ? req->pid : -req->pid);
		return 0;
	}
	*err = -EPERM;
	for (int i = 0; i < n; i++) {
		int e = req->op == KTR_OP_SET ?
				proc__set(d, &cl->cred, req, pids[i], r, msg) :
				proc__clear(d, &cl->cred, pids[i], req->facs, msg, false);

		if (e == 0)
			done++;
	}
	free(pids);
	if (done)
		*err = 0;
	return done;
}

/* CLEARFILE (-c) and CLEARALL (-C): every traced process the caller may clear. */
static int request__clear_all(struct daemon *d, struct client *cl, int r, char *msg)
{
	__u32 *keys;
	int n = procs__keys(d, r, &keys), done = 0;

	/* -C passes over what the caller may not clear, silently (BSD) */
	for (int i = 0; i < n; i++)
		if (proc__clear(d, &cl->cred, keys[i], 0, msg, r < 0) == 0)
			done++;
	free(keys);
	return done;
}

static void daemon__csw(struct daemon *d, bool want);

static void request__handle(struct daemon *d, struct client *cl, const struct ktr_request *req,
			    int fd)
{
	char *msg = calloc(1, KTR_REPLY_MSG_MAX);
	int r = -1, err = 0, done = 0;

	if (!msg) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* a user's daemon serves its user, and root's clears (ktraceb -C) */
	if (!d->shared && cl->cred.uid != d->owner &&
	    !(cl->cred.uid == 0 && req->op >= KTR_OP_CLEAR && req->op <= KTR_OP_CLEARALL)) {
		err = -EPERM;
		msg__add(msg, "this ktraceb daemon serves uid %u only\n", d->owner);
	} else if (!ktr_perm__same_pidns(cl->cred.pid)) {
		err = -EPERM;
		msg__add(msg, "caller is in another pid namespace\n");
	} else if (req->op == KTR_OP_SET) {
		if (fd < 0 || !(req->facs & KTRFAC_MASK) || req->iosize > KTR_IOSIZE_MAX) {
			err = -EINVAL;
			msg__add(msg, "bad request\n");
		} else {
			r = route__get(d, fd, msg);
			fd = -1;
			err = r < 0 ? r : 0;
		}
		if (!err)
			done = request__targets(d, cl, req, r, msg, &err);
		if (!err && (req->flags & KTR_REQ_FOREGROUND))
			d->routes[r].fg_sock = cl->sock;
		/* switches from the first moment on, not from the next tick */
		if (done && (req->facs & KTRFAC_CSW))
			daemon__csw(d, true);
	} else if (req->op == KTR_OP_CLEAR) {
		done = request__targets(d, cl, req, -1, msg, &err);
	} else if (req->op == KTR_OP_CLEARFILE) {
		r = route__find(d, req->file_dev, req->file_ino);
		done = r >= 0 ? request__clear_all(d, cl, r, msg) : 0;
		err = r >= 0 && !done && msg[0] ? -EPERM : 0;
	} else if (req->op == KTR_OP_CLEARALL) {
		done = request__clear_all(d, cl, -1, msg);
	} else if (req->op == KTR_OP_STOP) {
		for (r = 0; r < KTR_MAX_ROUTES; r++)
			if (d->routes[r].w && d->routes[r].fg_sock == cl->sock)
				route__stop(d, r, 0, NULL);
	} else {
		err = -EINVAL;
	}
	if (fd >= 0)
		close(fd);
	if (req->op != KTR_OP_STOP)
		reply__send(cl->sock, KTR_REPLY_RESULT, -err, done, msg, 0, 0);
	free(msg);
}

static void client__close(struct daemon *d, struct client *cl)
{
	/* a foreground client that goes away takes its trace with it */
	for (int r = 0; r < KTR_MAX_ROUTES; r++) {
		if (d->routes[r].w && d->routes[r].fg_sock == cl->sock) {
			d->routes[r].fg_sock = -1;
			route__stop(d, r, 0, NULL);
		}
	}
	epoll_ctl(d->ep, EPOLL_CTL_DEL, cl->sock, NULL);
	close(cl->sock);
	cl->sock = -1;
}

static void client__accept(struct daemon *d)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ucred uc;
	socklen_t len = sizeof(uc);
	int sock = accept4(d->listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (sock < 0)
		return;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *cl = &d->clients[i];

		if (cl->sock >= 0)
			continue;
		if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
			break;
		cl->sock = sock;
		cl->cred.pid = uc.pid;
		cl->cred.uid = uc.uid;
		cl->cred.gid = uc.gid;
		ev.data.ptr = cl;
		epoll_ctl(d->ep, EPOLL_CTL_ADD, sock, &ev);
		return;
	}
	close(sock);
}

static void client__readable(struct daemon *d, struct client *cl)
{
	struct ktr_request req;
	int fd, err = ktr_proto__recv(cl->sock, &req, sizeof(req), &fd);

	if (err == -EAGAIN)
		return;
	if (err || req.magic != KTR_PROTO_MAGIC) {
		if (fd >= 0)
			close(fd);
		client__close(d, cl);
		return;
	}
	request__handle(d, cl, &req, fd);
}

/* Count processes per route, drop entries whose process is gone. */
static bool daemon__scan(struct daemon *d)
{
	bool want_csw = false;
	__u32 *keys;
	int n = procs__keys(d, -1, &keys);

	for (int r = 0; r < KTR_MAX_ROUTES; r++)
		d->routes[r].nprocs = 0;
	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;

		if (bpf_map_lookup_elem(d->procs_fd, &keys[i], &ps) < 0)
			continue;
		/* gone, or no file to write to: a missed exit leaves no stale tracing */
		if ((kill(keys[i], 0) < 0 && errno == ESRCH) || ps.route >= KTR_MAX_ROUTES ||
		    !d->routes[ps.route].w) {
			bpf_map_delete_elem(d->procs_fd, &keys[i]);
			continue;
		}
		d->routes[ps.route].nprocs++;
		want_csw |= (ps.facs & KTRFAC_CSW) != 0;
	}
	free(keys);
	return want_csw;
}

/* sched_switch costs every switch on the machine: attached only while wanted. */
static void daemon__csw(struct daemon *d, bool want)
{
	if (want && !d->csw_link) {
		d->csw_link = bpf_program__attach(d->skel->progs.ktr_csw_switch);
		if (!d->csw_link)
			syslog(LOG_WARNING, "cannot attach the context-switch program");
	} else if (!want && d->csw_link) {
		bpf_link__destroy(d->csw_link);
		d->csw_link = NULL;
	}
}

static void daemon__tick(struct daemon *d)
{
	bool want_csw = daemon__scan(d), busy = false;

	ktr_drain__poll(d->drain, 0);
	for (int r = 0; r < KTR_MAX_ROUTES; r++) {
		struct route *rt = &d->routes[r];
		struct stat st;

		if (!rt->w)
			continue;
		busy = true;
		if (ktr_writer__error(rt->w) && rt->nprocs) {
			route__stop(d, r, ktr_writer__error(rt->w),
				    strerror(ktr_writer__error(rt->w)));
			continue;
		}
		if (fstat(ktr_writer__fd(rt->w), &st) == 0 && st.st_nlink == 0 && rt->nprocs) {
			route__stop(d, r, ENOENT, "trace file deleted");
			continue;
		}
		if (rt->nprocs == 0)
			route__finish(d, r);
	}
	daemon__csw(d, want_csw);
	for (int i = 0; i < MAX_CLIENTS; i++)
		busy |= d->clients[i].sock >= 0;
	d->idle_ticks = busy ? 0 : d->idle_ticks + 1;
}

static void daemon__teardown(struct daemon *d)
{
	for (int r = 0; r < KTR_MAX_ROUTES; r++)
		if (d->routes[r].w)
			route__stop(d, r, 0, NULL);
	ktr_drain__finish(d->drain);
	for (int r = 0; r < KTR_MAX_ROUTES; r++)
		if (d->routes[r].w)
			route__finish(d, r);
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (d->clients[i].sock >= 0)
			close(d->clients[i].sock);
	bpf_link__destroy(d->csw_link);
	ktr_drain__free(d->drain);
	ktr_loader__destroy(d->skel);
	close(d->ep);
}

/* Tell the clients already queued why there is no daemon, then give up. */
static int daemon__fail(int listen_fd, const char *why)
{
	int sock;

	syslog(LOG_ERR, "%s", why);
	fcntl(listen_fd, F_SETFL, O_NONBLOCK);
	while ((sock = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		struct ktr_request req;

		ktr_proto__recv(sock, &req, sizeof(req), NULL);
		reply__send(sock, KTR_REPLY_RESULT, EOPNOTSUPP, 0, why, 0, 0);
		close(sock);
	}
	return 1;
}

int ktr_daemon__run(const struct ktr_loader_opts *opts, int listen_fd, bool shared, uid_t owner)
{
	struct epoll_event ev = { .events = EPOLLIN }, evs[16];
	struct daemon *d = calloc(1, sizeof(*d));
	const char *why;
	struct timespec last = { 0 }, now;

	openlog("ktraceb", LOG_PID, LOG_DAEMON);
	if (!d)
		return daemon__fail(listen_fd, "out of memory");
	daemon_ring_bytes = opts->ring_bytes;
	d->skel = ktr_loader__load(opts, &why);
	if (!d->skel)
		return daemon__fail(listen_fd, why);
	d->drain = ktr_drain__new(d->skel);
	d->ep = epoll_create1(EPOLL_CLOEXEC);
	if (!d->drain || d->ep < 0)
		return daemon__fail(listen_fd, "cannot set up the ring buffer");
	d->procs_fd = bpf_map__fd(d->skel->maps.procs);
	d->listen_fd = listen_fd;
	d->shared = shared;
	d->owner = owner;
	for (int i = 0; i < MAX_CLIENTS; i++)
		d->clients[i].sock = -1;
	ev.data.ptr = NULL;
	epoll_ctl(d->ep, EPOLL_CTL_ADD, listen_fd, &ev);
	ev.data.ptr = d; /* the ring: wakes us when a quarter full */
	epoll_ctl(d->ep, EPOLL_CTL_ADD, ktr_drain__epoll_fd(d->drain), &ev);
	signal(SIGTERM, daemon__on_signal);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);

	while (!daemon_exiting && d->idle_ticks < IDLE_TICKS) {
		int n = epoll_wait(d->ep, evs, 16, TICK_MS);

		for (int i = 0; i < n; i++) {
			if (evs[i].data.ptr == NULL)
				client__accept(d);
			else if (evs[i].data.ptr != d)
				client__readable(d, evs[i].data.ptr);
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (n > 0 &&
		    (now.tv_sec - last.tv_sec) * 1000 + (now.tv_nsec - last.tv_nsec) / 1000000 <
			    TICK_MS) {
			ktr_drain__poll(d->drain, 0); /* ring wakeups between ticks */
			continue;
		}
		last = now;
		daemon__tick(d);
	}
	/* stop taking requests before the last drain, so none is half served */
	close(listen_fd);
	daemon__teardown(d);
	free(d);
	return 0;
}
