/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What kdump's decoder (kdump_decode.c) keeps of each thread: its last
 * CALL (which names a sigreturn's RET) and its stack of open spans, from
 * the KTRU records ktraceb makes of USDT probes (ktr.h), parsed and
 * bounds-checked here.  Spans, and probes named as entry/exit pairs
 * (x__entry/x__return, x__start/x__done, x_begin/x_end, x_enter/x_exit),
 * nest; an exit is matched to the innermost open enter of its key.
 *
 * Sinks see a thread through the events of its records (kdump_event.h)
 * and never change it.  A span's serial is unique in the trace: what a sink
 * keeps about an open span of its own keys on it.
 */
#ifndef KTRACEB_KDUMP_SPAN_H
#define KTRACEB_KDUMP_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include "ktraceb/ktr.h"
#include "kdump_map.h"

/* A KTRU record, pointing into its payload. */
struct kd_urec {
	struct ktr_user_rec h;
	__u64 args[KTR_UREC_MAXARGS];
	const char *who; /* provider, or a span's subsystem */
	const char *name;
	const char *kv; /* spans: key=value text ("" if none) */
	const char *argstr[KTR_UREC_MAXARGS]; /* probes: the string argument i points to */
};

/* 0, or -EINVAL if d is not a whole, well-formed KTRU record. */
int kd_urec__parse(const unsigned char *d, size_t len, struct kd_urec *u);
/* Is a probe name one end of an entry/exit pair?  The length of its base, and which end. */
bool kd_urec__pair(const char *name, size_t *base, bool *is_exit);
#define KD_SPAN_KEY_MAX (2 * KTR_UREC_NAME_MAX + 4)
/* What an exit is matched to its enter by: "S subsys name", "P provider:base". */
void kd_urec__key(const struct kd_urec *u, char *key, size_t size);

#define KD_SPANS_MAX 64 /* open spans of a thread; a deeper enter forgets the oldest */

struct kd_span {
	char key[KD_SPAN_KEY_MAX];
	__u64 t_enter;
	int depth;
	__u64 serial; /* 1, 2, ... in the order of the enters */
};

struct kd_thread {
	__s32 tid;
	bool has_call;
	int last_call; /* the code of its last CALL */
	unsigned int last_sv; /* and its ABI (decode.h KTR_SV_*) */
	bool in_call; /* its last CALL has had no RET yet */
	__s64 call_ns; /* and its time, on the trace's clock */
	int n; /* open spans, in stack[0..n) outermost first */
	struct kd_span *stack; /* KD_SPANS_MAX, from its first span on */
	unsigned long first_span; /* the record of its first span or pair, 0 if none */
};

/* What a USER record did to its thread's open spans. */
struct kd_span_step {
	bool spanlike; /* a span, or one end of an entry/exit probe pair */
	bool is_exit;
	bool found; /* an exit whose enter is in the trace */
	int depth; /* where the text view draws it */
	int open_before; /* the thread's open spans before this record */
	__u64 dur; /* an exit's time since its enter */
	struct kd_span closed; /* an exit's enter, as it was when popped */
};

/* The threads of a trace, by tid. */
struct kd_threads {
	struct kd_map map; /* tid -> v1 = struct kd_thread * */
	__u64 serial; /* of the last span entered */
};

/* The thread tid, added if new; NULL when out of memory. */
struct kd_thread *kd_threads__get(struct kd_threads *ts, __s32 tid);
/* The thread tid, NULL if the trace has shown none. */
struct kd_thread *kd_threads__find(const struct kd_threads *ts, __s32 tid);
void kd_threads__free(struct kd_threads *ts);

/*
 * The USER record u of thread t (header h, its recno-th record): an enter
 * pushes, an exit pops its enter and any left open above it; what it did
 * into *st.  0 or -ENOMEM.
 */
int kd_threads__step(struct kd_threads *ts, struct kd_thread *t, const struct ktr_header *h,
		     unsigned long recno, const struct kd_urec *u, struct kd_span_step *st);

#endif /* KTRACEB_KDUMP_SPAN_H */
