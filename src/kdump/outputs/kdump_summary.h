/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -Y's tables (kdump_summary.c) as a kind adds to them: each kind's
 * file has a count hook (kdump_kind.h) that the summary calls with each
 * event of the kind.  Those that can fail return 0 or -ENOMEM.
 */
#ifndef KTRACEB_KDUMP_SUMMARY_H
#define KTRACEB_KDUMP_SUMMARY_H

#include <linux/types.h>

struct kd_summary;
struct kd_event;

/* A record that does not fit its kind: counted as the text counts it. */
int kd_summary__invalid(struct kd_summary *s);
/* A call, counted in its syscall's row (exit_group never returns). */
int kd_summary__call(struct kd_summary *s, const struct kd_event *ev);
/* Its return: its time and error, when the thread's last call is its. */
int kd_summary__ret(struct kd_summary *s, const struct kd_event *ev);
/* A user record, in the row of its span or probe. */
int kd_summary__user(struct kd_summary *s, const struct kd_event *ev);
/* A kernel event, in the row of its format. */
int kd_summary__tp(struct kd_summary *s, const struct kd_event *ev);
/* n records lost. */
void kd_summary__lost(struct kd_summary *s, __u64 n);
/* A session begins: its losses are counted from zero. */
void kd_summary__session(struct kd_summary *s);
/* The session's end said it lost n in all: those not counted yet are. */
void kd_summary__session_lost(struct kd_summary *s, __u64 n);
/* The trace ended early, for why (ktr.h KTR_END_*). */
void kd_summary__cut_short(struct kd_summary *s, __u32 why);

/* The count hook of a kind the summary does not count. */
int kd_summary__not_counted(struct kd_summary *s, const struct kd_event *ev);

#endif /* KTRACEB_KDUMP_SUMMARY_H */
