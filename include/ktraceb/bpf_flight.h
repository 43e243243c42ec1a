/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The flight recorder (ktraceb -R; bpf/flight.bpf.c, flight_ring.bpf.h,
 * the daemon's flight/): its ring's slots and control, and the compact
 * entries both sides pack and unpack.  A frozen recorder tells the daemon
 * by a note (KTR_NOTE_FLIGHT, bpf_sample.h).
 */
#ifndef KTRACEB_BPF_FLIGHT_H
#define KTRACEB_BPF_FLIGHT_H

#include "ktraceb/ktr.h"
#include "ktraceb/bpf_flight_flags.h"

/*
 * A flight recorder's ring (ktraceb -R) lives in two BPF arrays the daemon
 * creates per recording (BPF_F_MMAPABLE, so it reads them in place, and
 * pinned in bpffs, so they outlive the daemon), put into the flights and
 * flight_ctls maps at the recording's route.  The programs write its
 * records there instead of into the ring buffer: no daemon wake-up, no
 * copy, no file I/O per record.  Their elements are 64-byte slots, one
 * index space over both:
 *   [0]                          struct ktr_flight_ctl         control map
 *   [1, 1 + ncpu)                struct ktr_flight_head, one per CPU
 *   [1 + ncpu, base)             struct ktr_flight_meta (the daemon's only)
 *   [base + c * per_cpu, +per_cpu)  CPU c's records, oldest   ring
 *                                   overwritten
 * The control map has KTR_FLIGHT_CTL_SLOTS slots whatever the machine, so
 * its lookups are inlined; the ring's first base slots are not used.
 * A record takes consecutive slots of its CPU's region (modulo per_cpu),
 * each slot carrying the position it was written for, so a reader tells
 * an overwritten or half-written slot from a good one.  Each CPU writes
 * only its own region and head: no lock, no shared cache line, no wait.
 */
#define KTR_FLIGHT_SLOT		 64
#define KTR_FLIGHT_SLOT_DATA	 (KTR_FLIGHT_SLOT - 8)
#define KTR_FLIGHT_MAX_SLOTS	 148 /* a record of up to 8,288 bytes; longer ones are cut */
#define KTR_FLIGHT_COMPACT_ENTRY 0x8000 /* slot idx: a compact entry (struct ktr_flight_compact) */
#define KTR_FLIGHT_MAX_CPUS	 256 /* KTRH_CPUID holds 8 bits */
#define KTR_FLIGHT_META_SLOTS	 72 /* room for struct ktr_flight_meta (ktr_flight.h) */
#define KTR_FLIGHT_CTL_SLOTS	 (1 + KTR_FLIGHT_MAX_CPUS + KTR_FLIGHT_META_SLOTS)

struct ktr_flight_slot {
	__u32 pos; /* the low 32 bits of the position it holds, ~0 while written */
	__u16 idx; /* which slot of its record, or KTR_FLIGHT_COMPACT_ENTRY */
	__u16 nslots; /* how many its record takes */
	unsigned char data[KTR_FLIGHT_SLOT_DATA];
};

#define KTR_FLIGHT_LIVE	  1
#define KTR_FLIGHT_FROZEN 2
struct ktr_flight_ctl {
	__u32 state; /* KTR_FLIGHT_LIVE, _FROZEN; 0 while the daemon sets it up */
	__u32 why; /* KTR_FLIGHT_CRASH, _EXIT (ktr.h) */
	__s32 pid;
	__s32 status;
	__u32 flags; /* KTR_FLIGHT_F_* (bpf_flight_flags.h) */
	__u32 per_cpu; /* slots in each CPU's region */
	__u32 base; /* the first region's first slot */
	__u32 ncpu; /* regions (possible CPUs) */
	__u64 claim; /* the first trigger takes it (0 -> 1), then fills why..status */
	__u64 frozen_ns;
	/*
	 * When the daemon last made it live: kernels before 5.12 have no
	 * compare-and-exchange for the claim, and their programs claim by
	 * adding (route, armed_ns) to a hash (flight.bpf.c).
	 */
	__u64 armed_ns;
};

struct ktr_flight_head {
	__u64 head; /* the next position of this CPU's region */
	__u64 records; /* records written into it, ever */
	__u64 kept_out; /* records a freeze kept out */
	__u64 floor; /* positions below are from before the last dump's reset */
	__u64 crash; /* head + 1 when the crash began (the first fatal signal) */
	/*
	 * Where a lap of this CPU's region began (a multiple of per_cpu),
	 * kept by the writers so that a position's slot is found without a
	 * 64-bit division; a hint only, never trusted past one lap.
	 */
	__u64 lap;
	/*
	 * Set while a program writes into the region, by the programs for
	 * kernels before 5.12 (bpf/old_kernel.bpf.h), whose heads move without
	 * an atomic fetch: another program on the same CPU keeps out.
	 */
	__u64 busy;
	__u64 pad;
};

/* A compact entry: a RET, PSIG or EXIT in one slot (-R size,compact). */
struct ktr_flight_compact {
	__u64 mono;
	__s32 pid, tid;
	__s64 value; /* RET: retval; PSIG: handler; EXIT: status */
	char comm[KTR_MAXCOMLEN];
	__s16 code; /* RET: syscall; PSIG: signal */
	__s16 error; /* RET: errno; PSIG: si_code */
	__u8 type;
	__u8 cpu;
	__u16 flags; /* RET: its header's KTRH_ABI_* */
};

/*
 * The records a compact entry holds, and where their fields go, for both
 * sides: flight.bpf.c packs a record into an entry, ktr_flight_walk.c makes
 * the entry a record again (flight_ring.bpf.h writes a syscall's RET into
 * an entry straight, as a packed KTR_SYSRET would be).  A new type takes a
 * branch in each function below and a test in KTR_FLIGHT_COMPACT_KEEPS.
 */
#define KTR_FLIGHT_COMPACT_KEEPS(type) \
	((type) == KTR_SYSRET || (type) == KTR_PSIG || (type) == KTR_EXIT)

/* The record h (its payload right after it) into c; 0 for a type c does not hold. */
static inline __attribute__((always_inline)) int
ktr_flight_compact__pack(struct ktr_flight_compact *c, const struct ktr_header *h)
{
	const void *p = h + 1;

	if (h->ktr_type == KTR_SYSRET) {
		const struct ktr_sysret *r = (const struct ktr_sysret *)p;

		c->code = r->ktr_code;
		c->error = r->ktr_error;
		c->value = r->ktr_retval;
	} else if (h->ktr_type == KTR_PSIG) {
		const struct ktr_psig *g = (const struct ktr_psig *)p;

		c->code = g->signo;
		c->error = g->code;
		c->value = g->action;
	} else if (h->ktr_type == KTR_EXIT) {
		const struct ktr_exit *e = (const struct ktr_exit *)p;

		c->code = 0;
		c->error = 0;
		c->value = e->status;
	} else {
		return 0;
	}
	c->mono = h->ktr_mono_ns;
	c->pid = h->ktr_pid;
	c->tid = h->ktr_tid;
	__builtin_memcpy(c->comm, h->ktr_comm, sizeof(c->comm));
	c->type = h->ktr_type;
	c->cpu = KTRH_CPUID_DECODE(h->ktr_flags);
	c->flags = h->ktr_flags & (KTRH_ABI_NATIVE | KTRH_ABI_COMPAT);
	return 1;
}

/*
 * c's payload into p (room for a struct ktr_psig, the largest): its
 * length.  Any type but KTR_SYSRET and KTR_PSIG is a KTR_EXIT.
 */
static inline __attribute__((always_inline)) unsigned int
ktr_flight_compact__unpack(const struct ktr_flight_compact *c, void *p)
{
	if (c->type == KTR_SYSRET) {
		struct ktr_sysret r = { .ktr_code = c->code,
					.ktr_error = c->error,
					.ktr_retval = c->value };

		__builtin_memcpy(p, &r, sizeof(r));
		return sizeof(r);
	} else if (c->type == KTR_PSIG) {
		struct ktr_psig s = { .signo = c->code, .code = c->error, .action = c->value };

		__builtin_memcpy(p, &s, sizeof(s));
		return sizeof(s);
	} else {
		struct ktr_exit e = { .status = (__s32)c->value };

		__builtin_memcpy(p, &e, sizeof(e));
		return sizeof(e);
	}
}

/* The ktr_flags of c's record: its CPU, and a RET's ABI. */
static inline __attribute__((always_inline)) __u16
ktr_flight_compact__hflags(const struct ktr_flight_compact *c)
{
	return KTRH_CPUID_ENCODE(c->cpu) |
	       (c->type == KTR_SYSRET ? c->flags & (KTRH_ABI_NATIVE | KTRH_ABI_COMPAT) : 0);
}

#endif /* KTRACEB_BPF_FLIGHT_H */
