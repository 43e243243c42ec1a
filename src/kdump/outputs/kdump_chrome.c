// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The timeline sink (kdump -P, kdump_sink.h): Chrome's trace-event JSON,
 * which Perfetto's UI and chrome://tracing open.  One track per process
 * and thread, named by metadata ("M") events; each syscall a slice from
 * its CALL to its RET ("B"/"E"), with its arguments, paths and return
 * value; spans and entry/exit probe pairs as slices too; signals, exits,
 * GIO, other user records and lost records as instant ("i") events.
 * docs/JSON.md says what each event holds.  What each kind draws is in
 * its file (kdump_kind.h timeline), with this file's kdump_timeline.h.
 *
 * The slices of a thread always nest and balance, whatever the trace
 * holds: each thread keeps a stack of its open slices.  A RET or span exit
 * whose start the trace does not have (it began inside) gets a slice from
 * the thread's previous event; a CALL while a syscall is open (its RET was
 * lost, or exit_group) ends the open one; an exit ends whatever was opened
 * above its enter; an EXIT ends all of its process's slices, and the end of
 * the input all that are left.  Times are µs since the first record, never
 * earlier than the thread's previous event.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_fmt.h"
#include "kdump_jsonout.h"
#include "kdump_map.h"
#include "kdump_sink.h"
#include "kdump_timeline.h"

#define CHROME_FORMAT_VERSION 1
#define SLICES_MAX	      64 /* open slices of a thread: deeper enters become instants */
#define NAME_MAX_LEN	      KD_TL_NAME_MAX
#define PATHS_MAX	      2 /* paths of a syscall shown (rename, linkat have two) */

struct slice {
	bool syscall; /* else a span */
	char name[NAME_MAX_LEN];
};

struct kd_tl_thread {
	__s32 tid, pid;
	char comm[KTR_MAXCOMLEN + 1];
	bool named; /* its thread_name written, with comm */
	__s64 last_ns; /* its latest event, on the trace's clock */
	int n;
	struct slice stack[SLICES_MAX];
	unsigned char *path[PATHS_MAX]; /* the open syscall's NAMI records */
	size_t pathlen[PATHS_MAX];
	int npath;
};

struct kd_timeline {
	struct kd_sink_env env;
	FILE *out;
	struct kd_map tids; /* tid -> v1 = index + 1 in threads */
	struct kd_map pids; /* pid -> v1 = 1: named */
	struct kd_tl_thread *threads;
	size_t nthreads, cap;
	__s64 base_ns, end_ns;
	bool have_base, first, started;
};

static void *chrome__open(const struct kd_sink_env *env)
{
	struct kd_timeline *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->env = *env;
	c->out = env->out;
	c->first = true;
	return c;
}

static void chrome__close(void *state)
{
	struct kd_timeline *c = state;

	for (size_t i = 0; i < c->nthreads; i++)
		for (int p = 0; p < PATHS_MAX; p++)
			free(c->threads[i].path[p]);
	free(c->threads);
	kd_map__free(&c->tids);
	kd_map__free(&c->pids);
	free(c);
}

/* --- output ----------------------------------------------------------------- */

static void sep(struct kd_timeline *c)
{
	fputs(c->first ? "\n" : ",\n", c->out);
	c->first = false;
}

static void put_ts(struct kd_timeline *c, __s64 ns)
{
	__u64 rel = (__u64)ns - (__u64)c->base_ns;

	fprintf(c->out, "%llu.%03llu", (unsigned long long)(rel / 1000),
		(unsigned long long)(rel % 1000));
}

/* The start of an event up to its "args" object, not closed. */
static void event_head(struct kd_timeline *c, const struct kd_tl_thread *t, char ph,
		       const char *cat, const char *name, __s64 ns)
{
	FILE *out = c->out;

	sep(c);
	fprintf(out, "{\"ph\":\"%c\",\"cat\":\"%s\",\"name\":", ph, cat);
	kd_json_cstr(out, name);
	fputs(",\"ts\":", out);
	put_ts(c, ns);
	fprintf(out, ",\"pid\":%d,\"tid\":%d", t->pid, t->tid);
	if (ph == 'i')
		fprintf(out, ",\"s\":\"%c\"",
			strcmp(cat, "lost") == 0 || strcmp(cat, "end") == 0 ? 'g' : 't');
}

static void meta(struct kd_timeline *c, const char *what, __s32 pid, __s32 tid, const char *name)
{
	sep(c);
	fprintf(c->out,
		"{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", what,
		pid, tid);
	kd_json_cstr(c->out, name);
	fputs("}}", c->out);
}

/* --- threads and their slices ------------------------------------------------ */

static void pop(struct kd_timeline *c, struct kd_tl_thread *t, __s64 ns, const char *record);
static void paths_clear(struct kd_tl_thread *t);

static struct kd_tl_thread *thread_of(struct kd_timeline *c, const struct ktr_header *h)
{
	struct kd_map_ent *e = kd_map__add(&c->tids, h->ktr_tid);
	char comm[KTR_MAXCOMLEN + 1];
	struct kd_tl_thread *t;
	bool renamed;
	int i;

	if (!e)
		return NULL;
	if (!e->v1) {
		if (c->nthreads == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 64;
			struct kd_tl_thread *nt = reallocarray(c->threads, cap, sizeof(*nt));

			if (!nt)
				return NULL;
			c->threads = nt;
			c->cap = cap;
		}
		t = &c->threads[c->nthreads];
		memset(t, 0, sizeof(*t));
		t->tid = h->ktr_tid;
		t->pid = h->ktr_pid;
		t->last_ns = c->base_ns;
		e->v1 = ++c->nthreads;
	}
	t = &c->threads[e->v1 - 1];
	if (t->pid != h->ktr_pid) {
		/* a tid reused by another process: the old one's track ends */
		while (t->n)
			pop(c, t, t->last_ns, NULL);
		paths_clear(t);
		t->pid = h->ktr_pid;
		t->named = false;
	}
	for (i = 0; i < KTR_MAXCOMLEN && h->ktr_comm[i]; i++)
		comm[i] = h->ktr_comm[i];
	comm[i] = '\0';
	renamed = !t->named || strcmp(comm, t->comm) != 0;
	if (renamed) {
		t->named = true;
		memcpy(t->comm, comm, sizeof(comm));
		meta(c, "thread_name", t->pid, t->tid, comm);
	}
	e = kd_map__add(&c->pids, h->ktr_pid);
	if (!e)
		return NULL;
	if (!e->v1 || (renamed && t->tid == t->pid)) {
		e->v1 = 1;
		meta(c, "process_name", t->pid, t->pid, comm);
	}
	return t;
}

/* The thread's time for an event at ns: never before its previous event. */
static __s64 thread_ts(struct kd_timeline *c, struct kd_tl_thread *t, __s64 ns)
{
	if (ns < c->base_ns)
		ns = c->base_ns;
	if (ns < t->last_ns)
		ns = t->last_ns;
	t->last_ns = ns;
	if (ns > c->end_ns)
		c->end_ns = ns;
	return ns;
}

static void paths_clear(struct kd_tl_thread *t)
{
	t->npath = 0;
}

static void push(struct kd_timeline *c, struct kd_tl_thread *t, bool syscall, const char *name,
		 __s64 ns)
{
	struct slice *s = &t->stack[t->n++];

	s->syscall = syscall;
	snprintf(s->name, sizeof(s->name), "%s", name);
	event_head(c, t, 'B', syscall ? "syscall" : "span", name, ns);
}

/*
 * Ends the top slice.  With record, its "args" object is left open after
 * {"record":record and the syscall's paths, for the caller's members; else
 * it says the slice's end is not in the trace.
 */
static void pop(struct kd_timeline *c, struct kd_tl_thread *t, __s64 ns, const char *record)
{
	struct slice *s = &t->stack[--t->n];

	event_head(c, t, 'E', s->syscall ? "syscall" : "span", s->name, ns);
	fprintf(c->out, ",\"args\":{\"record\":\"%s\"", record ? record : "none");
	if (s->syscall) {
		for (int p = 0; p < t->npath; p++) {
			fputs(p ? ",\"path2\":" : ",\"path\":", c->out);
			kd_json_str(c->out, t->path[p], t->pathlen[p]);
		}
		paths_clear(t);
	}
	if (!record)
		fputs(",\"unfinished\":true}}", c->out);
}

/* Ends every slice above depth i (left open: their ends are not in the trace). */
static void pop_to(struct kd_timeline *c, struct kd_tl_thread *t, int i, __s64 ns)
{
	while (t->n > i)
		pop(c, t, ns, NULL);
}

static int find(const struct kd_tl_thread *t, bool syscall, const char *name)
{
	for (int i = t->n - 1; i >= 0; i--)
		if (t->stack[i].syscall == syscall &&
		    (!name || strcmp(t->stack[i].name, name) == 0))
			return i;
	return -1;
}

/*
 * The end of a syscall or span (the innermost of that name, ending any
 * opened above it), or, when the trace does not have its start, a slice
 * from the thread's previous event.  Returns with the E event's "args"
 * open, as pop().
 */
static void end_slice(struct kd_timeline *c, struct kd_tl_thread *t, bool syscall, const char *name,
		      const char *record, __s64 ns)
{
	int i = find(t, syscall, syscall ? NULL : name);

	if (i >= 0) {
		pop_to(c, t, i + 1, ns);
		pop(c, t, ns, record);
		return;
	}
	if (t->n == SLICES_MAX)
		pop(c, t, ns, NULL);
	push(c, t, syscall, name, t->last_ns);
	fputs(",\"args\":{\"started_before_trace\":true}}", c->out);
	pop(c, t, ns, record);
}

/* A slice's start, with its "args" object open after {"record":record. */
static void start_slice(struct kd_timeline *c, struct kd_tl_thread *t, bool syscall,
			const char *name, const char *record, __s64 ns)
{
	if (t->n == SLICES_MAX)
		pop(c, t, ns, NULL);
	push(c, t, syscall, name, ns);
	fprintf(c->out, ",\"args\":{\"record\":\"%s\"", record);
}

/* --- what a kind's timeline hook draws with (kdump_timeline.h) ---------------- */

FILE *kd_timeline__out(struct kd_timeline *c)
{
	return c->out;
}

const struct kdump_opts *kd_timeline__opts(const struct kd_timeline *c)
{
	return c->env.o;
}

void kd_timeline__start_slice(struct kd_timeline *c, struct kd_tl_thread *t, bool syscall,
			      const char *name, const char *record, __s64 ns)
{
	start_slice(c, t, syscall, name, record, ns);
}

void kd_timeline__end_slice(struct kd_timeline *c, struct kd_tl_thread *t, bool syscall,
			    const char *name, const char *record, __s64 ns)
{
	end_slice(c, t, syscall, name, record, ns);
}

void kd_timeline__end_syscall(struct kd_timeline *c, struct kd_tl_thread *t, __s64 ns)
{
	int i = find(t, true, NULL);

	if (i >= 0)
		pop_to(c, t, i, ns);
	paths_clear(t);
}

void kd_timeline__instant(struct kd_timeline *c, struct kd_tl_thread *t, const char *cat,
			  const char *name, const char *record, __s64 ns)
{
	event_head(c, t, 'i', cat, name, ns);
	fprintf(c->out, ",\"args\":{\"record\":\"%s\"", record);
}

void kd_timeline__done(struct kd_timeline *c)
{
	fputs("}}", c->out);
}

int kd_timeline__path(struct kd_tl_thread *t, const void *p, size_t len)
{
	unsigned char *copy;

	if (t->npath == PATHS_MAX)
		return 0;
	copy = realloc(t->path[t->npath], len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, p, len);
	t->path[t->npath] = copy;
	t->pathlen[t->npath++] = len;
	return 0;
}

void kd_timeline__end_process(struct kd_timeline *c, __s32 pid, __s64 ns)
{
	for (size_t i = 0; i < c->nthreads; i++) {
		struct kd_tl_thread *o = &c->threads[i];

		if (o->pid == pid && o->n)
			pop_to(c, o, 0, thread_ts(c, o, ns));
	}
}

int kd_timeline__not_drawn(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
			   __s64 ns)
{
	return 0;
}

static void start(struct kd_timeline *c)
{
	if (!c->started) {
		c->started = true;
		fputs("{\"traceEvents\":[", c->out);
	}
}

static int chrome__event(void *state, const struct kd_event *ev)
{
	const struct kd_kind_def *k = kd_kinds[ev->kind];
	struct kd_timeline *c = state;
	struct kd_tl_thread *t;
	__s64 ns = ev->ns;
	int err = 0;

	start(c);
	if (!c->have_base) {
		c->have_base = true;
		c->base_ns = c->end_ns = ns;
	}
	if (!k || !k->timeline || k->timeline == kd_timeline__not_drawn) {
		if (!ev->valid) /* not shown, but counted as the text counts it */
			++*c->env.ninvalid;
		return 0;
	}
	t = thread_of(c, ev->h);
	if (!t)
		return -ENOMEM;
	ns = thread_ts(c, t, ns);
	if (!ev->valid) {
		++*c->env.ninvalid;
		event_head(c, t, 'i', "invalid", kd_kind_tag(ev->kind), ns);
		fputs(",\"args\":{\"invalid\":true}}", c->out);
	} else {
		err = k->timeline(c, t, ev, ns);
	}
	/* a path is no event of its own */
	if (!err && ev->kind != KD_NAMEI && (c->env.o->flags & KD_FOLLOW))
		fflush(c->out);
	return err;
}

/* Ends what the trace left open, and the document. */
static int chrome__finish(void *state)
{
	struct kd_timeline *c = state;

	start(c);
	for (size_t i = 0; i < c->nthreads; i++)
		pop_to(c, &c->threads[i], 0, thread_ts(c, &c->threads[i], c->end_ns));
	fprintf(c->out,
		"\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"format\":\"ktraceb-chrome\","
		"\"version\":%d,\"base_ns\":%lld}}\n",
		CHROME_FORMAT_VERSION, (long long)c->base_ns);
	return 0;
}

const struct kd_sink kd_sink_chrome = {
	.open = chrome__open,
	.event = chrome__event,
	.finish = chrome__finish,
	.close = chrome__close,
};
