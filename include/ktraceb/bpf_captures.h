/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the syscall programs do for each syscall number, in the tables the
 * loader fills by syscall name before load (.rodata): how a call moves
 * data (GENIO), which structures it reads or fills (KTR_STRUCT), and
 * whether its CALL is made at its entry.
 */
#ifndef KTRACEB_BPF_CAPTURES_H
#define KTRACEB_BPF_CAPTURES_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

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

/*
 * ktr_between64 (.rodata, by native syscall number, the loader's): the
 * facilities whose records come between a call's CALL and its RET
 * (KTRFAC_NAMEI, _STRUCT, _GENIO), and KTR_CALL_AT_ENTRY for a call whose
 * CALL is made at its entry whatever the trace: one that does not return
 * (exit), makes a new image (execve) or a child (clone), returns through
 * another path (rt_sigreturn) or renames its thread (prctl), and any
 * number the tables do not know.  A call of a trace with none of them
 * keeps its CALL in the stage until its return (bpf_stage.h).  mmap has
 * the bits of the facilities whose processes' objects the daemon reads
 * (u, -k: KTR_FAC_SCANNED, src/common/trstr.h): its return may have the
 * daemon scan the file it mapped (a note, and a stop), which only the
 * return's full path makes.  The loader takes the bits from the table
 * (ktr_facs_between(), ktr_facs_that()).
 */
#define KTR_CALL_AT_ENTRY 0x20000000

#endif /* KTRACEB_BPF_CAPTURES_H */
