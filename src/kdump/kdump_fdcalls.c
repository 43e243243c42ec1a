// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -y: what each call does to its process's descriptors (kdump_fdtab.h).
 * A thread's CALL, its first NAMI and the structures it captured (sockaddr,
 * fd_pair, open_how, clone_args, getcwd's string) are kept until its RET;
 * the RET of a call that succeeded does what the call did.  A pipe's or
 * socket pair's descriptors are known at their fd_pair, which the trace
 * captures only when the call succeeded, so that the STRU line shows them.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "decode.h"
#include "kdump_event.h"
#include "kdump_fdtab.h"

#define CLOSE_RANGE_CLOEXEC_FLAG  4 /* linux/close_range.h */
#define PERF_FLAG_FD_CLOEXEC_FLAG 8 /* linux/perf_event.h */

/* A thread's call, from its CALL to its RET. */
struct kd_fdcall {
	bool open; /* a CALL without its RET yet */
	int code;
	__u64 args[KD_SYSCALL_MAXARGS];
	int narg;
	char *path; /* its first NAMI, or getcwd's string */
	size_t plen;
	bool has_path, cut;
	unsigned char sa[KD_SA_MAX]; /* a sockaddr it captured */
	unsigned int salen;
	__u64 flags; /* open_how's or clone_args' flags */
	bool has_flags;
};

/* What one RET does: the call, its process, the value. */
struct fdstep {
	struct kd_fdtabs *fs;
	struct kd_fdproc *p;
	struct kd_fdcall *c;
	struct kd_event *ev;
	__s64 r; /* the value returned */
};

typedef int (*fd_fn)(struct fdstep *s);

static int arg_fd(const struct fdstep *s, int i)
{
	return i < s->c->narg ? (int)s->c->args[i] : -1;
}

static __u64 arg(const struct fdstep *s, int i)
{
	return i < s->c->narg ? s->c->args[i] : 0;
}

/* The value returned is a new descriptor to f: the RET shows it. */
static int new_fd(struct fdstep *s, struct kd_file *f, bool cloexec)
{
	int err;

	if (!f)
		return -ENOMEM;
	err = kd_fdproc__set(s->p, (int)s->r, f, cloexec);
	kd_file__put(f);
	if (!err)
		s->ev->ret.fd_new = true;
	return err;
}

/* The directory a *at call's path is relative to: dfd's path, or the working directory. */
static const char *base_of(const struct fdstep *s, int dfd)
{
	const struct kd_file *d;

	if (dfd == AT_FDCWD)
		return s->p->cwd;
	d = kd_fdproc__file(s->p, dfd);
	return d && d->kind == KD_FILE_PATH && !d->cut ? d->path : NULL;
}

static struct kd_file *path_file(const struct fdstep *s, int dfd)
{
	struct kd_file *f = kd_file__new(KD_FILE_PATH);

	if (!f)
		return NULL;
	f->path = kd_path_join(base_of(s, dfd), s->c->path, s->c->plen);
	f->cut = s->c->cut;
	if (!f->path) {
		kd_file__put(f);
		return NULL;
	}
	return f;
}

static int open_with(struct fdstep *s, int dfd, __u64 flags)
{
	if (!s->c->has_path)
		return 0;
	return new_fd(s, path_file(s, dfd), flags & O_CLOEXEC);
}

static int do_open(struct fdstep *s)
{
	return open_with(s, AT_FDCWD, arg(s, 1));
}

static int do_creat(struct fdstep *s)
{
	return open_with(s, AT_FDCWD, 0);
}

static int do_openat(struct fdstep *s)
{
	return open_with(s, arg_fd(s, 0), arg(s, 2));
}

static int do_openat2(struct fdstep *s)
{
	return open_with(s, arg_fd(s, 0), s->c->has_flags ? s->c->flags : 0);
}

/* dup, dup2, dup3, fcntl F_DUPFD: the value returned is the same file as from */
static int dup_as(struct fdstep *s, int from, bool cloexec)
{
	struct kd_file *f = kd_fdproc__file(s->p, from);

	if (!f)
		return 0;
	if (from == (int)s->r) { /* dup2(3, 3): 3 as it was */
		s->ev->ret.fd_new = true;
		return 0;
	}
	f->refs++;
	return new_fd(s, f, cloexec);
}

static int do_dup(struct fdstep *s)
{
	return dup_as(s, arg_fd(s, 0), false);
}

static int do_dup3(struct fdstep *s)
{
	return dup_as(s, arg_fd(s, 0), arg(s, 2) & O_CLOEXEC);
}

static int do_fcntl(struct fdstep *s)
{
	switch ((int)arg(s, 1)) {
	case F_DUPFD:
		return dup_as(s, arg_fd(s, 0), false);
	case F_DUPFD_CLOEXEC:
		return dup_as(s, arg_fd(s, 0), true);
	case F_SETFD:
		kd_fdproc__cloexec(s->p, arg_fd(s, 0), arg(s, 2) & FD_CLOEXEC);
		break;
	}
	return 0;
}

static int do_close(struct fdstep *s)
{
	kd_fdproc__close(s->p, arg_fd(s, 0));
	return 0;
}

static int do_close_range(struct fdstep *s)
{
	kd_fdproc__close_range(s->p, (__u32)arg(s, 0), (__u32)arg(s, 1),
			       arg(s, 2) & CLOSE_RANGE_CLOEXEC_FLAG);
	return 0;
}

static struct kd_file *socket_file(struct kd_fdtabs *fs, int family, int type)
{
	struct kd_file *f = kd_file__new(KD_FILE_SOCKET);

	if (f) {
		f->serial = ++fs->serial;
		f->family = family;
		f->type = type;
	}
	return f;
}

static int do_socket(struct fdstep *s)
{
	return new_fd(s, socket_file(s->fs, (int)arg(s, 0), (int)arg(s, 1)),
		      arg(s, 1) & SOCK_CLOEXEC);
}

/* The sockaddr the call captured, as one side of the socket at argument 0. */
static void set_addr(struct fdstep *s, bool local)
{
	struct kd_file *f = kd_fdproc__file(s->p, arg_fd(s, 0));

	if (!f || f->kind != KD_FILE_SOCKET || !s->c->salen)
		return;
	memcpy(local ? f->local : f->remote, s->c->sa, s->c->salen);
	*(local ? &f->llen : &f->rlen) = s->c->salen;
}

static int do_bind(struct fdstep *s)
{
	set_addr(s, true);
	return 0;
}

static int do_connect(struct fdstep *s)
{
	struct kd_file *f = kd_fdproc__file(s->p, arg_fd(s, 0));

	set_addr(s, false);
	return f ? kd_fdpeer__connected(s->fs, f) : 0;
}

static int do_getpeername(struct fdstep *s)
{
	set_addr(s, false);
	return 0;
}

/* accept, accept4: a socket like the listening one, its address local, the peer's remote */
static int do_accept(struct fdstep *s)
{
	const struct kd_file *l = kd_fdproc__file(s->p, arg_fd(s, 0));
	struct kd_file *f;

	f = socket_file(s->fs, l && l->kind == KD_FILE_SOCKET ? l->family : 0,
			l && l->kind == KD_FILE_SOCKET ? l->type : 0);
	if (f && l && l->kind == KD_FILE_SOCKET) {
		memcpy(f->local, l->local, l->llen);
		f->llen = l->llen;
	}
	if (f && s->c->salen) {
		memcpy(f->remote, s->c->sa, s->c->salen);
		f->rlen = s->c->salen;
		kd_fdpeer__accepted(s->fs, f);
	}
	return new_fd(s, f, arg(s, 3) & SOCK_CLOEXEC);
}

static struct kd_file *anon_file(const char *name)
{
	struct kd_file *f = kd_file__new(KD_FILE_ANON);

	if (f && !(f->path = strdup(name))) {
		kd_file__put(f);
		f = NULL;
	}
	return f;
}

/* The calls that make an anonymous inode: its name, and the argument with O_CLOEXEC's flag. */
static const struct {
	const char *call, *name;
	int flagarg; /* -1: none; -2: always close-on-exec */
	__u64 cloexec;
} anons[] = {
	{ "eventfd", "anon_inode:[eventfd]", -1, 0 },
	{ "eventfd2", "anon_inode:[eventfd]", 1, O_CLOEXEC },
	{ "epoll_create", "anon_inode:[eventpoll]", -1, 0 },
	{ "epoll_create1", "anon_inode:[eventpoll]", 0, O_CLOEXEC },
	{ "timerfd_create", "anon_inode:[timerfd]", 1, O_CLOEXEC },
	{ "signalfd", "anon_inode:[signalfd]", -1, 0 },
	{ "signalfd4", "anon_inode:[signalfd]", 3, O_CLOEXEC },
	{ "inotify_init", "anon_inode:inotify", -1, 0 },
	{ "inotify_init1", "anon_inode:inotify", 0, O_CLOEXEC },
	{ "fanotify_init", "anon_inode:[fanotify]", 0, 1 /* FAN_CLOEXEC */ },
	{ "pidfd_open", "anon_inode:[pidfd]", -2, 0 },
	{ "userfaultfd", "anon_inode:[userfaultfd]", 0, O_CLOEXEC },
	{ "perf_event_open", "anon_inode:[perf_event]", 4, PERF_FLAG_FD_CLOEXEC_FLAG },
	{ "io_uring_setup", "anon_inode:[io_uring]", -2, 0 },
};

static int do_anon(struct fdstep *s, const char *name)
{
	for (size_t i = 0; i < sizeof(anons) / sizeof(anons[0]); i++) {
		if (strcmp(anons[i].call, name) != 0)
			continue;
		/* signalfd on a descriptor it had changes that one */
		if (strncmp(name, "signalfd", 8) == 0 && arg_fd(s, 0) != -1)
			return 0;
		return new_fd(s, anon_file(anons[i].name),
			      anons[i].flagarg == -2 ||
				      (anons[i].flagarg >= 0 &&
				       (arg(s, anons[i].flagarg) & anons[i].cloexec)));
	}
	return 0;
}

/* memfd_create: its name is not in the trace */
static int do_memfd(struct fdstep *s)
{
	struct kd_file *f = anon_file("/memfd:?");

	if (f) {
		f->kind = KD_FILE_PATH;
		f->deleted = true;
	}
	return new_fd(s, f, arg(s, 1) & 1 /* MFD_CLOEXEC */);
}

static int do_chdir(struct fdstep *s)
{
	char *cwd;

	if (!s->c->has_path || s->c->cut)
		return 0;
	cwd = kd_path_join(s->p->cwd, s->c->path, s->c->plen);
	if (!cwd)
		return -ENOMEM;
	free(s->p->cwd);
	s->p->cwd = cwd;
	return 0;
}

static int do_fchdir(struct fdstep *s)
{
	const struct kd_file *d = kd_fdproc__file(s->p, arg_fd(s, 0));
	char *cwd;

	if (!d || d->kind != KD_FILE_PATH || d->cut || !d->path || d->path[0] != '/')
		return 0;
	cwd = strdup(d->path);
	if (!cwd)
		return -ENOMEM;
	free(s->p->cwd);
	s->p->cwd = cwd;
	return 0;
}

/* getcwd's string, its NUL included */
static int do_getcwd(struct fdstep *s)
{
	if (!s->c->has_path || !s->c->plen || s->c->path[0] != '/')
		return 0;
	return do_chdir(s);
}

static int do_exec(struct fdstep *s)
{
	kd_fdproc__exec(s->p);
	return 0;
}

/* fork, vfork, clone, clone3: the child's table, unless it is a thread */
static int do_fork(struct fdstep *s)
{
	__u64 flags = 0;

	if (s->r <= 0)
		return 0;
	if (strcmp(ktr_syscall_name(s->ev->sv_flags, s->c->code) ?: "", "clone") == 0)
		flags = arg(s, 0);
	else if (s->c->has_flags)
		flags = s->c->flags;
	if (flags & CLONE_THREAD)
		return 0;
	return kd_fdproc__inherit(s->fs, s->p, (__s32)s->r, flags & CLONE_FILES);
}

/* The calls, by name, and what their RET does when they succeeded. */
static const struct {
	const char *name;
	fd_fn fn;
} calls[] = {
	{ "accept", do_accept },    { "accept4", do_accept },
	{ "bind", do_bind },	    { "chdir", do_chdir },
	{ "clone", do_fork },	    { "clone3", do_fork },
	{ "close", do_close },	    { "close_range", do_close_range },
	{ "connect", do_connect },  { "creat", do_creat },
	{ "dup", do_dup },	    { "dup2", do_dup },
	{ "dup3", do_dup3 },	    { "execve", do_exec },
	{ "execveat", do_exec },    { "fchdir", do_fchdir },
	{ "fcntl", do_fcntl },	    { "fork", do_fork },
	{ "getcwd", do_getcwd },    { "getpeername", do_getpeername },
	{ "getsockname", do_bind }, { "memfd_create", do_memfd },
	{ "open", do_open },	    { "openat", do_openat },
	{ "openat2", do_openat2 },  { "socket", do_socket },
	{ "vfork", do_fork },
};

static fd_fn call_fn(const char *name)
{
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strcmp(calls[i].name, name) == 0)
			return calls[i].fn;
	return NULL;
}

/* --- the thread's call ------------------------------------------------------------ */

static struct kd_fdcall *call_of(struct kd_fdtabs *fs, __s32 tid)
{
	struct kd_map_ent *e = kd_map__add(&fs->calls, tid);
	struct kd_fdcall *c;

	if (!e)
		return NULL;
	if (!e->v1) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		e->v1 = (__u64)(uintptr_t)c;
	}
	return (struct kd_fdcall *)(uintptr_t)e->v1;
}

void kd_fdcall__free(struct kd_fdcall *c)
{
	if (c)
		free(c->path);
	free(c);
}

static int keep_path(struct kd_fdcall *c, const void *p, size_t len, bool cut)
{
	char *path = malloc(len + 1);

	if (!path)
		return -ENOMEM;
	memcpy(path, p, len);
	path[len] = '\0';
	free(c->path);
	c->path = path;
	c->plen = len;
	c->has_path = true;
	c->cut = cut;
	return 0;
}

static int step_call(struct kd_fdtabs *fs, struct kd_event *ev)
{
	struct kd_fdcall *c = call_of(fs, ev->h->ktr_tid);

	if (!c)
		return -ENOMEM;
	free(c->path);
	memset(c, 0, sizeof(*c));
	c->open = true;
	c->code = ev->call.code;
	c->narg = ev->call.narg;
	memcpy(c->args, ev->call.args, sizeof(c->args));
	ev->call.fdmask = ktr_syscall_fd_args(ev->sv_flags, ev->call.code);
	return 0;
}

static int step_namei(struct kd_fdtabs *fs, struct kd_event *ev)
{
	struct kd_fdcall *c = call_of(fs, ev->h->ktr_tid);

	if (!c)
		return -ENOMEM;
	if (!c->open || c->has_path)
		return 0;
	return keep_path(c, ev->data, ev->len, ev->namei.cut);
}

/* A pipe's or socket pair's descriptors, as the fd_pair the call filled says. */
static int step_pair(struct kd_fdtabs *fs, struct kd_fdproc *p, const struct kd_fdcall *c,
		     const char *name, const unsigned char *data)
{
	bool pipe = strncmp(name, "pipe", 4) == 0;
	struct kd_file *f[2] = { NULL, NULL };
	__s32 fd[2];
	int err = 0;

	memcpy(fd, data, sizeof(fd));
	if (pipe) {
		f[0] = kd_file__new(KD_FILE_PIPE);
		if (f[0]) {
			f[0]->serial = ++fs->serial;
			f[0]->refs++;
			f[1] = f[0];
		}
	} else {
		f[0] = socket_file(fs, (int)c->args[0], (int)c->args[1]);
		f[1] = socket_file(fs, (int)c->args[0], (int)c->args[1]);
		if (f[0] && f[1]) {
			f[0]->peer = f[1]->serial;
			f[1]->peer = f[0]->serial;
		}
	}
	for (int i = 0; i < 2 && !err; i++)
		err = f[i] ? kd_fdproc__set(p, fd[i], f[i],
					    pipe ? c->args[1] & O_CLOEXEC :
						   c->args[1] & SOCK_CLOEXEC) :
			     -ENOMEM;
	kd_file__put(f[0]);
	kd_file__put(f[1]);
	return err;
}

static int step_struct(struct kd_fdtabs *fs, struct kd_event *ev)
{
	struct kd_fdcall *c = call_of(fs, ev->h->ktr_tid);
	const char *call = NULL;
	struct kd_fdproc *p;

	if (!c)
		return -ENOMEM;
	if (!c->open || ev->bsd || !(call = ktr_syscall_name(ev->sv_flags, c->code)))
		return 0;
	if (ev->strct.nlen == 8 && memcmp(ev->strct.name, "sockaddr", 8) == 0 &&
	    ev->strct.len <= KD_SA_MAX) {
		memcpy(c->sa, ev->strct.data, ev->strct.len);
		c->salen = ev->strct.len;
	} else if (ev->strct.nlen == 7 && memcmp(ev->strct.name, "fd_pair", 7) == 0 &&
		   ev->strct.len == 8 &&
		   (strcmp(call, "pipe") == 0 || strcmp(call, "pipe2") == 0 ||
		    strcmp(call, "socketpair") == 0)) {
		p = kd_fdtabs__proc(fs, ev->h->ktr_pid);
		return p ? step_pair(fs, p, c, call, ev->strct.data) : -ENOMEM;
	} else if (((ev->strct.nlen == 8 && memcmp(ev->strct.name, "open_how", 8) == 0) ||
		    (ev->strct.nlen == 10 && memcmp(ev->strct.name, "clone_args", 10) == 0)) &&
		   ev->strct.len >= 8) {
		memcpy(&c->flags, ev->strct.data, 8);
		c->has_flags = true;
	} else if (ev->strct.nlen == 6 && memcmp(ev->strct.name, "string", 6) == 0 &&
		   strcmp(call, "getcwd") == 0) {
		/* the directory and its NUL */
		return keep_path(c, ev->strct.data,
				 strnlen((const char *)ev->strct.data, ev->strct.len), false);
	}
	return 0;
}

static int step_ret(struct kd_fdtabs *fs, struct kd_event *ev)
{
	struct kd_fdcall *c = call_of(fs, ev->h->ktr_tid);
	struct fdstep s;
	const char *name;
	fd_fn fn;

	if (!c)
		return -ENOMEM;
	if (!c->open || c->code != ev->ret.code)
		return 0;
	c->open = false;
	/* a connect that goes on in the background has its peer all the same */
	if (ev->ret.error && ev->ret.error != EINPROGRESS)
		return 0;
	name = ev->bsd ? NULL : ktr_syscall_name(ev->sv_flags, c->code);
	if (!name)
		return 0;
	fn = call_fn(name);
	s = (struct fdstep){ fs, kd_fdtabs__proc(fs, ev->h->ktr_pid), c, ev, ev->ret.retval };
	if (!s.p)
		return -ENOMEM;
	if (ev->ret.error && fn != do_connect)
		return 0;
	if (fn)
		return fn(&s);
	return do_anon(&s, name);
}

int kd_fdtabs__step(struct kd_fdtabs *fs, struct kd_event *ev)
{
	int err = 0;

	if (ev->kind == KD_EXIT) {
		kd_fdtabs__drop(fs, ev->h->ktr_pid);
		return 0;
	}
	if (ev->valid) {
		switch (ev->kind) {
		case KD_CALL:
			err = step_call(fs, ev);
			break;
		case KD_NAMEI:
			err = step_namei(fs, ev);
			break;
		case KD_STRUCT:
			err = step_struct(fs, ev);
			break;
		case KD_RET:
			err = step_ret(fs, ev);
			break;
		case KD_FD:
			err = kd_fdrec__step(fs, ev);
			break;
		default:
			break;
		}
	}
	if (ev->kind == KD_CALL || ev->kind == KD_RET || ev->kind == KD_STRUCT) {
		struct kd_map_ent *e = kd_map__get(&fs->procs, ev->h->ktr_pid);

		ev->fds = e ? (const struct kd_fdproc *)(uintptr_t)e->v1 : NULL;
	}
	return err;
}
