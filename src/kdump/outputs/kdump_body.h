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

/* kdump_body_stack.c: -e trace='s INFO, -k's STACK and OBJ */
void kd_body_filter(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
void kd_body_ustack(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
void kd_body_object(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
/* One frame: "function+0x1c (object) at file.c:12 [doubt]", or what is known of it */
void kd_frame_text(FILE *out, const struct ktr_ustack_frame *f, const struct kdump_frame_name *n,
		   const struct kdump_opts *o);

/*
 * -y (kdump_body_fds.c): what descriptor fd of the event's process is,
 * "</etc/hostname>", nothing if not known; a CALL with its descriptors so
 * followed; a STRU fd_pair so (false: ev is not one).
 */
void kd_put_fd(FILE *out, const struct kd_event *ev, int fd, const struct kdump_opts *o);
void kd_body_call_fds(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
/* KTR_FD (kdump_fdrec.c): "3</etc/hostname>", " O_CLOEXEC" after it if so. */
void kd_body_fd(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
bool kd_body_fdpair(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);

/* A signal's name, else "SIG<n>". */
void kd_put_signal(FILE *out, const char *name, int signo);
/* Another system's records: the payload as a string, or its size and bytes. */
void kd_text_string(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
void kd_text_bytes(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);

/* GIO data as kdump shows it: none under -s, at most -m bytes, on lines of their own. */
void kd_body_data(FILE *out, const unsigned char *p, size_t n, const struct kdump_opts *o);

#endif /* KTRACEB_KDUMP_BODY_H */
