// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_stat DIR: creates DIR/f with a size and owner that depend on the pid,
 * mode 0640, a second link, a known mtime, and a symbolic link to it, then
 * looks at them with stat, lstat, fstat, newfstatat and statx (each through
 * syscall(2), so that the syscall is the one named) and at DIR and /dev/null.
 * Every result is reported as
 *	KEY ino I size S mode OCTAL nlink N uid U gid G rdev MAJ:MIN
 *	    blksize B blocks K mtime SEC.NSEC
 * from the program's own struct, for t_struct.sh.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static void put(const char *key, long r, const struct stat *st)
{
	if (r < 0) {
		printf("%s failed\n", key);
		return;
	}
	printf("%s ino %lu size %ld mode %o nlink %lu uid %u gid %u rdev %u:%u blksize %ld blocks %ld "
	       "mtime %ld.%09ld\n",
	       key, (unsigned long)st->st_ino, (long)st->st_size, st->st_mode,
	       (unsigned long)st->st_nlink, st->st_uid, st->st_gid, major(st->st_rdev),
	       minor(st->st_rdev), (long)st->st_blksize, (long)st->st_blocks,
	       (long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

static void putx(const char *key, long r, const struct statx *sx)
{
	if (r < 0) {
		printf("%s failed\n", key);
		return;
	}
	printf("%s ino %llu size %llu mode %o nlink %u uid %u gid %u rdev %u:%u blksize %u "
	       "blocks %llu mtime %lld.%09u mask %#x\n",
	       key, (unsigned long long)sx->stx_ino, (unsigned long long)sx->stx_size, sx->stx_mode,
	       sx->stx_nlink, sx->stx_uid, sx->stx_gid, sx->stx_rdev_major, sx->stx_rdev_minor,
	       sx->stx_blksize, (unsigned long long)sx->stx_blocks, (long long)sx->stx_mtime.tv_sec,
	       sx->stx_mtime.tv_nsec, sx->stx_mask);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	char f[4096], f2[4096], ln[4096], *buf;
	struct timespec ts[2];
	struct statx sx;
	struct stat st;
	int pid = getpid();
	size_t size = 1000 + (size_t)pid % 1000;
	long fd, r;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	printf("pid %d\n", pid);
	snprintf(f, sizeof(f), "%s/f", dir);
	snprintf(f2, sizeof(f2), "%s/f2", dir);
	snprintf(ln, sizeof(ln), "%s/ln", dir);
	fd = open(f, O_RDWR | O_CREAT | O_TRUNC, 0600);
	buf = calloc(1, size);
	if (fd < 0 || !buf || write((int)fd, buf, size) != (ssize_t)size)
		return 1;
	if (fchmod((int)fd, 0640) < 0 ||
	    fchown((int)fd, 1000 + (unsigned)pid % 100, 2000 + (unsigned)pid % 7) < 0 ||
	    link(f, f2) < 0 || symlink(f, ln) < 0)
		return 1;
	ts[0].tv_sec = 1000000000 + pid;
	ts[0].tv_nsec = 111111111;
	ts[1].tv_sec = 1234567890 + pid;
	ts[1].tv_nsec = 987654321;
	if (futimens((int)fd, ts) < 0)
		return 1;

	r = syscall(SYS_stat, f, &st);
	put("stat", r, &st);
	r = syscall(SYS_lstat, ln, &st);
	put("lstat", r, &st);
	r = syscall(SYS_fstat, fd, &st);
	put("fstat", r, &st);
	r = syscall(SYS_newfstatat, AT_FDCWD, f2, &st, 0);
	put("newfstatat", r, &st);
	r = syscall(SYS_statx, AT_FDCWD, f, 0, STATX_BASIC_STATS, &sx);
	putx("statx", r, &sx);
	r = syscall(SYS_stat, dir, &st);
	put("dir", r, &st);
	r = syscall(SYS_stat, "/dev/null", &st);
	put("devnull", r, &st);
	snprintf(f, sizeof(f), "%s/missing", dir);
	r = syscall(SYS_stat, f, &st);
	printf("missing ret %ld\n", r);
	close((int)fd);
	return 0;
}
