/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Which USDT probes a trace arms (ktraceb -e usdt:PROVIDER[:NAME]), as the
 * command parses them, a request carries them and the daemon attaches
 * them.  The probes of the ktraceb provider (include/ktraceb/utrace.h:
 * utrace, span_enter, span_exit) are always armed with 'u': they are the
 * program's own user events.  Every other provider's (python, libstdcxx,
 * node, postgresql, ...) are armed only where a pattern names them:
 *
 *   usdt:python:function__entry   one probe
 *   usdt:python:*  usdt:python    every probe of a provider
 *   usdt:*:gc__*   usdt:*         globs (fnmatch(3): * ? [...]) on both sides
 *
 * A selection travels as text: its patterns, "provider:name" each, one
 * space between them, at most KTR_USDT_SEL_MAX of them.
 *
 * Some probes fire at every line or every call of an interpreted program:
 * armed, they slow it several times (ktraceb(1), USDT PROBES, has the
 * table).  ktr_usdt_sel__hot() says which of them a selection takes in.
 */
#ifndef KTRACEB_KTR_USDT_SEL_H
#define KTRACEB_KTR_USDT_SEL_H

#include <stdbool.h>
#include <stddef.h>

#include "ktraceb/ktr.h"

#define KTR_USDT_SEL_MAX  16	/* patterns per trace */
#define KTR_USDT_SEL_TEXT 384	/* their text, NUL included */
#define KTR_USDT_SEL_ARG  "usdt:" /* what -e ARG starts with to name probes */

struct ktr_usdt_pattern {
	char provider[KTR_UREC_NAME_MAX];
	char name[KTR_UREC_NAME_MAX];
};

struct ktr_usdt_sel {
	unsigned int n;
	struct ktr_usdt_pattern pat[KTR_USDT_SEL_MAX];
};

/*
 * One -e usdt:SPEC (spec: what follows "usdt:") added to text (size
 * bytes, NUL-terminated, KTR_USDT_SEL_TEXT at most): "PROVIDER" is
 * "PROVIDER:*".  0, or -1 with *why one line.
 */
int ktr_usdt_sel__add(char *text, size_t size, const char *spec, const char **why);

/*
 * text (as a request carries it: checked here as a client's input) into
 * sel.  0, or -1 with *why.
 */
int ktr_usdt_sel__parse(struct ktr_usdt_sel *sel, const char *text, const char **why);

/* Does sel (NULL: none given) arm provider:name?  The ktraceb provider's always. */
bool ktr_usdt_sel__match(const struct ktr_usdt_sel *sel, const char *provider, const char *name);

/* The same patterns, in any order? */
bool ktr_usdt_sel__same(const struct ktr_usdt_sel *a, const struct ktr_usdt_sel *b);

/* Is provider:name one of the probes known to fire at high rates? */
bool ktr_usdt_sel__is_hot(const char *provider, const char *name);

/*
 * The probes known to fire at high rates that sel arms (where a program
 * has them), "provider:name" with a space between, into buf; how many.
 */
unsigned int ktr_usdt_sel__hot(const struct ktr_usdt_sel *sel, char *buf, size_t size);

#endif /* KTRACEB_KTR_USDT_SEL_H */
