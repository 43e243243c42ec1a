/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* kdump's options, as kdump.c parses them and every part of kdump reads them. */
#ifndef KTRACEB_KDUMP_OPTS_H
#define KTRACEB_KDUMP_OPTS_H

/* struct kdump_opts.flags, one per option letter */
#define KD_CPU 0x0001 /* -c: CPU column */
#define KD_TIDCOL 0x0002 /* -H: FreeBSD "pid tid" columns */
#define KD_ABSTIME 0x0004 /* -T: wall clock time */
#define KD_ELAPSED 0x0008 /* -E: since the first record shown */
#define KD_RELTIME 0x0010 /* -R: since the previous record shown */
#define KD_NOGIO 0x0020 /* -s: no GIO data */
#define KD_SYSNR 0x0040 /* -S: "name[nr]" */
#define KD_SUMMARY 0x0080 /* -Y: a per-syscall table instead of records */
#define KD_PIDSEL 0x0100 /* -p: only opts.pid (as pid or tid) */
#define KD_FOLLOW 0x0200 /* -l: flush after each record */
#define KD_TRSEL 0x0400 /* -t: only the types in opts.trpoints */
#define KD_TREE 0x0800 /* -G: the span tree (kdump_tree.c) instead of records */
#define KD_JSON 0x1000 /* -J: JSON lines (kdump_json.c) */
#define KD_CHROME 0x2000 /* -P: a Chrome trace-event timeline (kdump_chrome.c) */
#define KD_NSPID 0x4000 /* -N: ids as their pid namespace sees them, where the trace says */
#define KD_DURATION 0x8000 /* -D: each call's time on its RET line, as strace -T */
#define KD_FDS 0x10000 /* -y: what each descriptor is, as strace -y (kdump_fdtab.h) */
#define KD_FDS_SOCK 0x20000 /* -yy: and sockets by protocol and addresses */

#define KD_SELECT_ARGS_MAX 16 /* -e trace=, -e status= */

#define KD_MAXDATA_DEFAULT 64 /* -m default, as DragonFly kdump; 0 = unlimited */

struct kdump_opts {
	unsigned int flags; /* KD_* */
	int decode; /* KTR_DEC_* for the decoders (-d, -n) */
	int maxdata; /* GIO bytes shown; 0 = all */
	int trpoints; /* with KD_TRSEL: -t's facility bits (ktr_getpoints) */
	int pid; /* with KD_PIDSEL */
	const char *select[KD_SELECT_ARGS_MAX]; /* -e trace=SET, -e status=SET, -Z (kdump_select.h) */
	int nselect;
};

#endif /* KTRACEB_KDUMP_OPTS_H */
