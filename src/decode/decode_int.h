/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Internals shared by the decoders: symbol tables, the two generic printers
 * (bit masks and enumerations) and the per-family argument formatters that
 * the dispatch table in args.c points at.
 *
 * The files, each calling only those before it:
 *   symtab.c escape.c errno.c signal.c   masks, numbers, strings, names
 *   decode_bsd.c syscalltab.c            the BSDs' names, the syscall tables
 *   argfmt.c                             the argument formatters shared
 *   decode_ioctl.c decode_{file,mem,proc,prctl,signal,net,ipc,misc}.c   one family each
 *   struct_field.c struct_{net,proc}.c struct.c   KTR_STRUCT as fields (struct_int.h)
 *   args.c sysret.c                      CALL arguments, RET values as fields
 *   struct_text.c call_text.c            all of them as kdump's text
 */
#ifndef KTRACEB_DECODE_INT_H
#define KTRACEB_DECODE_INT_H

#include <stdbool.h>
#include "decode.h"
#include "syscalltab.h"

#define KTR_NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct ktr_sym {
	__u64 val;
	const char *name;
};

/* A table entry whose name is the macro's own spelling. */
#define KTR_SYM(x)             \
	{                      \
		(__u64)(x), #x \
	}

struct ktr_symtab {
	const struct ktr_sym *sym;
	size_t n;
};
#define KTR_SYMTAB(a)             \
	{                         \
		(a), KTR_NELEM(a) \
	}

/*
 * Bit mask: the names of the entries whose bits are all set, in table order
 * (so composite values such as O_SYNC must come before their parts), joined
 * by '|', then any leftover bits as "|0x...".  A zero value prints the
 * table's zero entry if it has one, else "0".  KTR_DEC_RAW prints the number.
 */
void ktr_print_mask(FILE *out, const struct ktr_symtab *t, __u64 v, int flags);
/* The same, continuing after nprinted names already written; returns the count. */
int ktr_print_mask_cont(FILE *out, const struct ktr_symtab *t, __u64 v, int nprinted);
/*
 * A mask of one-bit names in bit order, whatever the table's (a header's
 * order is not always strace's): "FAN_MARK_ADD|FAN_MARK_MOUNT|0x800".
 */
void ktr_print_bits(FILE *out, const struct ktr_symtab *t, __u64 v, int flags);
/* Enumeration: the name, or the value as a signed decimal number. */
void ktr_print_enum(FILE *out, const struct ktr_symtab *t, __s64 v, int flags);
/* The name for v, or NULL. */
const char *ktr_sym_name(const struct ktr_symtab *t, __u64 v);

/* A plain number: %#lx, or %ld under KTR_DEC_DECIMAL. */
void ktr_print_num(FILE *out, __u64 v, int flags);
/* Octal file mode "0644" ("0" for 0). */
void ktr_print_octal(FILE *out, __u64 v, int flags);
/* A signal set of nbits signals (bit 0 = signal 1): "SIGINT|SIGTERM", "0", "~(SIGKILL)". */
void ktr_print_sigset(FILE *out, __u64 set, int flags);
/* "SIGTERM", or the number. */
void ktr_print_signal(FILE *out, __s64 sig, int flags);
/* "-rw-r--r--" */
void ktr_print_modestr(FILE *out, unsigned int mode);
/* "S_IFCHR|0666", or the octal mode alone without a file type. */
void ktr_print_filemode(FILE *out, __u64 mode, int flags);
/* An errno value "ENOENT", or the number. */
void ktr_print_errno_name(FILE *out, int err);
/* The text of a kernel-internal errno (512 and up), NULL for the others. */
const char *ktr_errno_text(int err);

/* Context of one syscall's arguments, for formatters that look at others. */
struct ktr_argctx {
	const __u64 *a;
	int narg;
	int flags;
	unsigned int sv_flags;
	const struct ktr_sysent *se;
};

typedef void (*ktr_argfn)(FILE *out, const struct ktr_argctx *c, int i);
/*
 * How many of its arguments a call takes, as its others say (openat's mode
 * only with O_CREAT or O_TMPFILE, fcntl's third only for some commands):
 * the ones after are not shown, as strace does not show them.
 */
typedef int (*ktr_nargfn)(const struct ktr_argctx *c);

/* One syscall's special formatters, by name; NULL means the generic rule. */
struct ktr_scdec {
	const char *name;
	ktr_argfn fn[6];
	ktr_nargfn nargs; /* NULL: all of them */
};

/* Formatters shared between families. */
void ktr_arg_hex(FILE *out, const struct ktr_argctx *c, int i);
void ktr_arg_int(FILE *out, const struct ktr_argctx *c, int i);
void ktr_arg_fd(FILE *out, const struct ktr_argctx *c, int i);
void ktr_arg_dfd(FILE *out, const struct ktr_argctx *c, int i);
void ktr_arg_signal(FILE *out, const struct ktr_argctx *c, int i);
void ktr_arg_mode(FILE *out, const struct ktr_argctx *c, int i);
void ktr_arg_uid(FILE *out, const struct ktr_argctx *c, int i);
void ktr_arg_clockid(FILE *out, const struct ktr_argctx *c, int i);

/* Per-family tables, each sorted by name (the unit test checks it). */
extern const struct ktr_scdec ktr_scdec_file[];
extern const size_t ktr_nscdec_file;
extern const struct ktr_scdec ktr_scdec_mem[];
extern const size_t ktr_nscdec_mem;
extern const struct ktr_scdec ktr_scdec_proc[];
extern const size_t ktr_nscdec_proc;
extern const struct ktr_scdec ktr_scdec_signal[];
extern const size_t ktr_nscdec_signal;
extern const struct ktr_scdec ktr_scdec_net[];
extern const size_t ktr_nscdec_net;
extern const struct ktr_scdec ktr_scdec_prctl[];
extern const size_t ktr_nscdec_prctl;
extern const struct ktr_scdec ktr_scdec_ipc[];
extern const size_t ktr_nscdec_ipc;
extern const struct ktr_scdec ktr_scdec_misc[];
extern const size_t ktr_nscdec_misc;

/*
 * The ioctl requests of the kernel's headers (build/gen/ioctls.c), by value,
 * then name; a name is where it lies in ktr_ioctl_names, not a pointer the
 * dynamic loader would fix up at each start (syscalltab.h).
 */
struct ktr_ioctlent {
	__u32 code;
	__u32 name;
};
extern const struct ktr_ioctlent ktr_ioctlents[];
extern const size_t ktr_nioctlents;
extern const char ktr_ioctl_names[];
/* ioctl request name (the first of its names), or NULL. */
const char *ktr_ioctl_name(unsigned int req);
/* An ioctl request as strace shows it: "TCGETS", "A or B", "_IOC(_IOC_READ, 0x94, 0x1f, 0x400)". */
void ktr_print_ioctl_req(FILE *out, __u32 code, int flags);
/* For the unit test: the generated table in the order its lookup needs. */
bool ktr_ioctl_table_sorted(void);

/*
 * Tables made of the kernel's headers (src/decode/tables/consts.spec,
 * build/gen/consts.c): socket options by level, evdev's codes, flags.
 */
extern const struct ktr_symtab ktr_gen_so_socket, ktr_gen_so_ip, ktr_gen_so_ipv6, ktr_gen_so_tcp,
	ktr_gen_so_udp, ktr_gen_so_packet, ktr_gen_so_netlink, ktr_gen_so_alg, ktr_gen_so_tls,
	ktr_gen_so_raw, ktr_gen_so_icmpv6, ktr_gen_so_xdp, ktr_gen_so_mptcp, ktr_gen_so_kcm;
extern const struct ktr_symtab ktr_gen_ev_type, ktr_gen_ev_abs;
extern const struct ktr_symtab ktr_gen_grnd, ktr_gen_mpol_mode, ktr_gen_mpol_mode_flags,
	ktr_gen_mpol_get_flags, ktr_gen_mpol_mf, ktr_gen_seccomp_op, ktr_gen_seccomp_filter_flags,
	ktr_gen_uring_register, ktr_gen_personality_flags, ktr_gen_ipc_cmd, ktr_gen_sem_cmd,
	ktr_gen_shm_cmd, ktr_gen_msg_cmd, ktr_gen_key_spec, ktr_gen_key_reqkey_defl,
	ktr_gen_keyctl_op, ktr_gen_fan_class, ktr_gen_fan_init_flags, ktr_gen_fan_mark_flags,
	ktr_gen_fan_event;

/* Symbol tables used both by arguments and by structures. */
extern const struct ktr_symtab ktr_open_flags_tab;
extern const struct ktr_symtab ktr_poll_events_tab;
extern const struct ktr_symtab ktr_epoll_events_tab;
extern const struct ktr_symtab ktr_sa_flags_tab;
extern const struct ktr_symtab ktr_msg_flags_tab;
extern const struct ktr_symtab ktr_af_tab;
extern const struct ktr_symtab ktr_clone_flags_tab;
extern const struct ktr_symtab ktr_statx_mask_tab;
extern const struct ktr_symtab ktr_resolve_tab;

/* Open flags with the access mode first: "O_RDONLY|O_CLOEXEC". */
void ktr_print_open_flags(FILE *out, __u64 v, int flags);

/* For the unit test: every dispatch table sorted and free of duplicates. */
bool ktr_scdec_tables_sorted(void);
/* The syscall name of the i-th decoder entry (all families), NULL past the
 * last: for the unit test that checks every name against the tables. */
const char *ktr_scdec_name_at(size_t i);

/*
 * decode_bsd.c: the BSD side of ktr_syscall_name(), ktr_decode_syscall_args(),
 * ktr_decode_sysret()
 */
const char *ktr_bsd_syscall_name(unsigned int sv_flags, long nr);
void ktr_bsd_print_arg(FILE *out, __u64 arg, int flags);
void ktr_bsd_print_sysret(FILE *out, unsigned int sv_flags, int error, __s64 retval, int flags);

#endif /* KTRACEB_DECODE_INT_H */
