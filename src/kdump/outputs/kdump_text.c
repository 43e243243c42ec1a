// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The text sink (kdump_sink.h): BSD kdump's lines, " pid:tid  comm  TAG  body",
 * one a record; the body is kdump_body.c's.  A record whose payload does
 * not fit its kind prints "invalid record" after its tag and is counted.
 * An argv or envp split over several ARGS (ENVS) records is one line.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kdump_body.h"
#include "kdump_fmt.h"
#include "kdump_replay.h"
#include "kdump_sink.h"

#define JOIN_MAX (64u << 20) /* most bytes of one joined argv or envp */

struct text {
	struct kd_sink_env env;
	bool have_first;
	__s64 first_ns; /* -E: the first record shown */
	__s64 prev_ns; /* -R: the previous record shown */
	struct {
		struct ktr_header hdr; /* the first piece's */
		struct kd_event ev; /* the first piece's, its payload the pieces so far */
		unsigned char *buf;
		size_t len;
	} join;
};

static void *text__open(const struct kd_sink_env *env)
{
	struct text *t = calloc(1, sizeof(*t));

	if (t)
		t->env = *env;
	return t;
}

static void text__close(void *state)
{
	struct text *t = state;

	free(t->join.buf);
	free(t);
}

/* --- line prefix -------------------------------------------------------- */

static void print_ns(FILE *out, __s64 ns)
{
	__u64 a = ns < 0 ? -(__u64)ns : (__u64)ns;

	fprintf(out, "%s%llu.%09llu ", ns < 0 ? "-" : "", (unsigned long long)(a / 1000000000),
		(unsigned long long)(a % 1000000000));
}

static void print_times(struct text *t, const struct kd_event *ev)
{
	unsigned int f = t->env.o->flags;

	if (!(f & (KD_ABSTIME | KD_ELAPSED | KD_RELTIME)))
		return;
	if (!t->have_first) {
		t->have_first = true;
		t->first_ns = t->prev_ns = ev->ns;
	}
	if (f & KD_ABSTIME)
		print_ns(t->env.out, ev->wall_ns);
	if (f & KD_ELAPSED)
		print_ns(t->env.out, (__s64)((__u64)ev->ns - (__u64)t->first_ns));
	if (f & KD_RELTIME)
		print_ns(t->env.out, (__s64)((__u64)ev->ns - (__u64)t->prev_ns));
	t->prev_ns = ev->ns;
}

/* v as printf's "%*d" does: right-aligned in width columns, left-aligned in -width. */
static size_t put_int(char *s, int v, int width)
{
	unsigned int u = v < 0 ? -(unsigned int)v : (unsigned int)v;
	char digits[12];
	size_t n = 0, k = 0, len;

	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10));
	if (v < 0)
		digits[n++] = '-';
	len = n;
	while (width > 0 && (size_t)width > len++)
		s[k++] = ' ';
	while (n)
		s[k++] = digits[--n];
	while (width < 0 && (size_t)-width > k)
		s[k++] = ' ';
	return k;
}

/* "pid:tid" (-H: "pid tid") and -c's CPU column, into s; their length. */
static size_t put_ids(struct text *t, char *s, int pid, int tid, int cpu)
{
	bool tidcol = t->env.o->flags & KD_TIDCOL;
	size_t k = put_int(s, pid, tidcol ? 6 : 5);

	s[k++] = tidcol ? ' ' : ':';
	k += put_int(s + k, tid, tidcol ? 6 : -5);
	if (t->env.o->flags & KD_CPU) {
		s[k++] = ' ';
		k += put_int(s + k, cpu, 2);
	}
	return k;
}

/* The columns before the tag: ids, comm, times.  Each line has them: by hand, not printf. */
static void print_prefix(struct text *t, const struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	char s[64 + KTR_MAXCOMLEN];
	size_t k, n;

	/* -N: the ids its pid namespace gives it, where a CGRP record said them */
	if ((t->env.o->flags & KD_NSPID) && ev->ns_pid)
		k = put_ids(t, s, ev->ns_pid, ev->ns_tid ? ev->ns_tid : h->ktr_tid,
			    KTRH_CPUID_DECODE(h->ktr_flags));
	else
		k = put_ids(t, s, h->ktr_pid, h->ktr_tid, KTRH_CPUID_DECODE(h->ktr_flags));
	s[k++] = ' ';
	kd_fmt_comm(s + k, h);
	n = strlen(s + k);
	k += n;
	for (; n < 8; n++)
		s[k++] = ' ';
	s[k++] = ' ';
	fwrite(s, 1, k, t->env.out);
	print_times(t, ev);
}

static void print_record(struct text *t, const struct kd_event *ev)
{
	FILE *out = t->env.out;

	print_prefix(t, ev);
	if (ev->kind == KD_UNKNOWN) {
		fprintf(out, "UNKNOWN(%d)\n", ev->h->ktr_type);
	} else {
		fprintf(out, "%-4s  ", kd_kind_tag(ev->kind));
		/* a recorder's dump shows it again (kdump_replay.h): not a new event */
		if (ev->replayed)
			fputs(KD_REPLAYED_MARK " ", out);
		if (ev->valid) {
			kd_body(out, ev, t->env.o);
		} else {
			fputs("invalid record", out);
			++*t->env.ninvalid;
		}
		fputc('\n', out);
	}
	if (t->env.o->flags & KD_FOLLOW)
		fflush(out);
}

/* --- argv and envp in pieces ------------------------------------------------- */

/* Print the ARGS/ENVS being joined, if any, as one record with its first piece's header. */
static void join__flush(struct text *t)
{
	if (!t->join.len)
		return;
	t->join.hdr.ktr_len = t->join.len;
	t->join.ev.h = &t->join.hdr;
	t->join.ev.data = t->join.buf;
	t->join.ev.len = t->join.len;
	print_record(t, &t->join.ev);
	t->join.len = 0;
}

/*
 * ARGS/ENVS split over KTR_STRINGS_CHUNK-byte records (ktr.h): keep the
 * pieces and print one line when the last, shorter, piece arrives.
 * Returns true when the event was taken into the join.
 */
static bool join__take(struct text *t, const struct kd_event *ev)
{
	bool same = t->join.len && t->join.hdr.ktr_tid == ev->h->ktr_tid &&
		    t->join.ev.kind == ev->kind;
	size_t len = ev->len;
	unsigned char *buf;

	if (t->join.len && !same)
		join__flush(t);
	if ((ev->kind != KD_ARGS && ev->kind != KD_ENVS) || (!same && len != KTR_STRINGS_CHUNK) ||
	    t->join.len + len > JOIN_MAX)
		return false;
	buf = realloc(t->join.buf, t->join.len + len);
	if (!buf)
		return false;
	t->join.buf = buf;
	if (!t->join.len) {
		t->join.hdr = *ev->h;
		t->join.ev = *ev;
	}
	memcpy(buf + t->join.len, ev->data, len);
	t->join.len += len;
	if (len != KTR_STRINGS_CHUNK)
		join__flush(t);
	return true;
}

/* --- the sink ------------------------------------------------------------------- */

/* What ktraceb's INFO record says of its file, said of another system's. */
static void text__format(void *state, const struct kd_bsd_fmt *fmt)
{
	struct text *t = state;
	char desc[128], ids[64];

	if (fmt->sys == KD_SYS_KTRACEB)
		return;
	kd_bsd__describe(fmt, desc, sizeof(desc));
	fwrite(ids, 1, put_ids(t, ids, 0, 0, 0), t->env.out);
	fprintf(t->env.out, " %-8s INFO  %s\n", "kdump", desc);
}

static int text__event(void *state, const struct kd_event *ev)
{
	struct text *t = state;

	if (ev->kind == KD_NONE)
		return 0;
	if (!join__take(t, ev))
		print_record(t, ev);
	return 0;
}

static int text__finish(void *state)
{
	join__flush(state);
	return 0;
}

const struct kd_sink kd_sink_text = {
	.open = text__open,
	.format = text__format,
	.event = text__event,
	.finish = text__finish,
	.close = text__close,
};
