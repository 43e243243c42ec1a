// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -Y: a per-syscall table in the layout of strace -c.  A call's time
 * is the ktr_mono_ns of its RET minus that of the CALL of the same thread.
 * Calls are counted at CALL (exit_group never returns); a RET without a
 * CALL (a fork child's first return, a trace started mid-call) is ignored.
 */
#include <errno.h>
#include <stdlib.h>

#include "decode.h"
#include "kdump_priv.h"

struct kd_scstat {
	unsigned int sv_flags;
	int code;
	unsigned long calls;
	unsigned long errors;
	__u64 ns;
};

struct kd_summary {
	struct kd_map pending; /* tid -> v1 = stat index + 1 (0: none), v2 = CALL mono ns */
	struct kd_map index; /* ABI and code -> v1 = stat index */
	struct kd_scstat *st;
	size_t n, cap;
	__u64 lost;
};

static struct kd_summary *summary(struct kdump *kd)
{
	if (!kd->sum)
		kd->sum = calloc(1, sizeof(*kd->sum));
	return kd->sum;
}

void kd_summary__free(struct kd_summary *s)
{
	if (!s)
		return;
	kd_map__free(&s->pending);
	kd_map__free(&s->index);
	free(s->st);
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

int kd_summary__call(struct kdump *kd, const struct ktr_header *h, int code)
{
	struct kd_summary *s = summary(kd);
	struct kd_map_ent *p;
	long row;

	if (!s)
		return -ENOMEM;
	row = stat_row(s, kd_abi(kd, h->ktr_pid), code);
	if (row < 0)
		return (int)row;
	s->st[row].calls++;
	p = kd_map__add(&s->pending, h->ktr_tid);
	if (!p)
		return -ENOMEM;
	p->v1 = (__u64)row + 1;
	p->v2 = (__s64)h->ktr_mono_ns;
	return 0;
}

int kd_summary__ret(struct kdump *kd, const struct ktr_header *h, int code, int error)
{
	struct kd_summary *s = summary(kd);
	struct kd_scstat *st;
	struct kd_map_ent *p;
	__s64 dt;

	if (!s)
		return -ENOMEM;
	p = kd_map__get(&s->pending, h->ktr_tid);
	if (!p || !p->v1)
		return 0;
	st = &s->st[p->v1 - 1];
	p->v1 = 0;
	if (st->code != code)
		return 0;
	dt = (__s64)(h->ktr_mono_ns - (__u64)p->v2);
	if (dt > 0)
		st->ns += dt;
	if (error)
		st->errors++;
	return 0;
}

int kd_summary__lost(struct kdump *kd, __u64 lost)
{
	struct kd_summary *s = summary(kd);

	if (!s)
		return -ENOMEM;
	s->lost += lost;
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

static void print_row(FILE *out, double pct, __u64 ns, unsigned long calls, unsigned long errors,
		      const char *name, int code)
{
	char ebuf[24] = "";

	if (errors)
		snprintf(ebuf, sizeof(ebuf), "%lu", errors);
	fprintf(out, "%6.2f %11.6f %11llu %9lu %9s ", pct, ns / 1e9,
		calls ? (unsigned long long)(ns / 1000 / calls) : 0ull, calls, ebuf);
	if (name)
		fprintf(out, "%s\n", name);
	else
		fprintf(out, "[%d]\n", code);
}

int kd_summary__print(struct kdump *kd)
{
	static const char rule[] =
		"------ ----------- ----------- --------- --------- ----------------\n";
	struct kd_summary *s = summary(kd);
	unsigned long calls = 0, errors = 0;
	__u64 total = 0;
	size_t i;

	if (!s)
		return -ENOMEM;
	if (s->n)
		qsort(s->st, s->n, sizeof(*s->st), by_time);
	for (i = 0; i < s->n; i++) {
		total += s->st[i].ns;
		calls += s->st[i].calls;
		errors += s->st[i].errors;
	}
	fprintf(kd->out, "%6s %11s %11s %9s %9s %s\n", "% time", "seconds", "usecs/call", "calls",
		"errors", "syscall");
	fputs(rule, kd->out);
	for (i = 0; i < s->n; i++)
		print_row(kd->out, total ? 100.0 * s->st[i].ns / total : 0.0, s->st[i].ns,
			  s->st[i].calls, s->st[i].errors,
			  ktr_syscall_name(s->st[i].sv_flags, s->st[i].code), s->st[i].code);
	fputs(rule, kd->out);
	print_row(kd->out, 100.0, total, calls, errors, "total", 0);
	if (s->lost)
		fprintf(kd->out, "%llu records lost: the counts are incomplete\n",
			(unsigned long long)s->lost);
	return 0;
}
