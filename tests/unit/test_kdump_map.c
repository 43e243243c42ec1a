// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's pid/tid map against keys a hostile trace file chooses: keys that
 * all fell into one probe chain under the former fixed hash (Fibonacci
 * hashing, key * 2654435769 mod 2^32) must not make lookups walk long
 * chains now, and every key must still be found with its values.
 */
#include "../lib/test.h"
#include "kdump_map.h"

#define NKEYS 200000

/* 2654435769's inverse mod 2^32: key = INV * (i << 14) multiplies back to i << 14. */
static __u32 inverse(__u32 a)
{
	__u32 x = a; /* Newton's iteration, exact after five steps for odd a */

	for (int i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

TEST(chosen_keys_keep_chains_short)
{
	__u32 inv = inverse(2654435769u);
	struct kd_map m = { 0 };
	unsigned long long before;
	bool all_found = true;

	ASSERT_EQ((__u32)(inv * 2654435769u), 1u, "inverse");
	for (__u32 i = 0; i < NKEYS; i++) {
		struct kd_map_ent *e = kd_map__add(&m, (__s32)(inv * (i << 14)));

		if (!e)
			break;
		e->v1 = i;
	}
	ASSERT_EQ(m.count, (size_t)NKEYS, "every key added");
	before = kd_map_probes;
	for (__u32 i = 0; i < NKEYS; i++) {
		struct kd_map_ent *e = kd_map__get(&m, (__s32)(inv * (i << 14)));

		all_found &= e && e->v1 == i;
	}
	ASSERT_TRUE(all_found, "every key found with its value");
	/* under the old hash these keys shared 32 slots: thousands of probes each */
	ASSERT_TRUE((kd_map_probes - before) / NKEYS < 4, "a few probes per lookup on average");
	before = kd_map_probes;
	ASSERT_TRUE(kd_map__get(&m, 7) == NULL && kd_map__get(&m, -1) == NULL, "absent keys");
	ASSERT_TRUE(kd_map_probes - before < 64, "absent keys end their probe quickly");
	kd_map__free(&m);
}

TEST(seed_is_random_and_never_zero)
{
	__u64 a = kd_random_seed(), b = kd_random_seed();

	ASSERT_TRUE(a != 0 && b != 0, "never 0");
	ASSERT_TRUE(a != b, "two draws differ");
}

TEST_MAIN()
