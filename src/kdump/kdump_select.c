// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* kdump's syscall selection stage (kdump_select.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "ktr_select.h"
#include "kdump_map.h"
#include "kdump_select.h"

/* What a thread is in the middle of, for the selection */
struct sel_thread {
	bool in_call; /* a CALL without its RET yet */
	bool shown; /* in_call: that call's records are shown */
	bool holding; /* in_call under status=: its records wait in buf */
	unsigned char *buf; /* held records: header, payload, padded to 8 */
	size_t len, cap;
};

struct kd_select {
	const char *args[KD_SELECT_ARGS_MAX];
	int nargs;
	struct ktr_select sel; /* for the tables it was made with */
	const struct ktr_sysent *made_for; /* their native table */
	struct kd_map threads; /* tid -> struct sel_thread * */
	size_t held; /* bytes held in all */
};

static int select__make(struct ktr_select *sel, const char *machine, const char *const *args, int n,
			const char **why)
{
	struct ktr_select_abi native, compat;

	ktr_decode_tables(machine, &native.tab, &native.n, &compat.tab, &compat.n);
	ktr_select__init(sel);
	for (int i = 0; i < n; i++)
		if (ktr_select__add(sel, args[i], &native, &compat, why) < 0)
			return -1;
	return 0;
}

const char *kd_select__check(const char *arg)
{
	static const char *const machines[] = { "x86_64", "aarch64" };
	const char *why = NULL, *first = NULL;
	struct ktr_select sel;

	if (!ktr_select__is_arg(arg))
		return "kdump selects system calls: trace=SET or status=SET";
	/* a name is good if some machine's table has it */
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		if (select__make(&sel, machines[i], &arg, 1, &why) == 0)
			return NULL;
		if (!first)
			first = why;
	}
	return first;
}

struct kd_select *kd_select__new(const char *const *args, int n)
{
	struct kd_select *s;

	if (n < 0 || n > KD_SELECT_ARGS_MAX) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	memcpy(s->args, args, n * sizeof(*args));
	s->nargs = n;
	return s;
}

void kd_select__free(struct kd_select *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->threads.cap; i++) {
		struct sel_thread *t = (void *)(uintptr_t)s->threads.ents[i].v1;

		if (s->threads.ents[i].used && t) {
			free(t->buf);
			free(t);
		}
	}
	kd_map__free(&s->threads);
	free(s);
}

/* "trace=!open,%file" as "trace=!?open,%file": each plain name optional */
static const char *optional_names(const char *arg, char *buf, size_t size)
{
	const char *p = arg + strlen("trace=");
	size_t k;

	if (strncmp(arg, "trace=", 6) != 0 || p[0] == '/' || strlen(arg) * 2 >= size)
		return arg;
	k = p - arg;
	memcpy(buf, arg, k);
	if (*p == '!')
		buf[k++] = *p++;
	for (bool start = true; *p; p++) {
		if (start && *p != '%' && *p != '?' && *p != '/')
			buf[k++] = '?';
		buf[k++] = *p;
		start = *p == ',';
	}
	buf[k] = '\0';
	return buf;
}

/* The selection for the trace's machine (its INFO record sets the decoder's tables). */
static const struct ktr_select *select__current(struct kd_select *s)
{
	const struct ktr_sysent *native, *compat;
	unsigned int nn, nc;
	const char *why;

	ktr_decode_tables(NULL, &native, &nn, &compat, &nc);
	if (s->made_for == native)
		return &s->sel;
	s->made_for = native;
	if (select__make(&s->sel, NULL, s->args, s->nargs, &why) == 0)
		return &s->sel;
	/* a name another machine has (kd_select__check): as ?name on this one */
	{
		char opt[KD_SELECT_ARGS_MAX][KTR_SELECT_TEXT_MAX * 2];
		const char *args[KD_SELECT_ARGS_MAX];

		for (int i = 0; i < s->nargs; i++)
			args[i] = optional_names(s->args[i], opt[i], sizeof(opt[i]));
		if (select__make(&s->sel, NULL, args, s->nargs, &why) < 0) {
			ktr_select__init(&s->sel);
			s->sel.calls_given = true; /* nothing */
		}
	}
	return &s->sel;
}

static struct sel_thread *select__thread(struct kd_select *s, __s32 tid)
{
	struct kd_map_ent *e = kd_map__add(&s->threads, tid);
	struct sel_thread *t;

	if (!e)
		return NULL;
	if (!e->v1) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		e->v1 = (uintptr_t)t;
	}
	return (void *)(uintptr_t)e->v1;
}

static size_t padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Keep a copy of the record in t's buffer; false if over the limits (nothing kept then). */
static bool hold(struct kd_select *s, struct sel_thread *t, const struct ktr_header *h,
		 const void *data)
{
	size_t plen = h->ktr_len > 0 ? (size_t)h->ktr_len : 0;
	size_t need = padded(sizeof(*h)) + padded(plen);

	if (t->len + need > KD_SELECT_HOLD_MAX || s->held + need > KD_SELECT_HOLD_TOTAL)
		return false;
	if (t->len + need > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		unsigned char *buf;

		while (cap < t->len + need)
			cap *= 2;
		buf = realloc(t->buf, cap);
		if (!buf)
			return false;
		t->buf = buf;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, h, sizeof(*h));
	memcpy(t->buf + t->len + padded(sizeof(*h)), data, plen);
	t->len += need;
	s->held += need;
	return true;
}

/* Hand t's held records on, shown or not, and empty its buffer. */
static int release(struct kd_select *s, struct sel_thread *t, bool show, kd_select_fn fn, void *ctx)
{
	int err = 0;

	for (size_t off = 0; off < t->len && !err;) {
		const struct ktr_header *h = (const void *)(t->buf + off);
		size_t plen = h->ktr_len > 0 ? (size_t)h->ktr_len : 0;

		err = fn(ctx, h, t->buf + off + padded(sizeof(*h)), show);
		off += padded(sizeof(*h)) + padded(plen);
	}
	s->held -= t->len;
	t->len = 0;
	t->holding = false;
	return err;
}

/* The records a thread makes inside a call, which go with its CALL */
static bool inside_call(int type)
{
	return type == KTR_NAMEI || type == KTR_STRUCT || type == KTR_GENIO || type == KTR_ARGS ||
	       type == KTR_ENVS || type == KTR_USTACK;
}

static int select__call(struct kd_select *s, struct sel_thread *t, const struct ktr_header *h,
			const void *data, bool compat, kd_select_fn fn, void *ctx)
{
	const struct ktr_select *sel = select__current(s);
	struct ktr_syscall sc;
	int err = 0;

	if (t->holding) /* the last call never returned */
		err = release(s, t, false, fn, ctx);
	if (err)
		return err;
	if ((size_t)h->ktr_len < sizeof(sc))
		return fn(ctx, h, data, true); /* the decoder says it is invalid */
	memcpy(&sc, data, sizeof(sc));
	t->in_call = true;
	t->shown = ktr_select__has_call(sel, sc.ktr_code, compat);
	if (t->shown && sel->status) {
		t->holding = true;
		if (hold(s, t, h, data))
			return 0;
		t->holding = false;
		t->shown = false; /* too much held: the call goes unshown */
	}
	return fn(ctx, h, data, t->shown);
}

static int select__ret(struct kd_select *s, struct sel_thread *t, const struct ktr_header *h,
		       const void *data, bool compat, kd_select_fn fn, void *ctx)
{
	const struct ktr_select *sel = select__current(s);
	struct ktr_sysret r;
	bool show;
	int err;

	if ((size_t)h->ktr_len < sizeof(r)) {
		err = t->holding ? release(s, t, false, fn, ctx) : 0;
		t->in_call = false;
		return err ? err : fn(ctx, h, data, true);
	}
	memcpy(&r, data, sizeof(r));
	show = ktr_select__has_call(sel, r.ktr_code, compat) &&
	       ktr_select__has_status(sel, r.ktr_error);
	if (t->in_call && !t->shown)
		show = false;
	err = t->holding ? release(s, t, show, fn, ctx) : 0;
	t->in_call = false;
	return err ? err : fn(ctx, h, data, show);
}

int kd_select__record(struct kd_select *s, const struct ktr_header *h, const void *data,
		      unsigned int sv_flags, kd_select_fn fn, void *ctx)
{
	bool compat = sv_flags & KTR_SV_ILP32;
	struct sel_thread *t;

	if (h->ktr_type != KTR_SYSCALL && h->ktr_type != KTR_SYSRET && !inside_call(h->ktr_type))
		return fn(ctx, h, data, true);
	t = select__thread(s, h->ktr_tid);
	if (!t)
		return -ENOMEM;
	if (h->ktr_type == KTR_SYSCALL)
		return select__call(s, t, h, data, compat, fn, ctx);
	if (h->ktr_type == KTR_SYSRET)
		return select__ret(s, t, h, data, compat, fn, ctx);
	if (t->holding) {
		if (hold(s, t, h, data))
			return 0;
		/* too much held: the call goes unshown */
		t->shown = false;
		return release(s, t, false, fn, ctx) ?: fn(ctx, h, data, false);
	}
	return fn(ctx, h, data, !t->in_call || t->shown);
}
