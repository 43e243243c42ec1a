// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's writer (ktr_writer.c, ktr_writer_out.c), on its own thread:
 *  - -z under the pace it is given (ktr_writer__pace_by): members it may
 *    not spend time on are stored, the others compressed, and either way
 *    the file reads back as every record, in order, through zlib;
 *  - the END record last, with the counts, and no block allocated past it;
 *  - a file that takes no more (RLIMIT_FSIZE: EFBIG, as a full disk
 *    would): whole records up to the END, which says the errno and how
 *    many records were not written, and the writer counts them lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <zlib.h>

#include "../lib/test.h"
#include "ktraceb/ktr.h"
#include "daemon/files/ktr_writer.h"

#define NREC	 40000 /* 40000 x 96 bytes: four of the writer's 1 MiB write-outs */
#define PAYLOAD	 32
#define REC_SIZE (sizeof(struct ktr_header) + PAYLOAD)
#define END_SIZE (sizeof(struct ktr_header) + sizeof(struct ktr_end))

struct pace {
	int asked, yes_after; /* says no to the first yes_after questions */
	long long most_ns; /* the longest time it was asked for */
};

static bool pace_may_take(void *ctx, long long ns)
{
	struct pace *p = ctx;

	if (ns > p->most_ns)
		p->most_ns = ns;
	return p->asked++ >= p->yes_after;
}

struct run {
	unsigned long long records, lost;
	int error;
	bool end_written;
};

/*
 * nrec records through a writer (gzip: -z paced by p), then its end
 * (with_end: an END of why EXITED): the file's size, or -1.
 */
static long long write_trace(const char *path, bool gzip, struct pace *p, bool with_end, int nrec,
			     struct run *run)
{
	unsigned char rec[REC_SIZE] = { 0 };
	struct ktr_header *h = (struct ktr_header *)rec;
	struct ktr_end end = { .ke_why = KTR_END_EXITED };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	struct ktr_writer *w = fd < 0 ? NULL : ktr_writer__new(fd, getuid(), getgid(), gzip);
	struct stat st;
	long long size;

	if (!w)
		return -1;
	ktr_writer__pace_by(p ? pace_may_take : NULL, p);
	h->ktr_len = PAYLOAD;
	h->ktr_type = KTR_USER;
	memcpy(h->ktr_comm, "writer", 7);
	for (int i = 0; i < nrec; i++) {
		h->ktr_pid = 100 + i % 3;
		h->ktr_mono_ns = 1000000ull * i;
		memcpy(rec + sizeof(*h), &i, sizeof(i));
		/* a dump's records: wait for room rather than drop */
		ktr_writer__append(w, rec, sizeof(rec), 0, KTR_WRITER_WAIT);
	}
	ktr_writer__finish(w, with_end ? &end : NULL);
	if (!ktr_writer__wait_done(w, 30000))
		return -1;
	run->records = ktr_writer__records(w);
	run->lost = ktr_writer__lost(w);
	run->error = ktr_writer__error(w);
	run->end_written = ktr_writer__end_written(w);
	size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
	ktr_writer__free(w);
	ktr_writer__pace_by(NULL, NULL);
	return size;
}

/*
 * Every record read back (through zlib: plain files too), in order: the
 * count of the test's records that are right; *end the END if one is last.
 */
static int read_back(const char *path, struct ktr_end *end, bool *has_end)
{
	unsigned char rec[REC_SIZE + sizeof(struct ktr_end)];
	const struct ktr_header *h = (const struct ktr_header *)rec;
	gzFile gz = gzopen(path, "rb");
	int n = 0, idx;

	*has_end = false;
	if (!gz)
		return -1;
	while (gzread(gz, rec, sizeof(*h)) == (int)sizeof(*h)) {
		if (h->ktr_type == KTR_END && h->ktr_len == sizeof(*end)) {
			*has_end = gzread(gz, end, sizeof(*end)) == (int)sizeof(*end) &&
				   gzread(gz, rec, 1) == 0; /* and nothing after it */
			break;
		}
		if (h->ktr_len != PAYLOAD || gzread(gz, rec + sizeof(*h), PAYLOAD) != PAYLOAD)
			break;
		memcpy(&idx, rec + sizeof(*h), sizeof(idx));
		if (idx != n || h->ktr_pid != 100 + n % 3 || h->ktr_mono_ns != 1000000ull * n)
			break;
		n++;
	}
	gzclose(gz);
	return n;
}

static char path[64];

static void temp_path(void)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/ktr-writer-XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
}

TEST(compressed_when_let)
{
	struct pace p = { 0 };
	struct ktr_end end;
	struct run run;
	bool has_end;
	long long size;

	temp_path();
	size = write_trace(path, true, &p, false, NREC, &run);
	ASSERT_TRUE(size > 0 && size < (long long)(NREC * REC_SIZE) / 5, "compressed");
	ASSERT_EQ(read_back(path, &end, &has_end), NREC, "records read back");
	ASSERT_EQ(run.records, NREC, "records counted");
	ASSERT_TRUE(p.asked >= 4, "asked for each write-out");
	/* after the first member, the time the last compression took */
	ASSERT_TRUE(p.most_ns > 0, "asked with a cost");
	unlink(path);
}

TEST(stored_when_not_let)
{
	struct pace p = { .yes_after = 1000 };
	struct ktr_end end;
	struct run run;
	bool has_end;
	long long size;

	temp_path();
	size = write_trace(path, true, &p, false, NREC, &run);
	/* stored: the records' bytes and the members' framing */
	ASSERT_TRUE(size >= (long long)(NREC * REC_SIZE), "stored");
	ASSERT_EQ(read_back(path, &end, &has_end), NREC, "records read back");
	unlink(path);
}

TEST(compressed_again_after_a_burst)
{
	struct pace p = { .yes_after = 2 };
	long long size, stored = (long long)(2 * (1 << 20));
	struct ktr_end end;
	struct run run;
	bool has_end;

	temp_path();
	size = write_trace(path, true, &p, false, NREC, &run);
	/* two stored write-outs of 1 MiB, the rest compressed */
	ASSERT_TRUE(size > stored && size < stored + (long long)(NREC * REC_SIZE - stored) / 5,
		    "two stored, then compressed");
	ASSERT_EQ(read_back(path, &end, &has_end), NREC, "records read back");
	unlink(path);
}

TEST(unpaced_compresses)
{
	struct ktr_end end;
	struct run run;
	bool has_end;
	long long size;

	temp_path();
	size = write_trace(path, true, NULL, false, NREC, &run);
	ASSERT_TRUE(size > 0 && size < (long long)(NREC * REC_SIZE) / 5, "compressed");
	ASSERT_EQ(read_back(path, &end, &has_end), NREC, "records read back");
	unlink(path);
}

/* The END last, its counts the writer's, and no room kept past it. */
static void end_last(bool gzip)
{
	struct ktr_end end;
	struct run run;
	bool has_end;
	long long size;

	temp_path();
	size = write_trace(path, gzip, NULL, true, NREC, &run);
	ASSERT_TRUE(size > 0, "written");
	ASSERT_EQ(read_back(path, &end, &has_end), NREC, "records read back");
	ASSERT_TRUE(has_end, "an END, last");
	ASSERT_TRUE(run.end_written, "the writer says so");
	ASSERT_EQ(end.ke_why, KTR_END_EXITED, "why");
	ASSERT_EQ(end.ke_records, NREC, "records before it");
	ASSERT_EQ(end.ke_lost, 0, "lost");
	ASSERT_EQ(run.records, NREC + 1, "records counted, the END's too");
	if (!gzip)
		ASSERT_EQ(size, (long long)(NREC * REC_SIZE + END_SIZE), "nothing after it");
	unlink(path);
}

TEST(end_last_plain)
{
	end_last(false);
}

TEST(end_last_gzip)
{
	end_last(true);
}

/*
 * Blocks of path's file past its end (size), whole blocks of block
 * bytes: its extents there (FIEMAP lists room kept past the end too), or
 * where the file system has no FIEMAP (tmpfs) what it has allocated past
 * that many blocks.
 */
static long long blocks_past_end(const char *file, long long size, long long block)
{
	struct {
		struct fiemap map;
		struct fiemap_extent extents[1];
	} q = { 0 };
	long long whole = (size + block - 1) / block * block;
	struct stat st;
	int fd = open(file, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	q.map.fm_start = whole;
	q.map.fm_length = FIEMAP_MAX_OFFSET - whole;
	q.map.fm_flags = FIEMAP_FLAG_SYNC;
	q.map.fm_extent_count = 1;
	r = ioctl(fd, FS_IOC_FIEMAP, &q.map);
	if (r < 0 && fstat(fd, &st) == 0) {
		close(fd);
		return st.st_blocks * 512 > whole ? (st.st_blocks * 512 - whole) / block : 0;
	}
	close(fd);
	return r < 0 ? -1 : (long long)q.map.fm_mapped_extents;
}

/*
 * No block allocated past the END once the file is closed: the room kept
 * for the END is given back.  crossing: so many records that the END ends
 * in one block and its room reached into the next (plain records only: a
 * gzip member's size is not known beforehand).
 */
static void no_block_past_end(bool gzip, bool crossing)
{
	struct stat st;
	struct run run;
	long long size, block;
	int n = NREC;

	temp_path();
	ASSERT_EQ(stat(path, &st), 0, "stat the new file");
	block = st.st_blksize;
	while (crossing && n < NREC + block) {
		long long at = (long long)n * REC_SIZE % block;

		if (at + (long long)END_SIZE <= block && at + (long long)KTR_WRITER_RESERVE > block)
			break;
		n++;
	}
	ASSERT_TRUE(n < NREC + block, "a record count for it");
	size = write_trace(path, gzip, NULL, true, n, &run);
	ASSERT_TRUE(size > 0 && run.end_written, "written, with its END");
	ASSERT_EQ(blocks_past_end(path, size, block), 0, "no block past the end");
	unlink(path);
}

TEST(no_block_past_end_plain)
{
	no_block_past_end(false, false);
}

TEST(no_block_past_end_room_crossing)
{
	no_block_past_end(false, true);
}

TEST(no_block_past_end_gzip)
{
	no_block_past_end(true, false);
}

/*
 * A file that stops taking records at limit bytes (EFBIG, as ENOSPC on a
 * full disk): whole records, then the END with the errno, and every
 * record not written counted.
 */
static void file_full(bool gzip, rlim_t limit)
{
	struct rlimit old, rl = { limit, RLIM_INFINITY };
	struct ktr_end end;
	struct run run;
	bool has_end;
	long long size;
	int n;

	temp_path();
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	rl.rlim_max = old.rlim_max;
	setrlimit(RLIMIT_FSIZE, &rl);
	size = write_trace(path, gzip, NULL, true, NREC, &run);
	setrlimit(RLIMIT_FSIZE, &old);
	ASSERT_TRUE(size > 0 && size <= (long long)limit, "within the limit");
	n = read_back(path, &end, &has_end);
	ASSERT_TRUE(n > 0 && n < NREC, "some records, whole, in order");
	ASSERT_TRUE(has_end, "an END, last, in place of what did not fit");
	ASSERT_EQ(run.error, EFBIG, "the writer's error");
	ASSERT_EQ(end.ke_why, KTR_END_WRITE_ERROR, "why");
	ASSERT_EQ(end.ke_errno, EFBIG, "its errno");
	ASSERT_EQ(end.ke_records, n, "records before it");
	/* rewritten at the end with every record the file did not take */
	ASSERT_EQ(end.ke_unwritten, NREC - n, "records not written");
	ASSERT_EQ(end.ke_lost, NREC - n, "lost");
	ASSERT_EQ(run.lost, NREC - n, "counted lost by the writer");
	unlink(path);
}

TEST(full_plain)
{
	file_full(false, 300000);
}

TEST(full_gzip)
{
	/* past its first member (about 90 KiB at level 1) */
	file_full(true, 200000);
}

TEST_MAIN()
