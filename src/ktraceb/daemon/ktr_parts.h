/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's parts, as what serves a request, the tick and the notes
 * reach them.  Each part owns its state behind its own header; this only
 * says where they are.  The loop (ktr_daemon.c) builds them and keeps
 * struct daemon to itself.
 *
 * The daemon is the trust boundary: anyone on the machine can connect and
 * send anything.  Who asks is pinned when the connection is accepted
 * (ktr_creds__pin); every field of a request is either checked against
 * that or ignored (ktr_request.c); nothing a client does (sending nothing,
 * reading no reply, opening connection after connection) can stall the
 * daemon for everyone else (ktr_conn.c).
 */
#ifndef KTRACEB_KTR_PARTS_H
#define KTRACEB_KTR_PARTS_H

#include <stdbool.h>
#include <sys/types.h>

/* What the daemon was started as. */
struct ktr_config {
	bool shared;			/* root's: serves every uid; else only owner */
	uid_t owner;
	unsigned long long ring_bytes;	/* its ring buffer's, said in every answer (ktr_ring.h
					   grows it) */
};

struct ktr_parts {
	struct ktr_files *files;	/* trace files (ktr_files.h) */
	struct ktr_procmap *procs;	/* the procs map (ktr_procmap.h) */
	struct ktr_selection *selection; /* the traces' syscall selections (ktr_selection.h) */
	struct ktr_attach *attach;	/* the programs' attachment (ktr_attach.h) */
	struct ktr_syswide *syswide;	/* the system-wide trace (ktr_syswide.h) */
	struct ktr_tp *tp;		/* kernel tracepoints (ktr_tp.h) */
	struct ktr_usdt *usdt;		/* USDT probes (ktr_usdt.h) */
	struct ktr_drain *drain;	/* the ring buffer's drain (ktr_drain.h) */
	struct ktr_ring *ring;		/* the ring buffer, grown by -b (ktr_ring.h) */
	struct ktr_conns *conns;	/* connections (ktr_conn.h) */
	struct ktr_groups *groups;	/* traced cgroups (ktr_groups.h) */
	struct ktr_ends *ends;		/* answers waiting for traces to end (ktr_ends.h) */
	const struct ktr_config *config;
};

#endif /* KTRACEB_KTR_PARTS_H */
