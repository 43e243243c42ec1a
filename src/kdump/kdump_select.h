/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -e trace=SET -e status=SET (-Z): the tracer's syscall selection
 * (ktr_select.h, strace's language) asked of a file afterwards, between
 * the reader and the decoder (kdump_pipeline.c).  Each record is handed
 * on, to be shown or only decoded (so the decoder's state stays whole):
 *  - a call the selection leaves out is not shown, nor what its thread
 *    records until its return (paths, structures, data, argv, its stack);
 *  - with status=, a thread's records from a CALL to its RET are held
 *    (copies) and handed on at the RET, shown if the call passes: a CALL
 *    comes out at its return, as the tracer writes it under status=; a
 *    call that never returns is never shown;
 *  - every other record goes straight on.
 * At most KD_SELECT_HOLD_MAX bytes are held per thread and
 * KD_SELECT_HOLD_TOTAL in all: a hostile file's endless call is dropped.
 */
#ifndef KTRACEB_KDUMP_SELECT_H
#define KTRACEB_KDUMP_SELECT_H

#include <stdbool.h>
#include "ktraceb/ktr.h"
#include "kdump_opts.h"

#define KD_SELECT_HOLD_MAX (4u << 20)
#define KD_SELECT_HOLD_TOTAL (64u << 20)

struct kd_select;

/*
 * Check a selection argument ("trace=openat", "status=failed") against
 * the machines kdump knows; NULL, or why not in one line.
 */
const char *kd_select__check(const char *arg);

/* A stage for the n checked arguments, or NULL with errno set. */
struct kd_select *kd_select__new(const char *const *args, int n);
void kd_select__free(struct kd_select *s);

/* Where the stage hands a record on: show it, or only decode it. */
typedef int (*kd_select_fn)(void *ctx, const struct ktr_header *h, const void *data, bool show);

/*
 * One record of the file, of a process whose ABI is sv_flags (its
 * compat syscalls under KTR_SV_ILP32), on to fn now or later.  0, or the
 * first error fn returned, or -ENOMEM.
 */
int kd_select__record(struct kd_select *s, const struct ktr_header *h, const void *data,
		      unsigned int sv_flags, kd_select_fn fn, void *ctx);

#endif /* KTRACEB_KDUMP_SELECT_H */
