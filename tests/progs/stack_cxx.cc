// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * stack_cxx PATH: a known user stack in C++ for t_stack (ktraceb -k), built
 * with frame pointers and -g: openat(PATH) from an inline syscall
 * instruction in cfg::Loader::raw_open(char const*), called by
 * cfg::Loader::load(), called by main; kdump must show the names
 * demangled.  It prints "LINE raw N" and "LINE load N".
 */
#include <cstdio>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace cfg {

class Loader {
public:
	explicit Loader(const char *path) : path_(path) {}
	__attribute__((noinline)) long load();

private:
	__attribute__((noinline)) long raw_open(const char *path);
	const char *path_;
};

long Loader::raw_open(const char *path)
{
	long ret;
#if defined(__x86_64__)
	register long r10 __asm__("r10") = 0;

	std::printf("LINE raw %d\n", __LINE__ + 1);
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_openat), "D"((long)AT_FDCWD), "S"(path), "d"((long)O_RDONLY),
			   "r"(r10)
			 : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_openat;
	register long x0 __asm__("x0") = AT_FDCWD;
	register long x1 __asm__("x1") = (long)path;
	register long x2 __asm__("x2") = O_RDONLY;
	register long x3 __asm__("x3") = 0;

	std::printf("LINE raw %d\n", __LINE__ + 1);
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	ret = x0;
#else
#error "raw_open: x86_64 or aarch64"
#endif
	return ret;
}

long Loader::load()
{
	long fd;

	std::printf("LINE load %d\n", __LINE__ + 1);
	fd = raw_open(path_);
	__asm__ volatile("" ::: "memory");
	return fd;
}

} // namespace cfg

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: stack_cxx PATH\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	cfg::Loader l(argv[1]);
	long fd = l.load();

	if (fd >= 0)
		close((int)fd);
	return fd >= 0 ? 0 : 1;
}
