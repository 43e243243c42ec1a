/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Kernel tracepoint records (KTR_TRACEPOINT), decoded by the formats the
 * file carries (KTR_TPFORMAT), never by this machine's tracefs.  Both are
 * untrusted: a format is kept only if every name is terminated and every
 * field lies within KTR_TP_MAX_BYTES; a field is printed only if it lies
 * within the entry the record holds.  The decoder keeps the formats; an
 * event points at its own, which lives as long as the decoder.
 */
#ifndef KTRACEB_KDUMP_TP_H
#define KTRACEB_KDUMP_TP_H

#include <stddef.h>
#include <stdio.h>
#include "ktraceb/ktr.h"

struct kd_tpfmt {
	struct ktr_tpformat f;
	struct ktr_tpfield *fields; /* f.tf_nfields */
	size_t seq; /* its place among the file's formats, 0 for the first */
};

/* The formats of a file: none at first (NULL). */
struct kd_tp;

/*
 * A KTR_TPFORMAT payload: kept for the TRACE records after it, replacing
 * an earlier format of its id.  0, -EINVAL if malformed, -ENOMEM.
 */
int kd_tp__add(struct kd_tp **tp, const unsigned char *data, size_t len);
/* The format of event id, NULL if the file has none. */
const struct kd_tpfmt *kd_tp__find(const struct kd_tp *tp, __u32 id);
void kd_tp__free(struct kd_tp *tp);

/*
 * The text of event id's entry (len bytes of raw) by its format fmt:
 * "sched:sched_waking comm=\"x\" pid=1"; without one, its first bytes in hex.
 */
void kd_tp__print(FILE *out, const struct kd_tpfmt *fmt, __u32 id, const unsigned char *raw,
		  size_t len);

/* One field of an entry, as its format reads it. */
enum kd_tpval_kind {
	KD_TPV_OUTSIDE, /* not within the entry the record holds */
	KD_TPV_SIGNED, /* s */
	KD_TPV_UNSIGNED, /* u */
	KD_TPV_POINTER, /* u, a type with a '*' */
	KD_TPV_STRING, /* len bytes at p, its NUL left out */
	KD_TPV_BYTES, /* len bytes at p: an array, __data_loc data, an odd size */
};
struct kd_tpval {
	const char *name;
	enum kd_tpval_kind kind;
	__u64 u;
	__s64 s;
	const unsigned char *p;
	size_t len;
};

/*
 * Each field of an entry (len bytes of raw) by its format, in the format's
 * order, to field(ctx, v); v lives for the call.  None without a format.
 * kd_tp__print() prints what this gives.
 */
void kd_tp__fields(const struct kd_tpfmt *fmt, const unsigned char *raw, size_t len,
		   void (*field)(void *ctx, const struct kd_tpval *v), void *ctx);
/* "0x" and the len bytes at p in hex, as the text shows bytes */
void kd_tp__put_hex(FILE *out, const unsigned char *p, size_t len);

#endif /* KTRACEB_KDUMP_TP_H */
