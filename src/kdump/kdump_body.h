/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The text of an event's body: what follows its tag on a line of kdump's
 * text ("openat(AT_FDCWD,0x7ffd...,O_RDONLY)" for a CALL).  The text sink
 * writes it for every valid event; the JSON lines sink writes it as the
 * "text" member of the kinds it has no members of its own for.  A
 * formatter, not a sink: it keeps nothing between events.
 */
#ifndef KTRACEB_KDUMP_BODY_H
#define KTRACEB_KDUMP_BODY_H

#include <stdio.h>
#include "kdump_opts.h"
#include "kdump_event.h"

/* The body of a valid event (nothing for NONE, UNKNOWN). */
void kd_body(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);

/* USER's body (kdump_body_user.c): utrace bytes, a probe, a span's enter or exit. */
void kd_body_user(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);

/* GIO data as kdump shows it: none under -s, at most -m bytes, on lines of their own. */
void kd_body_data(FILE *out, const unsigned char *p, size_t n, const struct kdump_opts *o);

#endif /* KTRACEB_KDUMP_BODY_H */
