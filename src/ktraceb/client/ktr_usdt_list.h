/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktraceb -e usdt:list: the USDT probes a trace could arm, read from the
 * files themselves (their stapsdt notes), as the daemon reads them.
 */
#ifndef KTRACEB_KTR_USDT_LIST_H
#define KTRACEB_KTR_USDT_LIST_H

struct ktr_options;

/*
 * The probes of every executable file process o->pid maps, or of the
 * program command[0] (found as execvp(3) would) if command: one line per
 * probe, marked where the selection o->usdt arms it, and where it is one
 * known to fire at high rates.  Root reads a user's files with that
 * user's rights, as the daemon does.  The exit status.
 */
int ktr_usdt_list(const struct ktr_options *o, char **command);

#endif /* KTRACEB_KTR_USDT_LIST_H */
