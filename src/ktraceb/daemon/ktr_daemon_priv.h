/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's parts, shared by ktr_daemon.c (the loop and the tick),
 * ktr_conn.c (connections), ktr_request.c (what a request may ask) and
 * ktr_procmap.c (the procs map, BSD's p_traceflag and trace node).
 *
 * The daemon is the trust boundary: anyone on the machine can connect and
 * send anything.  Who asks is pinned when the connection is accepted
 * (ktr_creds__pin); every field of a request is either checked against
 * that or ignored; nothing a client does (sending nothing, reading no
 * reply, opening connection after connection) can stall the daemon for
 * everyone else.
 */
#ifndef KTRACEB_KTR_DAEMON_PRIV_H
#define KTRACEB_KTR_DAEMON_PRIV_H

#include <stdbool.h>
#include <sys/types.h>

#include "ktr_conn.h"
#include "ktr_files.h"
#include "common/ktr_perm.h"

#define KTR_TICK_MS		50
#define KTR_REFUSED_KEPT	64	/* refused connections kept open a moment */
#define KTR_REFUSED_MS		100	/* that moment */
#define KTR_EXIT_TICK_MS	2	/* an early tick after an exit, at most this often */
#define KTR_IDLE_TICKS		20	/* exit after a second with nothing to do */
#define KTR_CONN_IDLE_MS	3000	/* a connection with nothing under way is closed */
#define KTR_CONNS_PER_UID	256	/* connections a uid other than root holds at once */
#define KTR_FD_ROOT_RESERVE	128	/* descriptors only root's requests may use */

struct ktr_request;
struct ktr_proc_state;

struct ktr_conn {
	int sock;
	struct ktr_caller cred;		/* pinned at accept */
	long long last_ms;		/* accepted, or last request answered */
	bool dead;			/* closed at the end of this loop turn */
	unsigned int waiting;		/* trace files waiting to send it DONE */
	struct ktr_conn *next;
};

struct daemon {
	struct ktraceb_bpf *skel;
	struct ktr_drain *drain;
	struct ktr_files *files;
	int procs_fd;
	int listen_fd;
	int spare_fd;			/* given up to accept (and refuse) at EMFILE */
	int ep;
	bool shared;			/* root's: serves every uid; else only owner */
	uid_t owner;
	unsigned long long ring_bytes;
	unsigned int fd_limit;		/* RLIMIT_NOFILE */
	bool exited;			/* a traced process ended: tick now */
	bool pinned;			/* links and procs pinned: a recording exists */
	bool pin_failed;		/* said once in the log */
	bool detached;			/* no trace: the tracepoint programs detached */
	struct ktr_usdt *usdt;		/* USDT probes of processes traced with 'u' */
	struct ktr_tp *tp;		/* kernel tracepoints of the traces (-e) */
	__u32 syswide_route;		/* the system-wide trace (-S), 0 if none */
	bool syswide_alone;		/* it has no process: ends at -c or -C only */
	struct ktr_cpubuf *cpubuf;	/* its per-CPU buffers */
	struct ktr_conn *conns;
	unsigned int nconns;
	/*
	 * Connections refused with an answer, kept open a moment: a client
	 * whose request arrives after the answer must still read it (closing
	 * a unix socket with unread data resets the peer).  Bounded: the
	 * oldest is closed to make room.
	 */
	struct {
		int sock; /* 0: none (the daemon's 0 is /dev/null) */
		long long ms;
	} refused[KTR_REFUSED_KEPT];
	unsigned int refused_next;
	int idle_ticks;
	char *req_msg;			/* the answer to the request being served, or NULL */
};

/* Before a trace starts: the programs attached (again).  0 or -errno. */
/* Process tgid is about to enter the procs map: its bit in ktr_traced first (bpf_shared.h). */
void ktr_daemon__mark_traced(struct daemon *d, __u32 tgid);
int ktr_daemon__procs_put(struct daemon *d, __u32 tgid, const struct ktr_proc_state *ps,
			  __u64 flags);
void ktr_daemon__procs_drop(struct daemon *d, __u32 tgid);
/*
 * Pin (or unpin) the links and the procs map as recordings exist (or not):
 * at each tick, and at once when a recording starts (ktr_pin.h).
 */
void ktr_daemon__pins(struct daemon *d);
/*
 * Attach sys_enter while a trace needs it, detach it when only compact
 * recorders are left (they keep returns only): at each tick, and as a
 * trace starts (ktr_request.c), before its processes are set.
 */
void ktr_daemon__enter(struct daemon *d);
int ktr_daemon__attach(struct daemon *d);

/* ktr_conn.c */
void ktr_conn__accept_all(struct daemon *d);
void ktr_conn__readable(struct daemon *d, struct ktr_conn *cn);
/* Close idle and dead connections; true if a live one has something under way. */
bool ktr_conn__sweep(struct daemon *d, bool *any);
void ktr_conn__close_all(struct daemon *d);
unsigned int ktr_daemon__fds_in_use(const struct daemon *d);

/* ktr_request.c */
void ktr_request__handle(struct daemon *d, struct ktr_conn *cn, const struct ktr_request *req,
			 int fd);

/* ktr_procmap.c */
int ktr_procmap__keys(struct daemon *d, int route, __u32 **out);
int ktr_procmap__set(struct daemon *d, const struct ktr_caller *c, const struct ktr_request *req,
		     const pid_t *pids, int n, int route, char *msg);
/*
 * A pending entry the request that made it did not settle: a child forked
 * the moment its parent's tracing started.  Checked as the file's owner,
 * then started or dropped.
 */
void ktr_procmap__settle(struct daemon *d, __u32 pid, const struct ktr_proc_state *ps);
int ktr_procmap__clear(struct daemon *d, const struct ktr_caller *c, pid_t pid, __u32 facs,
		       char *msg, bool quiet);

/* ktr_daemon.c */
/*
 * Attach the USDT probes of pid, traced with 'u' into route's file (its
 * files looked at first): how many looks it waits for (held: it is stopped
 * until they end), or -errno.
 */
int ktr_daemon__usdt_scan(struct daemon *d, pid_t pid, __u32 route, bool exec, bool held);
void ktr_daemon__stop_file(struct daemon *d, int route, int err, const char *why);
void ktr_daemon__csw(struct daemon *d, bool want);
/* Take what the ring holds now into the files (and recorders); a ring failure ends every trace. */
void ktr_daemon__drain(struct daemon *d);
/*
 * Route r becomes the system-wide trace (-S): its events from every task,
 * through per-CPU buffers; alone, it has no process and lasts until
 * ktraceb -c or -C.  0, or -errno with a line in msg (one at a time).
 */
int ktr_daemon__syswide(struct daemon *d, int r, bool alone, char *msg);
/* The system-wide trace ends: nothing more recorded, its buffers read and closed. */
void ktr_daemon__syswide_end(struct daemon *d);

#endif /* KTRACEB_KTR_DAEMON_PRIV_H */
