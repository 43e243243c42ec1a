/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The command's options, as BSD ktrace(1) takes them (getopt, the checks
 * FreeBSD's ktrace makes), and those of its own (-b, -D, -e, -R, -S, -z).
 */
#ifndef KTRACEB_KTR_OPTIONS_H
#define KTRACEB_KTR_OPTIONS_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "common/ktr_daemon_opts.h"
#include "common/ktr_proto.h"
#include "ktr_select.h"

struct ktr_options {
	const char *tracefile;
	int facs;
	bool facs_given, append, clear, clear_all, descend, foreground, ring_given, dump, gzip;
	bool syswide; /* -S: the -e events of every task (root's) */
	bool ustack; /* -k: each call's user stack */
	__u64 flight_bytes; /* -R: a recorder's ring */
	__u32 flight_flags;
	pid_t pid; /* > 0 pid, < 0 process group, 0 none */
	const char *group; /* -G: a cgroup, as given (ktr_cgroupfs.h resolves it) */
	struct ktr_loader_opts bpf;
	__u32 iosize;
	__u32 ustack_kib; /* -K: KiB of user stack copied with each -k stack */
	char **command;
	char events[KTR_TP_REQ_MAX][KTR_TP_NAME_MAX]; /* -e, checked here and by the daemon */
	int nevents;
	struct ktr_select select; /* -e trace=, -e status=, -Z */
	char usdt[KTR_USDT_SEL_TEXT]; /* -e usdt:PROVIDER:NAME (ktr_usdt_sel.h) */
	bool list_events;
	bool list_usdt; /* -e usdt:list */
};

/*
 * argv into o, checked against each other; a usage error exits (EX_USAGE),
 * and so do -h and -e list, once done.
 */
void ktr_options__parse(int argc, char **argv, struct ktr_options *o);

/*
 * Root's daemon started by systemd (ktracebd.socket): of the options, it
 * takes -b and -v alone.
 */
void ktr_options__parse_activated(int argc, char **argv, struct ktr_options *o);

/*
 * The selections as a request carries them (all zero: every call, the
 * ktraceb provider's probes alone).
 */
void ktr_options__request_select(const struct ktr_options *o, struct ktr_request_select *out);
/*
 * A SET's flags that say what to say: KTR_REQ_DEFAULT_FACS if nobody
 * asked for the facilities (no -t, no -e usdt:: the daemon drops one the
 * kernel lacks without a word), KTR_REQ_VERBOSE with -v.
 */
__u32 ktr_options__say_flags(const struct ktr_options *o);

#endif /* KTRACEB_KTR_OPTIONS_H */
