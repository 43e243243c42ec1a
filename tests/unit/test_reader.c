// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The trace-file reader: record framing, truncation, bogus lengths, foreign
 * files, follow mode, and random garbage (which must never crash).
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/test.h"
#include "kdump_tfile.h"

static void three_records(struct tfile *t)
{
	tf_open(t);
	tf_call(t, 39, 0); /* getpid */
	tf_ret(t, 39, 0, 1234);
	tf_rec(t, KTR_NAMEI, "/etc/passwd", 11);
}

static int count_records(const void *buf, size_t len, int *nrec)
{
	struct ktr_record rec;
	struct ktr_reader *r;
	FILE *in;
	int rc;

	*nrec = 0;
	in = fmemopen((void *)buf, len, "r");
	r = ktr_reader__open(in, 0);
	while ((rc = ktr_reader__next(r, &rec)) > 0)
		(*nrec)++;
	ktr_reader__close(r);
	fclose(in);
	return rc;
}

TEST(reads_records)
{
	struct ktr_record rec;
	struct ktr_reader *r;
	struct tfile t;
	FILE *in;

	three_records(&t);
	tf_bytes(&t);
	in = fmemopen(t.buf, t.len, "r");
	r = ktr_reader__open(in, 0);
	ASSERT_TRUE(r != NULL, "open");
	ASSERT_EQ(ktr_reader__next(r, &rec), 1, "first");
	ASSERT_EQ(rec.hdr.ktr_type, KTR_SYSCALL, "type");
	ASSERT_EQ(rec.hdr.ktr_len, 8, "len");
	ASSERT_EQ(ktr_reader__next(r, &rec), 1, "second");
	ASSERT_EQ(rec.hdr.ktr_type, KTR_SYSRET, "type");
	ASSERT_EQ(ktr_reader__next(r, &rec), 1, "third");
	ASSERT_EQ(rec.hdr.ktr_len, 11, "namei len");
	ASSERT_TRUE(memcmp(rec.data, "/etc/passwd", 11) == 0, "namei data");
	ASSERT_EQ(((const char *)rec.data)[11], '\0', "NUL after the payload");
	ASSERT_EQ(ktr_reader__next(r, &rec), 0, "eof");
	ASSERT_EQ(ktr_reader__next(r, &rec), 0, "eof again");
	ktr_reader__close(r);
	fclose(in);
	tf_close(&t);
}

TEST(empty_file_is_empty_output)
{
	struct kdump_opts o = kd_defaults();
	struct kd_result res;

	kd_run(&o, "", 0, &res);
	ASSERT_EQ(res.rc, 0, "rc");
	ASSERT_STREQ(res.out, "", "output");
	free(res.out);
}

/* Every cut inside a record (header or payload) is "data too short". */
TEST(truncated_everywhere)
{
	size_t cut, ends[3] = { 72, 72 + 80, 72 + 80 + 75 };
	int nrec, rc, bad = 0, i;
	struct tfile t;

	three_records(&t);
	tf_bytes(&t);
	ASSERT_EQ(t.len, ends[2], "file size");
	for (cut = 1; cut < t.len; cut++) {
		rc = count_records(t.buf, cut, &nrec);
		for (i = 0; i < 3; i++)
			if (cut == ends[i])
				break;
		if (i < 3 ? rc != 0 || nrec != i + 1 : rc != -ENODATA)
			bad++;
	}
	ASSERT_EQ(bad, 0, "cuts with the wrong result");
	tf_close(&t);
}

TEST(truncated_mid_header_and_payload)
{
	struct kdump_opts o = kd_defaults();
	struct kd_result res;
	struct tfile t;

	three_records(&t);
	tf_bytes(&t);
	kd_run(&o, t.buf, 72 + 30, &res); /* mid header of record 2 */
	ASSERT_EQ(res.rc, -ENODATA, "mid header");
	ASSERT_STREQ(res.out, " 1234:1234  cat      CALL  getpid\n", "records before the cut");
	free(res.out);
	kd_run(&o, t.buf, t.len - 3, &res); /* mid NAMI payload */
	ASSERT_EQ(res.rc, -ENODATA, "mid payload");
	free(res.out);
	tf_close(&t);
}

TEST(bogus_length)
{
	struct ktr_record rec;
	struct ktr_reader *r;
	struct tfile t;
	FILE *in;

	tf_open(&t);
	tf_call(&t, 39, 0);
	tf_rec(&t, KTR_NAMEI, NULL, -5);
	tf_bytes(&t);
	in = fmemopen(t.buf, t.len, "r");
	r = ktr_reader__open(in, 0);
	ASSERT_EQ(ktr_reader__next(r, &rec), 1, "good record");
	ASSERT_EQ(ktr_reader__next(r, &rec), -EBADMSG, "negative length");
	ASSERT_EQ(ktr_reader__header(r)->ktr_len, -5, "header kept for the message");
	ktr_reader__close(r);
	fclose(in);
	tf_close(&t);

	/* above the 64 MiB bound: refused before any allocation */
	tf_open(&t);
	tf_rec(&t, KTR_USER, NULL, KTR_READER_MAXLEN + 1);
	tf_bytes(&t);
	in = fmemopen(t.buf, t.len, "r");
	r = ktr_reader__open(in, 0);
	ASSERT_EQ(ktr_reader__next(r, &rec), -EBADMSG, "huge length");
	ktr_reader__close(r);
	fclose(in);
	tf_close(&t);
}

TEST(not_a_dump)
{
	struct kdump_opts o = kd_defaults();
	struct kd_result res;
	char junk[200];

	memset(junk, 0, sizeof(junk)); /* len 0, type 0 */
	kd_run(&o, junk, sizeof(junk), &res);
	ASSERT_EQ(res.rc, -ENOEXEC, "type 0 first");
	free(res.out);
	/* OpenBSD files start with KTR_START, a type far above 31 */
	memcpy(junk, "\0\0\0\0KTR\0", 8);
	kd_run(&o, junk, sizeof(junk), &res);
	ASSERT_EQ(res.rc, -ENOEXEC, "KTR_START");
	free(res.out);
}

/* -l: a record written in two halves is read whole, not desynchronised. */
TEST(follow_waits_for_the_rest)
{
	char path[] = "/tmp/kdump-follow-XXXXXX";
	struct ktr_record rec;
	struct ktr_reader *r;
	struct tfile t;
	pid_t child;
	FILE *in;
	int fd;

	three_records(&t);
	tf_bytes(&t);
	fd = mkstemp(path);
	if (!ASSERT_TRUE(fd >= 0, "mkstemp"))
		return;
	/* first record and half of the second header */
	ASSERT_EQ(write(fd, t.buf, 72 + 20), 72 + 20, "write 1");
	child = fork();
	if (child == 0) {
		struct timespec ts = { 0, 300000000 };

		nanosleep(&ts, NULL);
		if (write(fd, t.buf + 92, t.len - 92) != (ssize_t)(t.len - 92))
			_exit(1);
		_exit(0);
	}
	in = fopen(path, "r");
	r = ktr_reader__open(in, KTR_READER_FOLLOW);
	ASSERT_EQ(ktr_reader__next(r, &rec), 1, "first");
	ASSERT_EQ(ktr_reader__next(r, &rec), 1, "second, after the wait");
	ASSERT_EQ(rec.hdr.ktr_type, KTR_SYSRET, "second type");
	ASSERT_EQ(ktr_reader__next(r, &rec), 1, "third");
	ASSERT_TRUE(memcmp(rec.data, "/etc/passwd", 11) == 0, "third data");
	ktr_reader__close(r);
	fclose(in);
	waitpid(child, NULL, 0);
	close(fd);
	unlink(path);
	tf_close(&t);
}

/* A valid file of every record type, to mutate. */
static void all_types(struct tfile *t)
{
	static const unsigned char psig[40] = { 2, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x20 };
	static const unsigned char gio[8 + 6] = { 1, 0, 0, 0, 1, 0, 0, 0, 'h', 'i', 0xff, '\n' };
	static const unsigned char ctor[4] = { 0x03, 0x01, 0x65, 0x00 };
	static const unsigned char lost[16] = { 5, 0, 0, 0, 0, 0, 0, 0, 9 };
	static const unsigned char ex[8] = { 9, 0, 0, 0 };

	tf_open(t);
	tf_fileinfo(t, 5);
	tf_rec(t, KTR_PROCCTOR, ctor, sizeof(ctor));
	tf_call(t, 5, 3, 1ull, 2ull, 3ull);
	tf_ret(t, 5, 2, -1);
	tf_rec(t, KTR_NAMEI, "/a\tb", 4);
	tf_rec(t, KTR_GENIO, gio, sizeof(gio));
	tf_rec(t, KTR_PSIG, psig, sizeof(psig));
	tf_rec(t, KTR_CSW, "\1\0\0\0\1\0\0\0sleep\0\0\0", 16);
	tf_rec(t, KTR_USER, "abc", 3);
	tf_rec(t, KTR_STRUCT, "stat\0xxxxxxxx", 13);
	tf_rec(t, KTR_ARGS, "ls\0-l\0", 6);
	tf_rec(t, KTR_LOST, lost, sizeof(lost));
	tf_rec(t, KTR_EXIT, ex, sizeof(ex));
	tf_rec(t, 99, "", 0);
	tf_bytes(t);
}

/*
 * 1000 seeded files: half mutated copies of a valid file, half pure random
 * bytes with a plausible first header.  Each must end with a status, never
 * a crash or a hang (run under valgrind or ASan for the memory side).
 */
TEST(random_garbage_never_crashes)
{
	struct kdump_opts o = kd_defaults();
	unsigned char buf[2048];
	struct kd_result res;
	struct tfile t;
	size_t len, i;
	int seed, n, done = 0;

	all_types(&t);
	for (seed = 1; seed <= 1000; seed++) {
		srand(seed);
		if (seed % 2 && t.len <= sizeof(buf)) {
			len = t.len;
			memcpy(buf, t.buf, len);
			for (n = 1 + rand() % 8; n > 0; n--)
				buf[rand() % len] = rand();
			len -= rand() % 3 ? 0 : rand() % len;
		} else {
			len = rand() % sizeof(buf);
			for (i = 0; i < len; i++)
				buf[i] = rand();
			if (len >= 8) {
				buf[0] = rand() % 200; /* ktr_len */
				buf[1] = buf[2] = buf[3] = 0;
				buf[4] = 1 + rand() % 31;
				buf[5] = 0;
			}
		}
		o.flags = (unsigned int)rand() & (KD_CPU | KD_TIDCOL | KD_ABSTIME | KD_ELAPSED |
						  KD_RELTIME | KD_NOGIO | KD_SYSNR | KD_SUMMARY);
		o.maxdata = rand() % 3 ? 64 : 0;
		kd_run(&o, buf, len, &res);
		done += res.out != NULL && res.rc <= 0;
		free(res.out);
	}
	ASSERT_EQ(done, 1000, "files processed");
	tf_close(&t);
}

TEST(all_types_are_valid)
{
	struct kdump_opts o = kd_defaults();
	struct kd_result res;
	struct tfile t;

	all_types(&t);
	kd_run(&o, t.buf, t.len, &res);
	ASSERT_EQ(res.rc, 0, "rc");
	ASSERT_EQ(res.ninvalid, 0, "no invalid records");
	free(res.out);
	tf_close(&t);
}

static const char *fixture_dir(void)
{
	const char *d = getenv("KTR_BSD_FIXTURES");

	return d ? d : "/work/shared/fixtures/bsd";
}

/* Foreign BSD files have other header sizes: any clean status, no crash. */
TEST(bsd_fixtures_do_not_crash)
{
	struct kdump_opts o = kd_defaults();
	struct kd_result res;
	char path[4096], *data;
	struct dirent *de;
	int nfiles = 0;
	size_t len;
	FILE *f;
	DIR *d;

	d = opendir(fixture_dir());
	if (!d) {
		printf("SKIP: no fixtures in %s\n", fixture_dir());
		return;
	}
	while ((de = readdir(d))) {
		if (!strstr(de->d_name, ".ktrace.out"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", fixture_dir(), de->d_name);
		f = fopen(path, "r");
		if (!ASSERT_TRUE(f != NULL, path))
			continue;
		data = malloc(1 << 20);
		len = fread(data, 1, 1 << 20, f);
		fclose(f);
		kd_run(&o, data, len, &res);
		ASSERT_TRUE(res.out != NULL && res.rc <= 0, path);
		free(res.out);
		free(data);
		nfiles++;
	}
	closedir(d);
	ASSERT_TRUE(nfiles > 0, "fixture files found");
}

TEST_MAIN()
