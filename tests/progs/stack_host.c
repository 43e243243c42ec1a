// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * stack_host LIB PATH: loads LIB (a copy of libstackhost.so) with dlopen()
 * and calls its host_open(PATH): for t_debuglink, a stack through a library
 * whose debug link a hostile trace's author chose.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int (*host_open)(const char *);
	void *lib;

	if (argc != 3) {
		fprintf(stderr, "usage: stack_host LIB PATH\n");
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "stack_host: %s\n", dlerror());
		return 1;
	}
	*(void **)&host_open = dlsym(lib, "host_open");
	if (!host_open) {
		fprintf(stderr, "stack_host: %s\n", dlerror());
		return 1;
	}
	return host_open(argv[2]) >= 0 ? 0 : 1;
}
