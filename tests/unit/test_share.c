// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The share rule (ktr_share.c): a user other than root holds at most a
 * quarter of each pool, users together at most seven eighths; root is
 * never refused by it.  The numbers are man/ktraceb.1's LIMITS table.
 */
#include <errno.h>
#include <string.h>

#include "../lib/test.h"
#include "daemon/requests/ktr_share.h"

/* man/ktraceb.1, LIMITS: a user's share and users' together, per pool */
static const struct {
	enum ktr_pool p;
	unsigned long long user, users;
} table[] = {
	{ KTR_POOL_CONNS, 256, 896 },
	{ KTR_POOL_FILES, 1024, 3584 },
	{ KTR_POOL_SELECTS, 63, 224 },
	{ KTR_POOL_RECORDER_BYTES, 256ull << 20, 896ull << 20 },
	{ KTR_POOL_EVENTS, 512, 1792 },
	{ KTR_POOL_EVENT_USES, 2048, 7168 },
	{ KTR_POOL_USDT_PROBES, 16384, 57344 },
	{ KTR_POOL_USDT_READS, 4, 14 },
	{ KTR_POOL_USDT_WAITING, 64, 224 },
	{ KTR_POOL_GROUPS, 63, 224 },
};

TEST(documented_numbers)
{
	ASSERT_EQ(sizeof(table) / sizeof(table[0]), KTR_POOLS, "every pool documented");
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		enum ktr_pool p = table[i].p;

		ASSERT_EQ(ktr_share__user_max(p), table[i].user, "a user's share");
		ASSERT_EQ(ktr_share__users_max(p), table[i].users, "users together");
		ASSERT_EQ(ktr_share__user_max(p), ktr_share__size(p) / 4, "a quarter");
		ASSERT_TRUE(ktr_share__size(p) - ktr_share__users_max(p) >= ktr_share__size(p) / 8,
			    "the last eighth is root's");
	}
}

TEST(a_users_share)
{
	for (int p = 0; p < KTR_POOLS; p++) {
		unsigned long long max = ktr_share__user_max(p);

		ASSERT_EQ(ktr_share__may(p, 1000, max - 1, max - 1, 1, NULL, 0), 0, "the last one");
		ASSERT_EQ(ktr_share__may(p, 1000, max - 1, max - 1, 2, NULL, 0), -EDQUOT,
			  "one too many");
		ASSERT_EQ(ktr_share__may(p, 1000, max, max, 1, NULL, 0), -EDQUOT, "full");
		/* another user is not held to the first one's share */
		ASSERT_EQ(ktr_share__may(p, 1001, 0, max, 1, NULL, 0), 0, "another user");
	}
}

TEST(users_together)
{
	for (int p = 0; p < KTR_POOLS; p++) {
		unsigned long long all = ktr_share__users_max(p);

		ASSERT_EQ(ktr_share__may(p, 1000, 0, all - 1, 1, NULL, 0), 0, "the last one");
		ASSERT_EQ(ktr_share__may(p, 1000, 0, all, 1, NULL, 0), -EUSERS, "root's part");
		ASSERT_EQ(ktr_share__may(p, 0, 0, ktr_share__size(p), 1, NULL, 0), 0,
			  "root is held to the pool alone");
		ASSERT_EQ(ktr_share__may(p, 0, ~0ull / 2, ~0ull / 2, 1, NULL, 0), 0,
			  "root: no share");
	}
}

TEST(one_line_naming_the_limit)
{
	char why[256];

	ASSERT_EQ(ktr_share__may(KTR_POOL_SELECTS, 1000, 63, 100, 1, why, sizeof(why)), -EDQUOT,
		  "selections");
	ASSERT_STREQ(why,
		     "too many traces with a syscall selection for uid 1000 (a user may have 63 "
		     "at once)",
		     "a user's");
	ASSERT_EQ(ktr_share__may(KTR_POOL_RECORDER_BYTES, 1000, 0, 896ull << 20, 65536, why,
				 sizeof(why)),
		  -EUSERS, "recorders");
	ASSERT_STREQ(why,
		     "too many MiB of recorder rings for users together (they may have 896 at "
		     "once; the last 128 are root's)",
		     "users' together, in MiB");
	ASSERT_TRUE(!strchr(why, '\n'), "no newline");
	ASSERT_EQ(ktr_share__may(KTR_POOL_FILES, 1000, 1024, 1024, 1, why, 16), -EDQUOT, "short");
	ASSERT_EQ(strlen(why), 15, "cut to the buffer");
}

TEST_MAIN()
