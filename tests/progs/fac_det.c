// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_det DIR: a deterministic, single-threaded sequence of system calls
 * (files, directories, descriptors, pipes, memory, identity, some failing
 * with known errors) for t_strace_compare.sh, which runs it once under
 * strace and once under ktraceb and compares the two lists of calls and
 * return values.  Nothing depends on timing; DIR must be an empty directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	char a[4096], b[4096], buf[256];
	struct utsname u;
	struct stat st;
	int fd, p[2];
	void *m;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);

	/* identity and process */
	syscall(SYS_getuid);
	syscall(SYS_geteuid);
	syscall(SYS_getgid);
	syscall(SYS_getpid);
	syscall(SYS_getppid);
	syscall(SYS_umask, 022);
	uname(&u);

	/* failing calls with known errors */
	syscall(SYS_openat, AT_FDCWD, "/nonexistent/fac_det", O_RDONLY);
	syscall(SYS_close, 12345);
	syscall(SYS_openat, AT_FDCWD, dir, O_WRONLY);
	syscall(SYS_mkdir, dir, 0755);
	syscall(SYS_rmdir, "/nonexistent/fac_det");
	syscall(SYS_read, -1, buf, 1);
	syscall(SYS_kill, 0x7ffffff0, 0);
	syscall(SYS_lseek, 0x7ff0, 0, SEEK_SET);

	/* a file: create, write, seek, read, stat, rename, unlink */
	fd = (int)syscall(SYS_openat, AT_FDCWD, a, O_RDWR | O_CREAT | O_EXCL, 0600);
	syscall(SYS_write, fd, "deterministic data\n", 19);
	syscall(SYS_lseek, fd, 0, SEEK_SET);
	syscall(SYS_read, fd, buf, sizeof(buf));
	syscall(SYS_pread64, fd, buf, 5, 3);
	syscall(SYS_fstat, fd, &st);
	syscall(SYS_ftruncate, fd, 7);
	syscall(SYS_lseek, fd, 0, SEEK_END);
	syscall(SYS_dup, fd);
	syscall(SYS_dup2, fd, 20);
	syscall(SYS_fcntl, 20, F_GETFD);
	syscall(SYS_fcntl, 20, F_SETFD, FD_CLOEXEC);
	syscall(SYS_fcntl, 20, F_GETFD);
	syscall(SYS_close, 20);
	syscall(SYS_close, fd + 1);
	syscall(SYS_close, fd);
	syscall(SYS_openat, AT_FDCWD, a, O_RDWR | O_CREAT | O_EXCL, 0600);
	syscall(SYS_rename, a, b);
	syscall(SYS_access, a, F_OK);
	syscall(SYS_access, b, R_OK | W_OK);
	syscall(SYS_newfstatat, AT_FDCWD, b, &st, 0);
	syscall(SYS_symlink, b, a);
	syscall(SYS_readlink, a, buf, sizeof(buf));
	syscall(SYS_unlink, a);
	syscall(SYS_unlink, b);
	syscall(SYS_unlink, b);

	/* directories */
	snprintf(a, sizeof(a), "%s/d", dir);
	syscall(SYS_mkdir, a, 0700);
	syscall(SYS_chdir, a);
	syscall(SYS_getcwd, buf, sizeof(buf));
	syscall(SYS_chdir, "..");
	syscall(SYS_rmdir, a);

	/* pipes */
	syscall(SYS_pipe2, p, O_CLOEXEC);
	syscall(SYS_write, p[1], "through a pipe", 14);
	syscall(SYS_read, p[0], buf, sizeof(buf));
	syscall(SYS_close, p[1]);
	syscall(SYS_read, p[0], buf, sizeof(buf));
	syscall(SYS_close, p[0]);

	/* memory */
	m = mmap(NULL, 16384, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	syscall(SYS_mprotect, m, 4096, PROT_READ);
	syscall(SYS_madvise, m, 16384, MADV_DONTNEED);
	syscall(SYS_munmap, m, 16384);
	syscall(SYS_munmap, (void *)1, 4096);

	syscall(SYS_write, 1, "fac_det done\n", 13);
	return 0;
}
