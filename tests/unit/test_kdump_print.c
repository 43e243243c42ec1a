// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's record printers and filters, as exact output lines.  Argument
 * and return-value decoding belongs to src/decode/ and has its own tests;
 * here only the parts kdump itself prints are compared exactly.
 */
#include "../lib/test.h"
#include "kdump_tfile.h"

#define P " 1234:1234  cat      " /* the default line prefix */

static bool has_prefix(const char *s, const char *prefix)
{
	return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

#define ASSERT_PREFIX(s, p, tag)                 \
	({                                       \
		bool okp_ = has_prefix(s, p);    \
		if (!okp_)                       \
			ASSERT_STREQ(s, p, tag); \
		okp_;                            \
	})

/* Print one record of type with the default options. */
static char *one(int type, const void *data, int len)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_rec(&t, type, data, len);
	s = kd_print(&o, &t);
	tf_close(&t);
	return s;
}

TEST(call_without_args_has_no_parentheses)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_call(&t, 39, 0);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, P "CALL  getpid\n", "getpid");
	free(s);
	o.flags |= KD_SYSNR;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, P "CALL  getpid[39]\n", "-S");
	free(s);
	tf_close(&t);
}

TEST(call_with_args_and_unknown_number)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_call(&t, 0, 3, 3ull, 0x1000ull, 64ull);
	s = kd_print(&o, &t);
	ASSERT_PREFIX(s, P "CALL  read(", "read");
	free(s);
	tf_close(&t);
	tf_open(&t);
	tf_call(&t, 30000, 0);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, P "CALL  [30000]\n", "unknown syscall");
	free(s);
	tf_close(&t);
}

TEST(call_bad_narg_is_invalid)
{
	struct ktr_syscall sc = { .ktr_code = 0, .ktr_narg = 3 };
	struct kdump_opts o = kd_defaults();
	struct kd_result res;
	struct tfile t;

	tf_open(&t);
	tf_rec(&t, KTR_SYSCALL, &sc, sizeof(sc)); /* says 3 args, has none */
	sc.ktr_narg = -1;
	tf_rec(&t, KTR_SYSCALL, &sc, sizeof(sc));
	tf_rec(&t, KTR_SYSCALL, &sc, 4);
	tf_call(&t, 39, 0);
	tf_bytes(&t);
	kd_run(&o, t.buf, t.len, &res);
	ASSERT_EQ(res.rc, 0, "rc: printing goes on");
	ASSERT_EQ(res.ninvalid, 3, "invalid records counted");
	ASSERT_STREQ(res.out,
		     P "CALL  invalid record\n" P "CALL  invalid record\n" P
		       "CALL  invalid record\n" P "CALL  getpid\n",
		     "output");
	free(res.out);
	tf_close(&t);
}

TEST(ret_lines)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_ret(&t, 257, 0, 3);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, P "RET   openat 3\n", "success");
	free(s);
	tf_close(&t);
	tf_open(&t);
	tf_ret(&t, 257, 2, -1);
	s = kd_print(&o, &t);
	ASSERT_PREFIX(s, P "RET   openat -1 errno 2", "error");
	free(s);
	tf_close(&t);
	s = one(KTR_SYSRET, "12345678", 8);
	ASSERT_STREQ(s, P "RET   invalid record\n", "short sysret");
	free(s);
}

/*
 * -D: a call's time on its RET line, as strace -T; none for a RET without
 * its CALL, nor for another call's.
 */
TEST(ret_durations)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_ret(&t, 57, 0, 0); /* a fork child's first return: no CALL */
	tf_call(&t, 0, 3, 3ull, 0x1000ull, 64ull);
	t.mono = 12345678;
	tf_ret(&t, 0, 0, 3);
	tf_call(&t, 35, 0);
	t.mono = 1012345678;
	tf_ret(&t, 35, 0, 0);
	o.flags = KD_DURATION;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "RET   fork 0\n" P "CALL  read(3,0x1000,0x40)\n" P
		       "RET   read 3 <0.012345>\n" P "CALL  nanosleep\n" P
		       "RET   nanosleep 0 <1.000000>\n",
		     "durations");
	free(s);
	tf_close(&t);
}

TEST(namei_escaping)
{
	char *s = one(KTR_NAMEI, "/a b\"c\\d\ne\tf\001\377", 14);

	ASSERT_STREQ(s, P "NAMI  \"/a b\\\"c\\\\d\\ne\\tf\\001\\377\"\n", "escaped");
	free(s);
	s = one(KTR_NAMEI, "", 0);
	ASSERT_STREQ(s, P "NAMI  \"\"\n", "empty path");
	free(s);
}

static void genio(struct tfile *t, int fd, int rw, const char *data, int n)
{
	unsigned char buf[256];
	struct ktr_genio g = { .ktr_fd = fd, .ktr_rw = rw };

	memcpy(buf, &g, sizeof(g));
	memcpy(buf + sizeof(g), data, n);
	tf_rec(t, KTR_GENIO, buf, sizeof(g) + n);
}

TEST(genio_text)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	genio(&t, 1, KTR_UIO_WRITE, "hello\nworld\n", 12);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, P "GIO   fd 1 wrote 12 bytes\n       \"hello\n\tworld\n       \"\n",
		     "text");
	free(s);
	o.flags |= KD_NOGIO;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, P "GIO   fd 1 wrote 12 bytes\n", "-s");
	free(s);
	o = kd_defaults();
	o.maxdata = 3;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, P "GIO   fd 1 wrote 12 bytes\n       \"hel\"\n", "-m 3");
	free(s);
	tf_close(&t);

	o.maxdata = 0;
	tf_open(&t);
	genio(&t, 0, KTR_UIO_READ,
	      "a\0"
	      "1\r\"",
	      5);
	genio(&t, 0, KTR_UIO_READ, "x", 1);
	genio(&t, 0, KTR_UIO_READ, "", 0);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "GIO   fd 0 read 5 bytes\n       \"a\\0001\\r\\\"\"\n" P
		       "GIO   fd 0 read 1 byte\n       \"x\"\n" P "GIO   fd 0 read 0 bytes\n",
		     "escapes, 1 byte, empty");
	free(s);
	tf_close(&t);
}

TEST(genio_long_text_folds)
{
	struct kdump_opts o = kd_defaults();
	char data[100], *s;
	struct tfile t;

	memset(data, 'a', sizeof(data));
	o.maxdata = 0;
	tf_open(&t);
	genio(&t, 1, KTR_UIO_WRITE, data, 100);
	s = kd_print(&o, &t);
	/* 8 columns of indent, 70 of data, then "\" and a TAB */
	ASSERT_STREQ(s,
		     P
		     "GIO   fd 1 wrote 100 bytes\n       \""
		     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\\n\t"
		     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"\n",
		     "folded");
	free(s);
	tf_close(&t);
}

TEST(genio_hexdump)
{
	struct kdump_opts o = kd_defaults();
	char data[40], *s;
	struct tfile t;
	int i;

	for (i = 0; i < 40; i++)
		data[i] = 'a' + i % 26;
	data[2] = (char)0xff;
	tf_open(&t);
	genio(&t, 4, KTR_UIO_READ, data, 40);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "GIO   fd 4 read 40 bytes\n"
		       "       0x0000 6162 ff64 6566 6768 696a 6b6c 6d6e 6f70  |ab.defghijklmnop|\n"
		       "       0x0010 7172 7374 7576 7778 797a 6162 6364 6566  |qrstuvwxyzabcdef|\n"
		       "       0x0020 6768 696a 6b6c 6d6e                      |ghijklmn|\n",
		     "hexdump");
	free(s);
	o.maxdata = 5;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "GIO   fd 4 read 40 bytes\n"
		       "       0x0000 6162 ff64 65                             |ab.de|\n",
		     "-m 5");
	free(s);
	tf_close(&t);
}

TEST(psig)
{
	struct ktr_psig ps = { .signo = 2, .action = 0x401000, .code = 0 };
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	ps.mask[0] = 0x4000;
	tf_open(&t);
	tf_rec(&t, KTR_PSIG, &ps, sizeof(ps));
	ps.action = 0;
	tf_rec(&t, KTR_PSIG, &ps, sizeof(ps));
	ps.action = 1;
	ps.signo = 15;
	tf_rec(&t, KTR_PSIG, &ps, sizeof(ps));
	ps.signo = 200;
	ps.code = -77;
	tf_rec(&t, KTR_PSIG, &ps, sizeof(ps));
	tf_rec(&t, KTR_PSIG, &ps, 36);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "PSIG  SIGINT caught handler=0x401000 mask=0x4000 code=SI_USER\n" P
		       "PSIG  SIGINT SIG_DFL code=SI_USER\n" P
		       "PSIG  SIGTERM SIG_IGN code=SI_USER\n" P "PSIG  SIG200 SIG_IGN code=-77\n" P
		       "PSIG  invalid record\n",
		     "psig");
	free(s);
	tf_close(&t);
}

TEST(csw_user_struct)
{
	char *s;

	s = one(KTR_CSW, "\1\0\0\0\1\0\0\0futex\0\0\0", 16);
	ASSERT_STREQ(s, P "CSW   stop user \"futex\"\n", "csw 16");
	free(s);
	s = one(KTR_CSW, "\0\0\0\0\0\0\0\0", 8);
	ASSERT_STREQ(s, P "CSW   resume kernel\n", "csw 8");
	free(s);
	s = one(KTR_CSW, "\0\0\0\0", 4);
	ASSERT_STREQ(s, P "CSW   invalid record\n", "csw 4");
	free(s);
	s = one(KTR_USER, "\x01\xab\x00", 3);
	ASSERT_STREQ(s, P "USER  3  01 ab 00\n", "user");
	free(s);
	s = one(KTR_STRUCT, "stat", 4);
	ASSERT_STREQ(s, P "STRU  invalid record\n", "struct without NUL");
	free(s);
	s = one(KTR_STRUCT, "\0abc", 4);
	ASSERT_STREQ(s, P "STRU  invalid record\n", "struct without name");
	free(s);
	s = one(KTR_STRUCT, "stat\0abcd", 9);
	ASSERT_PREFIX(s, P "STRU  ", "struct decoded");
	free(s);
}

TEST(args_envs_exit_lost)
{
	struct ktr_lost lost = { .lost = 3, .lost_total = 10 };
	struct ktr_exit ex = { .status = 0 };
	char *s;

	s = one(KTR_ARGS, "ls\0-l\0a\"b\n\0", 11);
	ASSERT_STREQ(s, P "ARGS  \"ls\", \"-l\", \"a\\\"b\\n\"\n", "args");
	free(s);
	s = one(KTR_ENVS, "A=1\0B", 5);
	ASSERT_STREQ(s, P "ENVS  \"A=1\", \"B\"\n", "envs without the last NUL");
	free(s);
	s = one(KTR_EXIT, &ex, sizeof(ex));
	ASSERT_STREQ(s, P "EXIT  exited 0\n", "exit 0");
	free(s);
	ex.status = 3 << 8;
	s = one(KTR_EXIT, &ex, sizeof(ex));
	ASSERT_STREQ(s, P "EXIT  exited 3\n", "exit 3");
	free(s);
	ex.status = 9 | 0x80;
	s = one(KTR_EXIT, &ex, sizeof(ex));
	ASSERT_STREQ(s, P "EXIT  killed by SIGKILL (core dumped)\n", "core");
	free(s);
	s = one(KTR_LOST, &lost, sizeof(lost));
	ASSERT_STREQ(s, P "LOST  3 records lost (10 in all)\n", "lost");
	free(s);
}

TEST(fileinfo_unknown_and_skipped_types)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_fileinfo(&t, 0);
	tf_rec(&t, 9, "kern.x", 6); /* FreeBSD SYSCTL: skipped */
	tf_rec(&t, KTR_PROCDTOR, "", 0); /* consumed silently */
	tf_rec(&t, 0, "", 0);
	tf_rec(&t, 40, "", 0);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "INFO  ktraceb format 1, x86_64, kernel 6.1.0-test\n" P "UNKNOWN(0)\n" P
		       "UNKNOWN(40)\n",
		     "info and unknown");
	free(s);
	tf_close(&t);
}

/*
 * INFO says the build of the BPF programs for old kernels (fi_flags); the
 * END's count is its session's records with its own: what ktraceb said.
 */
TEST(info_old_build_and_end_count)
{
	struct kdump_opts o = kd_defaults();
	struct ktr_fileinfo fi = { 0 };
	struct ktr_end e = { .ke_why = KTR_END_EXITED, .ke_records = 1 };
	struct tfile t;
	char *s;

	memcpy(fi.fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC));
	fi.fi_version = KTR_FORMAT_VERSION;
	fi.fi_hdrsize = sizeof(struct ktr_header);
	fi.fi_byteorder = KTR_BYTEORDER_MARK;
	snprintf(fi.fi_machine, sizeof(fi.fi_machine), "x86_64");
	snprintf(fi.fi_release, sizeof(fi.fi_release), "5.10.0-test");
	fi.fi_clock = 1; /* CLOCK_MONOTONIC */
	fi.fi_flags = KTR_FI_BPF_KNOWN | KTR_FI_BPF_OLD;
	tf_open(&t);
	tf_rec(&t, KTR_FILEINFO, &fi, sizeof(fi));
	tf_rec(&t, KTR_END, &e, sizeof(e));
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "INFO  ktraceb format 1, x86_64, kernel 5.10.0-test, BPF programs for "
		       "kernels before 5.12\n" P
		       "END   trace ended: every traced process exited; 2 records, 0 lost\n",
		     "old build said, the END counted");
	free(s);
	tf_close(&t);
}

TEST(procctor_selects_i386)
{
	struct ktr_proc_ctor pc = { .sv_flags = KTR_SV_LINUX_I386 };
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_call(&t, 20, 0); /* getpid on i386, writev on x86_64 */
	tf_rec(&t, KTR_PROCCTOR, &pc, sizeof(pc));
	tf_call(&t, 20, 0);
	tf_rec_full(&t, KTR_SYSCALL, 99, 99, "other", "\x14\0\0\0\0\0\0\0", 8);
	pc.sv_flags = KTR_SV_LINUX_AMD64;
	tf_rec(&t, KTR_PROCCTOR, &pc, sizeof(pc));
	tf_call(&t, 20, 0);
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "CALL  writev\n" P "CALL  getpid\n"
		       "   99:99    other    CALL  writev\n" P "CALL  writev\n",
		     "per-pid ABI");
	free(s);
	tf_close(&t);
}

static void two_pids(struct tfile *t)
{
	struct ktr_lost lost = { .lost = 1, .lost_total = 1 };

	tf_open(t);
	tf_call(t, 39, 0);
	tf_rec_full(t, KTR_SYSCALL, 77, 78, "sh", "\x27\0\0\0\0\0\0\0", 8);
	tf_rec_full(t, KTR_NAMEI, 77, 79, "sh", "/x", 2);
	tf_rec_full(t, KTR_LOST, 0, 0, "", &lost, sizeof(lost));
}

TEST(pid_filter)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	two_pids(&t);
	o.flags |= KD_PIDSEL;
	o.pid = 77;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     "   77:78    sh       CALL  getpid\n   77:79    sh       NAMI  \"/x\"\n"
		     "    0:0              LOST  1 records lost (1 in all)\n",
		     "by pid");
	free(s);
	o.pid = 79; /* a tid matches too (FreeBSD) */
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     "   77:79    sh       NAMI  \"/x\"\n"
		     "    0:0              LOST  1 records lost (1 in all)\n",
		     "by tid");
	free(s);
	tf_close(&t);
}

TEST(type_filter)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	two_pids(&t);
	o.flags |= KD_TRSEL;
	o.trpoints = KTRFAC_NAMEI;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     "   77:79    sh       NAMI  \"/x\"\n"
		     "    0:0              LOST  1 records lost (1 in all)\n",
		     "-t n");
	free(s);
	tf_close(&t);
}

TEST(columns_cpu_and_tid)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_rec_full(&t, KTR_SYSCALL, 5, 6, "a-very-long-command", "\x27\0\0\0\0\0\0\0", 8);
	o.flags = KD_TIDCOL | KD_CPU;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, "     5      6  3 a-very-long-comm CALL  getpid\n", "-H -c");
	free(s);
	tf_close(&t);
}

TEST(timestamps)
{
	struct kdump_opts o = kd_defaults();
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_fileinfo(&t, 1699999000LL * 1000000000 + 5);
	t.mono = 1500;
	tf_call(&t, 39, 0);
	t.mono = 2000000123;
	tf_ret(&t, 39, 0, 1);
	t.mono = 1000; /* clocks may go backwards across CPUs */
	tf_call(&t, 39, 0);
	o.flags = KD_ELAPSED | KD_RELTIME | KD_TRSEL;
	o.trpoints = KTRFAC_SYSCALL | KTRFAC_SYSRET;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "0.000000000 0.000000000 CALL  getpid\n" P
		       "1.999998623 1.999998623 RET   getpid 1\n" P
		       "-0.000000500 -1.999999123 CALL  getpid\n",
		     "-E -R");
	free(s);
	/* wall = fileinfo offset + mono */
	o.flags = KD_ABSTIME | KD_TRSEL;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s,
		     P "1700000000.000001505 CALL  getpid\n" P
		       "1700000002.000000128 RET   getpid 1\n" P
		       "1700000000.000001005 CALL  getpid\n",
		     "-T");
	free(s);
	tf_close(&t);

	/* without KTR_FILEINFO, -T is the header's timeval */
	tf_open(&t);
	t.mono = 2000000123;
	tf_call(&t, 39, 0);
	o.flags = KD_ABSTIME;
	s = kd_print(&o, &t);
	ASSERT_STREQ(s, P "1700000002.000000000 CALL  getpid\n", "-T from ktr_time");
	free(s);
	tf_close(&t);
}

TEST_MAIN()
