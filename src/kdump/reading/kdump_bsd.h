/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Every BSD's trace files (docs/BSD.md): which system and header version a
 * file is, found once from its first records, and each foreign record made
 * into the in-memory struct ktr_header and payload layouts ktraceb's own
 * files have (ktraceb/ktr.h), so the rest of kdump reads them unchanged.
 *
 * Invariants:
 *  - A file whose first record is ktraceb's INFO is ktraceb's, whatever
 *    follows; detection never changes how such a file reads.
 *  - A layout is chosen only if the records it finds chain, header to
 *    header, to the end of what was read (or past the detection window),
 *    with every type one that system writes.
 *  - Payloads are converted only when their size is the one the system's
 *    layout gives; anything else passes through as it is, so the printers
 *    say "invalid record" rather than print a guess.
 */
#ifndef KTRACEB_KDUMP_BSD_H
#define KTRACEB_KDUMP_BSD_H

#include <stdbool.h>
#include <stddef.h>
#include "ktraceb/ktr.h"
#include "kdump_kind.h"

enum kd_sys {
	KD_SYS_KTRACEB = 0, /* ktraceb's own: the DragonFly layout with an INFO first */
	KD_SYS_DRAGONFLY,
	KD_SYS_FREEBSD,
	KD_SYS_OPENBSD,
	KD_SYS_NETBSD,
	KD_SYS_DARWIN,
};

struct kd_bsd_fmt {
	enum kd_sys sys;
	int version; /* the header's version: FreeBSD 0 or 1, NetBSD 0..2; else 0 */
	int hdrsize; /* bytes of each record's header on disk */
	int ws; /* the machine's word (long, pointer, register_t): 4 or 8 */
	bool be; /* big-endian */
	unsigned int sv_flags; /* the ABI of the file's processes (decode.h KTR_SV_ABI_*) */
};

/* The largest ktr_len the reader accepts (kdump_reader.h), in any system's layout. */
#define KTR_READER_MAXLEN (64 << 20)

/* DragonFly declares ktr_args[8]; Linux passes at most 6 but allow the slack. */
#define KD_SYSCALL_MAXARGS 8

/*
 * Types kdump gives foreign records that ktraceb's files never hold
 * (FreeBSD's numbers where FreeBSD has the record; 19, 20, 22 and 23 are
 * ktraceb's too, as KTR_FD ... KTR_CGROUP: a number is a kind by the file's
 * system, kd_bsd__kind below for another's).  kdump shows them in foreign
 * files only (kdump_kind.h KD_SYSCTL...).
 */
#define KD_T_SYSCTL 9 /* FreeBSD: the MIB's name */
#define KD_T_CAPFAIL 12
#define KD_T_FAULT 13
#define KD_T_FAULTEND 14
#define KD_T_STRUCT_ARRAY 15
#define KD_T_EXTERR 18
#define KD_T_EMUL 19 /* NetBSD: the emulation's name */
#define KD_T_MIB 20 /* NetBSD: the sysctl MIB, ints */
#define KD_T_PLEDGE 21 /* OpenBSD: a pledge violation */
#define KD_T_START 22 /* OpenBSD: KTR_START, the start of a ktrace(2) */
#define KD_T_OTHER 23 /* a record type the system has that kdump does not print */

/*
 * What the first len bytes of a file are (at_eof: the whole file):
 * 0 with *f filled in, or -ENOEXEC when no layout chains.
 */
int kd_bsd__detect(const unsigned char *buf, size_t len, bool at_eof, struct kd_bsd_fmt *f);

/*
 * A foreign header (f->hdrsize bytes) into h, in ktraceb's layout; its
 * payload length into *paylen.  -EBADMSG for a length out of range,
 * -EPROTO for a type the system does not have.
 */
int kd_bsd__header(const struct kd_bsd_fmt *f, const unsigned char *raw, struct ktr_header *h,
		   size_t *paylen);

/*
 * The payload (len bytes) of the record h into out (room for 2 * len + 64
 * bytes) in ktraceb's layout; sets h->ktr_len and h->ktr_type to the result.
 */
void kd_bsd__payload(const struct kd_bsd_fmt *f, struct ktr_header *h, const unsigned char *in,
		     size_t len, unsigned char *out);

/*
 * The kind of a record of another system's file, by the type its header
 * got (kd_bsd__header, kd_bsd__payload: the system's own, or a KD_T_*):
 * KD_UNKNOWN outside 1..KTR_TYPE_MAX.
 */
enum kd_kind kd_bsd__kind(const struct kd_bsd_fmt *f, int type);

/* "FreeBSD i386, ktr_header v0 (44 bytes, little-endian)" */
void kd_bsd__describe(const struct kd_bsd_fmt *f, char *buf, size_t size);

#endif /* KTRACEB_KDUMP_BSD_H */
