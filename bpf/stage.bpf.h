/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Each CPU's stage (bpf_stage.h says why and what keeps the order): the
 * records of a known size gather there and go into the ring buffer
 * together.  A program takes its CPU's stage with stage__enter() (false
 * when another program it interrupted holds it: then it goes to the ring
 * directly), makes its records with stage__room() and stage__commit(),
 * and lets go with stage__leave().  stage.bpf.c sends a stage on
 * (stage__send) and makes a waiting CALL a record (stage__call_out), each
 * verified once.
 */
#ifndef KTRACEB_STAGE_BPF_H
#define KTRACEB_STAGE_BPF_H

#include "maps.bpf.h"
#include "ktraceb/bpf_stage.h"

#ifndef KTR_OLD_KERNEL
/* The stage's records into the ring buffer (or counted lost); it is empty after. */
int stage__send(struct ktr_stage *st);
/* The CALL waiting in st, if any, as a record of the current thread into st. */
int stage__call_out(struct ktr_stage *st);
#else
/*
 * Before 5.12 a global function takes no pointer (old_kernel.bpf.h): these
 * find st, always this CPU's stage, themselves.
 */
int stage__send_cpu(void);
int stage__call_out_cpu(void);
#define stage__send(st)	    stage__send_cpu()
#define stage__call_out(st) stage__call_out_cpu()
#endif

/* This CPU's stage, NULL while staging is off. */
static __always_inline struct ktr_stage *stage__get(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	if (!*(volatile __u32 *)&ktr_stage_on)
		return NULL;
	return bpf_map_lookup_elem(&stages, &cpu);
}

/*
 * Take st, unless a program this one interrupted on the same CPU holds it.
 * Only programs of this CPU touch it, so a flag and the compiler's order
 * are enough.
 */
static __always_inline bool stage__enter(struct ktr_stage *st)
{
	if (*(volatile __u32 *)&st->busy)
		return false;
	*(volatile __u32 *)&st->busy = 1;
	barrier();
	return true;
}

static __always_inline void stage__leave(struct ktr_stage *st)
{
	barrier();
	*(volatile __u32 *)&st->busy = 0;
}

/* Bytes a record of payload len takes in a stage: sample, header, payload, to 8. */
static __always_inline __u32 stage__stride(int len)
{
	return (sizeof(struct ktr_sample) + sizeof(struct ktr_header) + (__u32)len + 7) & ~7u;
}

/*
 * Where the next record of route goes in st (held), for a record of at
 * most KTR_STAGE_SLACK bytes: the stage is sent on first when it holds
 * another file's records or is full.  The offset is masked in the register
 * it is used from, so that every verifier sees the bound.
 */
static __always_inline struct ktr_sample *stage__room(struct ktr_stage *st, __u32 route)
{
	__u64 off;

	if (st->nrec && (st->route != route || st->len >= ktr_stage_bytes))
		stage__send(st);
	off = st->len;
	asm volatile("%0 &= %1" : "+r"(off) : "i"(KTR_STAGE_BYTES - 1));
	return (struct ktr_sample *)(st->buf + off);
}

/* The record s just made at stage__room() taken into st: its file, its bytes. */
static __always_inline void stage__commit(struct ktr_stage *st, struct ktr_sample *s, __u32 route,
					  int len)
{
	__u32 stride = stage__stride(len);

	s->route = route;
	s->reserved = stride;
	st->route = route;
	st->len += stride;
	st->nrec++;
}

#endif /* KTRACEB_STAGE_BPF_H */
