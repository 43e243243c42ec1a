/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * USDT probes (bpf/user.bpf.c, the daemon's usdt/): each probe site as its
 * uprobe finds it, and the files whose mapping needs no stop.
 */
#ifndef KTRACEB_BPF_USDT_H
#define KTRACEB_BPF_USDT_H

#include "ktraceb/ktr.h"

/*
 * usdt_quiet: files whose mapping needs no stop (KTR_PS_HOLD): no probe
 * guarded by a semaphore, and any other probe already attached.  The key
 * is the inode as the kernel names it (dev_t as MAJOR << 20 | MINOR); the
 * value, the file's change time (ctime, in ns) when a scan found it
 * without probes.  An inode number is used again for a new file once its
 * file is gone, and a file can be rewritten in place: either has another
 * ctime, and its entry is not believed (note.bpf.c, ktr_usdt_file.c).
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

#endif /* KTRACEB_BPF_USDT_H */
