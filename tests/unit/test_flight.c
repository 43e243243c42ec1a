// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The flight recorder's ring (src/ktraceb/ktr_flight.c): overwriting the
 * oldest, triggers and the freeze, compact entries, the out-of-order flag,
 * each CPU's last record; and kdump's RING lines for what it writes.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "ktraceb/ktr.h"
#include "ktr_flight.h"
#include "kdump.h"
#include "../lib/test.h"

/* A RET of code, or any record of type, on cpu at mono ns. */
static size_t mkrec(unsigned char *buf, int type, int cpu, __u64 mono, long value)
{
	struct ktr_header *h = (void *)buf;
	size_t len = 0;

	memset(buf, 0, 256);
	h->ktr_type = type;
	h->ktr_flags = KTRH_CPUID_ENCODE(cpu);
	h->ktr_pid = h->ktr_tid = 42;
	strcpy(h->ktr_comm, "prog");
	h->ktr_mono_ns = mono;
	if (type == KTR_SYSRET) {
		struct ktr_sysret r = { .ktr_code = 110, .ktr_retval = value };

		memcpy(h + 1, &r, len = sizeof(r));
	} else if (type == KTR_SYSCALL) {
		struct ktr_syscall c = { .ktr_code = 110 };

		memcpy(h + 1, &c, len = sizeof(c));
	} else if (type == KTR_EXIT) {
		struct ktr_exit e = { .status = (int)value };

		memcpy(h + 1, &e, len = sizeof(e));
	} else if (type == KTR_PSIG) {
		struct ktr_psig p = { .signo = (int)value };

		memcpy(h + 1, &p, len = sizeof(p));
	}
	h->ktr_len = len;
	return sizeof(*h) + len;
}

struct collect {
	int n;
	struct ktr_header h[4096];
	struct ktr_flight_info info[4];
	int ninfo;
	long ret[4096];
};

static int collect(void *ctx, const struct ktr_header *h, size_t len)
{
	struct collect *c = ctx;

	if (h->ktr_type == KTR_FLIGHT) {
		memcpy(&c->info[c->ninfo++ & 3], h + 1, sizeof(c->info[0]));
		return 0;
	}
	if (c->n < 4096) {
		c->h[c->n] = *h;
		if (h->ktr_type == KTR_SYSRET && len >= sizeof(*h) + sizeof(struct ktr_sysret)) {
			struct ktr_sysret r;

			memcpy(&r, h + 1, sizeof(r));
			c->ret[c->n] = r.ktr_retval;
		}
		c->n++;
	}
	return 0;
}

TEST(overwrites_the_oldest)
{
	struct ktr_flight *fl = ktr_flight__new(64 << 10, 0);
	static struct collect c;
	unsigned char rec[256];
	size_t n = 0;

	for (long i = 0; i < 10000; i++) {
		n = mkrec(rec, KTR_SYSRET, 0, 1000 + i, i);
		ASSERT_TRUE(!ktr_flight__add(fl, (void *)rec, n), "a RET triggers nothing");
	}
	memset(&c, 0, sizeof(c));
	ktr_flight__walk(fl, KTR_FLIGHT_DEMAND, collect, &c);
	/* 4 bytes of length per entry */
	ASSERT_EQ(c.n, (64 << 10) / (n + 4), "as many as fit");
	ASSERT_EQ(c.info[0].kf_kept, c.n, "kept says so");
	ASSERT_EQ(c.info[0].kf_produced, 10000, "produced counts the overwritten");
	ASSERT_EQ(c.ret[c.n - 1], 9999, "the newest is last");
	ASSERT_EQ(c.ret[0], 10000 - c.n, "the oldest kept is right after the overwritten");
	ASSERT_EQ(c.ninfo, 1, "no per-CPU part: the CPU's last is in the ring");
	ktr_flight__free(fl);
}

TEST(a_crash_freezes_it)
{
	struct ktr_flight *fl = ktr_flight__new(64 << 10, 0);
	static struct collect c;
	unsigned char rec[256];
	__s32 pid, status;
	__u32 why;
	size_t n;

	n = mkrec(rec, KTR_SYSRET, 0, 1, 7);
	ktr_flight__add(fl, (void *)rec, n);
	n = mkrec(rec, KTR_EXIT, 0, 2, 3 << 8);
	ASSERT_TRUE(!ktr_flight__add(fl, (void *)rec, n), "exit 3 is no trigger by default");
	n = mkrec(rec, KTR_EXIT, 0, 3, SIGSEGV | 0x80);
	ASSERT_TRUE(ktr_flight__add(fl, (void *)rec, n), "a core-dumping signal is");
	ktr_flight__trigger(fl, &why, &pid, &status);
	ASSERT_EQ(why, KTR_FLIGHT_CRASH, "why");
	ASSERT_EQ(pid, 42, "who");
	n = mkrec(rec, KTR_SYSRET, 1, 4, 8);
	ktr_flight__add(fl, (void *)rec, n);
	memset(&c, 0, sizeof(c));
	ktr_flight__walk(fl, why, collect, &c);
	ASSERT_EQ(c.n, 3, "frozen: what came after the crash is not kept");
	ASSERT_EQ(c.info[0].kf_produced, 4, "but counted as recorded, not silently dropped");
	ASSERT_EQ(c.h[2].ktr_type, KTR_EXIT, "it ends with the EXIT");
	ktr_flight__reset(fl);
	ktr_flight__add(fl, (void *)rec, n);
	memset(&c, 0, sizeof(c));
	ktr_flight__walk(fl, KTR_FLIGHT_DEMAND, collect, &c);
	ASSERT_EQ(c.n, 1, "after a reset it records again");
	ktr_flight__free(fl);
	fl = ktr_flight__new(64 << 10, KTR_FLIGHT_ON_EXIT);
	n = mkrec(rec, KTR_EXIT, 0, 2, 3 << 8);
	ASSERT_TRUE(ktr_flight__add(fl, (void *)rec, n), "exit 3 with KTR_FLIGHT_ON_EXIT");
	ktr_flight__free(fl);
}

TEST(compact_keeps_the_essentials)
{
	struct ktr_flight *fl = ktr_flight__new(64 << 10, KTR_FLIGHT_COMPACT);
	static struct collect c;
	unsigned char rec[256];
	size_t n;

	for (long i = 0; i < 5000; i++) {
		n = mkrec(rec, KTR_SYSCALL, 0, 10 * i, 0);
		ktr_flight__add(fl, (void *)rec, n);
		n = mkrec(rec, KTR_SYSRET, 0, 10 * i + 5, i);
		ktr_flight__add(fl, (void *)rec, n);
	}
	memset(&c, 0, sizeof(c));
	ktr_flight__walk(fl, KTR_FLIGHT_DEMAND, collect, &c);
	ASSERT_EQ(c.n, (64 << 10) / 52, "52 bytes an entry");
	ASSERT_EQ(c.h[0].ktr_type, KTR_SYSRET, "only returns");
	ASSERT_EQ(c.h[c.n - 1].ktr_mono_ns, 49995, "the time kept");
	ASSERT_EQ(c.ret[c.n - 1], 4999, "the value kept");
	ASSERT_STREQ(c.h[c.n - 1].ktr_comm, "prog", "the comm kept");
	ASSERT_EQ(c.info[0].kf_compact, 1, "said in the header");
	ASSERT_EQ(c.info[0].kf_produced, 5000, "CALLs are not entries");
	ktr_flight__free(fl);
}

TEST(out_of_order_flagged_not_dropped)
{
	struct ktr_flight *fl = ktr_flight__new(64 << 10, 0);
	static struct collect c;
	unsigned char rec[256];
	__u64 t[] = { 10, 20, 15, 30, 25, 40 };
	size_t n;

	for (size_t i = 0; i < 6; i++) {
		n = mkrec(rec, KTR_SYSRET, 0, t[i], (long)i);
		ktr_flight__add(fl, (void *)rec, n);
	}
	memset(&c, 0, sizeof(c));
	ktr_flight__walk(fl, KTR_FLIGHT_DEMAND, collect, &c);
	ASSERT_EQ(c.n, 6, "all kept");
	ASSERT_EQ(c.info[0].kf_out_of_order, 2, "two counted");
	ASSERT_TRUE(c.h[2].ktr_flags & KTRH_OUT_OF_ORDER, "15 after 20");
	ASSERT_TRUE(c.h[4].ktr_flags & KTRH_OUT_OF_ORDER, "25 after 30");
	ASSERT_TRUE(!(c.h[3].ktr_flags & KTRH_OUT_OF_ORDER), "30 in order");
	ASSERT_EQ(c.ret[2], 2, "in recording order, not sorted");
	ktr_flight__free(fl);
}

TEST(each_cpus_last_survives_a_flood)
{
	struct ktr_flight *fl = ktr_flight__new(64 << 10, 0);
	static struct collect c;
	unsigned char rec[256];
	size_t n;

	n = mkrec(rec, KTR_SYSCALL, 0, 1, 0); /* cpu 0 stops in a syscall */
	ktr_flight__add(fl, (void *)rec, n);
	for (long i = 0; i < 5000; i++) {
		n = mkrec(rec, KTR_SYSRET, 1, 10 + i, i);
		ktr_flight__add(fl, (void *)rec, n);
	}
	n = mkrec(rec, KTR_PSIG, 1, 9000, SIGSEGV); /* the crash begins */
	ktr_flight__add(fl, (void *)rec, n);
	n = mkrec(rec, KTR_SYSRET, 0, 9001, -4); /* cpu 0's thread dies: not its "last" */
	ktr_flight__add(fl, (void *)rec, n);
	memset(&c, 0, sizeof(c));
	ktr_flight__walk(fl, KTR_FLIGHT_DEMAND, collect, &c);
	ASSERT_EQ(c.ninfo, 2, "a per-CPU part");
	ASSERT_EQ(c.info[1].kf_part, KTR_FLIGHT_LAST_PER_CPU, "its header");
	ASSERT_EQ(c.info[1].kf_kept, 1, "one CPU's last was overwritten");
	ASSERT_EQ(c.h[c.n - 1].ktr_type, KTR_SYSCALL, "cpu 0's CALL, as at the crash");
	ASSERT_EQ(KTRH_CPUID_DECODE(c.h[c.n - 1].ktr_flags), 0, "on cpu 0");
	ktr_flight__free(fl);
}

TEST(larger_than_the_ring)
{
	struct ktr_flight *fl = ktr_flight__new(64 << 10, 0);
	static struct collect c;
	unsigned char *big = calloc(1, 70000);
	unsigned char rec[256];
	size_t n = mkrec(rec, KTR_SYSRET, 0, 1, 1);

	ktr_flight__add(fl, (void *)rec, n);
	mkrec(big, KTR_SYSRET, 0, 2, 0);
	((struct ktr_header *)big)->ktr_type = KTR_GENIO;
	((struct ktr_header *)big)->ktr_len = 70000 - sizeof(struct ktr_header);
	ktr_flight__add(fl, (void *)big, 70000);
	memset(&c, 0, sizeof(c));
	ktr_flight__walk(fl, KTR_FLIGHT_DEMAND, collect, &c);
	ASSERT_EQ(c.info[0].kf_kept, 0, "it overwrote everything, itself too");
	ASSERT_EQ(c.info[0].kf_produced, 2, "both counted");
	free(big);
	ktr_flight__free(fl);
}

/* kdump's lines for a dump */
static int to_kdump(void *ctx, const struct ktr_header *h, size_t len)
{
	return kdump__record(ctx, h, h + 1);
}

TEST(kdump_ring_lines)
{
	struct ktr_flight *fl = ktr_flight__new(64 << 10, 0);
	struct kdump_opts o = { .maxdata = KD_MAXDATA_DEFAULT };
	unsigned char rec[256];
	char *out = NULL;
	size_t outlen = 0, n;
	FILE *f = open_memstream(&out, &outlen);
	struct kdump *kd = kdump__new(&o, f);

	n = mkrec(rec, KTR_SYSRET, 0, 5, 1);
	ktr_flight__add(fl, (void *)rec, n);
	n = mkrec(rec, KTR_SYSRET, 0, 4, 2);
	ktr_flight__add(fl, (void *)rec, n);
	n = mkrec(rec, KTR_EXIT, 0, 6, SIGABRT | 0x80);
	ktr_flight__add(fl, (void *)rec, n);
	ktr_flight__walk(fl, KTR_FLIGHT_CRASH, to_kdump, kd);
	kdump__finish(kd);
	fclose(f);
	ASSERT_TRUE(strstr(out, "RING  recovered 3/3 entries, 1 out of order: pid 42 killed by "
				"SIGABRT\n") != NULL,
		    "the RING line");
	ASSERT_TRUE(strstr(out, "EXIT  killed by SIGABRT (core dumped)\n") != NULL, "its EXIT");
	ASSERT_EQ(kdump__ninvalid(kd), 0, "nothing invalid");
	kdump__free(kd);
	free(out);
	ktr_flight__free(fl);
}

TEST_MAIN()
