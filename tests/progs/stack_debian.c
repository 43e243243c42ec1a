// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * stack_debian MODE PATH: the call chains of issue 30 for t_unwind (ktraceb
 * -k), built as Debian builds its packages (-O2 -g: a position-independent
 * executable without frame pointers) and again with frame pointers:
 *   main -> load_settings -> open_config -> fopen(PATH)     an openat
 *   main -> probe_cache -> access(PATH ".cache-missing")     ENOENT
 * MODE main: both from the main thread; thread: both from a second thread
 * (worker), its stack in a mapping of its own.  The calls in libc (fopen's
 * internals, access) are Debian's libc's, without frame pointers.  It
 * prints "LINE role N" for the lines the frames must show, and "tid T" of
 * the thread that made the calls.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
/* the call's result used after it: no tail call, so each function keeps its frame */
#define KEEP(x)	 __asm__ volatile("" : "+r"(x))

static char missing[4096];
/* the lines of the calls, kept as they are made: printed at the end */
static volatile int line_open_config, line_load_settings, line_probe_cache, line_worker_load,
	line_worker_probe;

NOINLINE FILE *open_config(const char *path)
{
	FILE *f;

	line_open_config = __LINE__ + 1;
	f = fopen(path, "r");
	KEEP(f);
	return f;
}

NOINLINE int load_settings(const char *path)
{
	FILE *f;
	int ok;

	line_load_settings = __LINE__ + 1;
	f = open_config(path);
	ok = f != NULL;
	KEEP(ok);
	if (f)
		fclose(f);
	return ok;
}

NOINLINE int probe_cache(void)
{
	int r;

	line_probe_cache = __LINE__ + 1;
	r = access(missing, R_OK);
	KEEP(r);
	return r;
}

NOINLINE static void *worker(void *path)
{
	int a, b;

	printf("tid %ld\n", (long)syscall(SYS_gettid));
	line_worker_load = __LINE__ + 1;
	a = load_settings(path);
	line_worker_probe = __LINE__ + 1;
	b = probe_cache();
	KEEP(a);
	KEEP(b);
	return a && b < 0 ? path : NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *ok = NULL;

	if (argc != 3 || (strcmp(argv[1], "main") && strcmp(argv[1], "thread"))) {
		fprintf(stderr, "usage: stack_debian main|thread PATH\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	snprintf(missing, sizeof(missing), "%s.cache-missing", argv[2]);
	if (strcmp(argv[1], "main") == 0)
		ok = worker(argv[2]);
	else if (pthread_create(&t, NULL, worker, argv[2]) == 0)
		pthread_join(t, &ok);
	printf("LINE open_config %d\nLINE load_settings %d\nLINE probe_cache %d\n"
	       "LINE worker_load %d\nLINE worker_probe %d\n",
	       line_open_config, line_load_settings, line_probe_cache, line_worker_load,
	       line_worker_probe);
	return ok ? 0 : 1;
}
