// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * USER records: a utrace(2) record's bytes as BSD prints them, and the
 * records ktraceb makes from USDT probes (ktr.h, "KTRU"): probes as
 * provider:name(arguments), spans as an indented enter/exit tree with
 * durations.  Probes named as entry/exit pairs (x__entry/x__return,
 * x__start/x__done, x_begin/x_end, x_enter/x_exit) nest the same way.
 *
 * Each thread keeps a stack of its open spans and pairs (at most
 * KD_SPANS_MAX deep; a deeper enter forgets the oldest), which gives an
 * exit its duration; an exit whose enter the trace does not have (tracing
 * began inside the span) prints "?" for it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_priv.h"
#include "kdump_event.h"
#include "kdump_user.h"

#define DEPTH_SHOWN_MAX 63 /* the design's depth range: deeper is drawn at 63 */

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

/* --- durations ----------------------------------------------------------- */

void kd_fmt_ns(char *buf, size_t size, __u64 ns)
{
	static const struct {
		__u64 div;
		const char *unit;
	} units[] = { { 1000000000ull, "s" }, { 1000000ull, "ms" }, { 1000ull, "us" } };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double v = (double)ns / units[i].div;

		if (ns < units[i].div)
			continue;
		/* three significant digits at most: 1.25ms, 48.2ms, 839ms */
		snprintf(buf, size,
			 v < 10	 ? "%.2f%s" :
			 v < 100 ? "%.1f%s" :
				   "%.0f%s",
			 v, units[i].unit);
		return;
	}
	snprintf(buf, size, "%lluns", (unsigned long long)ns);
}

/* --- per-thread span stacks ---------------------------------------------- */

struct kd_thread *kd_thread__get(struct kdump *kd, __s32 tid)
{
	struct kd_map_ent *e = kd_map__add(&kd->threads, tid);
	struct kd_thread *t;

	if (!e)
		return NULL;
	if (e->v1)
		return (struct kd_thread *)(uintptr_t)e->v1;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->next = kd->thread_list;
	kd->thread_list = t;
	e->v1 = (__u64)(uintptr_t)t;
	return t;
}

void kd_threads__free(struct kdump *kd)
{
	while (kd->thread_list) {
		struct kd_thread *t = kd->thread_list;

		kd->thread_list = t->next;
		kd_tree__free_thread(t);
		free(t);
	}
	kd_map__free(&kd->threads);
}

struct kd_span *kd_thread__push(struct kd_thread *t, const char *key, __u64 ns, int depth)
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
	return s;
}

/* The open span with key, its index; -1 if the trace has no enter for it. */
int kd_thread__find(const struct kd_thread *t, const char *key)
{
	for (int i = t->n - 1; i >= 0; i--)
		if (strcmp(t->stack[i].key, key) == 0)
			return i;
	return -1;
}

/* --- printing -------------------------------------------------------------- */

#define UTRACE_INLINE_MAX 32 /* longer records show their bytes as GIO data does */

/*
 * BSD: the length, then the bytes.  A short record on its line (quoted if
 * text, else FreeBSD's " %02x" each, -d: " %d"); a longer one below it as
 * GIO data is shown (text lines or a hexdump), up to -m bytes.
 */
static void print_utrace(struct kdump *kd, const unsigned char *d, size_t len)
{
	bool text = len > 0;

	fprintf(kd->out, "%zu", len);
	if (len == 0)
		return;
	if (len > UTRACE_INLINE_MAX) {
		if (kd->o.maxdata > 0 && len > (size_t)kd->o.maxdata)
			len = kd->o.maxdata;
		fputc('\n', kd->out);
		kd_dump_data(kd->out, d, len);
		return;
	}
	for (size_t i = 0; i < len && text; i++)
		text = (d[i] >= 0x20 && d[i] < 0x7f) || d[i] == '\n' || d[i] == '\t';
	if (text) {
		fputc(' ', kd->out);
		kd_putquoted(kd->out, d, len);
		return;
	}
	fputc(' ', kd->out);
	for (size_t i = 0; i < len; i++)
		fprintf(kd->out, (kd->o.decode & KTR_DEC_DECIMAL) ? " %d" : " %02x", d[i]);
}

static void print_arg(struct kdump *kd, __u64 v)
{
	__s64 s = (__s64)v;

	/* small numbers as numbers (-1, 42), addresses and flags in hex */
	if ((kd->o.decode & KTR_DEC_DECIMAL) || (s > -65536 && s < 65536))
		fprintf(kd->out, "%lld", (long long)s);
	else
		fprintf(kd->out, "%#llx", (unsigned long long)v);
}

static void print_probe_body(struct kdump *kd, const struct kd_urec *u)
{
	kd_putesc(kd->out, (const unsigned char *)u->who, strlen(u->who));
	fputc(':', kd->out);
	kd_putesc(kd->out, (const unsigned char *)u->name, strlen(u->name));
	fputc('(', kd->out);
	for (int i = 0; i < u->h.ku_nargs; i++) {
		if (i)
			fputs(", ", kd->out);
		if (u->argstr[i])
			kd_putquoted(kd->out, (const unsigned char *)u->argstr[i],
				     strlen(u->argstr[i]));
		else
			print_arg(kd, u->args[i]);
	}
	fputc(')', kd->out);
}

static void print_marker(FILE *out, char mark, int depth)
{
	if (depth > DEPTH_SHOWN_MAX)
		depth = DEPTH_SHOWN_MAX;
	fprintf(out, "%c%*s", mark, 2 + 2 * depth, "");
}

static void print_escaped(FILE *out, const char *s)
{
	kd_putesc(out, (const unsigned char *)s, strlen(s));
}

/*
 * What an enter or exit does to the thread's stack: an enter pushes, an
 * exit pops its enter and any left open above it.  *dur (ns) and *found
 * for an exit.  Returns the depth to draw at.
 */
int kd_span__step(struct kdump *kd, const struct ktr_header *h, const struct kd_urec *u,
		  bool is_exit, __u64 *dur, bool *found)
{
	struct kd_thread *t = kd_thread__get(kd, h->ktr_tid);
	bool span = u->h.ku_kind != KTR_UREC_PROBE;
	char key[KD_SPAN_KEY_MAX];
	int depth, i;

	*found = false;
	*dur = 0;
	kd_urec__key(u, key, sizeof(key));
	if (!t)
		return span ? u->h.ku_depth : 0;
	if (!is_exit) {
		depth = span ? u->h.ku_depth : t->n;
		kd_thread__push(t, key, h->ktr_mono_ns, depth);
		return depth;
	}
	i = kd_thread__find(t, key);
	if (i < 0)
		return span ? u->h.ku_depth : t->n;
	*found = true;
	*dur = h->ktr_mono_ns - t->stack[i].t_enter;
	depth = span ? u->h.ku_depth : t->stack[i].depth;
	t->n = i;
	return depth;
}

/* A span's enter or exit, drawn at the depth the event pass found. */
static void print_span(struct kdump *kd, const struct kd_event *ev)
{
	const struct kd_urec *u = &ev->user;
	const struct kd_span_step *st = &ev->span;
	char dur[32];

	print_marker(kd->out, st->is_exit ? '<' : '>', st->depth);
	print_escaped(kd->out, u->who);
	fputc(' ', kd->out);
	print_escaped(kd->out, u->name);
	if (st->is_exit) {
		kd_fmt_ns(dur, sizeof(dur), st->dur);
		fprintf(kd->out, " %s %s", st->found ? dur : "?",
			(u->h.ku_flags & KTR_UREC_ERR) ? "err" : "ok");
	}
	if (u->kv[0]) {
		fputc(' ', kd->out);
		print_escaped(kd->out, u->kv);
	}
	if (st->is_exit && !st->found)
		fputs(" (entered before the trace)", kd->out);
}

static void print_probe(struct kdump *kd, const struct kd_event *ev)
{
	const struct kd_span_step *st = &ev->span;
	char dur[32];

	if (!st->spanlike) {
		print_probe_body(kd, &ev->user);
		return;
	}
	print_marker(kd->out, st->is_exit ? '<' : '>', st->depth);
	print_probe_body(kd, &ev->user);
	if (st->is_exit) {
		kd_fmt_ns(dur, sizeof(dur), st->dur);
		fprintf(kd->out, " %s", st->found ? dur : "? (entered before the trace)");
	}
}

int kd_print_user(struct kdump *kd, const struct kd_event *ev)
{
	if ((kd->o.decode & KTR_DEC_RAW) || !ev->valid) {
		print_utrace(kd, ev->data, ev->len);
		return 0;
	}
	if (ev->user.h.ku_kind == KTR_UREC_PROBE)
		print_probe(kd, ev);
	else
		print_span(kd, ev);
	return 0;
}
