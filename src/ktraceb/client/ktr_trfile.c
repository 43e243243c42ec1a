// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The trace file, opened by the command with the caller's own credentials
 * and handed to the daemon (ktr_proto.h), which never opens one by name.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common/ktr_gzfile.h"
#include "ktr_options.h"
#include "ktr_trfile.h"

static int trfile__check_regular(int fd, bool append, const char **why)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		*why = strerror(errno);
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return -EACCES;
	}
	/* the daemon refuses a file with no name left: say it here, before it is asked */
	if (st.st_nlink == 0) {
		*why = "removed while it was being opened";
		return -ESTALE;
	}
	if (append && st.st_uid != getuid()) {
		*why = "refuse to append to a file not owned by you";
		return -EPERM;
	}
	return 0;
}

/* Refuse what BSD's kernel refuses (non-VREG) before unlinking anything. */
static int trfile__check_path(const char *path, const char **why)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : (*why = strerror(errno), -errno);
	if (S_ISLNK(st.st_mode)) {
		*why = "is a symbolic link";
		return -ELOOP;
	}
	if (S_ISDIR(st.st_mode)) {
		*why = "is a directory";
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return -EACCES;
	}
	return 0;
}

/*
 * Open a trace file as BSD ktrace(1) does, with the caller's credentials:
 * without append, unlink it and create it exclusively with mode 0600; with
 * append, only a regular file the caller owns.  Never through a symlink,
 * never a directory or FIFO.  Returns the fd, or -errno with *why pointing
 * at a short reason ("is a symbolic link", ...).
 */
static int trfile__open_fd(const char *path, bool append, const char **why)
{
	int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
	int fd, err;

	err = trfile__check_path(path, why);
	if (err)
		return err;
	if (append) {
		flags |= O_APPEND;
	} else {
		if (unlink(path) < 0 && errno != ENOENT) {
			*why = strerror(errno);
			return -errno;
		}
		flags |= O_EXCL;
	}
	fd = open(path, flags, 0600);
	if (fd < 0) {
		*why = errno == ELOOP ? "is a symbolic link" : strerror(errno);
		return -errno;
	}
	err = trfile__check_regular(fd, append, why);
	if (err) {
		close(fd);
		return err;
	}
	/* blocking writes from here on: O_NONBLOCK only kept a FIFO from hanging open() */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/*
 * -a adds to a file of the same kind only: gzip members (-z) to a
 * compressed trace, plain records to an uncompressed one.  An empty file
 * takes either.
 */
static void check_append_kind(const struct ktr_options *o, int fd)
{
	struct stat st;
	int gz;

	if (fstat(fd, &st) < 0 || st.st_size == 0)
		return;
	gz = ktr_gzfile__starts_gzip(fd);
	if (gz < 0)
		err(EX_CANTCREAT, "%s", o->tracefile);
	if (gz && !o->gzip)
		errx(EX_CANTCREAT, "%s: a compressed trace: append to it with -z", o->tracefile);
	if (!gz && o->gzip)
		errx(EX_CANTCREAT, "%s: not a compressed trace: cannot append to it with -z",
		     o->tracefile);
}

int ktr_trfile__open(const struct ktr_options *o)
{
	const char *why = "";
	int fd = trfile__open_fd(o->tracefile, o->append, &why);

	if (fd < 0)
		errx(EX_CANTCREAT, "%s: %s", o->tracefile, why);
	if (o->append)
		check_append_kind(o, fd);
	return fd;
}

void ktr_trfile__discard(const struct ktr_options *o, int fd)
{
	struct stat mine, now;

	if (!o->append && fstat(fd, &mine) == 0 && lstat(o->tracefile, &now) == 0 &&
	    mine.st_dev == now.st_dev && mine.st_ino == now.st_ino)
		unlink(o->tracefile);
}
