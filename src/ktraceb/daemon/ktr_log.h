/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's messages: to syslog, and, since many machines have none
 * (containers, minimal systems), to a log file too: root's daemon appends
 * to KTR_RUN_DIR/ktraceb-<build id>.log (root's, 0600), a user's daemon
 * to $XDG_RUNTIME_DIR/ktraceb-<build id>.log when that is the user's own
 * private directory.  A file over KTR_LOG_MAX bytes starts again, the old
 * one kept as .old.  ktraceb(1) says where.
 */
#ifndef KTRACEB_KTR_LOG_H
#define KTRACEB_KTR_LOG_H

#include <stdbool.h>
#include <sys/types.h>
#include <syslog.h>

#define KTR_LOG_MAX (1u << 20)

/* The log file of root's daemon (shared) or of owner's, opened; nothing if none may be had. */
void ktr_log__open(bool shared, uid_t owner);
void ktr_log__close(void);
/* Its path, "" if none. */
const char *ktr_log__path(void);
/*
 * One line (no newline needed) at syslog's prio, and in the log file.  It
 * stays one line whatever it holds (a user's file name): control bytes are
 * escaped here, newline as \n, the others as \xNN, the backslash as \\.
 */
void ktr_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* KTRACEB_KTR_LOG_H */
