/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's decoder (kdump_event.h): every record of the file, in order,
 * visible or not, into an event.
 *
 * Invariants:
 *  - Every payload is size-checked here before use; an event whose
 *    payload does not fit its kind is !valid, and its kind-specific fields
 *    are not set.
 *  - The event points into the header and payload it was made from, and
 *    into the decoder's state: it is valid until the next record.
 *  - A PROCCTOR or TPFORMAT record that fits no layout is counted here
 *    (kd_decoder__ninvalid), whatever the output.
 */
#ifndef KTRACEB_KDUMP_DECODE_H
#define KTRACEB_KDUMP_DECODE_H

#include "kdump_event.h"

struct kd_decoder;

/* A decoder, or NULL with errno set. */
struct kd_decoder *kd_decoder__new(void);
void kd_decoder__free(struct kd_decoder *d);

/* -y: keep each process's descriptors (kdump_fdtab.h); 0 or -ENOMEM. */
int kd_decoder__track_fds(struct kd_decoder *d);

/* The file is of that system (kdump_bsd.h): its processes get its ABI. */
void kd_decoder__set_format(struct kd_decoder *d, const struct kd_bsd_fmt *fmt);

/* The next record of the file into ev; 0 or -ENOMEM. */
int kd_decoder__decode(struct kd_decoder *d, const struct ktr_header *h, const void *data,
		       struct kd_event *ev);

/*
 * fn(ctx, d) gives the decoder the whole file's KTR_OBJECT and KTR_MAPPING
 * records (kd_decoder__object, kd_decoder__mapping), once, before the first
 * stack is named: for a file that can be read twice.
 */
void kd_decoder__set_objects_reader(struct kd_decoder *d,
				    void (*fn)(void *ctx, struct kd_decoder *d), void *ctx);
void kd_decoder__object(struct kd_decoder *d, const struct ktr_object *o,
			const struct ktr_object_load *loads, const char *path);
void kd_decoder__mapping(struct kd_decoder *d, const struct ktr_header *h,
			 const struct ktr_mapping *m);

/*
 * A KTR_OBJECT payload of len bytes checked and taken apart: its header
 * into o, its o->ko_nloads loads into loads, *path into data.  0, or -1 if
 * it does not fit.
 */
int kd_object__parse(const void *data, size_t len, struct ktr_object *o,
		     struct ktr_object_load loads[KTR_OBJECT_MAXLOADS], const char **path);

/* The ABI of pid's process as the records so far say (decode.h KTR_SV_*). */
unsigned int kd_decoder__sv_flags(const struct kd_decoder *d, int pid);
/*
 * The ABI of record h's syscall: a CALL's or RET's own (its header's
 * KTRH_ABI_* in a ktraceb file), else its process's.
 */
unsigned int kd_decoder__record_sv(const struct kd_decoder *d, const struct ktr_header *h);

/* Records the decoder found invalid (PROCCTOR, TPFORMAT). */
unsigned long kd_decoder__ninvalid(const struct kd_decoder *d);

#endif /* KTRACEB_KDUMP_DECODE_H */
