/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Kernel tracepoint records (KTR_TRACEPOINT), decoded by the formats the
 * file carries (KTR_TPFORMAT), never by this machine's tracefs.  Both are
 * untrusted: a format is kept only if every name is terminated and every
 * field lies within KTR_TP_MAX_BYTES; a field is printed only if it lies
 * within the entry the record holds.
 */
#ifndef KTRACEB_KDUMP_TP_H
#define KTRACEB_KDUMP_TP_H

#include <stdio.h>

struct kdump;
struct kd_event;
struct kd_tp;

/* A KTR_TPFORMAT record: kept for the TRACE records after it; -EINVAL if malformed. */
int kd_tp__format(struct kdump *kd, const struct kd_event *ev);
/* A KTR_TRACEPOINT record's text: "sched:sched_waking comm="x" pid=1"; -EINVAL if malformed. */
int kd_tp__print(struct kdump *kd, const struct kd_event *ev);
/* -Y: count it under its event's name. */
int kd_tp__count(struct kdump *kd, const struct kd_event *ev);
/* -Y: the kernel events table, if the trace had any. */
void kd_tp__print_summary(struct kdump *kd, FILE *out);
void kd_tp__free(struct kd_tp *t);

#endif /* KTRACEB_KDUMP_TP_H */
