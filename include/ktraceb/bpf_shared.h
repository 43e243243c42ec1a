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
#define KTR_MAX_ROUTES	   16384
#define KTR_MAX_SYSCALLS   512 /* syscall numbers the tables cover */
#define KTR_MAX_PROCS	   32768 /* traced processes at once */
#define KTR_SCRATCH_SIZE   (1 << 18) /* largest variable record, sample prefix included */
#define KTR_IOSIZE_DEFAULT 4096 /* GENIO bytes kept per I/O by default */
#define KTR_IOSIZE_MAX	   65536 /* most GENIO bytes kept per I/O */
#define KTR_STRUCT_MAX	   8192 /* most bytes of one captured struct (array) */
#define KTR_IOV_MAX	   64 /* iovecs walked per readv/writev/msghdr */
#define KTR_ARGS_CHUNK	   KTR_STRINGS_CHUNK /* ARGS/ENVS bytes per record */
#define KTR_ARGS_CHUNKS	   16 /* so at most 2 MiB of argv and of envp */

struct ktr_sample {
	__u32 route; /* which trace file: its index in the daemon's table (ktr_files.h) */
	__u32 reserved;
};

/*
 * A sample for the daemon itself rather than a file (route 0): a process
 * traced with 'u' exec'd, mapped a file executable (dlopen) or forked, so
 * its USDT probes must be looked at (ktr_usdt.c).  struct ktr_sample, then
 * this; the ring wakes the daemon at once for it.
 */
#define KTR_ROUTE_DAEMON      0
#define KTR_NOTE_EXEC	      1
#define KTR_NOTE_MMAP	      2
#define KTR_NOTE_FORK	      3
#define KTR_NOTE_CHILD_TRACED 0x1 /* FORK: the child inherited the tracing */
#define KTR_NOTE_HELD	      0x2 /* the process waits for SIGCONT (KTR_PS_HOLD) */
struct ktr_note {
	__u32 kind; /* KTR_NOTE_* */
	__u32 pid; /* the process (FORK: the parent) */
	__u32 child; /* FORK: the child */
	__u32 flags; /* KTR_NOTE_CHILD_TRACED, KTR_NOTE_HELD */
};

/*
 * usdt_quiet: files whose mapping needs no stop (KTR_PS_HOLD): no probe
 * guarded by a semaphore, and any other probe already attached.  The key
 * is the inode as the kernel names it (dev_t as MAJOR << 20 | MINOR).
 */
struct ktr_file_key {
	__u64 dev;
	__u64 ino;
};
#define KTR_MAX_QUIET_FILES 4096

/*
 * USDT: one probe site of one file, as the uprobe at that site finds it by
 * its BPF cookie (the site's id) in the usdt_sites map.  Arguments are
 * located as the site's stapsdt note says (x86_64 operand forms: a
 * register, a constant, or memory at a register plus an offset).
 */
#define KTR_UARG_CONST	   0
#define KTR_UARG_REG	   1 /* the value is in a register */
#define KTR_UARG_REG_DEREF 2 /* at register + val_off in user memory */
struct ktr_usdt_arg {
	__u64 val_off; /* the constant, or the offset from the register */
	__u16 reg_off; /* offsetof(struct pt_regs, register) */
	__u8 kind; /* KTR_UARG_* */
	__u8 size; /* 1, 2, 4 or 8 bytes */
	__u8 is_signed;
	__u8 pad[3];
};

#define KTR_USITE_UTRACE   4 /* ktraceb:utrace: the raw bytes (kinds 1-3: KTR_UREC_*) */
#define KTR_MAX_USDT_SITES 65536 /* probe sites attached at once */
struct ktr_usdt_site {
	__u8 kind; /* KTR_UREC_PROBE, _SPAN_ENTER, _SPAN_EXIT, KTR_USITE_UTRACE */
	__u8 nargs;
	__u8 pad[6];
	struct ktr_usdt_arg args[KTR_UREC_MAXARGS];
	char provider[KTR_UREC_NAME_MAX];
	char name[KTR_UREC_NAME_MAX];
};

/* procs map: tgid -> tracing state of one process (BSD p_traceflag + node) */
struct ktr_proc_state {
	__u32 facs; /* KTRFAC_* including INHERIT and ROOT */
	__u32 route;
	__u32 flags; /* KTR_PS_* */
	__u32 sv_flags; /* ABI, as in KTR_PROCCTOR */
	__u32 iosize; /* GENIO bytes kept per I/O */
	__u32 pad;
};
#define KTR_PS_AWAIT_EXEC 0x1 /* ignore everything before the first execve */
/*
 * Set by the daemon between a non-root caller's permission check and its
 * second look (ktr_procmap.c): nothing is recorded, but a set-id exec
 * already ends the tracing, so no exec can slip between check and start.
 */
#define KTR_PS_PENDING	  0x2
#define KTR_PS_QUIET	  (KTR_PS_AWAIT_EXEC | KTR_PS_PENDING)
/*
 * ktraceb's own command (traced with 'u'), whose parent is ktraceb and no
 * shell: stopped (SIGSTOP) at its execs and executable mappings of files
 * not known to be quiet, until the daemon has armed their USDT probes and
 * continues it, so no probe fires unseen.  Not inherited.
 */
#define KTR_PS_HOLD	  0x4
#define KTR_PS_HELD	  0x8 /* stopped for that now: its SIGSTOP is no PSIG */

/*
 * GENIO: what a syscall's data transfer looks like, per syscall number
 * (the loader fills the table by syscall name).
 */
#define KTR_GIO_NONE	  0
#define KTR_GIO_READ_BUF  1 /* fd, buf, count: read, pread64, recvfrom */
#define KTR_GIO_WRITE_BUF 2 /* write, pwrite64, sendto */
#define KTR_GIO_READ_IOV  3 /* fd, iov, iovcnt: readv, preadv, preadv2 */
#define KTR_GIO_WRITE_IOV 4 /* writev, pwritev, pwritev2 */
#define KTR_GIO_READ_MSG  5 /* fd, msghdr: recvmsg */
#define KTR_GIO_WRITE_MSG 6 /* sendmsg */

/*
 * KTR_STRUCT captures: up to KTR_CAPTURES structures a syscall reads or
 * fills, per syscall number.  Input structs are read at entry, output
 * structs at a successful return.
 */
#define KTR_CAPTURES	  2
#define KTR_CAP_NONE	  0
#define KTR_CAP_FIXED	  1 /* size bytes at args[arg] */
#define KTR_CAP_LEN_ARG	  2 /* args[lenarg] bytes (capped at size): bind, connect */
#define KTR_CAP_LEN_PTR	  3 /* *(u32 *)args[lenarg] bytes (capped): accept, recvfrom */
#define KTR_CAP_COUNT_ARG 4 /* args[lenarg] elements of size: poll */
#define KTR_CAP_COUNT_RET 5 /* return value elements of size: epoll_wait */
#define KTR_CAP_BYTES_RET 6 /* return value bytes (capped): getdents64 */
#define KTR_CAP_AT_ENTRY  0x1
#define KTR_CAP_AT_EXIT	  0x2
#define KTR_CAP_NAME_MAX  16

struct ktr_capture {
	__u8 kind; /* KTR_CAP_* */
	__u8 arg; /* which argument points at the struct */
	__u8 lenarg; /* which argument gives its length or count */
	__u8 when; /* KTR_CAP_AT_ENTRY and/or KTR_CAP_AT_EXIT */
	__u16 size; /* struct size, or the cap for variable lengths */
	__u8 namelen; /* strlen(name) + 1 */
	__u8 pad;
	char name[KTR_CAP_NAME_MAX]; /* KTR_STRUCT name, NUL-padded */
};

#endif /* KTRACEB_BPF_SHARED_H */
