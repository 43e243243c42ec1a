/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -y: what each descriptor of each traced process is, as strace -y
 * shows it, known from the trace alone.  The decoder (kdump_decode.c) keeps
 * a table per process: the calls that make descriptors (opens with their
 * NAMI, socket, accept, pipe and socketpair with the pair the trace
 * captured, eventfd, memfd_create, ...), copy them (dup, dup2, dup3, fcntl
 * F_DUPFD), change them (connect, bind, getsockname, getpeername with the
 * sockaddr captured, close-on-exec) and end them (close, close_range, exec
 * for the close-on-exec ones, the process's exit) change it at their RET,
 * when they succeeded; a fork or clone copies the table to the child, or
 * shares it with CLONE_FILES (kdump_fdcalls.c).  A descriptor the trace saw
 * no call make is not known, unless the process had it when its trace began
 * and the daemon said so in a KTR_FD record (kdump_fdrec.c): those have
 * their inode numbers, shown as strace shows them ("pipe:[12345]").
 *
 * Open files are shared as the kernel shares them: a dup'ed descriptor and
 * its original are one file, so a socket connected through one shows its
 * address through both.  Pipes and sockets have no inode number in the
 * trace: kdump numbers them in the order they were made ("pipe:[#1]"),
 * both ends of a pipe alike, a socket pair's ends one after the other.
 */
#ifndef KTRACEB_KDUMP_FDTAB_H
#define KTRACEB_KDUMP_FDTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "kdump_map.h"

struct kd_event;

#define KD_FILE_PATH   1 /* a file by its path */
#define KD_FILE_PIPE   2
#define KD_FILE_SOCKET 3
#define KD_FILE_ANON   4 /* an anonymous inode by its name ("anon_inode:[eventfd]") */

#define KD_SA_MAX 128 /* the most bytes of a sockaddr the trace captures */

/* An open file: what one or more descriptors (dup'ed, inherited) refer to. */
struct kd_file {
	unsigned int refs;
	unsigned int kind; /* KD_FILE_* */
	char *path; /* PATH: absolute when the trace knew its directory; ANON: its name */
	bool cut; /* PATH: from a NAMI cut at KTR_PATH_MAX bytes */
	bool deleted; /* a memfd: strace's "(deleted)" */
	unsigned long serial; /* PIPE, SOCKET: kdump's number for it */
	__u64 ino; /* PIPE, SOCKET: its inode number, when a KTR_FD said (shown for serial) */
	unsigned long peer; /* SOCKET: a socket pair's other end's serial, 0 if none */
	int family, type; /* SOCKET: socket()'s domain and type */
	unsigned char local[KD_SA_MAX], remote[KD_SA_MAX]; /* SOCKET: addresses, once known */
	unsigned int llen, rlen; /* 0: not known */
};

/* A table of descriptors: a process's, or several processes' (CLONE_FILES). */
struct kd_fdtab {
	unsigned int refs;
	struct kd_map fds; /* fd -> v1 = struct kd_file * (0: closed), v2 = close-on-exec */
};

/* What -y knows of a process. */
struct kd_fdproc {
	char *cwd; /* its working directory, NULL until a chdir or getcwd said */
	struct kd_fdtab *tab;
};

/* Every process's, and the calls in progress (kdump_fdcalls.c). */
struct kd_fdtabs {
	struct kd_map procs; /* pid -> v1 = struct kd_fdproc * (0: exited) */
	struct kd_map calls; /* tid -> v1 = struct kd_fdcall * */
	unsigned long serial; /* of the last pipe or socket */
	/* -yy: connected sockets whose own address is not known, by the address
	 * they connected to (kdump_fdpeer.c): v1 = struct kd_file *, v2 = more than one */
	struct kd_map waiting;
};

/* --- kdump_fdtab.c: the tables -------------------------------------------------- */

/* Process pid's, made empty if new; NULL when out of memory. */
struct kd_fdproc *kd_fdtabs__proc(struct kd_fdtabs *fs, __s32 pid);
/* Process pid's gone (it exited). */
void kd_fdtabs__drop(struct kd_fdtabs *fs, __s32 pid);
void kd_fdtabs__free(struct kd_fdtabs *fs);

/* A new file of kind, with one reference; NULL when out of memory. */
struct kd_file *kd_file__new(unsigned int kind);
void kd_file__put(struct kd_file *f);
/* The file at fd, NULL if not known. */
struct kd_file *kd_fdproc__file(const struct kd_fdproc *p, int fd);
/* fd refers to f from now on (a reference taken), closing what it was; 0 or -ENOMEM. */
int kd_fdproc__set(struct kd_fdproc *p, int fd, struct kd_file *f, bool cloexec);
void kd_fdproc__close(struct kd_fdproc *p, int fd);
/* fd's close-on-exec flag, if fd is known. */
void kd_fdproc__cloexec(struct kd_fdproc *p, int fd, bool on);
/* close_range(2): [first, last] closed, or made close-on-exec. */
void kd_fdproc__close_range(struct kd_fdproc *p, __u32 first, __u32 last, bool cloexec);
/* An exec: the close-on-exec descriptors closed. */
void kd_fdproc__exec(struct kd_fdproc *p);
/*
 * A fork's child: its table a copy of parent's (or the same one, share),
 * its working directory parent's; what the child's own records already made
 * stays (its records may come before its parent's RET).  0 or -ENOMEM.
 */
int kd_fdproc__inherit(struct kd_fdtabs *fs, const struct kd_fdproc *parent, __s32 child,
		       bool share);

/*
 * path (len bytes, as the process named it) made absolute against base
 * (NULL: not known, then path as it is), "." and ".." and repeated slashes
 * taken out as the words say (symbolic links are not in the trace); a new
 * string, NULL when out of memory.
 */
char *kd_path_join(const char *base, const char *path, size_t len);

/* --- kdump_fdpeer.c: a connected socket's own address, from its peer's accept ----- */

/* f connected (its remote known): 0 or -ENOMEM. */
int kd_fdpeer__connected(struct kd_fdtabs *fs, struct kd_file *f);
/* a, accepted, has its listening socket's address and its peer's. */
void kd_fdpeer__accepted(struct kd_fdtabs *fs, const struct kd_file *a);
void kd_fdpeer__free(struct kd_fdtabs *fs);

/* --- what a sink shows --------------------------------------------------------- */

#define KD_FDNAME_MAX 16384

/*
 * What fd is in process p, as strace -y shows it between "<" and ">":
 * "/etc/hostname", "pipe:[#1]", "socket:[#2]", "anon_inode:[eventfd]";
 * with sockets, -yy's "TCP:[127.0.0.1:40000->127.0.0.1:8080]",
 * "UNIX-STREAM:[#3->#4]".  AT_FDCWD is the working directory.  Into buf
 * (escaped as strace escapes it), its length; 0 if fd is not known (p NULL
 * too).  *deleted: strace writes "(deleted)" after the ">".
 */
size_t kd_fdproc__name(const struct kd_fdproc *p, int fd, bool sockets, char *buf, size_t size,
		       bool *deleted);

/* --- kdump_fdrec.c: KTR_FD, the descriptors a process had when attached ---------- */

/* A KTR_FD record checked and taken into ev->fd (ev->valid false if it does not fit). */
int kd_fdrec__decode(struct kd_event *ev);
/* Its descriptor into its process's table; 0 or -ENOMEM. */
int kd_fdrec__step(struct kd_fdtabs *fs, struct kd_event *ev);
/* What the record's descriptor is, as -yy says it (0 for LEFT): into buf, its length. */
size_t kd_fdrec__name(const struct kd_event *ev, char *buf, size_t size, bool *deleted);
/* What f is, as kd_fdproc__name says it: into buf, its length. */
size_t kd_file__name(const struct kd_file *f, bool sockets, char *buf, size_t size, bool *deleted);

/* --- kdump_fdcalls.c: what the calls do ------------------------------------------ */

struct kd_fdcall;
void kd_fdcall__free(struct kd_fdcall *c);

/*
 * The decoder's event ev, of any kind: a CALL, NAMI or STRU is kept with its
 * thread's call, a RET does what the call did, an EXIT drops its process.
 * Sets ev->fds, ev->call.fdmask and ev->ret.fd_new.  0 or -ENOMEM.
 */
int kd_fdtabs__step(struct kd_fdtabs *fs, struct kd_event *ev);

#endif /* KTRACEB_KDUMP_FDTAB_H */
