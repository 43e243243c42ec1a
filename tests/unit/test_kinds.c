// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The table of record kinds (kdump_kind.h): every kind has its row, its
 * tag and its hooks (its JSON of fields, its -Y and -P hooks or their "not
 * shown" markers), and one number of ktraceb's files is one kind.
 */
#include <string.h>

#include "../lib/test.h"
#include "kdump_bsd.h"
#include "kdump_kind.h"
#include "kdump_summary.h"
#include "kdump_timeline.h"

/* every kind but NONE and UNKNOWN: its row, its tag, its text and JSON unless never shown */
TEST(every_kind_has_its_hooks)
{
	ASSERT_TRUE(!kd_kinds[KD_NONE] && !kd_kinds[KD_UNKNOWN], "NONE, UNKNOWN: no row");
	for (int k = KD_UNKNOWN + 1; k < KD_NKINDS; k++) {
		const struct kd_kind_def *d = kd_kinds[k];

		if (!ASSERT_TRUE(d != NULL, "a row"))
			return;
		ASSERT_EQ((int)d->kind, k, d->tag);
		ASSERT_TRUE(d->tag && strlen(d->tag) >= 1 && strlen(d->tag) <= 5, "tag");
		if (d->hidden) {
			/* never shown: only what its decode keeps */
			ASSERT_TRUE(d->decode && d->type > 0, d->tag);
			continue;
		}
		ASSERT_TRUE(d->text != NULL, d->tag);
		ASSERT_TRUE(d->json != NULL || d->json_text, d->tag);
		/*
		 * a Linux kind's JSON is its members, from its fields, never its
		 * text (docs/JSON.md); PROCCTOR and PROCDTOR show only in
		 * another system's files
		 */
		if (d->type > 0 && d->kind != KD_PROCCTOR && d->kind != KD_PROCDTOR) {
			ASSERT_TRUE(d->json != NULL, d->tag);
			ASSERT_TRUE(!d->json_text, d->tag);
		}
		/* -Y and -P: a hook, or the marker that says the kind is not shown */
		ASSERT_TRUE(d->count != NULL, d->tag);
		ASSERT_TRUE(d->timeline != NULL, d->tag);
	}
}

/* the kinds -Y counts and -P draws (docs/JSON.md, kdump(1)), and only those */
TEST(summary_and_timeline_kinds)
{
	static const enum kd_kind counted[] = { KD_CALL,       KD_RET, KD_LOST,	   KD_USER,
						KD_TRACEPOINT, KD_END, KD_FILEINFO };
	static const enum kd_kind drawn[] = { KD_CALL, KD_RET,	KD_NAMEI, KD_GENIO, KD_PSIG,
					      KD_USER, KD_LOST, KD_EXIT,  KD_END };
	bool is_counted[KD_NKINDS] = { false }, is_drawn[KD_NKINDS] = { false };

	for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]); i++)
		is_counted[counted[i]] = true;
	for (size_t i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++)
		is_drawn[drawn[i]] = true;
	for (int k = KD_UNKNOWN + 1; k < KD_NKINDS; k++) {
		const struct kd_kind_def *d = kd_kinds[k];

		if (!d || d->hidden)
			continue;
		ASSERT_TRUE((d->count && d->count != kd_summary__not_counted) == is_counted[k],
			    d->tag);
		ASSERT_TRUE((d->timeline && d->timeline != kd_timeline__not_drawn) == is_drawn[k],
			    d->tag);
	}
}

/* a type of ktraceb's files is the kind whose type it is, one at most */
TEST(one_type_one_kind)
{
	for (int t = 1; t <= KTR_TYPE_MAX; t++) {
		int n = 0;

		for (int k = 0; k < KD_NKINDS; k++)
			if (kd_kinds[k] && kd_kinds[k]->type == t)
				n++;
		ASSERT_TRUE(n <= 1, "two kinds of one type");
		if (n == 1)
			ASSERT_EQ(kd_kinds[kd_kind_of_type(t)]->type, t, "its kind");
		else
			ASSERT_EQ((int)kd_kind_of_type(t), (int)KD_NONE, "no kind");
	}
	ASSERT_EQ((int)kd_kind_of_type(0), (int)KD_UNKNOWN, "0");
	ASSERT_EQ((int)kd_kind_of_type(KTR_TYPE_MAX + 1), (int)KD_UNKNOWN, "past the last");
	ASSERT_EQ((int)kd_kind_of_type(KTR_CGROUP), (int)KD_CGROUP, "CGRP");
	ASSERT_EQ((int)kd_kind_of_type(KTR_MAPPING), (int)KD_MAPPING, "MAPPING");
}

/* 19..23 are other kinds in another system's files (kdump_bsd.h KD_T_*) */
TEST(other_systems_numbers)
{
	struct kd_bsd_fmt fbsd = { .sys = KD_SYS_FREEBSD }, dfly = { .sys = KD_SYS_DRAGONFLY };

	ASSERT_EQ((int)kd_bsd__kind(&fbsd, KD_T_EMUL), (int)KD_EMUL, "19");
	ASSERT_EQ((int)kd_bsd__kind(&fbsd, KD_T_MIB), (int)KD_MIB, "20");
	ASSERT_EQ((int)kd_bsd__kind(&fbsd, KD_T_PLEDGE), (int)KD_PLEDGE, "21");
	ASSERT_EQ((int)kd_bsd__kind(&fbsd, KD_T_START), (int)KD_START, "22");
	ASSERT_EQ((int)kd_bsd__kind(&fbsd, KD_T_OTHER), (int)KD_OTHER, "23");
	ASSERT_EQ((int)kd_bsd__kind(&fbsd, KTR_PROCCTOR), (int)KD_PROCCTOR, "CTOR");
	ASSERT_EQ((int)kd_bsd__kind(&dfly, KTR_STRUCT), (int)KD_OTHER, "DragonFly 8");
	ASSERT_EQ((int)kd_bsd__kind(&dfly, KTR_USER), (int)KD_USER, "DragonFly 7");
	ASSERT_EQ((int)kd_bsd__kind(&fbsd, 0), (int)KD_UNKNOWN, "0");
}

TEST_MAIN()
