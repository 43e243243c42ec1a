// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's USER records: utrace bytes, KTRU probe records, spans with their
 * depths and durations, entry/exit probe pairs, the tree view (-G) and the
 * summary rows (-Y), as exact output; malformed KTRU records of every kind
 * print as plain USER bytes.
 */
#include "../lib/test.h"
#include "kdump_tfile.h"
#include "decode.h"

#define P " 1234:1234  cat      " /* the default line prefix */

/* A KTRU record into buf; strings are NUL-separated in strs (strs_len bytes). */
static int urec(unsigned char *buf, int kind, int flags, int depth, int nargs, const __u64 *args,
		int strmask, const char *strs, int strs_len)
{
	struct ktr_user_rec u = { .ku_version = KTR_UREC_VERSION, .ku_kind = kind };

	memcpy(u.ku_sig, KTR_USER_SIG, 4);
	u.ku_flags = flags;
	u.ku_depth = depth;
	u.ku_nargs = nargs;
	u.ku_strmask = strmask;
	u.ku_strlen = strs_len;
	memcpy(buf, &u, sizeof(u));
	if (nargs)
		memcpy(buf + sizeof(u), args, 8 * nargs);
	memcpy(buf + sizeof(u) + 8 * nargs, strs, strs_len);
	return sizeof(u) + 8 * nargs + strs_len;
}

/* A span record of thread tid at time ns. */
static void span(struct tfile *t, int tid, __u64 ns, int kind, int err, int depth, const char *strs,
		 int strs_len)
{
	unsigned char buf[1024];
	int len = urec(buf, kind, err ? KTR_UREC_ERR : 0, depth, 0, NULL, 0, strs, strs_len);

	t->mono = ns;
	tf_rec_full(t, KTR_USER, 1234, tid, "cat", buf, len);
}

#define S(lit) lit, (int)sizeof(lit) /* a string literal with its last NUL */

static void probe(struct tfile *t, int tid, __u64 ns, int nargs, const __u64 *args, int strmask,
		  const char *strs, int strs_len)
{
	unsigned char buf[2048];
	int len = urec(buf, KTR_UREC_PROBE, 0, 0, nargs, args, strmask, strs, strs_len);

	t->mono = ns;
	tf_rec_full(t, KTR_USER, 1234, tid, "cat", buf, len);
}

static char *run(struct kdump_opts *o, struct tfile *t, unsigned long *ninvalid)
{
	struct kd_result res;

	tf_bytes(t);
	kd_run(o, t->buf, t->len, &res);
	if (ninvalid)
		*ninvalid = res.ninvalid;
	return res.out;
}

TEST(utrace_text_binary_empty)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_rec(&t, KTR_USER, "hello\n", 6);
	tf_rec(&t, KTR_USER, "\x01\x02\xff", 3);
	tf_rec(&t, KTR_USER, "", 0);
	s = run(&o, &t, NULL);
	ASSERT_STREQ(s, P "USER  6 \"hello\\n\"\n" P "USER  3  01 02 ff\n" P "USER  0\n",
		     "text, binary, empty");
	free(s);
	o.decode |= KTR_DEC_DECIMAL;
	s = run(&o, &t, NULL);
	ASSERT_STREQ(s, P "USER  6 \"hello\\n\"\n" P "USER  3  1 2 255\n" P "USER  0\n", "-d");
	free(s);
	tf_close(&t);
}

TEST(utrace_2048_bytes_as_gio_data_up_to_m)
{
	struct kdump_opts o = kd_defaults();
	char data[2048], want[256];
	struct tfile t;
	char *s;

	memset(data, 'x', sizeof(data));
	tf_open(&t);
	tf_rec(&t, KTR_USER, data, sizeof(data));
	s = run(&o, &t, NULL);
	snprintf(want, sizeof(want), P "USER  2048\n       \"%.64s\"\n", data);
	ASSERT_STREQ(s, want, "first 64 bytes (-m default)");
	free(s);
	tf_close(&t);
}

TEST(probe_with_numbers_and_strings)
{
	__u64 args[3] = { 42, 0x7f0000001000ull, (__u64)-7 };
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	probe(&t, 1234, 0, 3, args, 0x2, S("prov\0hit\0hello \"you\""));
	probe(&t, 1234, 0, 0, NULL, 0, S("prov\0bare"));
	s = run(&o, &t, NULL);
	ASSERT_STREQ(s, P "USER  prov:hit(42, \"hello \\\"you\\\"\", -7)\n" P "USER  prov:bare()\n",
		     "probe lines");
	free(s);
	o.decode |= KTR_DEC_RAW; /* -n: the bytes, as any USER record */
	s = run(&o, &t, NULL);
	ASSERT_TRUE(s && strstr(s, P "USER  61\n") && strstr(s, "|KTRU"), "-n shows the bytes");
	free(s);
	tf_close(&t);
}

TEST(malformed_ktru_records_print_as_bytes)
{
	__u64 args[13] = { 1 };
	struct kdump_opts o = kd_defaults();
	unsigned char buf[512];
	struct tfile t;
	int len;
	char *s;

	tf_open(&t);
	len = urec(buf, KTR_UREC_PROBE, 0, 0, 12, args, 0, S("p\0n"));
	buf[7] = 13; /* nargs 13 */
	tf_rec(&t, KTR_USER, buf, len);
	len = urec(buf, KTR_UREC_PROBE, 0, 0, 0, NULL, 0, S("p\0n"));
	buf[12] = 200; /* strlen past the end */
	tf_rec(&t, KTR_USER, buf, len);
	len = urec(buf, KTR_UREC_PROBE, 0, 0, 0, NULL, 0, "p\0nn", 4); /* no last NUL */
	tf_rec(&t, KTR_USER, buf, len);
	len = urec(buf, KTR_UREC_PROBE, 0, 0, 1, args, 0x2, S("p\0n")); /* strmask past nargs */
	tf_rec(&t, KTR_USER, buf, len);
	tf_rec(&t, KTR_USER, "KTRU\x01\x02", 6); /* a header cut short */
	len = urec(buf, 9, 0, 0, 0, NULL, 0, S("p\0n\0")); /* unknown kind */
	tf_rec(&t, KTR_USER, buf, len);
	len = urec(buf, KTR_UREC_SPAN_ENTER, 0, 0, 0, NULL, 0, S("s\0n")); /* span without kv */
	tf_rec(&t, KTR_USER, buf, len);
	s = run(&o, &t, NULL);
	ASSERT_TRUE(s != NULL, "output");
	if (s) {
		int lines = 0;

		for (char *p = s; (p = strstr(p, P "USER  ")); p++)
			lines += p[strlen(P "USER  ")] >= '0' && p[strlen(P "USER  ")] <= '9';
		ASSERT_EQ(lines, 7, "every malformed record printed as its length and bytes");
		ASSERT_TRUE(!strstr(s, ":n(") && !strstr(s, ">  "), "none decoded");
	}
	free(s);
	tf_close(&t);
}

TEST(spans_nested_four_deep_with_durations)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	span(&t, 1234, 0, KTR_UREC_SPAN_ENTER, 0, 0, S("fw\0load_firmware\0dev=03:00.0"));
	span(&t, 1234, 1000, KTR_UREC_SPAN_ENTER, 0, 1, S("fw\0load_patch\0"));
	span(&t, 1234, 2000, KTR_UREC_SPAN_ENTER, 0, 2, S("fw\0verify\0"));
	span(&t, 1234, 3000, KTR_UREC_SPAN_ENTER, 0, 3, S("io\0read\0n=4096"));
	span(&t, 1234, 3839, KTR_UREC_SPAN_EXIT, 0, 3, S("io\0read\0"));
	span(&t, 1234, 1252000, KTR_UREC_SPAN_EXIT, 0, 2, S("fw\0verify\0"));
	span(&t, 1234, 48201000, KTR_UREC_SPAN_EXIT, 1, 1, S("fw\0load_patch\0err=crc"));
	span(&t, 1234, 2500000000ull, KTR_UREC_SPAN_EXIT, 0, 0, S("fw\0load_firmware\0"));
	s = run(&o, &t, NULL);
	ASSERT_STREQ(s,
		     P "USER  >  fw load_firmware dev=03:00.0\n" P "USER  >    fw load_patch\n" P
		       "USER  >      fw verify\n" P "USER  >        io read n=4096\n" P
		       "USER  <        io read 839ns ok\n" P "USER  <      fw verify 1.25ms ok\n" P
		       "USER  <    fw load_patch 48.2ms err err=crc\n" P
		       "USER  <  fw load_firmware 2.50s ok\n",
		     "span tree");
	free(s);
	tf_close(&t);
}

TEST(span_exit_without_enter_and_threads_apart)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	span(&t, 1234, 0, KTR_UREC_SPAN_EXIT, 0, 2, S("fw\0early\0"));
	span(&t, 1234, 100, KTR_UREC_SPAN_ENTER, 0, 0, S("a\0one\0"));
	span(&t, 1235, 200, KTR_UREC_SPAN_ENTER, 0, 0, S("a\0one\0"));
	span(&t, 1234, 400, KTR_UREC_SPAN_EXIT, 0, 0, S("a\0one\0"));
	span(&t, 1235, 1200, KTR_UREC_SPAN_EXIT, 0, 0, S("a\0one\0"));
	s = run(&o, &t, NULL);
	ASSERT_STREQ(s,
		     P "USER  <      fw early ? ok (entered before the trace)\n" P
		       "USER  >  a one\n 1234:1235  cat      USER  >  a one\n" P
		       "USER  <  a one 300ns ok\n 1234:1235  cat      USER  <  a one 1.00us ok\n",
		     "each thread its own stack");
	free(s);
	tf_close(&t);
}

TEST(probe_pairs_of_each_style_nest)
{
	static const char *const pairs[4][2] = {
		{ "x__entry", "x__return" },
		{ "x__start", "x__done" },
		{ "x_begin", "x_end" },
		{ "x_enter", "x_exit" },
	};
	struct kdump_opts o = kd_defaults();

	for (int i = 0; i < 4; i++) {
		char strs[2][64], want[512];
		int n0, n1;
		struct tfile t;
		char *s;

		n0 = snprintf(strs[0], sizeof(strs[0]), "pv%c%s", 0, pairs[i][0]) + 1;
		n1 = snprintf(strs[1], sizeof(strs[1]), "pv%c%s", 0, pairs[i][1]) + 1;
		tf_open(&t);
		probe(&t, 1234, 0, 0, NULL, 0, strs[0], n0);
		probe(&t, 1234, 10, 0, NULL, 0, strs[0], n0);
		probe(&t, 1234, 60, 0, NULL, 0, strs[1], n1);
		probe(&t, 1234, 1000, 0, NULL, 0, strs[1], n1);
		s = run(&o, &t, NULL);
		snprintf(want, sizeof(want),
			 P "USER  >  pv:%s()\n" P "USER  >    pv:%s()\n" P
			   "USER  <    pv:%s() 50ns\n" P "USER  <  pv:%s() 1.00us\n",
			 pairs[i][0], pairs[i][0], pairs[i][1], pairs[i][1]);
		ASSERT_STREQ(s, want, pairs[i][0]);
		free(s);
		tf_close(&t);
	}
}

TEST(tree_view_counts_syscalls_inside_spans)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	o.flags |= KD_TREE;
	tf_open(&t);
	tf_call(&t, 39, 0); /* outside every span: not shown */
	tf_ret(&t, 39, 0, 1234);
	span(&t, 1234, 1000, KTR_UREC_SPAN_ENTER, 0, 0, S("fw\0load\0dev=1"));
	t.mono = 2000;
	tf_call(&t, 110, 0);
	t.mono = 2500;
	tf_ret(&t, 110, 0, 1);
	span(&t, 1234, 3000, KTR_UREC_SPAN_ENTER, 0, 1, S("fw\0patch\0"));
	t.mono = 4000;
	tf_call(&t, 39, 0);
	t.mono = 5000;
	tf_ret(&t, 39, 0, 1234);
	span(&t, 1234, 18000, KTR_UREC_SPAN_EXIT, 0, 1, S("fw\0patch\0"));
	span(&t, 1234, 235000, KTR_UREC_SPAN_EXIT, 1, 0, S("fw\0load\0err=timeout"));
	span(&t, 1234, 300000, KTR_UREC_SPAN_ENTER, 0, 0, S("fw\0open\0"));
	s = run(&o, &t, NULL);
	ASSERT_STREQ(s,
		     "1234:1234 cat\n"
		     "  > fw load dev=1\n"
		     "      getppid = 1  500ns\n"
		     "    > fw patch\n"
		     "        getpid = 1234/0x4d2  1.00us\n"
		     "    < fw patch ok: took 15.0us and 1 syscall (1.00us in them)\n"
		     "  < fw load err err=timeout: took 234us and 2 syscalls (1.50us in them), "
		     "15.0us of it in patch\n"
		     "1234:1234 cat\n"
		     "  > fw open\n"
		     "  (not exited: fw open)\n",
		     "tree");
	free(s);
	tf_close(&t);
}

TEST(summary_rows_for_user_records)
{
	__u64 one = 1;
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	o.flags |= KD_SUMMARY;
	tf_open(&t);
	span(&t, 1234, 0, KTR_UREC_SPAN_ENTER, 0, 0, S("fw\0load\0"));
	span(&t, 1234, 3000000, KTR_UREC_SPAN_EXIT, 1, 0, S("fw\0load\0"));
	span(&t, 1234, 4000000, KTR_UREC_SPAN_ENTER, 0, 0, S("fw\0load\0"));
	span(&t, 1234, 5000000, KTR_UREC_SPAN_EXIT, 0, 0, S("fw\0load\0"));
	probe(&t, 1234, 6000000, 1, &one, 0, S("pv\0hit"));
	probe(&t, 1234, 6000001, 1, &one, 0, S("pv\0hit"));
	tf_rec(&t, KTR_USER, "abc", 3);
	s = run(&o, &t, NULL);
	ASSERT_TRUE(
		s && strstr(s, "        2    0.004000        2000        3000         1 fw load\n"),
		"span row: count, seconds, avg, max, errors");
	ASSERT_TRUE(s && strstr(s,
				"        2                                               pv:hit\n"),
		    "probe row");
	ASSERT_TRUE(s && strstr(s,
				"        1                                               utrace\n"),
		    "utrace row");
	free(s);
	tf_close(&t);
}

TEST_MAIN()
