/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * KTR_STRUCT records: the structures a syscall reads (captured at entry)
 * or fills (captured at a successful return), as the loader's capture table
 * (src/ktraceb/daemon/programs/ktr_captures.c) describes them per syscall number.
 */
#ifndef KTRACEB_STRUCT_BPF_H
#define KTRACEB_STRUCT_BPF_H

#include "record.bpf.h"
#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_sample.h"

/* args[i] without a variable-offset stack read, which the verifier refuses */
static __always_inline __u64 struct__arg(const __u64 *args, __u32 i)
{
	switch (i) {
	case 0: return args[0];
	case 1: return args[1];
	case 2: return args[2];
	case 3: return args[3];
	case 4: return args[4];
	case 5: return args[5];
	}
	return 0;
}

static __always_inline __u64 struct__len(const volatile struct ktr_capture *cap,
					 const __u64 *args, long ret)
{
	__u64 lenval = struct__arg(args, cap->lenarg);
	__u64 size = cap->size, n;
	__u32 len32;

	switch (cap->kind) {
	case KTR_CAP_FIXED:
		return size;
	case KTR_CAP_LEN_ARG:
		n = lenval;
		return n < size ? n : size;
	case KTR_CAP_LEN_PTR:
		if (bpf_probe_read_user(&len32, sizeof(len32), (void *)lenval) < 0)
			return 0;
		return len32 < size ? len32 : size;
	case KTR_CAP_COUNT_ARG:
		n = lenval;
		return n < KTR_STRUCT_MAX / (size ? size : 1) ? n * size : KTR_STRUCT_MAX;
	case KTR_CAP_COUNT_RET:
		n = ret > 0 ? ret : 0;
		return n < KTR_STRUCT_MAX / (size ? size : 1) ? n * size : KTR_STRUCT_MAX;
	case KTR_CAP_BYTES_RET:
		n = ret > 0 ? ret : 0;
		return n < size ? n : size;
	}
	return 0;
}

static __always_inline void struct__emit(__u32 route, const volatile struct ktr_capture *cap,
					 const __u64 *args, long ret, __u64 ns)
{
	__u64 uptr = struct__arg(args, cap->arg);
	__u64 len = struct__len(cap, args, ret);
	__u32 namelen = cap->namelen;
	struct ktr_sample *s;
	struct ktr_header *h;
	char *payload;

	if (!uptr || len == 0 || len > KTR_STRUCT_MAX || namelen == 0 ||
	    namelen > KTR_CAP_NAME_MAX)
		return;
	s = rec__scratch();
	if (!s)
		return;
	h = (void *)(s + 1);
	payload = (void *)(h + 1);
	for (int i = 0; i < KTR_CAP_NAME_MAX; i++)
		payload[i] = cap->name[i];
	if (bpf_probe_read_user(payload + namelen, len, (void *)uptr) < 0)
		return;
	rec__send_at(s, route, KTR_STRUCT, namelen + len, ns);
}

/* Every capture of syscall id due at this point (KTR_CAP_AT_ENTRY or _EXIT), made at time ns. */
static __always_inline void struct__capture(__u32 route, long id, long ret, const __u64 *args,
					    int when, __u64 ns)
{
	if (id < 0 || id >= KTR_MAX_SYSCALLS)
		return;
	for (int c = 0; c < KTR_CAPTURES; c++) {
		const volatile struct ktr_capture *cap = &ktr_captures64[sys__index(id)][c];

		if (cap->kind == KTR_CAP_NONE || !(cap->when & when))
			continue;
		if (when == KTR_CAP_AT_EXIT && ret < 0)
			continue;
		struct__emit(route, cap, args, ret, ns);
	}
}

#endif /* KTRACEB_STRUCT_BPF_H */
