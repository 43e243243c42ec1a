// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <syslog.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_stage.h"
#include "daemon/programs/ktr_bpf.h"
#include "ktr_stages.h"

struct ktr_stages {
	int prog_fd;
	int ncpus;
	size_t stride; /* an element of the array map: its value, to 8 bytes */
	size_t size;
	unsigned char *map; /* the stages, read only */
	bool said; /* a stage that could not be sent, said once in the log */
};

struct ktr_stages *ktr_stages__new(const struct ktr_bpf *b)
{
	struct ktr_stages *s = calloc(1, sizeof(*s));
	long page = sysconf(_SC_PAGESIZE);

	if (!s)
		return NULL;
	s->prog_fd = b->prog_fd[KTR_PROG(ktr_stage_flush)];
	s->ncpus = bpf_map__max_entries(b->skel->maps.stages);
	s->stride = (sizeof(struct ktr_stage) + 7) & ~(size_t)7;
	s->size = (s->stride * s->ncpus + page - 1) / page * page;
	s->map = mmap(NULL, s->size, PROT_READ, MAP_SHARED, ktr_bpf__map_fd(b, stages), 0);
	if (s->map == MAP_FAILED)
		s->map = NULL;
	return s;
}

void ktr_stages__free(struct ktr_stages *s)
{
	if (!s)
		return;
	if (s->map)
		munmap(s->map, s->size);
	free(s);
}

/* CPU cpu's stage, as mapped (its fields a hint: BPF may be changing them). */
static const volatile struct ktr_stage *stages__cpu(const struct ktr_stages *s, int cpu)
{
	return (const volatile struct ktr_stage *)(s->map + s->stride * cpu);
}

/* Does CPU cpu's stage hold anything? */
static int stages__holds(const struct ktr_stages *s, int cpu)
{
	const volatile struct ktr_stage *st;

	if (!s->map)
		return 1;
	st = stages__cpu(s, cpu);
	return st->nrec || st->call.tid;
}

unsigned int ktr_stages__held(const struct ktr_stages *s, __u32 r)
{
	unsigned int n = 0;

	if (!s || !s->map)
		return 0;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		const volatile struct ktr_stage *st = stages__cpu(s, cpu);

		if (st->nrec && st->route == r)
			n += st->nrec;
		if (st->call.tid && st->call.route == r)
			n++;
	}
	return n;
}

/*
 * A program that holds the stage when the flush comes makes it answer 1:
 * asked again, at once a few times, as the program is done within a
 * microsecond, then with short sleeps: a virtual CPU can stop for
 * milliseconds in the middle of a program (an emulated machine runs its
 * CPUs in turns), and a trace file's end waits for its records this way,
 * before its route is free for another file.
 */
#define STAGES_HOT_TRIES 100
#define STAGES_WAIT_US	 100
#define STAGES_WAITS	 2000 /* 0.2 s at most */

/* CPU cpu's stage sent on: 0, or -1 if it stayed held or the kernel said no. */
static int stages__send_cpu(const struct ktr_stages *s, int cpu)
{
	LIBBPF_OPTS(bpf_test_run_opts, run, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

	for (int i = 0; i < STAGES_HOT_TRIES + STAGES_WAITS; i++) {
		if (i >= STAGES_HOT_TRIES)
			usleep(STAGES_WAIT_US);
		/* an offline CPU says ENXIO: it holds nothing that will move */
		if (bpf_prog_test_run_opts(s->prog_fd, &run) < 0)
			return errno == ENXIO ? 0 : -1;
		if (run.retval != 1)
			return 0; /* sent, or (2) the tests' stage that stays */
	}
	return -1;
}

void ktr_stages__send(struct ktr_stages *s)
{
	if (!s || s->prog_fd < 0)
		return;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (stages__holds(s, cpu) && stages__send_cpu(s, cpu) < 0 && !s->said) {
			syslog(LOG_WARNING, "cannot send CPU %d's stage on: %m", cpu);
			s->said = true;
		}
}
