/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * USER records for kdump: the KTRU records ktraceb makes from USDT probes
 * (ktr.h), parsed and bounds-checked, and the per-thread stacks of open
 * spans that the text view (kdump_user.c), the tree view (kdump_tree.c,
 * -G) and the summary (-Y) share.
 */
#ifndef KTRACEB_KDUMP_USER_H
#define KTRACEB_KDUMP_USER_H

#include <stdbool.h>
#include <stdio.h>
#include "ktraceb/ktr.h"

struct kdump;

/* A KTRU record, pointing into its payload. */
struct kd_urec {
	struct ktr_user_rec h;
	__u64 args[KTR_UREC_MAXARGS];
	const char *who;			/* provider, or a span's subsystem */
	const char *name;
	const char *kv;				/* spans: key=value text ("" if none) */
	const char *argstr[KTR_UREC_MAXARGS];	/* probes: the string argument i points to */
};

/* 0, or -EINVAL if d is not a whole, well-formed KTRU record. */
int kd_urec__parse(const unsigned char *d, size_t len, struct kd_urec *u);
/* Is a probe name one end of an entry/exit pair?  The length of its base, and which end. */
bool kd_urec__pair(const char *name, size_t *base, bool *is_exit);
#define KD_SPAN_KEY_MAX (2 * KTR_UREC_NAME_MAX + 4)
/* What an exit is matched to its enter by. */
void kd_urec__key(const struct kd_urec *u, char *key, size_t size);

/* ns as "839ns", "1.25ms", "48.2ms", "839ms", "2.50s" (three digits at most). */
void kd_fmt_ns(char *buf, size_t size, __u64 ns);

#define KD_SPANS_MAX 64
#define KD_TREE_TOP 3 /* the biggest child spans a tree line names */

struct kd_span {
	char key[KD_SPAN_KEY_MAX];
	__u64 t_enter;
	int depth;
	/* the tree view's counts, nested ones included */
	unsigned long nsys;
	__u64 sys_ns;
	struct {
		char name[KTR_UREC_NAME_MAX];
		__u64 ns;
	} top[KD_TREE_TOP];
};

struct kd_thread {
	__s32 tid;
	struct kd_span stack[KD_SPANS_MAX];
	int n;
	struct kd_tree_thread *tree;
	struct kd_thread *next;
};

struct kd_thread *kd_thread__get(struct kdump *kd, __s32 tid);
struct kd_span *kd_thread__push(struct kd_thread *t, const char *key, __u64 ns, int depth);
int kd_thread__find(const struct kd_thread *t, const char *key);
void kd_threads__free(struct kdump *kd);

/*
 * An enter (push) or exit (pop, with its duration in *dur if its enter is
 * in the trace: *found) of a span or pair; returns the depth to draw at.
 * Called by the event pass only (kdump_event.c).
 */
struct ktr_header;
int kd_span__step(struct kdump *kd, const struct ktr_header *h, const struct kd_urec *u,
		  bool is_exit, __u64 *dur, bool *found);

/* The USER printer of the text view (kdump_print.c's sink). */
struct kd_event;
int kd_print_user(struct kdump *kd, const struct kd_event *ev);

/* The tree view's state of a thread, freed with the thread. */
void kd_tree__free_thread(struct kd_thread *t);

#endif /* KTRACEB_KDUMP_USER_H */
