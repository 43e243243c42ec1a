/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's kernel tracepoints (ktraceb -e): which file wants which
 * event (the tp_wanted map), each event's copy size (tp_events), and one
 * link of bpf/tp.bpf.c's program per event some file wants.  An event no
 * file wants is detached at once: events not asked for cost nothing.
 * Names are resolved here, against available_events, never by a client.
 * A user other than root holds at most a share of the events attached
 * (each charged to an owner of a file that wants it) and of the (file,
 * event) pairs (ktr_share.h).
 */
#ifndef KTRACEB_KTR_TP_H
#define KTRACEB_KTR_TP_H

#include <linux/types.h>

#define KTR_TP_PER_FILE 256 /* events one trace file may want */

struct ktr_tp;
struct ktr_tracefile;
struct ktr_bpf;

struct ktr_tp *ktr_tp__new(const struct ktr_bpf *b);
void ktr_tp__free(struct ktr_tp *tp);

/*
 * May a caller other than root have root's daemon record kernel events?
 * Raw entries can hold kernel addresses, so only where perf would give
 * them raw tracepoint data: kernel.perf_event_paranoid -1.  0, or -EPERM
 * with a line in msg.
 */
int ktr_tp__user_may(char *msg);

/* The events n names or globs match, resolved against tracefs into *out. */
struct ktr_tp_set;
/*
 * Resolve names (checked: ktr_tracefs__name_ok) against this kernel's
 * events: every name must match one at least.  0, or -errno with one line
 * in msg naming what failed.
 */
int ktr_tp__resolve(const char (*names)[KTR_TP_NAME_MAX], unsigned int n,
		    struct ktr_tp_set **out, char *msg);
/*
 * File f (route r) wants the events of set from now on: each one's format
 * is written into f first (once per file), then its hits recorded.  0, or
 * -errno with a line in msg.  Frees set.
 */
int ktr_tp__want(struct ktr_tp *tp, __u32 r, struct ktr_tracefile *f, struct ktr_tp_set *set,
		 char *msg);
void ktr_tp__set_free(struct ktr_tp_set *set);
/* Route r's file is gone: it wants nothing; events nobody wants are detached. */
void ktr_tp__forget(struct ktr_tp *tp, __u32 r);

#endif /* KTRACEB_KTR_TP_H */
