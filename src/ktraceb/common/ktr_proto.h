/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The requests a ktraceb command sends to the ktraceb daemon, which owns
 * the one set of BPF programs on the machine and writes every trace file.
 *
 * Transport: a SOCK_SEQPACKET socket, one message per request or reply.
 * The daemon learns who asks from SO_PEERCRED when it accepts the
 * connection, never from the message.  A SET carries the trace file's
 * descriptor (SCM_RIGHTS), opened by the caller with the caller's own
 * credentials and open for writing; so do a CLEARFILE and a DUMP, and no
 * other request carries one: a request with more or fewer descriptors
 * than its kind takes is refused, and every descriptor but the one it
 * takes is closed as the message arrives (struct ktr_proto_fds).  A
 * descriptor only ever goes to the daemon that serves the command
 * (root's, or the caller's own); the other daemons a clear must reach
 * (ktr_others.h) get a CLEARINODE, which names the file by its identity,
 * as stat(2) gives it.
 *
 * Sockets: root's daemon listens on KTR_SOCK_SHARED_FMT, a path in
 * KTR_RUN_DIR, which only root can create (no user can take the name
 * first), and serves every user under the ktrcanset rules.  A daemon
 * started by a non-root user (with CAP_BPF and CAP_PERFMON) listens on the
 * abstract "@ktraceb-<build>.<uid>" and serves only that uid.  <build>
 * identifies the sources and the build directory, so a daemon and its clients always agree on
 * messages and BPF programs.  A client trusts a daemon only if its peer
 * uid is 0 or its own (for a user's daemon: that user's), and waits for
 * none of them without a timeout.
 */
#ifndef KTRACEB_KTR_PROTO_H
#define KTRACEB_KTR_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/types.h>

#include "ktraceb/bpf_flight_flags.h"
#include "ktraceb/bpf_select.h"
#include "ktraceb/ktr.h"
#include "ktr_usdt_sel.h"

/* bumped whenever a message layout changes: old and new never mix */
#define KTR_PROTO_MAGIC		0x6b747237	/* "ktr7" */
/* KTRACEB_BUILD_ID (build_id.h) is a hash of the tracer's sources */
#define KTR_RUN_DIR		"/run/ktraceb"
#define KTR_SOCK_SHARED_FMT	KTR_RUN_DIR "/ktraceb-%s.sock"
#define KTR_LOCK_SHARED_FMT	KTR_RUN_DIR "/ktraceb-%s.lock"
#define KTR_LOG_SHARED_FMT	KTR_RUN_DIR "/ktraceb-%s.log"	/* root's daemon's log */
#define KTR_SOCK_USER_FMT	"ktraceb-%s.%u"	/* abstract */
#define KTR_CLIENT_TIMEOUT_MS	10000	/* most a client waits for an answer */
/*
 * ... but for the first answer of a daemon it started: the daemon verifies
 * its programs first, which takes a slow or emulated machine longer
 */
#define KTR_CLIENT_START_TIMEOUT_MS 60000

#define KTR_OP_SET		1	/* start (or move) tracing of pid / pgrp */
#define KTR_OP_CLEAR		2	/* clear facs of pid / pgrp */
#define KTR_OP_CLEARFILE	3	/* stop all tracing into the file sent along */
#define KTR_OP_CLEARALL		4	/* clear all the caller may clear (-C) */
#define KTR_OP_STOP		5	/* foreground caller interrupted: end its trace */
#define KTR_OP_DUMP		6	/* write the recorder's ring of the file sent along (-D) */
#define KTR_OP_CLEARINODE	7	/* a user's daemon: stop all tracing into the file it
					   writes that is file_dev, file_ino (no descriptor) */

#define KTR_REQ_DESCEND		0x1	/* -d: and every current descendant */
#define KTR_REQ_FOREGROUND	0x2	/* keep the connection, send DONE at the end */
#define KTR_REQ_AWAIT_EXEC	0x4	/* command mode: record from its execve on;
					   only for the caller's own child, not yet exec'd */
#define KTR_TP_REQ_MAX		16	/* event names (or globs) per request */
#define KTR_REQ_GZIP		0x8	/* -z: a new trace file is written gzip-compressed */
#define KTR_REQ_SYSWIDE		0x10	/* -S: the events of every task (root's only); pid 0:
					   no process, until CLEARFILE or CLEARALL */
#define KTR_REQ_CGROUP		0x100	/* -G: SET or CLEAR the cgroup named by cgroup and
					   cgroup_id (pid 0), its processes now and later */
#define KTR_REQ_DEFAULT_FACS	0x200	/* SET: facs has KTR_DEF_POINTS because -t was not
					   given: one of those the kernel lacks goes unsaid */
#define KTR_REQ_VERBOSE		0x400	/* SET: -v: the answer says which build of the BPF
					   programs the daemon runs */
#define KTR_CONTAINER_LABEL_MAX	256	/* a container's "RUNTIME NAME ID" (-G RUNTIME:NAME) */
#define KTR_REQ_CGROUP_WAIT	0x800	/* SET -G: the group need not be there yet: traced
					   from when it is made (a container not started) */
#define KTR_REQ_FLAGS		(KTR_REQ_DESCEND | KTR_REQ_FOREGROUND | KTR_REQ_AWAIT_EXEC | \
				 KTR_REQ_GZIP | KTR_REQ_SYSWIDE | KTR_REQ_CGROUP | \
				 KTR_REQ_DEFAULT_FACS | KTR_REQ_VERBOSE | KTR_REQ_CGROUP_WAIT)
/* what a request's facs may hold; KTRFAC_ROOT only ever comes from the daemon */
#define KTR_REQ_FACS		(KTR_ALL_POINTS | KTR_EXT_POINTS | KTRFAC_INHERIT)
/* a recorder's ring (-R): its size and the KTR_FLIGHT_F_* flags a request may ask for */
#define KTR_FLIGHT_MIN_BYTES	(64ull << 10)
#define KTR_FLIGHT_MAX_BYTES	(4ull << 30)
#define KTR_FLIGHT_FLAGS	(KTR_FLIGHT_F_COMPACT | KTR_FLIGHT_F_ON_EXIT)

/*
 * A trace's selections as a request carries them: the syscall selection
 * (the bitmaps over the host's native and compat syscall numbers, the
 * status filter, and the selection's text for the file's KTR_FILTER
 * record), and the USDT probes armed beside the ktraceb provider's
 * (ktr_usdt_sel.h: -e usdt:PROVIDER:NAME; only with -t u).
 */
#define KTR_SELECT_F_CALLS	0x1	/* trace= given: the bitmaps say */
struct ktr_request_select {
	__u32 flags;			/* KTR_SELECT_F_*; 0 (and status 0): every call */
	__u32 status;			/* KTR_SELECT_SUCCESSFUL | _FAILED, 0 for any */
	__u64 native[KTR_SELECT_WORDS];
	__u64 compat[KTR_SELECT_WORDS];
	char text[160];			/* NUL-terminated */
	char usdt[KTR_USDT_SEL_TEXT];	/* "python:* node:gc__*", NUL-terminated and
					   NUL-padded; empty: the ktraceb provider alone */
};

struct ktr_request {
	__u32 magic;
	__u32 op;
	__u32 facs;			/* KTR_REQ_FACS bits only */
	__u32 flags;			/* KTR_REQ_* */
	__s32 pid;			/* > 0 a process, < 0 a process group, 0 (SYSWIDE) none */
	__u32 iosize;			/* GENIO bytes kept per I/O */
	__u64 flight_bytes;		/* SET: > 0, a recorder's ring of this size (-R),
					   KTR_FLIGHT_MIN_BYTES to KTR_FLIGHT_MAX_BYTES */
	__u32 flight_flags;		/* SET: KTR_FLIGHT_F_* (bpf_flight_flags.h) */
	__u32 ring_bytes;		/* SET: 0, or -b: the ring buffer size asked for (a
					   power of two, 4k to 1g; ktr_ring.h grows it) */
	__u64 file_dev;			/* CLEARINODE: st_dev and st_ino of the file, */
	__u64 file_ino;			/* zero in any other request */
	/*
	 * SET with -t k (-e): kernel events by name or glob,
	 * "subsys:event", each NUL-terminated and NUL-padded, the unused
	 * ones all zero; the daemon resolves them against its tracefs.
	 */
	char events[KTR_TP_REQ_MAX][KTR_TP_NAME_MAX];
	/* SET: the syscall selection (-e trace=, status=; ktr_select.h), zero if none */
	struct ktr_request_select select;
	/*
	 * SET, CLEAR with KTR_REQ_CGROUP: the group's path below the cgroup2
	 * root ("/system.slice/nginx.service", NUL-padded) and its id as the
	 * caller found it (ktr_cgroupfs.h); zero in any other request
	 */
	__u64 cgroup_id;
	char cgroup[KTR_CGROUP_PATH_MAX];
	/*
	 * SET with KTR_REQ_CGROUP of a container (-G RUNTIME:NAME): "RUNTIME
	 * NAME ID" as its runtime said, NUL-padded, written into the trace
	 * (KTR_CGROUP_CONTAINER); zero in any other request
	 */
	char container[KTR_CONTAINER_LABEL_MAX];
	/* SET with -k: KiB of user stack copied per call (-K); 0: none */
	__u32 ustack_kib;
	__u32 pad;			/* zero */
};

#define KTR_REPLY_RESULT	1	/* answer to a request */
#define KTR_REPLY_DONE		2	/* foreground trace finished */
#define KTR_REPLY_NOTE		3	/* to a foreground client, while its trace runs: a
					   warning (msg), e.g. probes that could not be attached */
#define KTR_REPLY_MSG_MAX	2048

struct ktr_reply {
	__u32 magic;
	__u32 type;			/* KTR_REPLY_* */
	__s32 error;			/* 0 or an errno value */
	__u32 count;			/* processes set or cleared */
	__u64 records;			/* DONE: records written */
	__u64 lost;			/* DONE: records lost */
	__u64 ring_bytes;		/* the daemon's ring buffer size */
	char msg[KTR_REPLY_MSG_MAX];	/* one line per refusal or failure */
};

/*
 * The descriptors that came with a message (SCM_RIGHTS).  The receiver
 * keeps the first at most; every other is closed as it arrives, so that
 * no message, whatever it carries, leaves a descriptor behind.  The
 * kernel drops those beyond the room of the control buffer
 * (KTR_PROTO_FDS_ROOM) and says so (MSG_CTRUNC): such a message is cut.
 */
#define KTR_PROTO_FDS_ROOM	4
struct ktr_proto_fds {
	int fd;				/* the first one, -1 if none */
	unsigned int n;			/* how many came (all closed but fd) */
	bool cut;			/* control data cut short: more than the room */
};

/* Send one message, with fd attached if fd >= 0.  0 or -errno. */
int ktr_proto__send(int sock, const void *msg, size_t len, int fd);
/*
 * Receive one message of exactly len bytes: 0, or -errno (-EBADMSG: of
 * another size; -ECONNRESET: the peer gone), no descriptor kept then.
 * fds (NULL: none wanted, every one closed) says what came along.
 */
int ktr_proto__recv(int sock, void *msg, size_t len, struct ktr_proto_fds *fds);
/* Socket address for name: a path if it starts with '/', else abstract. */
socklen_t ktr_proto__addr(struct sockaddr_un *addr, const char *name);
/* Append a line to a reply message, keeping it NUL-terminated. */
void ktr_proto__msg_add(char *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* KTRACEB_KTR_PROTO_H */
