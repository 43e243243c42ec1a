// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's -z writer (ktr_writer.c) under the pace it is given
 * (ktr_writer__pace_by): members it may not spend time on are stored, the
 * others compressed, and either way the file reads back as every record,
 * in order, through zlib.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>

#include "../lib/test.h"
#include "ktraceb/ktr.h"
#include "../../src/ktraceb/daemon/ktr_writer.h"

#define NREC	 40000 /* 40000 x 96 bytes: four of the writer's 1 MiB write-outs */
#define PAYLOAD	 32
#define REC_SIZE (sizeof(struct ktr_header) + PAYLOAD)

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

/* NREC records written through a -z writer paced by p: the file's size, or -1. */
static long long write_trace(const char *path, struct pace *p)
{
	unsigned char rec[REC_SIZE] = { 0 };
	struct ktr_header *h = (struct ktr_header *)rec;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	struct ktr_writer *w = fd < 0 ? NULL : ktr_writer__new(fd, getuid(), getgid(), true);
	struct stat st;
	long long size;

	if (!w)
		return -1;
	ktr_writer__pace_by(p ? pace_may_take : NULL, p);
	h->ktr_len = PAYLOAD;
	h->ktr_type = KTR_USER;
	memcpy(h->ktr_comm, "writer", 7);
	for (int i = 0; i < NREC; i++) {
		h->ktr_pid = 100 + i % 3;
		h->ktr_mono_ns = 1000000ull * i;
		memcpy(rec + sizeof(*h), &i, sizeof(i));
		if (ktr_writer__append(w, rec, sizeof(rec), 0) < 0)
			break;
	}
	size = ktr_writer__finish(w) == 0 && ktr_writer__records(w) == NREC &&
			       stat(path, &st) == 0 ?
		       (long long)st.st_size :
		       -1;
	ktr_writer__free(w);
	ktr_writer__pace_by(NULL, NULL);
	return size;
}

/* Every record read back through zlib, in order: the count of those that are right. */
static int read_back(const char *path)
{
	unsigned char rec[REC_SIZE];
	const struct ktr_header *h = (const struct ktr_header *)rec;
	gzFile gz = gzopen(path, "rb");
	int n = 0, idx;

	if (!gz)
		return -1;
	while (gzread(gz, rec, sizeof(rec)) == (int)sizeof(rec)) {
		memcpy(&idx, rec + sizeof(*h), sizeof(idx));
		if (idx != n || h->ktr_len != PAYLOAD || h->ktr_pid != 100 + n % 3 ||
		    h->ktr_mono_ns != 1000000ull * n)
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
	long long size;

	temp_path();
	size = write_trace(path, &p);
	ASSERT_TRUE(size > 0 && size < (long long)(NREC * REC_SIZE) / 5, "compressed");
	ASSERT_EQ(read_back(path), NREC, "records read back");
	ASSERT_TRUE(p.asked >= 4, "asked for each write-out");
	/* after the first member, the time the last compression took */
	ASSERT_TRUE(p.most_ns > 0, "asked with a cost");
	unlink(path);
}

TEST(stored_when_not_let)
{
	struct pace p = { .yes_after = 1000 };
	long long size;

	temp_path();
	size = write_trace(path, &p);
	/* stored: the records' bytes and the members' framing */
	ASSERT_TRUE(size >= (long long)(NREC * REC_SIZE), "stored");
	ASSERT_EQ(read_back(path), NREC, "records read back");
	unlink(path);
}

TEST(compressed_again_after_a_burst)
{
	struct pace p = { .yes_after = 2 };
	long long size, stored = (long long)(2 * (1 << 20));

	temp_path();
	size = write_trace(path, &p);
	/* two stored write-outs of 1 MiB, the rest compressed */
	ASSERT_TRUE(size > stored && size < stored + (long long)(NREC * REC_SIZE - stored) / 5,
		    "two stored, then compressed");
	ASSERT_EQ(read_back(path), NREC, "records read back");
	unlink(path);
}

TEST(unpaced_compresses)
{
	long long size;

	temp_path();
	size = write_trace(path, NULL);
	ASSERT_TRUE(size > 0 && size < (long long)(NREC * REC_SIZE) / 5, "compressed");
	ASSERT_EQ(read_back(path), NREC, "records read back");
	unlink(path);
}

TEST_MAIN()
