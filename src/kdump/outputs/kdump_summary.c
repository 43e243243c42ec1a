// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -Y: a per-syscall table in the layout of strace -c, with each
 * call's 99th-percentile and slowest time beside its mean.  A call's time is
 * the decoder's (kdump_event.h ret.dur_ns: its RET's time minus that of the
 * CALL of the same thread).  Calls are counted at CALL (exit_group never
 * returns); a RET without a CALL (a fork child's first return, a trace
 * started mid-call) is ignored.  What each kind counts is in its file
 * (kdump_kind.h count), with this file's kdump_summary.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_fmt.h"
#include "kdump_hist.h"
#include "kdump_map.h"
#include "kdump_sink.h"
#include "kdump_summary.h"
#include "kdump_tp.h"

struct kd_scstat {
	unsigned int sv_flags;
	int code;
	unsigned long calls;
	unsigned long errors;
	__u64 ns;
	struct kd_hist *hist; /* its calls' times, from the first timed one */
};

struct kd_utable;

/* The kernel events counted: by their format's place among the file's. */
struct kd_tprow {
	const struct kd_tpfmt *fmt; /* the decoder's, alive until the end */
	unsigned long count;
};

struct kd_summary {
	struct kd_sink_env env;
	struct kd_map pending; /* tid -> v1 = stat index + 1 (0: none) */
	struct kd_utable *user; /* user record rows */
	struct kd_utable *files; /* -y: rows by file or socket */
	struct kd_map file_of; /* -y: tid -> v1 = the name its call's descriptor had (char *) */
	struct kd_map index; /* ABI and code -> v1 = stat index */
	struct kd_scstat *st;
	size_t n, cap;
	__u64 lost;
	__u64 session_lost; /* since the session's INFO: its END may say more */
	__u32 cut_short; /* an END's reason that cut the trace short, 0 if none */
	struct kd_tprow *tp; /* by kd_tpfmt.seq */
	size_t ntp;
};

static void utable__free(struct kd_utable *t);

static void *summary__open(const struct kd_sink_env *env)
{
	struct kd_summary *s = calloc(1, sizeof(*s));

	if (s)
		s->env = *env;
	return s;
}

static void summary__close(void *state)
{
	struct kd_summary *s = state;

	kd_map__free(&s->pending);
	kd_map__free(&s->index);
	utable__free(s->user);
	free(s->user);
	utable__free(s->files);
	free(s->files);
	for (size_t i = 0; i < s->file_of.cap; i++)
		if (s->file_of.ents[i].used)
			free((char *)(uintptr_t)s->file_of.ents[i].v1);
	kd_map__free(&s->file_of);
	for (size_t i = 0; i < s->n; i++)
		free(s->st[i].hist);
	free(s->st);
	free(s->tp);
	free(s);
}

static __s32 stat_key(unsigned int sv_flags, int code)
{
	return (__s32)((sv_flags & KTR_SV_ILP32 ? 1u << 16 : 0) | (code & 0xffff));
}

/* The index of the row for a syscall, added if new; -ENOMEM. */
static long stat_row(struct kd_summary *s, unsigned int sv_flags, int code)
{
	struct kd_map_ent *e = kd_map__get(&s->index, stat_key(sv_flags, code));
	struct kd_scstat *nst;
	size_t ncap;

	if (e)
		return (long)e->v1;
	if (s->n == s->cap) {
		ncap = s->cap ? s->cap * 2 : 64;
		nst = reallocarray(s->st, ncap, sizeof(*nst));
		if (!nst)
			return -ENOMEM;
		s->st = nst;
		s->cap = ncap;
	}
	e = kd_map__add(&s->index, stat_key(sv_flags, code));
	if (!e)
		return -ENOMEM;
	e->v1 = s->n;
	s->st[s->n] = (struct kd_scstat){ .sv_flags = sv_flags, .code = code };
	return (long)s->n++;
}

static int files__call(struct kd_summary *s, const struct kd_event *ev);
static int files__ret(struct kd_summary *s, const struct kd_event *ev);

int kd_summary__call(struct kd_summary *s, const struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	int code = ev->call.code;
	struct kd_map_ent *p;
	long row;

	row = stat_row(s, ev->sv_flags, code);
	if (row < 0)
		return (int)row;
	s->st[row].calls++;
	p = kd_map__add(&s->pending, h->ktr_tid);
	if (!p)
		return -ENOMEM;
	p->v1 = (__u64)row + 1;
	return (s->env.o->flags & KD_FDS) ? files__call(s, ev) : 0;
}

/* The raw code: a sigreturn's RET (-1) matches no CALL and adds no time. */
int kd_summary__ret(struct kd_summary *s, const struct kd_event *ev)
{
	int code = ev->ret.raw_code, error = ev->ret.error;
	struct kd_scstat *st;
	struct kd_map_ent *p;

	p = kd_map__get(&s->pending, ev->h->ktr_tid);
	if (!p || !p->v1)
		return 0;
	st = &s->st[p->v1 - 1];
	p->v1 = 0;
	if (st->code != code)
		return 0;
	if ((s->env.o->flags & KD_FDS) && files__ret(s, ev))
		return -ENOMEM;
	if (ev->ret.has_dur) {
		if (!st->hist && !(st->hist = calloc(1, sizeof(*st->hist))))
			return -ENOMEM;
		st->ns += ev->ret.dur_ns;
		kd_hist__add(st->hist, ev->ret.dur_ns);
	}
	if (error)
		st->errors++;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct kd_scstat *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return x->code - y->code;
}

static void print_row(FILE *out, double pct, __u64 ns, const struct kd_hist *hist,
		      unsigned long calls, unsigned long errors, const char *name, int code)
{
	char ebuf[24] = "";

	if (errors)
		snprintf(ebuf, sizeof(ebuf), "%lu", errors);
	fprintf(out, "%6.2f %11.6f %11llu ", pct, ns / 1e9,
		calls ? (unsigned long long)(ns / 1000 / calls) : 0ull);
	/* a total, or calls without a time (exit_group): 0, as usecs/call */
	fprintf(out, "%11llu %11llu %9lu %9s ",
		hist ? (unsigned long long)(kd_hist__percentile(hist, 99) / 1000) : 0ull,
		hist ? (unsigned long long)(hist->max / 1000) : 0ull, calls, ebuf);
	if (name)
		fprintf(out, "%s\n", name);
	else
		fprintf(out, "[%d]\n", code);
}

static void summary__print_rows(FILE *out, struct kd_utable *t, const char *what);
static void summary__print_tp(FILE *out, const struct kd_summary *s);

static int summary__finish(void *state)
{
	static const char rule[] =
		"------ ----------- ----------- ----------- ----------- --------- --------- "
		"----------------\n";
	struct kd_summary *s = state;
	FILE *out = s->env.out;
	unsigned long calls = 0, errors = 0;
	__u64 total = 0;
	size_t i;

	if (s->n)
		qsort(s->st, s->n, sizeof(*s->st), by_time);
	for (i = 0; i < s->n; i++) {
		total += s->st[i].ns;
		calls += s->st[i].calls;
		errors += s->st[i].errors;
	}
	fprintf(out, "%6s %11s %11s %11s %11s %9s %9s %s\n", "% time", "seconds", "usecs/call",
		"usecs/p99", "usecs/max", "calls", "errors", "syscall");
	fputs(rule, out);
	for (i = 0; i < s->n; i++)
		print_row(out, total ? 100.0 * s->st[i].ns / total : 0.0, s->st[i].ns,
			  s->st[i].hist, s->st[i].calls, s->st[i].errors,
			  ktr_syscall_name(s->st[i].sv_flags, s->st[i].code), s->st[i].code);
	fputs(rule, out);
	print_row(out, 100.0, total, NULL, calls, errors, "total", 0);
	if (s->lost)
		fprintf(out, "%llu records lost: the counts are incomplete\n",
			(unsigned long long)s->lost);
	if (s->cut_short)
		fprintf(out, "the trace ended early: %s\n", kd_fmt_end_why(s->cut_short, false));
	summary__print_rows(out, s->files, "file or socket (-y)");
	summary__print_rows(out, s->user, "user record (span, or provider:probe)");
	summary__print_tp(out, s);
	return 0;
}

/* --- user records ---------------------------------------------------------- */

/*
 * Rows keyed by what a user record is ("fw load_firmware", a probe's
 * "provider:name"), in a table hashed with a per-run random seed: names
 * come from the trace, and a file must not choose its own collisions.
 */
struct kd_urow {
	char *key;
	unsigned long count, timed, errors;
	__u64 total_ns, max_ns;
};

struct kd_utable {
	struct kd_urow *rows;
	size_t n, cap; /* cap: a power of two, kept at most half full */
	__u64 seed;
};

static __u64 utable__hash(const struct kd_utable *t, const char *s)
{
	__u64 h = 0xcbf29ce484222325ull ^ t->seed;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	h ^= h >> 33; /* fmix64: FNV's low bits alone spread poorly */
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static int utable__grow(struct kd_utable *t)
{
	size_t ncap = t->cap ? 2 * t->cap : 64;
	struct kd_urow *nr = calloc(ncap, sizeof(*nr));

	if (!nr)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->rows[i].key)
			continue;
		for (j = utable__hash(t, t->rows[i].key) & (ncap - 1); nr[j].key;
		     j = (j + 1) & (ncap - 1))
			;
		nr[j] = t->rows[i];
	}
	free(t->rows);
	t->rows = nr;
	t->cap = ncap;
	return 0;
}

static struct kd_urow *utable__row(struct kd_utable *t, const char *key)
{
	size_t i;

	if (!t->seed)
		t->seed = kd_random_seed();
	if ((t->n + 1) * 2 > t->cap && utable__grow(t))
		return NULL;
	for (i = utable__hash(t, key) & (t->cap - 1); t->rows[i].key; i = (i + 1) & (t->cap - 1))
		if (strcmp(t->rows[i].key, key) == 0)
			return &t->rows[i];
	t->rows[i].key = strdup(key);
	if (!t->rows[i].key)
		return NULL;
	t->n++;
	return &t->rows[i];
}

static void utable__free(struct kd_utable *t)
{
	for (size_t i = 0; t && i < t->cap; i++)
		free(t->rows[i].key);
	if (t)
		free(t->rows);
}

/* --- -y: by file or socket ---------------------------------------------------- */

/*
 * The call's first descriptor (not AT_FDCWD) that -y knows: its name, kept
 * with the thread until the RET adds the call's time to that file's row.
 */
static int files__call(struct kd_summary *s, const struct kd_event *ev)
{
	struct kd_map_ent *e = kd_map__add(&s->file_of, ev->h->ktr_tid);
	char name[KD_FDNAME_MAX];
	bool deleted;

	if (!e)
		return -ENOMEM;
	free((char *)(uintptr_t)e->v1);
	e->v1 = 0;
	for (int i = 0; i < ev->call.narg; i++) {
		int fd = (int)ev->call.args[i];

		if (!(ev->call.fdmask & (1u << i)) || fd == AT_FDCWD)
			continue;
		if (!kd_fdproc__name(ev->fds, fd, s->env.o->flags & KD_FDS_SOCK, name, sizeof(name),
				     &deleted))
			return 0;
		e->v1 = (__u64)(uintptr_t)strdup(name);
		return e->v1 ? 0 : -ENOMEM;
	}
	return 0;
}

static int files__ret(struct kd_summary *s, const struct kd_event *ev)
{
	struct kd_map_ent *e = kd_map__get(&s->file_of, ev->h->ktr_tid);
	char *name = e ? (char *)(uintptr_t)e->v1 : NULL;
	struct kd_urow *row;

	if (!name)
		return 0;
	e->v1 = 0;
	if (!s->files && !(s->files = calloc(1, sizeof(*s->files)))) {
		free(name);
		return -ENOMEM;
	}
	row = utable__row(s->files, name);
	free(name);
	if (!row)
		return -ENOMEM;
	row->count++;
	if (ev->ret.error)
		row->errors++;
	if (ev->ret.has_dur) {
		row->timed++;
		row->total_ns += ev->ret.dur_ns;
		if (ev->ret.dur_ns > row->max_ns)
			row->max_ns = ev->ret.dur_ns;
	}
	return 0;
}

/* The row a record counts in ("" if it is an enter, counted at its exit). */
static void urow__key(const struct kd_urec *u, char *key, size_t size, bool *is_exit, bool *timed)
{
	size_t base;

	*timed = true;
	*is_exit = u->h.ku_kind == KTR_UREC_SPAN_EXIT;
	if (u->h.ku_kind != KTR_UREC_PROBE) {
		snprintf(key, size, "%s%s %s", *is_exit ? "" : "\n", u->who, u->name);
	} else if (kd_urec__pair(u->name, &base, is_exit)) {
		snprintf(key, size, "%s%s:%.*s", *is_exit ? "" : "\n", u->who, (int)base, u->name);
	} else {
		snprintf(key, size, "%s:%s", u->who, u->name);
		*timed = false;
	}
}

int kd_summary__user(struct kd_summary *s, const struct kd_event *ev)
{
	const struct kd_urec *u = &ev->user;
	char key[KD_SPAN_KEY_MAX + 2];
	bool is_exit, timed;
	struct kd_urow *row;

	if (!s->user && !(s->user = calloc(1, sizeof(*s->user))))
		return -ENOMEM;
	if (!ev->ktru) {
		snprintf(key, sizeof(key), "utrace");
		timed = false;
		is_exit = false;
	} else {
		urow__key(u, key, sizeof(key), &is_exit, &timed);
		if (key[0] == '\n')
			return 0; /* an enter: counted with its exit */
	}
	row = utable__row(s->user, key);
	if (!row)
		return -ENOMEM;
	row->count++;
	if (timed && ev->span.found) {
		row->timed++;
		row->total_ns += ev->span.dur;
		if (ev->span.dur > row->max_ns)
			row->max_ns = ev->span.dur;
	}
	if (is_exit && u->h.ku_kind == KTR_UREC_SPAN_EXIT && (u->h.ku_flags & KTR_UREC_ERR))
		row->errors++;
	return 0;
}

static int urow__by_time(const void *a, const void *b)
{
	const struct kd_urow *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* The user record rows (or -y's files'), after the syscall table, if the trace had any. */
static void summary__print_rows(FILE *out, struct kd_utable *t, const char *what)
{
	struct kd_urow *rows;
	size_t n = 0;

	if (!t || !t->n || !(rows = calloc(t->n, sizeof(*rows))))
		return;
	for (size_t i = 0; i < t->cap; i++)
		if (t->rows[i].key)
			rows[n++] = t->rows[i];
	qsort(rows, n, sizeof(*rows), urow__by_time);
	fprintf(out, "\n%9s %11s %11s %11s %9s %s\n", "count", "seconds", "usecs/avg", "usecs/max",
		"errors", what);
	for (size_t i = 0; i < n; i++) {
		char ebuf[24] = "";

		if (rows[i].errors)
			snprintf(ebuf, sizeof(ebuf), "%lu", rows[i].errors);
		if (rows[i].timed)
			fprintf(out, "%9lu %11.6f %11llu %11llu %9s %s\n", rows[i].count,
				rows[i].total_ns / 1e9,
				(unsigned long long)(rows[i].total_ns / 1000 / rows[i].timed),
				(unsigned long long)(rows[i].max_ns / 1000), ebuf, rows[i].key);
		else
			fprintf(out, "%9lu %11s %11s %11s %9s %s\n", rows[i].count, "", "", "",
				ebuf, rows[i].key);
	}
	free(rows);
}

/* --- kernel events ----------------------------------------------------------- */

/* A TRACE record, counted under its format; one too short to hold an id is invalid. */
int kd_summary__tp(struct kd_summary *s, const struct kd_event *ev)
{
	const struct kd_tpfmt *f = ev->tp.fmt;

	if (!ev->tp.has_id) {
		++*s->env.ninvalid;
		return 0;
	}
	if (!f)
		return 0;
	if (f->seq >= s->ntp) {
		struct kd_tprow *nt = reallocarray(s->tp, f->seq + 1, sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		memset(nt + s->ntp, 0, (f->seq + 1 - s->ntp) * sizeof(*nt));
		s->tp = nt;
		s->ntp = f->seq + 1;
	}
	s->tp[f->seq].fmt = f;
	s->tp[f->seq].count++;
	return 0;
}

/* The kernel events table, in the order of their formats, if the trace had any. */
static void summary__print_tp(FILE *out, const struct kd_summary *s)
{
	bool any = false;

	for (size_t i = 0; i < s->ntp; i++) {
		if (!s->tp[i].count)
			continue;
		if (!any)
			fprintf(out, "\n%9s %s\n", "count", "kernel event");
		any = true;
		fprintf(out, "%9lu %s\n", s->tp[i].count, s->tp[i].fmt->f.tf_name);
	}
}

/* --- the sink ------------------------------------------------------------------- */

int kd_summary__invalid(struct kd_summary *s)
{
	++*s->env.ninvalid;
	return 0;
}

void kd_summary__lost(struct kd_summary *s, __u64 n)
{
	s->lost += n;
	s->session_lost += n;
}

void kd_summary__session(struct kd_summary *s)
{
	s->session_lost = 0;
}

void kd_summary__session_lost(struct kd_summary *s, __u64 n)
{
	if (n > s->session_lost) {
		s->lost += n - s->session_lost;
		s->session_lost = n;
	}
}

void kd_summary__cut_short(struct kd_summary *s, __u32 why)
{
	s->cut_short = why;
}

int kd_summary__not_counted(struct kd_summary *s, const struct kd_event *ev)
{
	return 0;
}

/* -Y: what each kind's count hook counts (syscalls, losses, user records, kernel events). */
static int summary__event(void *state, const struct kd_event *ev)
{
	const struct kd_kind_def *k = kd_kinds[ev->kind];

	return k && k->count ? k->count(state, ev) : 0;
}

const struct kd_sink kd_sink_summary = {
	.open = summary__open,
	.event = summary__event,
	.finish = summary__finish,
	.close = summary__close,
};
