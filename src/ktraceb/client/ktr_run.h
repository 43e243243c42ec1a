/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The command's ways to run (ktr_command.h: with a command); each returns
 * the command's exit status.
 */
#ifndef KTRACEB_KTR_RUN_H
#define KTRACEB_KTR_RUN_H

struct ktr_options;

/* -p, -g: start tracing and return at once (or stay, with -F); -S alone. */
int ktr_run__attach(const struct ktr_options *o);
/* -c, -C: clear; never starts a daemon (if none runs, nothing is traced). */
int ktr_run__clear(const struct ktr_options *o);
/* -D: a recording's ring into its file now; the recording goes on. */
int ktr_run__dump(const struct ktr_options *o);

#endif /* KTRACEB_KTR_RUN_H */
