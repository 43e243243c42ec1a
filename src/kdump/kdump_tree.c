// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -G: the span tree.  Per thread, each span (and probe entry/exit
 * pair) with the system calls made inside it nested under it, and at its
 * exit what it took: its time, its system calls and their time (nested
 * spans' included), and the biggest spans inside it:
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
 * ends, so threads do not interleave; past KD_TREE_BUF_MAX bytes a thread's
 * system call lines are counted rather than kept.  System calls outside
 * every span are not shown.  Spans still open at the end of the trace are
 * listed as not exited.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_priv.h"
#include "kdump_event.h"
#include "kdump_user.h"

#define KD_TREE_BUF_MAX (32u << 20)

struct kd_tree_thread {
	FILE *f; /* its lines, until its outermost span ends */
	char *buf;
	size_t len;
	int pid;
	char comm[KTR_MAXCOMLEN + 1];
	unsigned long elided;
	bool has_call;
	int code, narg;
	__u64 args[KTR_MAXARGS];
	__u64 t_call;
};

void kd_tree__free_thread(struct kd_thread *t)
{
	if (!t->tree)
		return;
	if (t->tree->f)
		fclose(t->tree->f);
	free(t->tree->buf);
	free(t->tree);
	t->tree = NULL;
}

/* The thread's tree state, with an open buffer; NULL when out of memory. */
static struct kd_tree_thread *tree__of(struct kdump *kd, const struct ktr_header *h,
				       struct kd_thread **tp)
{
	struct kd_thread *t = kd_thread__get(kd, h->ktr_tid);

	*tp = t;
	if (!t)
		return NULL;
	if (!t->tree)
		t->tree = calloc(1, sizeof(*t->tree));
	if (!t->tree)
		return NULL;
	if (!t->tree->f)
		t->tree->f = open_memstream(&t->tree->buf, &t->tree->len);
	if (!t->tree->f)
		return NULL;
	t->tree->pid = h->ktr_pid;
	for (int i = 0; i < KTR_MAXCOMLEN; i++) {
		char c = h->ktr_comm[i];

		t->tree->comm[i] = c >= 0x20 && c < 0x7f ? c : c ? '?' : '\0';
		if (!c)
			break;
	}
	return t->tree;
}

static void indent(FILE *f, int level)
{
	fprintf(f, "%*s", 2 + 2 * (level < 64 ? level : 64), "");
}

/* The thread's lines so far, under a "pid:tid comm" line, out to kdump's output. */
static void tree__flush(struct kdump *kd, struct kd_thread *t)
{
	struct kd_tree_thread *tt = t->tree;

	if (!tt || !tt->f)
		return;
	fflush(tt->f);
	if (tt->len) {
		fprintf(kd->out, "%d:%d %s\n", tt->pid, t->tid, tt->comm);
		fwrite(tt->buf, 1, tt->len, kd->out);
		if (tt->elided)
			fprintf(kd->out, "  (%lu syscall lines not shown)\n", tt->elided);
	}
	fclose(tt->f);
	free(tt->buf);
	tt->f = NULL;
	tt->buf = NULL;
	tt->len = 0;
	tt->elided = 0;
	if (kd->o.flags & KD_FOLLOW)
		fflush(kd->out);
}

static void tree__call(struct kd_tree_thread *tt, const struct kd_event *ev)
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
static void tree__ret(struct kdump *kd, struct kd_thread *t, const struct kd_event *ev)
{
	struct kd_tree_thread *tt = t->tree;
	unsigned int sv = ev->sv_flags;
	char dur[32], name[64];
	__u64 ns;

	if (!tt->has_call || !ev->valid)
		return;
	tt->has_call = false;
	if (ev->ret.raw_code != tt->code)
		return;
	ns = ev->h->ktr_mono_ns - tt->t_call;
	for (int i = 0; i < t->n; i++) {
		t->stack[i].nsys++;
		t->stack[i].sys_ns += ns;
	}
	if (tt->len > KD_TREE_BUF_MAX) {
		tt->elided++;
		return;
	}
	indent(tt->f, t->n + 1);
	kd_fmt_scname(kd, name, sizeof(name), sv, tt->code);
	fputs(name, tt->f);
	ktr_print_syscall_args(tt->f, sv, tt->code, tt->narg, tt->args, kd->o.decode);
	fputs(" = ", tt->f);
	ktr_print_sysret(tt->f, sv, tt->code, ev->ret.error, ev->ret.retval, kd->o.decode);
	kd_fmt_ns(dur, sizeof(dur), ns);
	fprintf(tt->f, "  %s\n", dur);
}

/* Keep the KD_TREE_TOP biggest children of a span. */
static void tree__note_child(struct kd_span *parent, const char *name, __u64 ns)
{
	int k = KD_TREE_TOP - 1;

	if (ns <= parent->top[k].ns)
		return;
	while (k > 0 && parent->top[k - 1].ns < ns) {
		parent->top[k] = parent->top[k - 1];
		k--;
	}
	snprintf(parent->top[k].name, sizeof(parent->top[k].name), "%s", name);
	parent->top[k].ns = ns;
}

static void tree__what_it_took(FILE *f, const struct kd_span *s, __u64 ns)
{
	char a[32], b[32];

	kd_fmt_ns(a, sizeof(a), ns);
	kd_fmt_ns(b, sizeof(b), s->sys_ns);
	fprintf(f, "took %s and %lu syscall%s (%s in them)", a, s->nsys, s->nsys == 1 ? "" : "s",
		b);
	for (int k = 0; k < KD_TREE_TOP && s->top[k].ns; k++) {
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

/* A span's enter or exit; the event pass has already moved the stack. */
static void tree__user(struct kdump *kd, struct kd_thread *t, const struct kd_event *ev)
{
	const struct kd_span_step *st = &ev->span;
	const struct kd_urec *u = &ev->user;
	struct kd_tree_thread *tt = t->tree;
	bool span = u->h.ku_kind != KTR_UREC_PROBE;

	if (!st->spanlike)
		return; /* a lone probe is no span */
	/* an enter is drawn at its parent's count, an exit at its own */
	indent(tt->f, st->is_exit ? t->n : st->open_before);
	fputs(st->is_exit ? "< " : "> ", tt->f);
	tree__label(tt->f, u);
	if (!st->is_exit) {
		if (span && u->kv[0])
			fprintf(tt->f, " %s", u->kv);
		fputc('\n', tt->f);
		return;
	}
	if (span)
		fputs((u->h.ku_flags & KTR_UREC_ERR) ? " err" : " ok", tt->f);
	if (span && u->kv[0])
		fprintf(tt->f, " %s", u->kv);
	fputs(": ", tt->f);
	if (st->found)
		tree__what_it_took(tt->f, &st->closed, st->dur);
	else
		fputs("entered before the trace", tt->f);
	fputc('\n', tt->f);
	if (st->found && t->n > 0)
		tree__note_child(&t->stack[t->n - 1], u->name, st->dur);
	if (t->n == 0)
		tree__flush(kd, t);
}

static int tree__event(struct kdump *kd, const struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	struct kd_tree_thread *tt;
	struct kd_thread *t;

	if (h->ktr_type != KTR_SYSCALL && h->ktr_type != KTR_SYSRET && h->ktr_type != KTR_USER)
		return 0;
	tt = tree__of(kd, h, &t);
	if (!tt)
		return -ENOMEM;
	if (h->ktr_type == KTR_USER) {
		if (ev->valid)
			tree__user(kd, t, ev);
		return 0;
	}
	if (t->n == 0)
		return 0; /* outside every span */
	if (h->ktr_type == KTR_SYSCALL)
		tree__call(tt, ev);
	else
		tree__ret(kd, t, ev);
	return 0;
}

static int tree__finish(struct kdump *kd)
{
	for (struct kd_thread *t = kd->thread_list; t; t = t->next) {
		if (!t->tree || !t->tree->f)
			continue;
		for (int i = t->n - 1; i >= 0; i--) {
			indent(t->tree->f, i);
			fprintf(t->tree->f, "(not exited: %s)\n", t->stack[i].key + 2);
		}
		t->n = 0;
		tree__flush(kd, t);
	}
	return 0;
}

const struct kd_sink kd_sink_tree = { tree__event, tree__finish };
