// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What kdump takes a process's mappings to be at a stack's time, from a
 * trace's KTR_MAPPING records (kdump_mappings.h): the records before the
 * stack, a newer one over an older one, an exec emptying the set, a fork
 * starting from the parent's, a process read after its stack, and a
 * child that ran before its fork was said; and the paths kdump_files.h
 * takes from a hostile trace.
 */
#include <stdlib.h>

#include "../lib/test.h"
#include "kdump_files.h"
#include "kdump_mappings.h"

static struct ktr_mapping map(__u64 start, __u64 end, __u8 id)
{
	struct ktr_mapping m = { .km_start = start, .km_end = end, .km_pgoff = 0x1000 };

	m.km_build_id[0] = id;
	m.km_build_id_len = 20;
	return m;
}

static struct ktr_mapping flag(__u8 flags, __u64 parent)
{
	struct ktr_mapping m = { .km_start = parent, .km_flags = flags };

	return m;
}

/* The build id byte of the mapping holding addr in pid's set at ns, or 0 */
static int id_at(struct kd_mappings *m, __s32 pid, __u64 ns, __u64 addr)
{
	const struct kd_mapping *set, *e;
	__u64 key;
	size_t n = kd_mappings__at(m, pid, ns, &set, &key);

	e = kd_mappings__find(set, n, addr);
	return e ? e->build_id[0] : 0;
}

TEST(time_exec_fork)
{
	struct kd_mappings *m = kd_mappings__new();
	struct ktr_mapping a = map(0x1000, 0x5000, 1), b = map(0x3000, 0x9000, 2);
	struct ktr_mapping c = map(0x1000, 0x2000, 3), ex = flag(KTR_MAPPING_EXEC, 0);
	struct ktr_mapping fk = flag(KTR_MAPPING_FORK, 100);

	kd_mappings__add(m, 100, 10, &a);
	kd_mappings__add(m, 100, 20, &b); /* over a: a goes */
	kd_mappings__add(m, 100, 30, &ex);
	kd_mappings__add(m, 100, 40, &c);
	kd_mappings__add(m, 200, 25, &fk); /* 200: forked from 100 at 25 */
	ASSERT_EQ(id_at(m, 100, 15, 0x1800), 1, "before b: a");
	ASSERT_EQ(id_at(m, 100, 25, 0x1800), 0, "b took a's place: nothing at 0x1800");
	ASSERT_EQ(id_at(m, 100, 25, 0x4000), 2, "b");
	ASSERT_EQ(id_at(m, 100, 35, 0x4000), 0, "exec: b is gone");
	ASSERT_EQ(id_at(m, 100, 35, 0x1800), 3, "after the exec, read later: c");
	ASSERT_EQ(id_at(m, 100, 45, 0x1800), 3, "c");
	ASSERT_EQ(id_at(m, 200, 27, 0x4000), 2, "the child: its parent's at the fork");
	ASSERT_EQ(id_at(m, 200, 50, 0x1800), 0, "the parent's exec is not the child's");
	ASSERT_EQ(id_at(m, 200, 24, 0x4000), 2, "ran before its fork was said: the parent's");
	ASSERT_EQ(id_at(m, 300, 24, 0x4000), 0, "nobody's");
	/* the set made last, kept for its times; a record added changes it */
	ASSERT_EQ(id_at(m, 100, 44, 0x8000), 0, "c alone");
	kd_mappings__add(m, 100, 42, &b);
	ASSERT_EQ(id_at(m, 100, 44, 0x8000), 2, "b again, after the set was kept");
	kd_mappings__free(m);
}

TEST(loops_and_bad_records)
{
	struct kd_mappings *m = kd_mappings__new();
	struct ktr_mapping f1 = flag(KTR_MAPPING_FORK, 2), f2 = flag(KTR_MAPPING_FORK, 1);
	struct ktr_mapping self = flag(KTR_MAPPING_FORK, 3), empty = map(0x5000, 0x5000, 9);
	struct ktr_mapping noid = map(0x1000, 0x2000, 9);

	noid.km_build_id_len = 0;
	kd_mappings__add(m, 1, 10, &f1); /* 1 from 2, 2 from 1: followed a few times only */
	kd_mappings__add(m, 2, 10, &f2);
	kd_mappings__add(m, 3, 10, &self);
	kd_mappings__add(m, 4, 10, &empty);
	kd_mappings__add(m, 4, 10, &noid);
	ASSERT_EQ(id_at(m, 1, 20, 0x1000), 0, "a fork loop ends");
	ASSERT_EQ(id_at(m, 3, 20, 0x1000), 0, "its own parent");
	ASSERT_EQ(id_at(m, 4, 20, 0x5000), 0, "an empty mapping is no record");
	ASSERT_EQ(id_at(m, 4, 20, 0x1800), 0, "nor one without a build id");
	kd_mappings__free(m);
}

TEST(clean_paths)
{
	ASSERT_TRUE(kd_path_clean("/usr/lib/x86_64-linux-gnu/libc.so.6"), "a library");
	ASSERT_TRUE(kd_path_clean("/a/.hidden/..x"), "names that start with dots");
	ASSERT_TRUE(!kd_path_clean("usr/lib/libc.so.6"), "relative");
	ASSERT_TRUE(!kd_path_clean("/usr/lib/debug/../../../tmp/x"), "..");
	ASSERT_TRUE(!kd_path_clean("/usr/lib/./libc.so.6"), ".");
	ASSERT_TRUE(!kd_path_clean("/usr//lib"), "an empty component");
	ASSERT_TRUE(!kd_path_clean("/usr/lib/"), "a trailing /");
	ASSERT_TRUE(!kd_path_clean("/usr/lib/.."), "a trailing ..");
	ASSERT_TRUE(!kd_path_clean(""), "empty");
}

TEST(build_id_paths)
{
	__u8 id[20] = { 0x93, 0xac, 0x61 };
	char *p = kd_build_id_path(id, 3, ".debug"), *q = kd_build_id_path(id, 1, "");

	ASSERT_STREQ(p, "/usr/lib/debug/.build-id/93/ac61.debug", "by build id");
	ASSERT_TRUE(q == NULL, "a one-byte id names no file");
	free(p);
}

TEST_MAIN()
