// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktr_getpoints(): the -t letters of ktrace(1)/kdump(1).  The BSD bits of
 * each mask (types 1..7) must be the BSD values (reference §1.3 and §2:
 * DEF_POINTS 0xbe, ALL_POINTS 0xfe), written as numbers so a wrong KTRFAC_*
 * define cannot hide a wrong mask.  ktraceb's 'c' also turns on the record
 * types that come with a syscall (STRUCT, ARGS, ENVS); no other letter sets
 * bits above 7.
 */
#include <string.h>

#include "ktraceb/ktr.h"
#include "../lib/test.h"
#include "trstr.h"

#define BSD(m)	 ((m)&0xfe) /* bits of BSD types 1..7 */
#define EXTRA(m) ((m) & ~0xff) /* bits of extension types */
#define C_EXTRA	 (1 << 8 | 1 << 16 | 1 << 17) /* STRUCT, ARGS, ENVS */

TEST(single_letters)
{
	ASSERT_EQ(BSD(ktr_getpoints("c")), 0x006, "c = SYSCALL|SYSRET");
	ASSERT_EQ(EXTRA(ktr_getpoints("c")), C_EXTRA, "c brings STRUCT|ARGS|ENVS");
	ASSERT_EQ(ktr_getpoints("n"), 0x008, "n = NAMEI");
	ASSERT_EQ(ktr_getpoints("i"), 0x010, "i = GENIO");
	ASSERT_EQ(ktr_getpoints("s"), 0x020, "s = PSIG");
	ASSERT_EQ(ktr_getpoints("w"), 0x040, "w = CSW");
	ASSERT_EQ(ktr_getpoints("u"), 0x080, "u = USER");
	ASSERT_EQ(C_EXTRA, KTRFAC_STRUCT | KTRFAC_ARGS | KTRFAC_ENVS, "extension bits");
}

TEST(plus_is_default_points)
{
	ASSERT_EQ(ktr_getpoints("+"), KTR_DEF_POINTS, "+ = KTR_DEF_POINTS");
	ASSERT_EQ(BSD(ktr_getpoints("+")), 0x0be, "+ BSD bits");
	ASSERT_EQ(BSD(KTR_DEF_POINTS), 0x0be, "KTR_DEF_POINTS BSD bits");
	ASSERT_EQ(BSD(KTR_ALL_POINTS), 0x0fe, "KTR_ALL_POINTS BSD bits");
	ASSERT_EQ(EXTRA(KTR_DEF_POINTS), C_EXTRA, "KTR_DEF_POINTS extension bits");
	ASSERT_EQ(KTR_ALL_POINTS, KTR_DEF_POINTS | KTRFAC_CSW, "ALL = DEF + CSW");
}

TEST(default_string)
{
	/* ktraceb's default -t is "cnisu": the same set as BSD DEF_POINTS */
	ASSERT_EQ(ktr_getpoints("cnisu"), KTR_DEF_POINTS, "cnisu");
	ASSERT_EQ(ktr_getpoints("cnisuw"), KTR_ALL_POINTS, "cnisuw");
	ASSERT_EQ(ktr_getpoints("cnisuw+"), KTR_ALL_POINTS, "cnisuw+");
	ASSERT_EQ(ktr_getpoints("w+"), KTR_ALL_POINTS, "w+");
}

TEST(combinations)
{
	ASSERT_EQ(BSD(ktr_getpoints("cn")), 0x00e, "cn");
	ASSERT_EQ(ktr_getpoints("nc"), ktr_getpoints("cn"), "order does not matter");
	ASSERT_EQ(ktr_getpoints("cc"), ktr_getpoints("c"), "repeat");
	ASSERT_EQ(ktr_getpoints("is"), 0x030, "is");
	ASSERT_EQ(ktr_getpoints("uw"), 0x0c0, "uw");
	ASSERT_EQ(ktr_getpoints("nisuw"), 0x0f8, "no extension bits without c");
}

TEST(empty_string)
{
	ASSERT_EQ(ktr_getpoints(""), 0, "empty");
}

TEST(bad_letters)
{
	ASSERT_EQ(ktr_getpoints("x"), -1, "x");
	ASSERT_EQ(ktr_getpoints("cx"), -1, "bad letter after good ones");
	ASSERT_EQ(ktr_getpoints("xc"), -1, "bad letter before good ones");
	ASSERT_EQ(ktr_getpoints("C"), -1, "upper case");
	ASSERT_EQ(ktr_getpoints("c n"), -1, "blank");
	ASSERT_EQ(ktr_getpoints("c,n"), -1, "comma");
	ASSERT_EQ(ktr_getpoints("-"), -1, "minus");
	/* FreeBSD-only letters are not DragonFly letters */
	ASSERT_EQ(ktr_getpoints("f"), -1, "f");
	ASSERT_EQ(ktr_getpoints("y"), -1, "y");
}

TEST(no_control_bits)
{
	int all = ktr_getpoints("cnisuw+");

	ASSERT_EQ(all & ~KTRFAC_MASK, 0, "no ROOT/INHERIT bits from letters");
	ASSERT_EQ(all & 1, 0, "bit 0 is never a facility");
}

TEST(rows)
{
	/* each letter once; what the daemon reads of a row, whole */
	for (unsigned int i = 0; i < ktr_ntrpoints; i++) {
		const struct ktr_trpoint *t = &ktr_trpoints[i];

		for (unsigned int j = 0; j < i && t->letter; j++)
			ASSERT_TRUE(ktr_trpoints[j].letter != t->letter, "a letter in one row");
		for (unsigned int j = 0; j < i && t->option; j++)
			ASSERT_TRUE(ktr_trpoints[j].option != t->option, "an option in one row");
		ASSERT_TRUE(!t->letter != !t->option, "a letter or an option");
		ASSERT_TRUE(t->facs && t->name && t->help && t->records, "row filled");
		ASSERT_EQ(t->compact & ~t->facs, 0, "a compact recorder keeps bits of the row");
		ASSERT_EQ(t->between.facs & ~t->facs, 0, "records between CALL and RET: its bits");
		ASSERT_TRUE(!t->between.by == !t->between.facs,
			    "between: what makes them, and bits");
		ASSERT_TRUE(!t->needs == !t->unmet, "what it needs, and the line that says so");
		/* a request with a bit the daemon does not know is refused (KTR_REQ_FACS) */
		ASSERT_EQ(t->facs & ~(KTR_ALL_POINTS | KTR_EXT_POINTS), 0,
			  "bits in KTR_ALL_POINTS or KTR_EXT_POINTS (ktr.h)");
		ASSERT_TRUE(!t->prog || strncmp(t->prog, "ktr_", 4) == 0, "program ktr_*");
		ASSERT_TRUE(t->prog || (!t->lacks && t->attach == KTR_ATTACH_ALWAYS),
			    "no program: nothing to attach or lack");
		/* a facility a trace can do without has its refusal tested (t_kernel.sh) */
		ASSERT_TRUE(!t->lacks || t->refuse, "optional: a KTR_REFUSE_* number");
	}
	ASSERT_EQ(ktr_trpoints[ktr_ntrpoints].letter, '\0', "ended");
}

/*
 * What the parts ask the table, pinned to the bits they named themselves
 * before the table answered: a changed row shows here first.
 */
TEST(columns)
{
	ASSERT_EQ(ktr_facs_that(KTR_FAC_PROBES), KTRFAC_USER, "USDT probes: u");
	ASSERT_EQ(ktr_facs_that(KTR_FAC_OBJECTS), KTRFAC_USTACK, "objects told: -k");
	ASSERT_EQ(ktr_facs_that(KTR_FAC_SCANNED), KTRFAC_USER | KTRFAC_USTACK, "scanned: u, -k");
	ASSERT_EQ(ktr_facs_that(KTR_FAC_EVENTS), KTRFAC_TRACEPOINT, "-e's events: k");
	ASSERT_EQ(ktr_facs_that(0), 0, "nothing");
	ASSERT_EQ(ktr_facs_of_option('k'), KTRFAC_USTACK, "-k");
	ASSERT_EQ(ktr_facs_of_option('t'), 0, "-t is no facility's");
	ASSERT_EQ(ktr_facs_of_option('\0'), 0, "no option");
	ASSERT_EQ(ktr_getpoints("cnisuwk+") & KTRFAC_USTACK, 0, "-k's bit is no letter's");
	ASSERT_EQ(ktr_facs_compact(), KTRFAC_SYSRET | KTRFAC_PSIG, "compact: returns, signals");
	ASSERT_EQ(ktr_facs_between(KTR_BETWEEN_PATHS), KTRFAC_NAMEI, "paths: n");
	ASSERT_EQ(ktr_facs_between(KTR_BETWEEN_STRUCTS), KTRFAC_STRUCT, "structures: c's");
	ASSERT_EQ(ktr_facs_between(KTR_BETWEEN_DATA), KTRFAC_GENIO, "data: i");
	ASSERT_EQ(ktr_facs_between(KTR_BETWEEN_NONE), 0, "none");
	ASSERT_EQ(ktr_facs_unmet(KTRFAC_USTACK) != NULL, 1, "-k without the calls");
	ASSERT_STREQ(ktr_facs_unmet(KTRFAC_USTACK),
		     "-k: the stacks are those of the calls: trace them (-t c)", "said so");
	ASSERT_STREQ_NULL(ktr_facs_unmet(KTRFAC_USTACK | KTRFAC_SYSCALL), NULL, "-k with c");
	ASSERT_STREQ_NULL(ktr_facs_unmet(KTR_ALL_POINTS | KTRFAC_TRACEPOINT), NULL, "no -k");
}

/* kdump -t: the records a letter shows beyond 1 << type */
TEST(showing)
{
	ASSERT_EQ(ktr_facs_showing(KTR_USTACK) & KTRFAC_SYSCALL, KTRFAC_SYSCALL, "stacks: c");
	ASSERT_EQ(ktr_facs_showing(KTR_USTACK) & ~ktr_getpoints("c"), 0, "stacks: c alone");
	ASSERT_EQ(ktr_facs_showing(KTR_OBJECT), ktr_facs_showing(KTR_USTACK), "objects: c");
	ASSERT_EQ(ktr_facs_showing(KTR_FD), KTRFAC_NAMEI, "descriptors: n");
	ASSERT_EQ(ktr_facs_showing(KTR_TRACEPOINT), KTRFAC_TRACEPOINT, "kernel events: k");
	ASSERT_EQ(ktr_facs_showing(KTR_SYSCALL), KTRFAC_SYSCALL, "its own bit");
	ASSERT_EQ(ktr_facs_showing(KTR_CSW), KTRFAC_CSW, "its own bit");
	ASSERT_EQ(ktr_facs_showing(KTR_TPFORMAT), 1u << KTR_TPFORMAT, "1 << type");
}

TEST_MAIN()
