// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * KTRU records parsed, and each thread's last call and open spans, for the
 * decoder (kdump_span.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdump_span.h"

static const struct {
	const char *enter, *exit;
} pair_suffixes[] = {
	{ "__entry", "__return" },
	{ "__start", "__done" },
	{ "_begin", "_end" },
	{ "_enter", "_exit" },
};

/* --- parsing ------------------------------------------------------------- */

/* The NUL-terminated string at *p (at most max bytes with its NUL) in [*p, end). */
static const char *take_str(const unsigned char **p, const unsigned char *end, size_t max)
{
	const unsigned char *s = *p, *nul;

	if (s >= end)
		return NULL;
	nul = memchr(s, '\0', (size_t)(end - s) < max ? (size_t)(end - s) : max);
	if (!nul)
		return NULL;
	*p = nul + 1;
	return (const char *)s;
}

int kd_urec__parse(const unsigned char *d, size_t len, struct kd_urec *u)
{
	const unsigned char *p, *end = d + len;
	size_t fixed;

	memset(u, 0, sizeof(*u));
	if (len < sizeof(u->h))
		return -EINVAL;
	memcpy(&u->h, d, sizeof(u->h));
	if (memcmp(u->h.ku_sig, KTR_USER_SIG, 4) != 0 || u->h.ku_version != KTR_UREC_VERSION ||
	    u->h.ku_kind < KTR_UREC_PROBE || u->h.ku_kind > KTR_UREC_SPAN_EXIT ||
	    u->h.ku_nargs > KTR_UREC_MAXARGS || (u->h.ku_strmask >> u->h.ku_nargs) != 0 ||
	    (u->h.ku_kind != KTR_UREC_PROBE && (u->h.ku_nargs || u->h.ku_strmask)))
		return -EINVAL;
	fixed = sizeof(u->h) + 8 * (size_t)u->h.ku_nargs;
	if (len != fixed + u->h.ku_strlen)
		return -EINVAL;
	memcpy(u->args, d + sizeof(u->h), 8 * (size_t)u->h.ku_nargs);
	p = d + fixed;
	u->who = take_str(&p, end, KTR_UREC_NAME_MAX);
	u->name = take_str(&p, end, KTR_UREC_NAME_MAX);
	if (!u->who || !u->name)
		return -EINVAL;
	if (u->h.ku_kind != KTR_UREC_PROBE) {
		u->kv = take_str(&p, end, KTR_UREC_KV_MAX);
		if (!u->kv)
			return -EINVAL;
	}
	for (int i = 0; i < u->h.ku_nargs; i++) {
		if (!(u->h.ku_strmask & (1u << i)))
			continue;
		u->argstr[i] = take_str(&p, end, KTR_UREC_ARGSTR_MAX);
		if (!u->argstr[i])
			return -EINVAL;
	}
	return p == end ? 0 : -EINVAL;
}

/* Does name end in one of the pair suffixes?  Its base length and which end. */
bool kd_urec__pair(const char *name, size_t *base, bool *is_exit)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(pair_suffixes) / sizeof(pair_suffixes[0]); i++) {
		const char *sfx[2] = { pair_suffixes[i].enter, pair_suffixes[i].exit };

		for (int e = 0; e < 2; e++) {
			size_t k = strlen(sfx[e]);

			if (n > k && strcmp(name + n - k, sfx[e]) == 0) {
				*base = n - k;
				*is_exit = e == 1;
				return true;
			}
		}
	}
	return false;
}

/* The key spans and pairs match by: "S subsys name" or "P provider:base". */
void kd_urec__key(const struct kd_urec *u, char *key, size_t size)
{
	size_t base;
	bool is_exit;

	if (u->h.ku_kind != KTR_UREC_PROBE)
		snprintf(key, size, "S %s %s", u->who, u->name);
	else if (kd_urec__pair(u->name, &base, &is_exit))
		snprintf(key, size, "P %s:%.*s", u->who, (int)base, u->name);
	else
		snprintf(key, size, "%s:%s", u->who, u->name);
}

/* --- threads ------------------------------------------------------------- */

struct kd_thread *kd_threads__find(const struct kd_threads *ts, __s32 tid)
{
	const struct kd_map_ent *e = kd_map__get(&ts->map, tid);

	return e ? (struct kd_thread *)(uintptr_t)e->v1 : NULL;
}

struct kd_thread *kd_threads__get(struct kd_threads *ts, __s32 tid)
{
	struct kd_map_ent *e = kd_map__add(&ts->map, tid);
	struct kd_thread *t;

	if (!e)
		return NULL;
	if (e->v1)
		return (struct kd_thread *)(uintptr_t)e->v1;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	e->v1 = (__u64)(uintptr_t)t;
	return t;
}

void kd_threads__free(struct kd_threads *ts)
{
	for (size_t i = 0; i < ts->map.cap; i++) {
		struct kd_thread *t = (struct kd_thread *)(uintptr_t)ts->map.ents[i].v1;

		if (!ts->map.ents[i].used || !t)
			continue;
		free(t->stack);
		free(t);
	}
	kd_map__free(&ts->map);
}

static void push(struct kd_threads *ts, struct kd_thread *t, const char *key, __u64 ns, int depth)
{
	struct kd_span *s;

	if (t->n == KD_SPANS_MAX) {
		/* too deep to be real: forget the oldest rather than the newest */
		memmove(&t->stack[0], &t->stack[1], (KD_SPANS_MAX - 1) * sizeof(t->stack[0]));
		t->n--;
	}
	s = &t->stack[t->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->t_enter = ns;
	s->depth = depth;
	s->serial = ++ts->serial;
}

/* The innermost open span with key, its index; -1 if the trace has no enter for it. */
static int find(const struct kd_thread *t, const char *key)
{
	for (int i = t->n - 1; i >= 0; i--)
		if (strcmp(t->stack[i].key, key) == 0)
			return i;
	return -1;
}

int kd_threads__step(struct kd_threads *ts, struct kd_thread *t, const struct ktr_header *h,
		     unsigned long recno, const struct kd_urec *u, struct kd_span_step *st)
{
	bool span = u->h.ku_kind != KTR_UREC_PROBE;
	char key[KD_SPAN_KEY_MAX];
	size_t base;
	int i;

	memset(st, 0, sizeof(*st));
	if (span)
		st->is_exit = u->h.ku_kind == KTR_UREC_SPAN_EXIT;
	else if (!kd_urec__pair(u->name, &base, &st->is_exit))
		return 0; /* a lone probe opens and closes nothing */
	st->spanlike = true;
	if (!t->first_span)
		t->first_span = recno;
	if (!t->stack && !(t->stack = calloc(KD_SPANS_MAX, sizeof(*t->stack))))
		return -ENOMEM;
	st->open_before = t->n;
	kd_urec__key(u, key, sizeof(key));
	if (!st->is_exit) {
		st->depth = span ? u->h.ku_depth : t->n;
		push(ts, t, key, h->ktr_mono_ns, st->depth);
		return 0;
	}
	i = find(t, key);
	if (i < 0) {
		st->depth = span ? u->h.ku_depth : t->n;
		return 0;
	}
	st->found = true;
	st->closed = t->stack[i];
	st->dur = h->ktr_mono_ns - t->stack[i].t_enter;
	st->depth = span ? u->h.ku_depth : t->stack[i].depth;
	t->n = i; /* and any left open above it */
	return 0;
}
