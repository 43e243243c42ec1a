// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -G, the span tree (kdump_sink.h).  Per thread, each span (and
 * probe entry/exit pair) with the system calls made inside it nested under
 * it, and at its exit what it took: its time, its system calls and their
 * time (nested spans' included), and the biggest spans inside it:
 *
 *   1234:1234 prog
 *     > fw load_firmware dev=0000:03:00.0
 *         openat(AT_FDCWD,0x5581f2a0,O_RDONLY) = 3  12.0us
 *       > fw load_patch
 *           write(3,0x7ffd5c1e,0x40) = 64  3.10us
 *       < fw load_patch ok: took 15.0ms and 1 syscall (3.10us in them)
 *     < fw load_firmware ok: took 234ms and 41 syscalls (3.10ms in them), 15.0ms of it in load_patch
 *
 * A thread's lines wait in a buffer of its own until its outermost span
 * ends, so threads do not interleave; past TREE_BUF_MAX bytes a thread's
 * system call lines are counted rather than kept.  System calls outside
 * every span are not shown.  Spans still open at the end of the trace are
 * listed as not exited.
 *
 * The spans open are the decoder's (each event's thread); what the tree
 * counts of each is its own, keyed by the span's serial.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_fmt.h"
#include "kdump_map.h"
#include "kdump_sink.h"

#define TREE_BUF_MAX (32u << 20)
#define TREE_TOP     3 /* the biggest child spans an exit line names */

/* What the tree counts of an open span, nested ones included. */
struct tree_span {
	__u64 serial; /* the decoder's span (kdump_span.h) */
	unsigned long nsys;
	__u64 sys_ns;
	struct {
		char name[KTR_UREC_NAME_MAX];
		__u64 ns;
	} top[TREE_TOP];
};

struct tree_thread {
	__s32 tid, pid;
	char comm[KTR_MAXCOMLEN + 1];
	unsigned long order; /* the record that first had it: threads end newest first */
	const struct kd_thread *dec; /* its open spans */
	FILE *f; /* its lines, until its outermost span ends */
	char *buf;
	size_t len;
	unsigned long elided;
	bool has_call;
	int code, narg;
	__u64 args[KTR_MAXARGS];
	__u64 t_call;
	struct tree_span *spans; /* KD_SPANS_MAX, as dec->stack[0..nspans) */
	int nspans;
};

struct tree {
	struct kd_sink_env env;
	struct kd_map tids; /* tid -> v1 = struct tree_thread * */
	struct tree_thread **threads;
	size_t n, cap;
};

static void *tree__open(const struct kd_sink_env *env)
{
	struct tree *s = calloc(1, sizeof(*s));

	if (s)
		s->env = *env;
	return s;
}

static void tree__close(void *state)
{
	struct tree *s = state;

	for (size_t i = 0; i < s->n; i++) {
		if (s->threads[i]->f)
			fclose(s->threads[i]->f);
		free(s->threads[i]->buf);
		free(s->threads[i]->spans);
		free(s->threads[i]);
	}
	free(s->threads);
	kd_map__free(&s->tids);
	free(s);
}

static struct tree_thread *thread__new(struct tree *s, const struct kd_event *ev)
{
	struct tree_thread *tt;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct tree_thread **nt = reallocarray(s->threads, cap, sizeof(*nt));

		if (!nt)
			return NULL;
		s->threads = nt;
		s->cap = cap;
	}
	tt = calloc(1, sizeof(*tt));
	if (!tt)
		return NULL;
	tt->tid = ev->h->ktr_tid;
	tt->order = ev->recno;
	s->threads[s->n++] = tt;
	return tt;
}

/* The thread of an event, with an open buffer; NULL when out of memory. */
static struct tree_thread *thread_of(struct tree *s, const struct kd_event *ev)
{
	struct kd_map_ent *e = kd_map__add(&s->tids, ev->h->ktr_tid);
	struct tree_thread *tt;

	if (!e)
		return NULL;
	if (!e->v1) {
		tt = thread__new(s, ev);
		if (!tt)
			return NULL;
		e->v1 = (__u64)(uintptr_t)tt;
	}
	tt = (struct tree_thread *)(uintptr_t)e->v1;
	tt->dec = ev->thread;
	/* the decoder may have known it first, from a span the tree was not shown */
	if (tt->dec->first_span && tt->dec->first_span < tt->order)
		tt->order = tt->dec->first_span;
	if (!tt->f)
		tt->f = open_memstream(&tt->buf, &tt->len);
	if (!tt->f)
		return NULL;
	tt->pid = ev->h->ktr_pid;
	kd_fmt_comm(tt->comm, ev->h);
	return tt;
}

/*
 * The counts of the open span i, after the spans the decoder opened and
 * closed since the tree last looked: the serials of a stack grow from its
 * bottom to its top, so the two stacks are merged by them.
 */
static struct tree_span *span_at(struct tree_thread *tt, int i)
{
	const struct kd_span *st = tt->dec->stack;
	int n = tt->dec->n, k = 0, j = 0;
	struct tree_span *sp = tt->spans, *merged;

	if (tt->nspans == n && (n == 0 || sp[n - 1].serial == st[n - 1].serial))
		return &sp[i];
	merged = calloc(KD_SPANS_MAX, sizeof(*merged));
	if (!merged)
		return NULL;
	for (k = 0; k < n; k++) {
		while (j < tt->nspans && sp[j].serial < st[k].serial)
			j++;
		if (j < tt->nspans && sp[j].serial == st[k].serial)
			merged[k] = sp[j++];
		else
			merged[k].serial = st[k].serial;
	}
	free(tt->spans);
	tt->spans = merged;
	tt->nspans = n;
	return &merged[i];
}

static void indent(FILE *f, int level)
{
	fprintf(f, "%*s", 2 + 2 * (level < 64 ? level : 64), "");
}

/* The thread's lines so far, under a "pid:tid comm" line, out to the output. */
static void tree__flush(struct tree *s, struct tree_thread *tt)
{
	if (!tt->f)
		return;
	fflush(tt->f);
	if (tt->len) {
		fprintf(s->env.out, "%d:%d %s\n", tt->pid, tt->tid, tt->comm);
		fwrite(tt->buf, 1, tt->len, s->env.out);
		if (tt->elided)
			fprintf(s->env.out, "  (%lu syscall lines not shown)\n", tt->elided);
	}
	fclose(tt->f);
	free(tt->buf);
	tt->f = NULL;
	tt->buf = NULL;
	tt->len = 0;
	tt->elided = 0;
	if (s->env.o->flags & KD_FOLLOW)
		fflush(s->env.out);
}

static void tree__call(struct tree_thread *tt, const struct kd_event *ev)
{
	tt->has_call = false;
	if (!ev->valid || ev->call.narg > KTR_MAXARGS)
		return;
	tt->code = ev->call.code;
	tt->narg = ev->call.narg;
	memcpy(tt->args, ev->call.args, 8 * (size_t)ev->call.narg);
	tt->t_call = ev->h->ktr_mono_ns;
	tt->has_call = true;
}

/* A return: its line under the innermost open span, and its time in all of them. */
static int tree__ret(struct tree *s, struct tree_thread *tt, const struct kd_event *ev)
{
	const struct kdump_opts *o = s->env.o;
	unsigned int sv = ev->sv_flags;
	char dur[32], name[64];
	__u64 ns;

	if (!tt->has_call || !ev->valid)
		return 0;
	tt->has_call = false;
	if (ev->ret.raw_code != tt->code)
		return 0;
	ns = ev->h->ktr_mono_ns - tt->t_call;
	for (int i = 0; i < tt->dec->n; i++) {
		struct tree_span *sp = span_at(tt, i);

		if (!sp)
			return -ENOMEM;
		sp->nsys++;
		sp->sys_ns += ns;
	}
	if (tt->len > TREE_BUF_MAX) {
		tt->elided++;
		return 0;
	}
	indent(tt->f, tt->dec->n + 1);
	kd_fmt_scname(name, sizeof(name), sv, tt->code, o->flags & KD_SYSNR);
	fputs(name, tt->f);
	ktr_print_syscall_args(tt->f, sv, tt->code, tt->narg, tt->args, o->decode);
	fputs(" = ", tt->f);
	ktr_print_sysret(tt->f, sv, tt->code, ev->ret.error, ev->ret.retval, o->decode);
	kd_fmt_ns(dur, sizeof(dur), ns);
	fprintf(tt->f, "  %s\n", dur);
	return 0;
}

/* Keep the TREE_TOP biggest children of a span. */
static void tree__note_child(struct tree_span *parent, const char *name, __u64 ns)
{
	int k = TREE_TOP - 1;

	if (ns <= parent->top[k].ns)
		return;
	while (k > 0 && parent->top[k - 1].ns < ns) {
		parent->top[k] = parent->top[k - 1];
		k--;
	}
	snprintf(parent->top[k].name, sizeof(parent->top[k].name), "%s", name);
	parent->top[k].ns = ns;
}

static void tree__what_it_took(FILE *f, const struct tree_span *s, __u64 ns)
{
	char a[32], b[32];

	kd_fmt_ns(a, sizeof(a), ns);
	kd_fmt_ns(b, sizeof(b), s->sys_ns);
	fprintf(f, "took %s and %lu syscall%s (%s in them)", a, s->nsys, s->nsys == 1 ? "" : "s",
		b);
	for (int k = 0; k < TREE_TOP && s->top[k].ns; k++) {
		kd_fmt_ns(a, sizeof(a), s->top[k].ns);
		fprintf(f, k ? ", %s in %s" : ", %s of it in %s", a, s->top[k].name);
	}
}

/* The name a span shows by: subsystem and name, or provider:name of a probe. */
static void tree__label(FILE *f, const struct kd_urec *u)
{
	if (u->h.ku_kind == KTR_UREC_PROBE)
		fprintf(f, "%s:%s", u->who, u->name);
	else
		fprintf(f, "%s %s", u->who, u->name);
}

/* An exit's line after its label: how it ended and what it took. */
static int tree__exit(struct tree_thread *tt, const struct kd_event *ev)
{
	const struct kd_span_step *st = &ev->span;
	const struct kd_urec *u = &ev->user;
	bool span = u->h.ku_kind != KTR_UREC_PROBE;
	struct tree_span closed = { 0 }, *sp;
	int n = tt->dec->n;

	if (span)
		fputs((u->h.ku_flags & KTR_UREC_ERR) ? " err" : " ok", tt->f);
	if (span && u->kv[0])
		fprintf(tt->f, " %s", u->kv);
	fputs(": ", tt->f);
	if (st->found) {
		/* the decoder has popped it; the tree has not yet looked */
		for (int i = 0; i < tt->nspans; i++)
			if (tt->spans[i].serial == st->closed.serial)
				closed = tt->spans[i];
		tree__what_it_took(tt->f, &closed, st->dur);
	} else {
		fputs("entered before the trace", tt->f);
	}
	fputc('\n', tt->f);
	if (st->found && n > 0) {
		sp = span_at(tt, n - 1);
		if (!sp)
			return -ENOMEM;
		tree__note_child(sp, u->name, st->dur);
	}
	return 0;
}

/* A span's enter or exit; the decoder has already moved the stack. */
static int tree__user(struct tree *s, struct tree_thread *tt, const struct kd_event *ev)
{
	const struct kd_span_step *st = &ev->span;
	const struct kd_urec *u = &ev->user;
	int err;

	if (!st->spanlike)
		return 0; /* a lone probe is no span */
	/* an enter is drawn at its parent's count, an exit at its own */
	indent(tt->f, st->is_exit ? tt->dec->n : st->open_before);
	fputs(st->is_exit ? "< " : "> ", tt->f);
	tree__label(tt->f, u);
	if (!st->is_exit) {
		if (u->h.ku_kind != KTR_UREC_PROBE && u->kv[0])
			fprintf(tt->f, " %s", u->kv);
		fputc('\n', tt->f);
		return 0;
	}
	err = tree__exit(tt, ev);
	if (!err && tt->dec->n == 0)
		tree__flush(s, tt);
	return err;
}

static int tree__event(void *state, const struct kd_event *ev)
{
	struct tree *s = state;
	struct tree_thread *tt;

	if (ev->kind != KD_CALL && ev->kind != KD_RET && ev->kind != KD_USER)
		return 0;
	tt = thread_of(s, ev);
	if (!tt)
		return -ENOMEM;
	if (ev->kind == KD_USER)
		return ev->ktru ? tree__user(s, tt, ev) : 0;
	if (tt->dec->n == 0)
		return 0; /* outside every span */
	if (ev->kind == KD_CALL)
		tree__call(tt, ev);
	else
		return tree__ret(s, tt, ev);
	return 0;
}

static int by_order_newest_first(const void *a, const void *b)
{
	const struct tree_thread *x = *(struct tree_thread *const *)a;
	const struct tree_thread *y = *(struct tree_thread *const *)b;

	return x->order < y->order ? 1 : x->order > y->order ? -1 : 0;
}

static int tree__finish(void *state)
{
	struct tree *s = state;

	if (s->n)
		qsort(s->threads, s->n, sizeof(*s->threads), by_order_newest_first);
	for (size_t k = 0; k < s->n; k++) {
		struct tree_thread *tt = s->threads[k];

		if (!tt->f)
			continue;
		for (int i = tt->dec->n - 1; i >= 0; i--) {
			indent(tt->f, i);
			fprintf(tt->f, "(not exited: %s)\n", tt->dec->stack[i].key + 2);
		}
		tree__flush(s, tt);
	}
	return 0;
}

const struct kd_sink kd_sink_tree = {
	.open = tree__open,
	.event = tree__event,
	.finish = tree__finish,
	.close = tree__close,
};
