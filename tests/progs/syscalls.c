// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * syscalls DIR: a fixed list of system calls, some failing, each reported on
 * stdout as "KEY value..." so that t_syscalls.sh can hold kdump's view of the
 * trace against the program's own.  Calls whose name the test asserts go
 * through syscall(2), so glibc cannot swap them for a sibling (mkdir for
 * mkdirat and so on).  DIR must be an empty, writable directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LONG_COMPONENT 200

static long sys_ret(long r)
{
	return r < 0 ? -1 : r;
}

/* DIR/aaa.../bbb... with components of up to 200 bytes, `want` bytes in all. */
static int make_deep_dir(const char *dir, size_t want, char *path, size_t size)
{
	size_t len = (size_t)snprintf(path, size, "%s", dir), n;

	if (want >= size || len + 2 > want)
		return -EINVAL;
	for (char c = 'a'; len + 1 < want; c = c == 'z' ? 'a' : c + 1) {
		n = want - len - 1 < LONG_COMPONENT ? want - len - 1 : LONG_COMPONENT;
		path[len++] = '/';
		memset(path + len, c, n);
		len += n;
		path[len] = '\0';
		if (syscall(SYS_mkdir, path, 0700) < 0)
			return -errno;
	}
	return (int)len;
}

static void long_paths(const char *dir)
{
	static char deep[PATH_MAX], file[PATH_MAX + 16];
	char missing[512];
	long fd;

	/* a failing lookup of a 300-byte path: NAMI still carries all of it */
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	for (size_t i = strlen(missing); i < 300; i++)
		missing[i] = i % 100 == 0 ? '/' : 'm';
	missing[300] = '\0';
	errno = 0;
	fd = syscall(SYS_openat, AT_FDCWD, missing, O_RDONLY, 0);
	printf("missing300 %s ret %ld errno %d\n", missing, sys_ret(fd), errno);

	/* a successful open of a path close to PATH_MAX */
	if (make_deep_dir(dir, 3990, deep, sizeof(deep)) < 0) {
		printf("deepdir failed errno %d\n", errno);
		return;
	}
	snprintf(file, sizeof(file), "%s/f", deep);
	fd = syscall(SYS_openat, AT_FDCWD, file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	printf("longpath %zu %s ret %ld\n", strlen(file), file, sys_ret(fd));
	if (fd >= 0)
		close((int)fd);
}

static void file_ops(const char *dir)
{
	char d[PATH_MAX], a[PATH_MAX], b[PATH_MAX], buf[100];
	static const char data[] = "0123456789abcdefghijklmnopqrstuvwxyz!?\n";
	long fd, r;

	snprintf(d, sizeof(d), "%s/sub", dir);
	r = syscall(SYS_mkdir, d, 0700);
	printf("mkdir %s ret %ld\n", d, sys_ret(r));
	snprintf(a, sizeof(a), "%s/sub/a", dir);
	snprintf(b, sizeof(b), "%s/sub/b", dir);
	fd = syscall(SYS_openat, AT_FDCWD, a, O_RDWR | O_CREAT | O_TRUNC, 0644);
	printf("create %s ret %ld\n", a, sys_ret(fd));
	if (fd < 0)
		return;
	r = syscall(SYS_write, fd, data, strlen(data));
	printf("writefile fd %ld ret %ld\n", fd, sys_ret(r));
	lseek((int)fd, 0, SEEK_SET);
	r = syscall(SYS_read, fd, buf, sizeof(buf));
	printf("read fd %ld ret %ld\n", fd, sys_ret(r));
	close((int)fd);
	r = syscall(SYS_rename, a, b);
	printf("rename %s %s ret %ld\n", a, b, sys_ret(r));
	errno = 0;
	r = syscall(SYS_unlink, a);
	printf("unlink_missing %s ret %ld errno %d\n", a, sys_ret(r), errno);
	r = syscall(SYS_unlink, b);
	printf("unlink %s ret %ld\n", b, sys_ret(r));
	r = syscall(SYS_rmdir, d);
	printf("rmdir %s ret %ld\n", d, sys_ret(r));
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	static const char hello[] = "hello from syscalls\n";
	long r;
	void *p;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	printf("pid %d tid %ld\n", getpid(), syscall(SYS_gettid));

	errno = 0;
	r = syscall(SYS_openat, AT_FDCWD, "/nonexistent/ktraceb-missing", O_RDONLY | O_CLOEXEC);
	printf("openat_missing ret %ld errno %d\n", sys_ret(r), errno);

	errno = 0;
	r = syscall(SYS_close, -1);
	printf("close_bad ret %ld errno %d\n", sys_ret(r), errno);

	r = syscall(SYS_getppid);
	printf("getppid ret %ld\n", r);

	/* the only write to fd 1 before exit: the buffered report goes out at exit */
	r = syscall(SYS_write, 1, hello, strlen(hello));
	printf("write fd 1 len %zu ret %ld\n", strlen(hello), r);

	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("mmap ret %p\n", p);

	r = syscall(SYS_kill, getpid(), 0);
	printf("kill pid %d sig 0 ret %ld\n", getpid(), r);

	long_paths(dir);
	file_ops(dir);
	return 0;
}
