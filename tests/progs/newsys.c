// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * newsys DIR: syscalls newer than the build machine's headers and
 * extensible structs of odd sizes, for t_tables.sh.  Numbers are the
 * kernel's (x86_64), written here because the headers may not have them.
 * Prints one "name ret errno" line per call.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#define NR_FCHMODAT2 452
#define NR_LISTMOUNT 458
#define NR_CLONE3    435
#define NR_OPENAT2   437

static void report(const char *name, long ret)
{
	printf("%s %ld %d\n", name, ret, ret < 0 ? errno : 0);
}

int main(int argc, char **argv)
{
	char path[4096];
	unsigned long long args[11] = { 0 };
	int fd;

	if (argc != 2)
		return 2;
	snprintf(path, sizeof(path), "%s/newsys.file", argv[1]);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	report("fchmodat2", syscall(NR_FCHMODAT2, AT_FDCWD, path, 0600, 0));
	report("listmount", syscall(NR_LISTMOUNT, NULL, NULL, 0, 0));
	args[0] = 0x100; /* CLONE_VM, with a size the kernel refuses: 56 */
	args[4] = 17;
	report("clone3", syscall(NR_CLONE3, args, 56));
	args[0] = O_RDONLY; /* struct open_how of 11 bytes */
	report("openat2", syscall(NR_OPENAT2, AT_FDCWD, path, args, 11));
	printf("pid %d\n", getpid());
	return 0;
}
