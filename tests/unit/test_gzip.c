// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Compressed traces (ktraceb -z) through the reader: gzip members made here
 * with zlib as the daemon's writer makes them, read back whole, several
 * members in a row, cut at every length, corrupt, a zip bomb, followed
 * while they grow.
 */
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../lib/test.h"
#include "kdump_tfile.h"

/* zlib's level: the writer's (KTR_WRITER_GZIP_LEVEL), or the best for a bomb */
static int gz_level = 1;

/* One gzip member of len bytes of src appended to *out (grown); its size. */
static size_t gz_member(const void *src, size_t len, unsigned char **out, size_t *outlen)
{
	z_stream z = { 0 };
	size_t cap;
	unsigned char *nb;

	if (deflateInit2(&z, gz_level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	cap = deflateBound(&z, len) + 64;
	nb = realloc(*out, *outlen + cap);
	if (!nb)
		return 0;
	*out = nb;
	z.next_in = (Bytef *)src;
	z.avail_in = len;
	z.next_out = nb + *outlen;
	z.avail_out = cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		return 0;
	}
	*outlen += cap - z.avail_out;
	deflateEnd(&z);
	return cap - z.avail_out;
}

static void three_records(struct tfile *t)
{
	tf_open(t);
	tf_fileinfo(t, 5);
	tf_call(t, 39, 0); /* getpid */
	tf_ret(t, 39, 0, 1234);
	tf_rec(t, KTR_NAMEI, "/etc/passwd", 11);
	tf_bytes(t);
}

/* Records of the len bytes of buf until the end; the reader's last status. */
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

/* kdump prints a compressed file exactly as the same file uncompressed. */
TEST(same_output_as_uncompressed)
{
	struct kdump_opts o = kd_defaults();
	struct kd_result plain, gz;
	unsigned char *z = NULL;
	size_t zlen = 0;
	struct tfile t;

	three_records(&t);
	ASSERT_TRUE(gz_member(t.buf, t.len, &z, &zlen) > 0, "deflate");
	ASSERT_TRUE(z[0] == 0x1f && z[1] == 0x8b, "gzip magic");
	kd_run(&o, t.buf, t.len, &plain);
	kd_run(&o, z, zlen, &gz);
	ASSERT_EQ(plain.rc, 0, "plain rc");
	ASSERT_EQ(gz.rc, 0, "gzip rc");
	ASSERT_TRUE(strstr(plain.out, "NAMI  \"/etc/passwd\"") != NULL, "plain printed");
	ASSERT_STREQ(gz.out, plain.out, "same text");
	free(plain.out);
	free(gz.out);
	free(z);
	tf_close(&t);
}

/* Members one after the other (a write-out each, or -a) are one stream. */
TEST(multi_member)
{
	unsigned char *z = NULL;
	size_t zlen = 0;
	struct tfile t;
	int n;

	three_records(&t);
	for (int i = 0; i < 3; i++)
		gz_member(t.buf, t.len, &z, &zlen);
	/* a member may also end inside a record: the stream is what counts */
	gz_member(t.buf, 100, &z, &zlen);
	gz_member(t.buf + 100, t.len - 100, &z, &zlen);
	ASSERT_EQ(count_records(z, zlen, &n), 0, "clean end");
	ASSERT_EQ(n, 4 * 4, "four copies of four records");
	free(z);
	tf_close(&t);
}

/*
 * Every prefix of a two-member file: a clean end only at a member's end,
 * else "data too short" after the whole records it holds, never more
 * records than the whole file and never fewer than the first member.
 */
TEST(cut_at_every_length)
{
	unsigned char *z = NULL;
	size_t zlen = 0, first;
	struct tfile t;
	int n, rc, bad = 0;

	three_records(&t);
	first = gz_member(t.buf, t.len, &z, &zlen);
	gz_member(t.buf, t.len, &z, &zlen);
	for (size_t len = 0; len <= zlen; len++) {
		rc = count_records(z, len, &n);
		if (len == 0 || len == first || len == zlen) {
			bad += !ASSERT_EQ(rc, 0, "clean end at a member's end");
			bad += !ASSERT_EQ(n, len == 0 ? 0 : len == first ? 4 : 8, "records");
		} else {
			bad += !ASSERT_EQ(rc, -ENODATA, "cut member: data too short");
			bad += !ASSERT_TRUE(n <= 8 && (len < first || n >= 4), "records so far");
		}
		if (bad)
			break;
	}
	free(z);
	tf_close(&t);
}

/* Corrupt data, a wrong CRC, garbage after a member: -EILSEQ with zlib's words. */
TEST(corrupt_is_an_error)
{
	unsigned char *z = NULL, *c;
	size_t zlen = 0;
	struct ktr_record rec;
	struct ktr_reader *r;
	struct tfile t;
	FILE *in;
	int n, rc;

	three_records(&t);
	gz_member(t.buf, t.len, &z, &zlen);
	c = malloc(zlen + 8);
	/* the CRC in the trailer */
	memcpy(c, z, zlen);
	c[zlen - 8] ^= 0x55;
	ASSERT_EQ(count_records(c, zlen, &n), -EILSEQ, "bad crc");
	/* a reserved block type right after the header */
	memcpy(c, z, zlen);
	c[10] = 0x07;
	ASSERT_EQ(count_records(c, zlen, &n), -EILSEQ, "bad block type");
	ASSERT_EQ(n, 0, "no record from a bad block");
	/* garbage after a whole member */
	memcpy(c, z, zlen);
	memcpy(c + zlen, "garbage!", 8);
	in = fmemopen(c, zlen + 8, "r");
	r = ktr_reader__open(in, 0);
	n = 0;
	while ((rc = ktr_reader__next(r, &rec)) > 0)
		n++;
	ASSERT_EQ(rc, -EILSEQ, "trailing garbage");
	ASSERT_EQ(n, 4, "the member's records first");
	ASSERT_TRUE(strstr(ktr_reader__gzip_why(r), "header") != NULL, "zlib's words");
	ktr_reader__close(r);
	fclose(in);
	free(c);
	free(z);
	tf_close(&t);
}

/* The address space this process has now, in bytes. */
static unsigned long long vm_bytes(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return pages * sysconf(_SC_PAGESIZE);
}

/*
 * Read the file in a child whose address space may grow by 32 MiB at most:
 * exit 0 if it read want records to a clean end.
 */
static bool read_bounded(const void *z, size_t zlen, int want)
{
	struct rlimit rl;
	int status, n;
	pid_t pid = fork();

	if (pid == 0) {
		rl.rlim_cur = rl.rlim_max = vm_bytes() + (32u << 20);
		if (setrlimit(RLIMIT_AS, &rl) < 0)
			_exit(2);
		_exit(count_records(z, zlen, &n) == 0 && n == want ? 0 : 1);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/*
 * A zip bomb: 96 MiB of valid records in a member of about 100 KiB, read
 * whole in 32 MiB of memory; and a bomb of zeros is "not a dump" at once.
 */
TEST(zip_bomb_is_streamed)
{
	const size_t total = 96u << 20;
	unsigned char *z = NULL, *big;
	size_t zlen = 0, reclen;
	struct tfile t;
	int n;

	three_records(&t);
	reclen = t.len;
	big = malloc(total);
	if (!ASSERT_TRUE(big != NULL, "malloc"))
		return;
	for (size_t off = 0; off + reclen <= total; off += reclen)
		memcpy(big + off, t.buf, reclen);
	gz_level = 9;
	gz_member(big, total - total % reclen, &z, &zlen);
	gz_level = 1;
	free(big);
	ASSERT_TRUE(zlen < total / 100, "a bomb");
	ASSERT_TRUE(read_bounded(z, zlen, 4 * (total / reclen)), "every record, in 32 MiB");
	free(z);
	z = NULL;
	zlen = 0;
	big = calloc(1, 16u << 20);
	gz_member(big, 16u << 20, &z, &zlen);
	free(big);
	ASSERT_EQ(count_records(z, zlen, &n), -ENOEXEC, "zeros: not a dump");
	free(z);
	tf_close(&t);
}

/* -l: members appended while the reader waits, one cut in two writes. */
TEST(follow_compressed)
{
	char path[] = "/tmp/kdump-gzfollow-XXXXXX";
	unsigned char *z = NULL;
	size_t zlen = 0, first;
	struct ktr_record rec;
	struct ktr_reader *r;
	struct tfile t;
	pid_t child;
	FILE *in;
	int fd, n;

	three_records(&t);
	first = gz_member(t.buf, t.len, &z, &zlen);
	gz_member(t.buf, t.len, &z, &zlen);
	fd = mkstemp(path);
	if (!ASSERT_TRUE(fd >= 0, "mkstemp"))
		return;
	/* the first member and a few bytes of the second */
	ASSERT_EQ(write(fd, z, first + 5), (ssize_t)(first + 5), "write 1");
	child = fork();
	if (child == 0) {
		struct timespec ts = { 0, 300000000 };

		nanosleep(&ts, NULL);
		if (write(fd, z + first + 5, zlen - first - 5) != (ssize_t)(zlen - first - 5))
			_exit(1);
		_exit(0);
	}
	in = fopen(path, "r");
	r = ktr_reader__open(in, KTR_READER_FOLLOW);
	for (n = 0; n < 8; n++)
		if (!ASSERT_EQ(ktr_reader__next(r, &rec), 1, "record, waiting if need be"))
			break;
	ASSERT_EQ(rec.hdr.ktr_type, KTR_NAMEI, "the last one");
	ASSERT_TRUE(memcmp(rec.data, "/etc/passwd", 11) == 0, "its data");
	ktr_reader__close(r);
	fclose(in);
	waitpid(child, NULL, 0);
	close(fd);
	unlink(path);
	free(z);
	tf_close(&t);
}

TEST_MAIN()
