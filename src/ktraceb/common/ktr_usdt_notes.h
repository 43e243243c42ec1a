/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The USDT probes an ELF file has: its .note.stapsdt notes (the SystemTap
 * SDT format, which sys/sdt.h writes), each probe's place and its
 * semaphore's as file offsets (what a uprobe and its reference counter
 * take) and its arguments located (ktr_usdt_arg).  Only x86_64's and
 * arm64's operand forms are understood; a probe with an argument in
 * another form keeps the arguments before it.  Read by the daemon's scans
 * (daemon/usdt/ktr_usdt_job.c) and by ktraceb -e usdt:list
 * (client/ktr_usdt_list.c).
 */
#ifndef KTRACEB_KTR_USDT_NOTES_H
#define KTRACEB_KTR_USDT_NOTES_H

#include <linux/types.h>

#include "ktraceb/bpf_usdt.h"

#define KTR_USDT_FILE_NOTES 1024 /* the notes of one file that are attached */

struct ktr_usdt_note {
	char provider[KTR_UREC_NAME_MAX];
	char name[KTR_UREC_NAME_MAX];
	__u64 pc_off;			/* file offset of the probe's nop */
	__u64 sema_off;			/* file offset of its semaphore, 0 if unguarded */
	__u8 nargs;
	struct ktr_usdt_arg args[KTR_UREC_MAXARGS];
};

/*
 * The probes of the ELF file open at fd (not closed), the first max of them
 * into out, with *seen every one the file has.  Linear in the file, with
 * fixed memory: headers and notes are capped while they are read.  Returns
 * how many were kept (0: none, or not ELF), or -errno (-EFBIG: a notes
 * section or header table past the caps; -EIO: the file or its notes
 * could not be read).
 */
int ktr_usdt_notes__read(int fd, struct ktr_usdt_note *out, int max, int *seen);

#endif /* KTRACEB_KTR_USDT_NOTES_H */
