// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* kdump -Y: the strace -c style table. */
#include "../lib/test.h"
#include "kdump_tfile.h"

#define HEAD "% time     seconds  usecs/call   usecs/p99   usecs/max     calls    errors syscall\n"
#define RULE \
	"------ ----------- ----------- ----------- ----------- --------- --------- ----------------\n"

static void call_ret(struct tfile *t, int tid, int code, int error, __u64 start, __u64 dur)
{
	struct ktr_syscall sc = { .ktr_code = code };
	struct ktr_sysret sr = { .ktr_code = code, .ktr_error = error, .ktr_retval = -!!error };

	t->mono = start;
	tf_rec_full(t, KTR_SYSCALL, 10, tid, "x", &sc, sizeof(sc));
	t->mono = start + dur;
	tf_rec_full(t, KTR_SYSRET, 10, tid, "x", &sr, sizeof(sr));
}

TEST(counts_times_errors)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	call_ret(&t, 10, 0, 0, 0, 3000); /* read 3 us */
	call_ret(&t, 10, 0, 11, 10000, 1000); /* read 1 us, EAGAIN */
	call_ret(&t, 10, 39, 0, 20000, 4000); /* getpid 4 us */
	call_ret(&t, 10, 257, 2, 30000, 2000); /* openat 2 us, ENOENT */
	t.mono = 40000;
	tf_call(&t, 231, 0); /* exit_group: never returns */
	o.flags = KD_SUMMARY;
	s = kd_print(&o, &t);
	ASSERT_STREQ(
		s,
		HEAD RULE
		" 40.00    0.000004           2           3           3         2         1 read\n"
		" 40.00    0.000004           4           4           4         1           getpid\n"
		" 20.00    0.000002           2           2           2         1         1 openat\n"
		"  0.00    0.000000           0           0           0         1           exit_group\n" RULE
		"100.00    0.000010           2           0           0         5         2 total\n",
		"table");
	free(s);
	tf_close(&t);
}

/* Threads interleave: each RET pairs with the CALL of its own tid. */
TEST(pairs_by_tid)
{
	struct ktr_sysret sr = { .ktr_code = 35 };
	struct ktr_syscall sc = { .ktr_code = 35 };
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	t.mono = 0;
	tf_rec_full(&t, KTR_SYSCALL, 10, 11, "x", &sc, sizeof(sc));
	t.mono = 1000;
	tf_rec_full(&t, KTR_SYSCALL, 10, 12, "x", &sc, sizeof(sc));
	t.mono = 2000;
	tf_rec_full(&t, KTR_SYSRET, 10, 12, "x", &sr, sizeof(sr)); /* 1 us */
	t.mono = 9000;
	tf_rec_full(&t, KTR_SYSRET, 10, 11, "x", &sr, sizeof(sr)); /* 9 us */
	tf_rec_full(&t, KTR_SYSRET, 10, 13, "x", &sr, sizeof(sr)); /* no CALL: ignored */
	o.flags = KD_SUMMARY;
	s = kd_print(&o, &t);
	ASSERT_STREQ(
		s,
		HEAD RULE
		"100.00    0.000010           5           9           9         2           nanosleep\n" RULE
		"100.00    0.000010           5           0           0         2           total\n",
		"nanosleep");
	free(s);
	/* -p applies to the summary too */
	o.flags |= KD_PIDSEL;
	o.pid = 12;
	s = kd_print(&o, &t);
	ASSERT_STREQ(
		s,
		HEAD RULE
		"100.00    0.000001           1           1           1         1           nanosleep\n" RULE
		"100.00    0.000001           1           0           0         1           total\n",
		"-p tid");
	free(s);
	tf_close(&t);
}

/*
 * The 99th percentile and the slowest: 99 calls of 1 us and one of 1 ms
 * give a p99 of 1 us (the top of its bucket, 1023 ns) and a max of 1000 us.
 */
TEST(p99_and_max)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	for (int i = 0; i < 99; i++)
		call_ret(&t, 10, 0, 0, i * 10000, 1000);
	call_ret(&t, 10, 0, 0, 1000000, 1000000);
	o.flags = KD_SUMMARY;
	s = kd_print(&o, &t);
	ASSERT_STREQ(
		s,
		HEAD RULE
		"100.00    0.001099          10           1        1000       100           read\n" RULE
		"100.00    0.001099          10           0           0       100           total\n",
		"p99 and max");
	free(s);
	tf_close(&t);
}

TEST(empty_and_lost)
{
	struct ktr_lost lost = { .lost = 7, .lost_total = 7 };
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	o.flags = KD_SUMMARY;
	s = kd_print(&o, &t);
	ASSERT_STREQ(
		s,
		HEAD RULE RULE
		"100.00    0.000000           0           0           0         0           total\n",
		"empty");
	free(s);
	tf_rec(&t, KTR_LOST, &lost, sizeof(lost));
	s = kd_print(&o, &t);
	ASSERT_STREQ(
		s,
		HEAD RULE RULE
		"100.00    0.000000           0           0           0         0           total\n"
		"7 records lost: the counts are incomplete\n",
		"lost");
	free(s);
	tf_close(&t);
}

TEST_MAIN()
