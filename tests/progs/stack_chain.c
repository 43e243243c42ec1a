// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * stack_chain PATH: known user stacks for t_stack (ktraceb -k).  Built with
 * frame pointers and -g.
 *   raw   openat(PATH) from an inline syscall instruction in raw_openat,
 *         called by open_flags, inlined in open_config, called by main: a
 *         stack the kernel walks whole (every frame keeps its frame pointer)
 *   libc  fopen(PATH) from open_config_libc, called by main: the call is
 *         made in libc, whose wrappers keep no frame pointer, so the walk
 *         skips from libc to main
 * It prints "LINE raw N", "LINE inlined N", "LINE call N" and "LINE main N":
 * the source lines the test expects in the frames (the syscall, the call in
 * the inlined open_flags, open_config's call of it, main's).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

NOINLINE long raw_openat(const char *path)
{
	long ret;
#if defined(__x86_64__)
	register long r10 __asm__("r10") = 0;

	printf("LINE raw %d\n", __LINE__ + 1);
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_openat), "D"((long)AT_FDCWD), "S"(path),
			   "d"((long)O_RDONLY), "r"(r10)
			 : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_openat;
	register long x0 __asm__("x0") = AT_FDCWD;
	register long x1 __asm__("x1") = (long)path;
	register long x2 __asm__("x2") = O_RDONLY;
	register long x3 __asm__("x3") = 0;

	printf("LINE raw %d\n", __LINE__ + 1);
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	ret = x0;
#else
#error "raw_openat: x86_64 or aarch64"
#endif
	return ret;
}

static inline __attribute__((always_inline)) long open_flags(const char *path)
{
	long fd;

	printf("LINE inlined %d\n", __LINE__ + 1);
	fd = raw_openat(path);
	__asm__ volatile("" ::: "memory");
	return fd;
}

NOINLINE int open_config(const char *path)
{
	long fd;

	printf("LINE call %d\n", __LINE__ + 1);
	fd = open_flags(path);
	__asm__ volatile("" ::: "memory"); /* no tail call: open_config keeps its frame */
	return (int)fd;
}

NOINLINE FILE *open_config_libc(const char *path)
{
	FILE *f = fopen(path, "r");

	__asm__ volatile("" ::: "memory");
	return f;
}

int main(int argc, char **argv)
{
	int fd;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: stack_chain PATH\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("LINE main %d\n", __LINE__ + 1);
	fd = open_config(argv[1]);
	f = open_config_libc(argv[1]);
	printf("raw %d libc %s\n", fd, f ? "ok" : "failed");
	if (fd >= 0)
		close(fd);
	if (f)
		fclose(f);
	return fd >= 0 && f ? 0 : 1;
}
