// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The timeline sink (kdump -P): Chrome's trace-event JSON, which Perfetto's
 * UI and chrome://tracing open.  One track per process and thread, named
 * by metadata ("M") events; each syscall a slice from its CALL to its RET
 * ("B"/"E"), with its arguments, paths and return value; spans and
 * entry/exit probe pairs as slices too; signals, exits, GIO, other user
 * records and lost records as instant ("i") events.  docs/JSON.md
 * says what each event holds.
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
#include "kdump_event.h"
#include "kdump_jsonout.h"
#include "kdump_priv.h"
#include "kdump_user.h"

#define CHROME_FORMAT_VERSION 1
#define SLICES_MAX	      64 /* open slices of a thread: deeper enters become instants */
#define NAME_MAX_LEN	      (2 * KTR_UREC_NAME_MAX)
#define PATHS_MAX	      2 /* paths of a syscall shown (rename, linkat have two) */

struct slice {
	bool syscall; /* else a span */
	char name[NAME_MAX_LEN];
};

struct ch_thread {
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

struct kd_chrome {
	struct kd_map tids; /* tid -> v1 = index + 1 in threads */
	struct kd_map pids; /* pid -> v1 = 1: named */
	struct ch_thread *threads;
	size_t nthreads, cap;
	__s64 base_ns, end_ns;
	bool have_base, first;
};

void kd_chrome__free(struct kdump *kd)
{
	struct kd_chrome *c = kd->chrome;

	if (!c)
		return;
	for (size_t i = 0; i < c->nthreads; i++)
		for (int p = 0; p < PATHS_MAX; p++)
			free(c->threads[i].path[p]);
	free(c->threads);
	kd_map__free(&c->tids);
	kd_map__free(&c->pids);
	free(c);
	kd->chrome = NULL;
}

/* --- output ----------------------------------------------------------------- */

static void sep(struct kdump *kd)
{
	fputs(kd->chrome->first ? "\n" : ",\n", kd->out);
	kd->chrome->first = false;
}

static void put_ts(struct kdump *kd, __s64 ns)
{
	__u64 rel = (__u64)ns - (__u64)kd->chrome->base_ns;

	fprintf(kd->out, "%llu.%03llu", (unsigned long long)(rel / 1000),
		(unsigned long long)(rel % 1000));
}

/* The start of an event up to its "args" object, not closed. */
static void event_head(struct kdump *kd, const struct ch_thread *t, char ph, const char *cat,
		       const char *name, __s64 ns)
{
	FILE *out = kd->out;

	sep(kd);
	fprintf(out, "{\"ph\":\"%c\",\"cat\":\"%s\",\"name\":", ph, cat);
	kd_json_cstr(out, name);
	fputs(",\"ts\":", out);
	put_ts(kd, ns);
	fprintf(out, ",\"pid\":%d,\"tid\":%d", t->pid, t->tid);
	if (ph == 'i')
		fprintf(out, ",\"s\":\"%c\"", strcmp(cat, "lost") == 0 ? 'g' : 't');
}

static void meta(struct kdump *kd, const char *what, __s32 pid, __s32 tid, const char *name)
{
	sep(kd);
	fprintf(kd->out,
		"{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", what,
		pid, tid);
	kd_json_cstr(kd->out, name);
	fputs("}}", kd->out);
}

/* --- threads and their slices ------------------------------------------------ */

static void pop(struct kdump *kd, struct ch_thread *t, __s64 ns, const char *record);
static void paths_clear(struct ch_thread *t);

static struct ch_thread *thread_of(struct kdump *kd, const struct ktr_header *h)
{
	struct kd_chrome *c = kd->chrome;
	struct kd_map_ent *e = kd_map__add(&c->tids, h->ktr_tid);
	char comm[KTR_MAXCOMLEN + 1];
	struct ch_thread *t;
	bool renamed;
	int i;

	if (!e)
		return NULL;
	if (!e->v1) {
		if (c->nthreads == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 64;
			struct ch_thread *nt = reallocarray(c->threads, cap, sizeof(*nt));

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
			pop(kd, t, t->last_ns, NULL);
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
		meta(kd, "thread_name", t->pid, t->tid, comm);
	}
	e = kd_map__add(&c->pids, h->ktr_pid);
	if (!e)
		return NULL;
	if (!e->v1 || (renamed && t->tid == t->pid)) {
		e->v1 = 1;
		meta(kd, "process_name", t->pid, t->pid, comm);
	}
	return t;
}

/* The thread's time for an event at ns: never before its previous event. */
static __s64 thread_ts(struct kdump *kd, struct ch_thread *t, __s64 ns)
{
	if (ns < kd->chrome->base_ns)
		ns = kd->chrome->base_ns;
	if (ns < t->last_ns)
		ns = t->last_ns;
	t->last_ns = ns;
	if (ns > kd->chrome->end_ns)
		kd->chrome->end_ns = ns;
	return ns;
}

static void paths_clear(struct ch_thread *t)
{
	t->npath = 0;
}

static void push(struct kdump *kd, struct ch_thread *t, bool syscall, const char *name, __s64 ns)
{
	struct slice *s = &t->stack[t->n++];

	s->syscall = syscall;
	snprintf(s->name, sizeof(s->name), "%s", name);
	event_head(kd, t, 'B', syscall ? "syscall" : "span", name, ns);
}

/*
 * Ends the top slice.  With record, its "args" object is left open after
 * {"record":record and the syscall's paths, for the caller's members; else
 * it says the slice's end is not in the trace.
 */
static void pop(struct kdump *kd, struct ch_thread *t, __s64 ns, const char *record)
{
	struct slice *s = &t->stack[--t->n];

	event_head(kd, t, 'E', s->syscall ? "syscall" : "span", s->name, ns);
	fprintf(kd->out, ",\"args\":{\"record\":\"%s\"", record ? record : "none");
	if (s->syscall) {
		for (int p = 0; p < t->npath; p++) {
			fputs(p ? ",\"path2\":" : ",\"path\":", kd->out);
			kd_json_str(kd->out, t->path[p], t->pathlen[p]);
		}
		paths_clear(t);
	}
	if (!record)
		fputs(",\"unfinished\":true}}", kd->out);
}

/* Ends every slice above depth i (left open: their ends are not in the trace). */
static void pop_to(struct kdump *kd, struct ch_thread *t, int i, __s64 ns)
{
	while (t->n > i)
		pop(kd, t, ns, NULL);
}

static int find(const struct ch_thread *t, bool syscall, const char *name)
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
static void end_slice(struct kdump *kd, struct ch_thread *t, bool syscall, const char *name,
		      const char *record, __s64 ns)
{
	int i = find(t, syscall, syscall ? NULL : name);

	if (i >= 0) {
		pop_to(kd, t, i + 1, ns);
		pop(kd, t, ns, record);
		return;
	}
	if (t->n == SLICES_MAX)
		pop(kd, t, ns, NULL);
	push(kd, t, syscall, name, t->last_ns);
	fputs(",\"args\":{\"started_before_trace\":true}}", kd->out);
	pop(kd, t, ns, record);
}

/* A slice's start, with its "args" object open after {"record":record. */
static void start_slice(struct kdump *kd, struct ch_thread *t, bool syscall, const char *name,
			const char *record, __s64 ns)
{
	if (t->n == SLICES_MAX)
		pop(kd, t, ns, NULL);
	push(kd, t, syscall, name, ns);
	fprintf(kd->out, ",\"args\":{\"record\":\"%s\"", record);
}

/* --- records ------------------------------------------------------------------ */

static void ch_call(struct kdump *kd, struct ch_thread *t, const struct kd_event *ev, __s64 ns)
{
	char name[NAME_MAX_LEN];
	int i = find(t, true, NULL);

	if (i >= 0)
		pop_to(kd, t, i, ns); /* its RET was lost, or it was exit_group */
	paths_clear(t);
	kd_fmt_scname(kd, name, sizeof(name), ev->sv_flags, ev->call.code);
	start_slice(kd, t, true, name, "CALL", ns);
	kd_json_call(kd, kd->out, ev, true);
	fputs("}}", kd->out);
}

static void ch_ret(struct kdump *kd, struct ch_thread *t, const struct kd_event *ev, __s64 ns)
{
	char name[NAME_MAX_LEN];

	kd_fmt_scname(kd, name, sizeof(name), ev->sv_flags, ev->ret.code);
	end_slice(kd, t, true, name, "RET", ns);
	kd_json_ret(kd, kd->out, ev);
	fputs("}}", kd->out);
}

static int ch_namei(struct ch_thread *t, const struct kd_event *ev)
{
	unsigned char *p;

	if (t->npath == PATHS_MAX)
		return 0;
	p = realloc(t->path[t->npath], ev->len ? ev->len : 1);
	if (!p)
		return -ENOMEM;
	memcpy(p, ev->data, ev->len);
	t->path[t->npath] = p;
	t->pathlen[t->npath++] = ev->len;
	return 0;
}

static void ch_user(struct kdump *kd, struct ch_thread *t, const struct kd_event *ev, __s64 ns)
{
	char name[NAME_MAX_LEN];

	if (!ev->valid || !ev->span.spanlike || (kd->o.decode & KTR_DEC_RAW)) {
		if (ev->valid && !(kd->o.decode & KTR_DEC_RAW))
			snprintf(name, sizeof(name), "%s:%s", ev->user.who, ev->user.name);
		else
			snprintf(name, sizeof(name), "utrace");
		event_head(kd, t, 'i', "user", name, ns);
		fputs(",\"args\":{\"record\":\"USER\"", kd->out);
		kd_json_user(kd, kd->out, ev);
		fputs("}}", kd->out);
		return;
	}
	kd_json_span_name(ev, name, sizeof(name));
	if (ev->span.is_exit)
		end_slice(kd, t, false, name, "USER", ns);
	else
		start_slice(kd, t, false, name, "USER", ns);
	kd_json_user(kd, kd->out, ev);
	fputs("}}", kd->out);
}

/* An instant event of the record's own members (kdump_jsonout.c), or none if invalid. */
static void ch_instant(struct kdump *kd, struct ch_thread *t, const struct kd_event *ev, __s64 ns,
		       const char *cat, const char *name,
		       int (*members)(struct kdump *, FILE *, const struct kd_event *))
{
	FILE *cap = kd_json_capture(kd);
	const char *text;
	size_t len;

	/* the members first, aside: an invalid record shows as such */
	if (!cap)
		return;
	if (members(kd, cap, ev) < 0) {
		kd->ninvalid++;
		event_head(kd, t, 'i', "invalid", name, ns);
		fputs(",\"args\":{\"invalid\":true}}", kd->out);
		return;
	}
	text = kd_json_capture_text(kd, &len);
	event_head(kd, t, 'i', cat, name, ns);
	fprintf(kd->out, ",\"args\":{\"record\":\"%s\"", name);
	if (text)
		fwrite(text, 1, len, kd->out);
	fputs("}}", kd->out);
}

/* A CALL or RET the event pass found invalid. */
static int invalid_members(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	(void)kd, (void)out, (void)ev;
	return -EINVAL;
}

static int lost_members(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	(void)kd;
	if (!ev->valid)
		return -EINVAL;
	fprintf(out, ",\"lost\":%llu,\"lost_total\":%llu", (unsigned long long)ev->lost.lost,
		(unsigned long long)ev->lost.total);
	return 0;
}

/* A process has ended: so have all its threads' slices. */
static void ch_exit(struct kdump *kd, struct ch_thread *t, const struct kd_event *ev, __s64 ns)
{
	struct kd_chrome *c = kd->chrome;

	for (size_t i = 0; i < c->nthreads; i++) {
		struct ch_thread *o = &c->threads[i];

		if (o->pid == ev->h->ktr_pid && o->n)
			pop_to(kd, o, 0, thread_ts(kd, o, ns));
	}
	ch_instant(kd, t, ev, ns, "process", "EXIT", kd_json_exit);
}

static int chrome__event(struct kdump *kd, const struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	struct kd_chrome *c = kd->chrome;
	struct ch_thread *t;
	__s64 ns;

	if (!c) {
		c = kd->chrome = calloc(1, sizeof(*c));
		if (!c)
			return -ENOMEM;
		c->first = true;
	}
	if (!kd->sink_started) {
		kd->sink_started = 1;
		fputs("{\"traceEvents\":[", kd->out);
	}
	ns = kd_event__ns(kd, h);
	if (!c->have_base) {
		c->have_base = true;
		c->base_ns = c->end_ns = ns;
	}
	switch (h->ktr_type) {
	case KTR_SYSCALL:
	case KTR_SYSRET:
	case KTR_NAMEI:
	case KTR_GENIO:
	case KTR_PSIG:
	case KTR_USER:
	case KTR_LOST:
	case KTR_EXIT:
		break;
	default:
		return 0; /* not on the timeline (docs/JSON.md) */
	}
	t = thread_of(kd, h);
	if (!t)
		return -ENOMEM;
	ns = thread_ts(kd, t, ns);
	switch (h->ktr_type) {
	case KTR_SYSCALL:
		if (ev->valid)
			ch_call(kd, t, ev, ns);
		else
			ch_instant(kd, t, ev, ns, "syscall", "CALL", invalid_members);
		break;
	case KTR_SYSRET:
		if (ev->valid)
			ch_ret(kd, t, ev, ns);
		else
			ch_instant(kd, t, ev, ns, "syscall", "RET", invalid_members);
		break;
	case KTR_NAMEI:
		return ch_namei(t, ev);
	case KTR_GENIO:
		ch_instant(kd, t, ev, ns, "io", "GIO", kd_json_genio);
		break;
	case KTR_PSIG:
		ch_instant(kd, t, ev, ns, "signal", "PSIG", kd_json_psig);
		break;
	case KTR_USER:
		ch_user(kd, t, ev, ns);
		break;
	case KTR_LOST:
		ch_instant(kd, t, ev, ns, "lost", "LOST", lost_members);
		break;
	case KTR_EXIT:
		ch_exit(kd, t, ev, ns);
		break;
	}
	if (kd->o.flags & KD_FOLLOW)
		fflush(kd->out);
	return 0;
}

/* Ends what the trace left open, and the document. */
static int chrome__finish(struct kdump *kd)
{
	struct kd_chrome *c = kd->chrome;

	if (!kd->sink_started) {
		kd->sink_started = 1;
		fputs("{\"traceEvents\":[", kd->out);
	}
	if (c)
		for (size_t i = 0; i < c->nthreads; i++)
			pop_to(kd, &c->threads[i], 0, thread_ts(kd, &c->threads[i], c->end_ns));
	fprintf(kd->out,
		"\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"format\":\"ktraceb-chrome\","
		"\"version\":%d,\"base_ns\":%lld}}\n",
		CHROME_FORMAT_VERSION, c ? (long long)c->base_ns : 0LL);
	return 0;
}

const struct kd_sink kd_sink_chrome = { chrome__event, chrome__finish };
