// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_count N K M: N getppid(2) calls, K openat(2) calls of a missing file
 * (ENOENT), M close(2) calls of which every other one fails (EBADF), all
 * through syscall(2).  Prints what it did: "getppid N", "openat K failed F",
 * "close M failed F".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100, k = argc > 2 ? atol(argv[2]) : 10;
	long m = argc > 3 ? atol(argv[3]) : 10, fo = 0, fc = 0, i;

	setvbuf(stdout, NULL, _IOFBF, 4096);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	for (i = 0; i < k; i++)
		if (syscall(SYS_openat, AT_FDCWD, "/nonexistent/fac_count", O_RDONLY) < 0)
			fo++;
	for (i = 0; i < m; i++)
		if (syscall(SYS_close, i % 2 ? -1 : (long)dup(2)) < 0)
			fc++;
	printf("getppid %ld\nopenat %ld failed %ld\nclose %ld failed %ld\n", n, k, fo, m, fc);
	return 0;
}
