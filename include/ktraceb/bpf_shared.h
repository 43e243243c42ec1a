/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Types shared by the BPF programs and the loader that never reach a trace
 * file: the ring-buffer sample prefix, the per-process tracing state and the
 * limits both sides agree on.  The on-disk records are in ktr.h.
 *
 * A ring sample is struct ktr_sample followed by one whole on-disk record
 * (struct ktr_header + ktr_len bytes).  The drainer writes the record bytes
 * as they are, after filling in ktr_time; the sample may be longer than the
 * record (fixed-size reservations), never shorter.
 */
#ifndef KTRACEB_BPF_SHARED_H
#define KTRACEB_BPF_SHARED_H

#include "ktraceb/ktr.h"

/*
 * Trace files one daemon can feed at once (route ids; 0 is never a file:
 * its loss counter is the sum of all, so the drainer reads one counter per
 * poll to know whether any file lost records).
 */
#define KTR_MAX_ROUTES		16384
#define KTR_MAX_SYSCALLS	512	/* syscall numbers the tables cover */
#define KTR_MAX_PROCS		32768	/* traced processes at once */
#define KTR_SCRATCH_SIZE	(1 << 18) /* largest variable record, sample prefix included */
#define KTR_IOSIZE_DEFAULT	4096	/* GENIO bytes kept per I/O by default */
#define KTR_IOSIZE_MAX		65536	/* most GENIO bytes kept per I/O */
#define KTR_STRUCT_MAX		8192	/* most bytes of one captured struct (array) */
#define KTR_IOV_MAX		64	/* iovecs walked per readv/writev/msghdr */
#define KTR_ARGS_CHUNK		KTR_STRINGS_CHUNK /* ARGS/ENVS bytes per record */
#define KTR_ARGS_CHUNKS		16	/* so at most 2 MiB of argv and of envp */

struct ktr_sample {
	__u32 route;			/* which trace file: index into the writers */
	__u32 reserved;
};

/* procs map: tgid -> tracing state of one process (BSD p_traceflag + node) */
struct ktr_proc_state {
	__u32 facs;			/* KTRFAC_* including INHERIT and ROOT */
	__u32 route;
	__u32 flags;			/* KTR_PS_* */
	__u32 sv_flags;			/* ABI, as in KTR_PROCCTOR */
	__u32 iosize;			/* GENIO bytes kept per I/O */
	__u32 pad;
};
#define KTR_PS_AWAIT_EXEC	0x1	/* ignore everything before the first execve */
/*
 * Set by the daemon between a non-root caller's permission check and its
 * second look (ktr_procmap.c): nothing is recorded, but a set-id exec
 * already ends the tracing, so no exec can slip between check and start.
 */
#define KTR_PS_PENDING		0x2
#define KTR_PS_QUIET		(KTR_PS_AWAIT_EXEC | KTR_PS_PENDING)

/*
 * GENIO: what a syscall's data transfer looks like, per syscall number
 * (the loader fills the table by syscall name).
 */
#define KTR_GIO_NONE		0
#define KTR_GIO_READ_BUF	1	/* fd, buf, count: read, pread64, recvfrom */
#define KTR_GIO_WRITE_BUF	2	/* write, pwrite64, sendto */
#define KTR_GIO_READ_IOV	3	/* fd, iov, iovcnt: readv, preadv, preadv2 */
#define KTR_GIO_WRITE_IOV	4	/* writev, pwritev, pwritev2 */
#define KTR_GIO_READ_MSG	5	/* fd, msghdr: recvmsg */
#define KTR_GIO_WRITE_MSG	6	/* sendmsg */

/*
 * KTR_STRUCT captures: up to KTR_CAPTURES structures a syscall reads or
 * fills, per syscall number.  Input structs are read at entry, output
 * structs at a successful return.
 */
#define KTR_CAPTURES		2
#define KTR_CAP_NONE		0
#define KTR_CAP_FIXED		1	/* size bytes at args[arg] */
#define KTR_CAP_LEN_ARG		2	/* args[lenarg] bytes (capped at size): bind, connect */
#define KTR_CAP_LEN_PTR		3	/* *(u32 *)args[lenarg] bytes (capped): accept, recvfrom */
#define KTR_CAP_COUNT_ARG	4	/* args[lenarg] elements of size: poll */
#define KTR_CAP_COUNT_RET	5	/* return value elements of size: epoll_wait */
#define KTR_CAP_BYTES_RET	6	/* return value bytes (capped): getdents64 */
#define KTR_CAP_AT_ENTRY	0x1
#define KTR_CAP_AT_EXIT		0x2
#define KTR_CAP_NAME_MAX	16

struct ktr_capture {
	__u8 kind;			/* KTR_CAP_* */
	__u8 arg;			/* which argument points at the struct */
	__u8 lenarg;			/* which argument gives its length or count */
	__u8 when;			/* KTR_CAP_AT_ENTRY and/or KTR_CAP_AT_EXIT */
	__u16 size;			/* struct size, or the cap for variable lengths */
	__u8 namelen;			/* strlen(name) + 1 */
	__u8 pad;
	char name[KTR_CAP_NAME_MAX];	/* KTR_STRUCT name, NUL-padded */
};

#endif /* KTRACEB_BPF_SHARED_H */
