// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * uev_sdt [COUNT [MS]]: USDT probes made with plain <sys/sdt.h>, not
 * utrace.h, for tests/e2e/t_user.sh: provider "uevtest", COUNT iterations
 * (default 3) MS milliseconds apart (default 0), "pid P" first.  Each:
 *	hit(i, "hello probe", -5)	guarded by its semaphore
 *	work__entry(i) ... work__return(i)	an entry/return pair
 *	job_begin(i) ... job_end(i)		a begin/end pair
 * Printed, one line per iteration and per probe fired:
 *	sem I V			the hit semaphore's value this iteration
 *	probe TID NAME ARGS...	(hit only when its semaphore is raised)
 * so a test sees the semaphore raised only while the process is traced.
 * All probes have semaphores (sys/sdt.h makes that one switch per file);
 * only hit's is looked at.
 */
#define _GNU_SOURCE
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/sdt.h>

#define SEMA(name) \
	__attribute__((section(".probes"))) volatile unsigned short uevtest_##name##_semaphore
SEMA(hit);
SEMA(work__entry);
SEMA(work__return);
SEMA(job_begin);
SEMA(job_end);

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 3, ms = argc > 2 ? atoi(argv[2]) : 0;
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
	const char *text = "hello probe";

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", getpid());
	for (long i = 0; i < count; i++) {
		int tid = gettid();

		printf("sem %ld %u\n", i, uevtest_hit_semaphore);
		if (uevtest_hit_semaphore) {
			STAP_PROBE3(uevtest, hit, i, text, -5);
			printf("probe %d hit %ld \"%s\" -5\n", tid, i, text);
		}
		STAP_PROBE1(uevtest, work__entry, i);
		STAP_PROBE1(uevtest, job_begin, i);
		getppid();
		STAP_PROBE1(uevtest, job_end, i);
		STAP_PROBE1(uevtest, work__return, i);
		printf("probe %d work__entry %ld\nprobe %d job_begin %ld\n", tid, i, tid, i);
		printf("probe %d job_end %ld\nprobe %d work__return %ld\n", tid, i, tid, i);
		if (ms)
			nanosleep(&ts, NULL);
	}
	printf("done %d\n", count);
	return 0;
}
