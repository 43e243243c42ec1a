// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Reading a flight recorder's ring (src/ktraceb/daemon/flight/ktr_flight.c): a ring laid
 * out in memory and filled here the way the BPF programs fill theirs
 * (bpf/maps.bpf.c, flight__send): the oldest overwritten, the CPUs merged
 * by time, out-of-order records flagged, torn slots stepped over, compact
 * entries expanded, each CPU's last record before a crash; and kdump's
 * RING lines for what it writes.  The BPF side is tested end to end
 * (tests/e2e/t_flight.sh).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "ktraceb/ktr.h"
#include "ktraceb/bpf_flight.h"
#include "daemon/flight/ktr_flight.h"
#include "kdump_pipeline.h"
#include "../lib/test.h"

#define RING_BYTES (64 << 10)

static unsigned char ring_mem[RING_BYTES];

/* A RET of value, or any record of type, on cpu at mono ns. */
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

static struct ktr_flight_head *head_of(int cpu)
{
	return (void *)(ring_mem + KTR_FLIGHT_SLOT * (1 + cpu));
}

static struct ktr_flight_slot *slot_of(int cpu, __u64 pos)
{
	const struct ktr_flight_ctl *ctl = (void *)ring_mem;
	struct ktr_flight_slot *slots = (void *)(ring_mem + (size_t)ctl->base * KTR_FLIGHT_SLOT);

	return &slots[(size_t)cpu * ctl->per_cpu + pos % ctl->per_cpu];
}

/* One record into cpu's region, as flight__send() writes it. */
static void put(int cpu, const unsigned char *rec, size_t len)
{
	struct ktr_flight_head *hd = head_of(cpu);
	__u32 n = (len + KTR_FLIGHT_SLOT_DATA - 1) / KTR_FLIGHT_SLOT_DATA;
	__u64 pos = hd->head;

	hd->head += n;
	hd->records++;
	for (__u32 i = 0; i < n; i++) {
		struct ktr_flight_slot *sl = slot_of(cpu, pos + i);
		size_t off = i * KTR_FLIGHT_SLOT_DATA;
		size_t chunk = len - off < KTR_FLIGHT_SLOT_DATA ? len - off : KTR_FLIGHT_SLOT_DATA;

		memset(sl->data, 0, sizeof(sl->data));
		memcpy(sl->data, rec + off, chunk);
		sl->idx = i;
		sl->nslots = n;
		sl->pos = (__u32)(pos + i);
	}
}

static void put_ret(int cpu, __u64 mono, long value)
{
	unsigned char rec[256];

	put(cpu, rec, mkrec(rec, KTR_SYSRET, cpu, mono, value));
}

struct collect {
	int n, nring; /* all records; those of the ring, before the per-CPU part */
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
		c->nring = c->n;
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

static struct collect *walk(struct ktr_flight *fl)
{
	static struct collect c;

	memset(&c, 0, sizeof(c));
	ktr_flight__walk(fl, KTR_FLIGHT_DEMAND, collect, &c);
	if (c.ninfo < 2)
		c.nring = c.n;
	return &c;
}

TEST(overwrites_the_oldest)
{
	struct ktr_flight *fl = ktr_flight__of_memory(ring_mem, RING_BYTES, 2, 0);
	const struct ktr_flight_ctl *ctl = (void *)ring_mem;
	struct collect *c;

	ASSERT_TRUE(fl != NULL, "a ring in memory");
	for (long i = 0; i < 5000; i++)
		put_ret(0, 10 + i, i);
	c = walk(fl);
	/* a RET is 88 bytes: two slots */
	ASSERT_EQ(c->info[0].kf_kept, ctl->per_cpu / 2, "as many as the CPU's region holds");
	ASSERT_EQ(c->nring, (int)(ctl->per_cpu / 2), "all of them written");
	ASSERT_EQ(c->info[0].kf_produced, 5000, "every record counted as recorded");
	ASSERT_EQ(c->ret[c->nring - 1], 4999, "the newest kept");
	ASSERT_EQ(c->ret[0], 5000 - ctl->per_cpu / 2, "the oldest gone");
	ktr_flight__free(fl);
}

TEST(cpus_merged_by_time)
{
	struct ktr_flight *fl = ktr_flight__of_memory(ring_mem, RING_BYTES, 2, 0);
	struct collect *c;

	put_ret(0, 1, 1);
	put_ret(0, 3, 3);
	put_ret(0, 5, 5);
	put_ret(1, 2, 2);
	put_ret(1, 4, 4);
	put_ret(1, 6, 6);
	c = walk(fl);
	ASSERT_EQ(c->nring, 6, "all kept");
	for (int i = 0; i < 6; i++)
		ASSERT_EQ(c->ret[i], i + 1, "in time order");
	ASSERT_EQ(c->info[0].kf_out_of_order, 0, "none out of order");
	ktr_flight__free(fl);
}

TEST(out_of_order_flagged_not_dropped)
{
	struct ktr_flight *fl = ktr_flight__of_memory(ring_mem, RING_BYTES, 2, 0);
	__u64 t[] = { 10, 20, 15, 30, 25, 40 };
	struct collect *c;

	for (size_t i = 0; i < 6; i++)
		put_ret(0, t[i], (long)i);
	c = walk(fl);
	ASSERT_EQ(c->nring, 6, "all kept");
	ASSERT_EQ(c->info[0].kf_out_of_order, 2, "two counted");
	ASSERT_TRUE(c->h[2].ktr_flags & KTRH_OUT_OF_ORDER, "15 after 20");
	ASSERT_TRUE(c->h[4].ktr_flags & KTRH_OUT_OF_ORDER, "25 after 30");
	ASSERT_TRUE(!(c->h[3].ktr_flags & KTRH_OUT_OF_ORDER), "30 in order");
	ASSERT_EQ(c->ret[2], 2, "in recording order, not sorted");
	ktr_flight__free(fl);
}

TEST(torn_and_half_written_slots_stepped_over)
{
	struct ktr_flight *fl = ktr_flight__of_memory(ring_mem, RING_BYTES, 2, 0);
	struct collect *c;

	put_ret(0, 1, 1);
	put_ret(0, 2, 2); /* slots 2 and 3 */
	put_ret(0, 3, 3);
	slot_of(0, 3)->pos = ~0u; /* being written again */
	put_ret(1, 4, 4);
	head_of(1)->head++; /* a record's first slot claimed, not yet written */
	c = walk(fl);
	ASSERT_EQ(c->nring, 3, "the whole ones only");
	ASSERT_EQ(c->ret[0], 1, "first");
	ASSERT_EQ(c->ret[1], 3, "the torn one skipped");
	ASSERT_EQ(c->ret[2], 4, "the other CPU's");
	ktr_flight__free(fl);
}

TEST(compact_entries_expand)
{
	struct ktr_flight *fl =
		ktr_flight__of_memory(ring_mem, RING_BYTES, 2, KTR_FLIGHT_F_COMPACT);
	struct ktr_flight_slot *sl = slot_of(0, 0);
	struct ktr_flight_compact e = { .mono = 7,
					.pid = 42,
					.tid = 43,
					.value = -1,
					.code = 2,
					.error = 2,
					.type = KTR_SYSRET,
					.cpu = 0 };
	struct collect *c;

	memcpy(sl->data, &e, sizeof(e));
	sl->idx = KTR_FLIGHT_COMPACT_ENTRY;
	sl->nslots = 1;
	sl->pos = 0;
	head_of(0)->head = 1;
	head_of(0)->records = 1;
	c = walk(fl);
	ASSERT_EQ(c->nring, 1, "one entry");
	ASSERT_EQ(c->h[0].ktr_type, KTR_SYSRET, "a RET again");
	ASSERT_EQ(c->h[0].ktr_tid, 43, "its thread");
	ASSERT_EQ(c->ret[0], -1, "its value");
	ASSERT_EQ(c->info[0].kf_compact, 1, "said compact");
	ktr_flight__free(fl);
}

TEST(each_cpus_last_before_the_crash)
{
	struct ktr_flight *fl = ktr_flight__of_memory(ring_mem, RING_BYTES, 2, 0);
	unsigned char rec[256];
	struct collect *c;

	put(0, rec, mkrec(rec, KTR_SYSCALL, 0, 1, 0)); /* cpu 0 stops in a syscall */
	for (long i = 0; i < 100; i++)
		put_ret(1, 10 + i, i);
	/* the crash begins: each CPU's head noted (flight__crash_begins) */
	head_of(0)->crash = head_of(0)->head + 1;
	head_of(1)->crash = head_of(1)->head + 1;
	put(1, rec, mkrec(rec, KTR_PSIG, 1, 9000, SIGSEGV));
	put_ret(0, 9001, -4); /* cpu 0's thread dies: not its "last" */
	c = walk(fl);
	ASSERT_EQ(c->ninfo, 2, "a per-CPU part");
	ASSERT_EQ(c->info[1].kf_part, KTR_FLIGHT_LAST_PER_CPU, "its header");
	ASSERT_EQ(c->info[1].kf_kept, 2, "one record per CPU");
	ASSERT_EQ(c->h[c->n - 2].ktr_type, KTR_SYSCALL, "cpu 0's CALL, as at the crash");
	ASSERT_EQ(c->ret[c->n - 1], 99, "cpu 1's last RET before the PSIG");
	ktr_flight__free(fl);
}

TEST(too_small_for_the_cpus)
{
	ASSERT_TRUE(ktr_flight__of_memory(ring_mem, 4096, 2, 0) == NULL, "refused");
	ASSERT_TRUE(ktr_flight__of_memory(ring_mem, RING_BYTES, 0, 0) == NULL, "no CPU");
	ASSERT_TRUE(ktr_flight__of_memory(ring_mem, RING_BYTES, KTR_FLIGHT_MAX_CPUS + 1, 0) == NULL,
		    "more CPUs than a record can name");
}

/* kdump's lines for a dump */
static int to_kdump(void *ctx, const struct ktr_header *h, size_t len)
{
	return kdump__record(ctx, h, h + 1);
}

TEST(kdump_ring_lines)
{
	struct ktr_flight *fl = ktr_flight__of_memory(ring_mem, RING_BYTES, 2, 0);
	struct kdump_opts o = { .maxdata = KD_MAXDATA_DEFAULT };
	struct ktr_flight_ctl *ctl = (void *)ring_mem;
	unsigned char rec[256];
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);
	struct kdump *kd = kdump__new(&o, f);

	put_ret(0, 5, 1);
	put_ret(0, 4, 2);
	put(0, rec, mkrec(rec, KTR_EXIT, 0, 6, SIGABRT | 0x80));
	/* frozen by the EXIT, as flight__exit() does */
	ctl->why = KTR_FLIGHT_CRASH;
	ctl->pid = 42;
	ctl->status = SIGABRT | 0x80;
	ctl->state = KTR_FLIGHT_FROZEN;
	ASSERT_TRUE(ktr_flight__frozen(fl), "frozen");
	ktr_flight__walk(fl, KTR_FLIGHT_CRASH, to_kdump, kd);
	kdump__finish(kd);
	fclose(f);
	ASSERT_TRUE(strstr(out, "RING  recovered 3/3 entries, 1 out of order: pid 42 killed by "
				"SIGABRT\n") != NULL,
		    "the RING line");
	ASSERT_TRUE(strstr(out, "EXIT  killed by SIGABRT (core dumped)\n") != NULL, "its EXIT");
	ASSERT_EQ(kdump__ninvalid(kd), 0, "nothing invalid");
	ktr_flight__reset(fl);
	ASSERT_TRUE(!ktr_flight__frozen(fl), "live again after a reset");
	ASSERT_EQ(walk(fl)->n, 0, "and empty");
	kdump__free(kd);
	free(out);
	ktr_flight__free(fl);
}

TEST_MAIN()
