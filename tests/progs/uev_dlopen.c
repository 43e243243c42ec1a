// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * uev_dlopen LIB [COUNT]: loads LIB (libuevdl.so) with dlopen() after its
 * start, then calls its uevdl_work() COUNT times (default 3) right away:
 * the probes of a library loaded late must fire from its first call.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int (*work)(int);
	void *lib;

	if (argc < 2) {
		fprintf(stderr, "usage: uev_dlopen LIB [COUNT]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", getpid());
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "uev_dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&work = dlsym(lib, "uevdl_work");
	if (!work) {
		fprintf(stderr, "uev_dlopen: %s\n", dlerror());
		return 1;
	}
	for (int i = 0; i < (argc > 2 ? atoi(argv[2]) : 3); i++)
		work(i);
	printf("done\n");
	return 0;
}
