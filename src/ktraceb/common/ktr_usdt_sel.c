// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stdio.h>
#include <string.h>

#include "ktr_usdt_sel.h"

/*
 * The probes known to fire at high rates: at every line, call or object
 * of an interpreted program, at every lock.  ktraceb(1) has the same
 * table; a probe not in it is told nothing of, whatever its rate.
 */
static const struct {
	const char *provider, *name;
} hot[] = {
	/* CPython (Debian's python3 has them): each call, each line */
	{ "python", "function__entry" },
	{ "python", "function__return" },
	{ "python", "line" },
	/* Ruby: each method call, each line, each object */
	{ "ruby", "method__entry" },
	{ "ruby", "method__return" },
	{ "ruby", "cmethod__entry" },
	{ "ruby", "cmethod__return" },
	{ "ruby", "line" },
	{ "ruby", "object__create" },
	/* Perl, PHP: each sub or function call */
	{ "perl", "sub__entry" },
	{ "perl", "sub__return" },
	{ "php", "function__entry" },
	{ "php", "function__return" },
	{ "php", "execute__entry" },
	{ "php", "execute__return" },
	/* Java (HotSpot, -XX:+ExtendedDTraceProbes): each call, each object */
	{ "hotspot", "method__entry" },
	{ "hotspot", "method__return" },
	{ "hotspot", "object__alloc" },
	/* glibc built with SystemTap probes: each mutex and condition operation */
	{ "libpthread", "mutex_entry" },
	{ "libpthread", "mutex_acquired" },
	{ "libpthread", "mutex_release" },
	{ "libpthread", "cond_wait" },
	{ "libpthread", "cond_signal" },
	/* PostgreSQL: each lightweight lock, each buffer read */
	{ "postgresql", "lwlock__acquire" },
	{ "postgresql", "lwlock__release" },
	{ "postgresql", "buffer__read__start" },
	{ "postgresql", "buffer__read__done" },
};

/* One side of a pattern: a name or a glob (* ? [...]), shorter than KTR_UREC_NAME_MAX. */
static const char *part__check(const char *s, size_t len)
{
	if (len == 0)
		return "name a provider and a probe: usdt:PROVIDER[:NAME], globs allowed";
	if (len >= KTR_UREC_NAME_MAX)
		return "a provider or probe name is at most 63 characters";
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_*?[]!^-", c)))
			return "a provider or probe name has letters, digits and _, globs * ? [...]";
	}
	return NULL;
}

/* "provider:name" (or, if bare, "provider") into p; NULL or why not. */
static const char *pattern__parse(const char *s, size_t len, bool bare, struct ktr_usdt_pattern *p)
{
	const char *colon = memchr(s, ':', len);
	size_t plen = colon ? (size_t)(colon - s) : len;
	const char *why;

	if (!colon && !bare)
		return "a probe pattern is PROVIDER:NAME";
	if ((why = part__check(s, plen)))
		return why;
	memset(p, 0, sizeof(*p));
	memcpy(p->provider, s, plen);
	if (!colon) {
		p->name[0] = '*';
		return NULL;
	}
	if (memchr(colon + 1, ':', len - plen - 1))
		return "too many ':': usdt:PROVIDER[:NAME]";
	if ((why = part__check(colon + 1, len - plen - 1)))
		return why;
	memcpy(p->name, colon + 1, len - plen - 1);
	return NULL;
}

int ktr_usdt_sel__add(char *text, size_t size, const char *spec, const char **why)
{
	struct ktr_usdt_sel sel;
	struct ktr_usdt_pattern p;
	size_t used = strnlen(text, size);
	int n;

	if ((*why = pattern__parse(spec, strlen(spec), true, &p)))
		return -1;
	if (ktr_usdt_sel__parse(&sel, text, why) < 0)
		return -1;
	if (sel.n >= KTR_USDT_SEL_MAX) {
		*why = "at most 16 probe patterns (globs match more)";
		return -1;
	}
	n = snprintf(text + used, size - used, "%s%s:%s", used ? " " : "", p.provider, p.name);
	if (n < 0 || (size_t)n >= size - used || used + n >= KTR_USDT_SEL_TEXT) {
		text[used] = '\0';
		*why = "the probe patterns are too long (383 characters in all)";
		return -1;
	}
	return 0;
}

int ktr_usdt_sel__parse(struct ktr_usdt_sel *sel, const char *text, const char **why)
{
	const char *p = text;

	memset(sel, 0, sizeof(*sel));
	if (strnlen(text, KTR_USDT_SEL_TEXT) == KTR_USDT_SEL_TEXT) {
		*why = "USDT selection too long";
		return -1;
	}
	while (*p) {
		size_t len = strcspn(p, " ");

		if (sel->n == KTR_USDT_SEL_MAX) {
			*why = "too many USDT patterns";
			return -1;
		}
		if ((*why = pattern__parse(p, len, false, &sel->pat[sel->n])))
			return -1;
		sel->n++;
		p += len;
		if (*p == ' ' && (p[1] == ' ' || p[1] == '\0')) {
			*why = "USDT patterns with an empty one between";
			return -1;
		}
		p += *p == ' ';
	}
	return 0;
}

/*
 * Does the pattern element at p ('?', a [...] class, or a character)
 * match c?  *len: the element's length.  A '[' without its ']' is a
 * character, as fnmatch(3) takes it.
 */
static bool elem__match(const char *p, char c, size_t *len)
{
	const char *q = p + 1;
	bool neg, in = false;

	*len = 1;
	if (*p == '?')
		return true;
	if (*p != '[')
		return *p == c;
	neg = *q == '!' || *q == '^';
	q += neg;
	if (*q == ']') /* a ']' first is one of the class */
		in |= c == *q++;
	for (; *q && *q != ']'; q++) {
		if (q[1] == '-' && q[2] && q[2] != ']') {
			in |= c >= q[0] && c <= q[2];
			q += 2;
		} else {
			in |= c == *q;
		}
	}
	if (!*q)
		return c == '['; /* no ']': a plain '[' */
	*len = q + 1 - p;
	return in != neg;
}

/*
 * fnmatch(3)'s * ? [...] without its backtracking: on a mismatch only the
 * last '*' takes one more character, so a match costs at most the product
 * of the two lengths (a client's pattern cannot keep the daemon busy).
 */
static bool glob__match(const char *p, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;
	size_t len;

	while (*s) {
		if (*p == '*') {
			star_p = ++p;
			star_s = s;
		} else if (*p && elem__match(p, *s, &len)) {
			p += len;
			s++;
		} else if (star_p) {
			p = star_p;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

static bool pattern__match(const struct ktr_usdt_pattern *p, const char *provider, const char *name)
{
	return glob__match(p->provider, provider) && glob__match(p->name, name);
}

bool ktr_usdt_sel__match(const struct ktr_usdt_sel *sel, const char *provider, const char *name)
{
	if (strcmp(provider, KTR_USDT_PROVIDER) == 0)
		return true;
	for (unsigned int i = 0; sel && i < sel->n; i++)
		if (pattern__match(&sel->pat[i], provider, name))
			return true;
	return false;
}

static bool sel__has(const struct ktr_usdt_sel *sel, const struct ktr_usdt_pattern *p)
{
	for (unsigned int i = 0; i < sel->n; i++)
		if (!strcmp(sel->pat[i].provider, p->provider) &&
		    !strcmp(sel->pat[i].name, p->name))
			return true;
	return false;
}

bool ktr_usdt_sel__same(const struct ktr_usdt_sel *a, const struct ktr_usdt_sel *b)
{
	for (unsigned int i = 0; i < a->n; i++)
		if (!sel__has(b, &a->pat[i]))
			return false;
	for (unsigned int i = 0; i < b->n; i++)
		if (!sel__has(a, &b->pat[i]))
			return false;
	return true;
}

bool ktr_usdt_sel__is_hot(const char *provider, const char *name)
{
	for (size_t i = 0; i < sizeof(hot) / sizeof(hot[0]); i++)
		if (!strcmp(hot[i].provider, provider) && !strcmp(hot[i].name, name))
			return true;
	return false;
}

unsigned int ktr_usdt_sel__hot(const struct ktr_usdt_sel *sel, char *buf, size_t size)
{
	unsigned int n = 0;
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(hot) / sizeof(hot[0]); i++) {
		bool armed = false;

		for (unsigned int j = 0; sel && j < sel->n && !armed; j++)
			armed = pattern__match(&sel->pat[j], hot[i].provider, hot[i].name);
		if (!armed)
			continue;
		n++;
		if (used < size)
			used += snprintf(buf + used, size - used, "%s%s:%s", used ? " " : "",
					 hot[i].provider, hot[i].name);
	}
	return n;
}
