/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A trace's syscall selection (ktraceb -e trace=, -e status=; bpf_select.h):
 * an inlined array lookup and a bit test, so a call the trace does not
 * want costs no more before it is dropped.
 */
#ifndef KTRACEB_SELECT_BPF_H
#define KTRACEB_SELECT_BPF_H

#include "maps.bpf.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_select.h"

/* The selection of ps's trace, NULL if it takes every call. */
static __always_inline const struct ktr_select_map *select__of(const struct ktr_proc_state *ps)
{
	__u32 slot = ps->select;

	if (!slot)
		return NULL;
	return bpf_map_lookup_elem(&selects, &slot);
}

/* Is syscall id (compat: of the 32-bit table) selected? */
static __always_inline bool select__call(const struct ktr_select_map *sel, long id, int compat)
{
	__u32 i;
	__u64 w;

	if (id < 0 || id >= KTR_MAX_SYSCALLS)
		return false;
	i = sys__index(id);
	w = compat ? sel->compat[i / 64] : sel->native[i / 64];
	return (w >> (i % 64)) & 1;
}

/* Does a return of ret pass the selection's status filter? */
static __always_inline bool select__status(const struct ktr_select_map *sel, long ret)
{
	bool failed = ret < 0 && ret >= -4095;

	return !sel->status || (sel->status & (failed ? KTR_SELECT_FAILED : KTR_SELECT_SUCCESSFUL));
}

#endif /* KTRACEB_SELECT_BPF_H */
