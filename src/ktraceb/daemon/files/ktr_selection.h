/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The traces' syscall selections (ktraceb -e trace=, -e status=): a trace
 * file made with one has a slot of the BPF selects map, which every
 * process tracing into it names (ktr_proc_state.select), and a KTR_FILTER
 * record saying it, first.  A file keeps the selection its first request
 * came with: a later request for the same file must bring the same one (a
 * trace half selected and half not would say nothing true).  A user other
 * than root holds at most a share of the slots (ktr_share.h).
 *
 * And their USDT patterns (-e usdt:PROVIDER:NAME, ktr_usdt_sel.h): which
 * probes beside the ktraceb provider's the processes tracing into a file
 * have armed.  The first request with 'u' decides them, a later one with
 * 'u' must bring the same; a KTR_FILTER record (KTR_FILTER_USDT) says
 * them, another (KTR_FILTER_USDT_HOT) the probes known to fire at high
 * rates they take in, which each request is also told of in one line.
 */
#ifndef KTRACEB_KTR_SELECTION_H
#define KTRACEB_KTR_SELECTION_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

struct ktr_request;
struct ktr_usdt_sel;
struct ktr_tracefile;
struct ktr_selection;

struct ktr_selection *ktr_selection__new(int selects_fd);
void ktr_selection__free(struct ktr_selection *s);

/*
 * Route r's file f takes the request's selection: the first request of the
 * file decides it (its slot filled, its KTR_FILTER written); a later one
 * must agree.  0, or -errno with a line in msg.
 */
int ktr_selection__join(struct ktr_selection *s, __u32 r, struct ktr_tracefile *f,
			const struct ktr_request *req, char *msg);

/* Route r's USDT patterns, NULL if it has none (the ktraceb provider's probes alone). */
const struct ktr_usdt_sel *ktr_selection__usdt(const struct ktr_selection *s, __u32 r);

/* The slot of route r's selection, 0 if it has none (every call). */
__u16 ktr_selection__slot(const struct ktr_selection *s, __u32 r);

/*
 * A recording taken over from a killed daemon (ktr_takeover.h), whose
 * processes name slot of the selects map taken over with them: the slot
 * is route r's (its file owner's) again.  Its text is gone with that daemon.
 */
void ktr_selection__adopt(struct ktr_selection *s, __u32 r, uid_t owner, __u16 slot);

/*
 * The same, for the USDT patterns a dead daemon's recording was made with
 * (its text, as it kept it: size bytes, checked here).
 */
void ktr_selection__adopt_usdt(struct ktr_selection *s, __u32 r, const char *text, size_t size);

/* Route r's file is closed: its slot (and its decision) free again. */
void ktr_selection__leave(struct ktr_selection *s, __u32 r);

#endif /* KTRACEB_KTR_SELECTION_H */
