// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * File and descriptor syscalls: open flags and modes, *at flags, access
 * modes, fcntl, lseek, flock, ioctl, the small flag sets of the fd
 * constructors (dup3, pipe2, eventfd2, ...), fanotify's classes, flags and
 * events, and name_to_handle_at's flags.
 */
#include <fcntl.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/falloc.h>
#include <linux/fanotify.h>
#include "ktraceb/ktr.h"
#include "decode_int.h"

/*
 * Kernel values on x86_64.  glibc defines O_LARGEFILE as 0 for LP64 and
 * hides the __O_* parts, so these are spelled out (asm-generic/fcntl.h).
 */
#define K_O_LARGEFILE	0100000
#define K_O_SYNC_BIT	04000000 /* __O_SYNC */
#define K_O_TMPFILE_BIT 020000000 /* __O_TMPFILE */

/* fanotify_init's two bits of class */
#define K_FAN_CLASS_BITS 0xcU

/* name_to_handle_at's flags of linux/fcntl.h after 6.1's */
#define K_AT_HANDLE_FID		  0x200 /* 6.5 */
#define K_AT_HANDLE_MNT_ID_UNIQUE 0x001 /* 6.12 */
#define K_AT_HANDLE_CONNECTABLE	  0x002 /* 6.13 */
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef AT_EACCESS
#define AT_EACCESS 0x200
#endif
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#define MFD_EXEC	0x0010U
#endif
#ifndef F_DUPFD_QUERY
#define F_DUPFD_QUERY 1027
#endif
#ifndef F_CREATED_QUERY
#define F_CREATED_QUERY 1028
#endif
#ifndef F_CANCELLK
#define F_CANCELLK 1029
#endif
#ifndef F_GET_RW_HINT
#define F_GET_RW_HINT	   1035
#define F_SET_RW_HINT	   1036
#define F_GET_FILE_RW_HINT 1037
#define F_SET_FILE_RW_HINT 1038
#endif
#ifndef SEEK_DATA
#define SEEK_DATA 3
#define SEEK_HOLE 4
#endif

static const struct ktr_sym open_sym[] = {
	/* composite values before their parts */
	{ K_O_SYNC_BIT | O_DSYNC, "O_SYNC" },
	{ K_O_TMPFILE_BIT | O_DIRECTORY, "O_TMPFILE" },
	KTR_SYM(O_CREAT),
	KTR_SYM(O_EXCL),
	KTR_SYM(O_NOCTTY),
	KTR_SYM(O_TRUNC),
	KTR_SYM(O_APPEND),
	KTR_SYM(O_NONBLOCK),
	KTR_SYM(O_DSYNC),
	{ O_ASYNC, "O_ASYNC" },
	KTR_SYM(O_DIRECT),
	{ K_O_LARGEFILE, "O_LARGEFILE" },
	KTR_SYM(O_DIRECTORY),
	KTR_SYM(O_NOFOLLOW),
	KTR_SYM(O_NOATIME),
	KTR_SYM(O_CLOEXEC),
	KTR_SYM(O_PATH),
};
const struct ktr_symtab ktr_open_flags_tab = KTR_SYMTAB(open_sym);

static const struct ktr_sym accmode_sym[] = {
	KTR_SYM(O_RDONLY),
	KTR_SYM(O_WRONLY),
	KTR_SYM(O_RDWR),
	{ 3, "O_ACCMODE" },
};
static const struct ktr_symtab accmode_tab = KTR_SYMTAB(accmode_sym);

void ktr_print_open_flags(FILE *out, __u64 v, int flags)
{
	if (flags & KTR_DEC_RAW) {
		ktr_print_num(out, v, flags);
		return;
	}
	fputs(ktr_sym_name(&accmode_tab, v & O_ACCMODE), out);
	ktr_print_mask_cont(out, &ktr_open_flags_tab, v & ~(__u64)O_ACCMODE, 1);
}

static void arg_oflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_open_flags(out, c->a[i] & 0xffffffffu, c->flags);
}

/* The mode matters only with O_CREAT or O_TMPFILE: without, open takes 2 arguments, openat 3. */
static int open_nargs(const struct ktr_argctx *c, int flags_arg)
{
	__u64 of = c->a[flags_arg];

	if ((of & O_CREAT) || (of & K_O_TMPFILE_BIT) == K_O_TMPFILE_BIT)
		return flags_arg + 2;
	return flags_arg + 1;
}

static int nargs_open(const struct ktr_argctx *c)
{
	return open_nargs(c, 1);
}

static int nargs_openat(const struct ktr_argctx *c)
{
	return open_nargs(c, 2);
}

/* mknod's umode_t: the kernel sees 16 bits of the register */
static void arg_fmode(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_filemode(out, c->a[i] & 0xffffu, c->flags);
}

static const struct ktr_sym access_sym[] = {
	KTR_SYM(F_OK),
	KTR_SYM(R_OK),
	KTR_SYM(W_OK),
	KTR_SYM(X_OK),
};
static const struct ktr_symtab access_tab = KTR_SYMTAB(access_sym);

static void arg_amode(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &access_tab, c->a[i] & 0xffffffffu, c->flags);
}

static const struct ktr_sym at_sym[] = {
	KTR_SYM(AT_SYMLINK_NOFOLLOW), KTR_SYM(AT_REMOVEDIR),  KTR_SYM(AT_SYMLINK_FOLLOW),
	KTR_SYM(AT_NO_AUTOMOUNT),     KTR_SYM(AT_EMPTY_PATH), KTR_SYM(AT_STATX_FORCE_SYNC),
	KTR_SYM(AT_STATX_DONT_SYNC),  KTR_SYM(AT_RECURSIVE),
};
static const struct ktr_symtab at_tab = KTR_SYMTAB(at_sym);

/* faccessat2 gives 0x200 another meaning */
static const struct ktr_sym ataccess_sym[] = {
	KTR_SYM(AT_SYMLINK_NOFOLLOW),
	KTR_SYM(AT_EACCESS),
	KTR_SYM(AT_EMPTY_PATH),
};
static const struct ktr_symtab ataccess_tab = KTR_SYMTAB(ataccess_sym);

/*
 * name_to_handle_at's own: the two AT_ flags it takes, and the AT_HANDLE_
 * ones of kernels newer than the headers (6.5, 6.12, 6.13), in bit order
 * as strace prints them ("AT_SYMLINK_FOLLOW|0xfc").
 */
static const struct ktr_sym handle_sym[] = {
	{ K_AT_HANDLE_MNT_ID_UNIQUE, "AT_HANDLE_MNT_ID_UNIQUE" },
	{ K_AT_HANDLE_CONNECTABLE, "AT_HANDLE_CONNECTABLE" },
	{ K_AT_HANDLE_FID, "AT_HANDLE_FID" },
	KTR_SYM(AT_SYMLINK_FOLLOW),
	KTR_SYM(AT_EMPTY_PATH),
};
static const struct ktr_symtab handle_tab = KTR_SYMTAB(handle_sym);

static void arg_handleflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &handle_tab, c->a[i] & 0xffffffffu, c->flags);
}

static void arg_atflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &at_tab, c->a[i] & 0xffffffffu, c->flags);
}

static void arg_ataccess(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &ataccess_tab, c->a[i] & 0xffffffffu, c->flags);
}

static const struct ktr_sym statx_sym[] = {
	{ 0x7ff, "STATX_BASIC_STATS" },
	KTR_SYM(STATX_TYPE),
	KTR_SYM(STATX_MODE),
	KTR_SYM(STATX_NLINK),
	KTR_SYM(STATX_UID),
	KTR_SYM(STATX_GID),
	KTR_SYM(STATX_ATIME),
	KTR_SYM(STATX_MTIME),
	KTR_SYM(STATX_CTIME),
	KTR_SYM(STATX_INO),
	KTR_SYM(STATX_SIZE),
	KTR_SYM(STATX_BLOCKS),
	KTR_SYM(STATX_BTIME),
	{ 0x1000, "STATX_MNT_ID" },
	{ 0x2000, "STATX_DIOALIGN" },
	{ 0x4000, "STATX_MNT_ID_UNIQUE" },
	{ 0x8000, "STATX_SUBVOL" },
	{ 0x10000, "STATX_WRITE_ATOMIC" },
};
const struct ktr_symtab ktr_statx_mask_tab = KTR_SYMTAB(statx_sym);

static void arg_statxmask(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &ktr_statx_mask_tab, c->a[i] & 0xffffffffu, c->flags);
}

static const struct ktr_sym rename_sym[] = {
	KTR_SYM(RENAME_NOREPLACE),
	KTR_SYM(RENAME_EXCHANGE),
	KTR_SYM(RENAME_WHITEOUT),
};
static const struct ktr_symtab rename_tab = KTR_SYMTAB(rename_sym);

static void arg_renameflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &rename_tab, c->a[i] & 0xffffffffu, c->flags);
}

static const struct ktr_sym fcntl_sym[] = {
	KTR_SYM(F_DUPFD),
	KTR_SYM(F_GETFD),
	KTR_SYM(F_SETFD),
	KTR_SYM(F_GETFL),
	KTR_SYM(F_SETFL),
	KTR_SYM(F_GETLK),
	KTR_SYM(F_SETLK),
	KTR_SYM(F_SETLKW),
	KTR_SYM(F_SETOWN),
	KTR_SYM(F_GETOWN),
	KTR_SYM(F_SETSIG),
	KTR_SYM(F_GETSIG),
	{ 12, "F_GETLK64" },
	{ 13, "F_SETLK64" },
	{ 14, "F_SETLKW64" }, /* i386 */
	KTR_SYM(F_SETOWN_EX),
	KTR_SYM(F_GETOWN_EX),
	{ 17, "F_GETOWNER_UIDS" },
	KTR_SYM(F_OFD_GETLK),
	KTR_SYM(F_OFD_SETLK),
	KTR_SYM(F_OFD_SETLKW),
	KTR_SYM(F_SETLEASE),
	KTR_SYM(F_GETLEASE),
	KTR_SYM(F_NOTIFY),
	KTR_SYM(F_DUPFD_QUERY),
	KTR_SYM(F_CREATED_QUERY),
	KTR_SYM(F_CANCELLK),
	KTR_SYM(F_DUPFD_CLOEXEC),
	KTR_SYM(F_SETPIPE_SZ),
	KTR_SYM(F_GETPIPE_SZ),
	KTR_SYM(F_ADD_SEALS),
	KTR_SYM(F_GET_SEALS),
	KTR_SYM(F_GET_RW_HINT),
	KTR_SYM(F_SET_RW_HINT),
	KTR_SYM(F_GET_FILE_RW_HINT),
	KTR_SYM(F_SET_FILE_RW_HINT),
};
static const struct ktr_symtab fcntl_tab = KTR_SYMTAB(fcntl_sym);

static const struct ktr_sym fdflags_sym[] = { KTR_SYM(FD_CLOEXEC) };
static const struct ktr_symtab fdflags_tab = KTR_SYMTAB(fdflags_sym);

static const struct ktr_sym seals_sym[] = {
	KTR_SYM(F_SEAL_SEAL),  KTR_SYM(F_SEAL_SHRINK),	     KTR_SYM(F_SEAL_GROW),
	KTR_SYM(F_SEAL_WRITE), KTR_SYM(F_SEAL_FUTURE_WRITE),
};
static const struct ktr_symtab seals_tab = KTR_SYMTAB(seals_sym);

static const struct ktr_sym lease_sym[] = {
	KTR_SYM(F_RDLCK),
	KTR_SYM(F_WRLCK),
	KTR_SYM(F_UNLCK),
};
static const struct ktr_symtab lease_tab = KTR_SYMTAB(lease_sym);

static void arg_fcntlcmd(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &fcntl_tab, (int)c->a[i], c->flags);
}

/* The third argument's meaning depends on the command. */
static void arg_fcntlarg(FILE *out, const struct ktr_argctx *c, int i)
{
	__u64 v = c->a[i];

	switch ((int)c->a[i - 1]) {
	case F_SETFD:
		ktr_print_mask(out, &fdflags_tab, v & 0xffffffffu, c->flags);
		break;
	case F_SETFL:
		ktr_print_open_flags(out, v & 0xffffffffu, c->flags);
		break;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
	case F_DUPFD_QUERY:
	case F_SETOWN:
	case F_SETPIPE_SZ:
		ktr_arg_int(out, c, i);
		break;
	case F_SETSIG:
		ktr_arg_signal(out, c, i);
		break;
	case F_SETLEASE:
		ktr_print_enum(out, &lease_tab, (int)v, c->flags);
		break;
	case F_ADD_SEALS:
		ktr_print_mask(out, &seals_tab, v & 0xffffffffu, c->flags);
		break;
	default:
		ktr_arg_hex(out, c, i);
	}
}

/* The commands that take no third argument (strace shows two). */
static int nargs_fcntl(const struct ktr_argctx *c)
{
	switch ((int)c->a[1]) {
	case F_GETFD:
	case F_GETFL:
	case F_GETOWN:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GETPIPE_SZ:
	case F_GET_SEALS:
		return 2;
	default:
		return 3;
	}
}

static const struct ktr_sym whence_sym[] = {
	KTR_SYM(SEEK_SET),  KTR_SYM(SEEK_CUR),	KTR_SYM(SEEK_END),
	KTR_SYM(SEEK_DATA), KTR_SYM(SEEK_HOLE),
};
static const struct ktr_symtab whence_tab = KTR_SYMTAB(whence_sym);

static void arg_whence(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &whence_tab, (int)c->a[i], c->flags);
}

static const struct ktr_sym flock_sym[] = {
	KTR_SYM(LOCK_SH),
	KTR_SYM(LOCK_EX),
	KTR_SYM(LOCK_NB),
	KTR_SYM(LOCK_UN),
};
static const struct ktr_symtab flock_tab = KTR_SYMTAB(flock_sym);

static void arg_flockop(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &flock_tab, c->a[i] & 0xffffffffu, c->flags);
}

static void arg_ioctlreq(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_ioctl_req(out, (__u32)c->a[i], c->flags);
}

/* The NONBLOCK/CLOEXEC pairs of the fd constructors all share O_* values. */
#define FD_FLAGS_TAB(pfx, extra...)                                               \
	static const struct ktr_sym pfx##_sym[] = { extra };                      \
	static const struct ktr_symtab pfx##_tab = KTR_SYMTAB(pfx##_sym);         \
	static void arg_##pfx(FILE *out, const struct ktr_argctx *c, int i)       \
	{                                                                         \
		ktr_print_mask(out, &pfx##_tab, c->a[i] & 0xffffffffu, c->flags); \
	}

FD_FLAGS_TAB(ocloexec, KTR_SYM(O_CLOEXEC), KTR_SYM(O_NONBLOCK), KTR_SYM(O_DIRECT))
FD_FLAGS_TAB(efd, KTR_SYM(EFD_SEMAPHORE), KTR_SYM(EFD_NONBLOCK), KTR_SYM(EFD_CLOEXEC))
FD_FLAGS_TAB(sfd, KTR_SYM(SFD_NONBLOCK), KTR_SYM(SFD_CLOEXEC))
FD_FLAGS_TAB(tfd, KTR_SYM(TFD_NONBLOCK), KTR_SYM(TFD_CLOEXEC))
FD_FLAGS_TAB(tfdset, KTR_SYM(TFD_TIMER_ABSTIME), KTR_SYM(TFD_TIMER_CANCEL_ON_SET))
FD_FLAGS_TAB(ininit, KTR_SYM(IN_NONBLOCK), KTR_SYM(IN_CLOEXEC))
FD_FLAGS_TAB(epcreate, KTR_SYM(EPOLL_CLOEXEC))
FD_FLAGS_TAB(mfd, KTR_SYM(MFD_CLOEXEC), KTR_SYM(MFD_ALLOW_SEALING), KTR_SYM(MFD_HUGETLB),
	     KTR_SYM(MFD_NOEXEC_SEAL), KTR_SYM(MFD_EXEC))
FD_FLAGS_TAB(closerange, KTR_SYM(CLOSE_RANGE_UNSHARE), KTR_SYM(CLOSE_RANGE_CLOEXEC))
FD_FLAGS_TAB(falloc, KTR_SYM(FALLOC_FL_KEEP_SIZE), KTR_SYM(FALLOC_FL_PUNCH_HOLE),
	     KTR_SYM(FALLOC_FL_NO_HIDE_STALE), KTR_SYM(FALLOC_FL_COLLAPSE_RANGE),
	     KTR_SYM(FALLOC_FL_ZERO_RANGE), KTR_SYM(FALLOC_FL_INSERT_RANGE),
	     KTR_SYM(FALLOC_FL_UNSHARE_RANGE))
FD_FLAGS_TAB(inmask, KTR_SYM(IN_ACCESS), KTR_SYM(IN_MODIFY), KTR_SYM(IN_ATTRIB),
	     KTR_SYM(IN_CLOSE_WRITE), KTR_SYM(IN_CLOSE_NOWRITE), KTR_SYM(IN_OPEN),
	     KTR_SYM(IN_MOVED_FROM), KTR_SYM(IN_MOVED_TO), KTR_SYM(IN_CREATE), KTR_SYM(IN_DELETE),
	     KTR_SYM(IN_DELETE_SELF), KTR_SYM(IN_MOVE_SELF), KTR_SYM(IN_UNMOUNT),
	     KTR_SYM(IN_Q_OVERFLOW), KTR_SYM(IN_IGNORED), KTR_SYM(IN_ONLYDIR),
	     KTR_SYM(IN_DONT_FOLLOW), KTR_SYM(IN_EXCL_UNLINK), { 0x10000000, "IN_MASK_CREATE" },
	     KTR_SYM(IN_MASK_ADD), KTR_SYM(IN_ISDIR), KTR_SYM(IN_ONESHOT))

/* fanotify_init: the class (FAN_CLASS_NOTIF is 0), then the flags, as strace. */
static void arg_faninit(FILE *out, const struct ktr_argctx *c, int i)
{
	__u32 v = (__u32)c->a[i];
	const char *class = ktr_sym_name(&ktr_gen_fan_class, v & K_FAN_CLASS_BITS);

	if ((c->flags & KTR_DEC_RAW) || !class) {
		ktr_print_bits(out, &ktr_gen_fan_init_flags, v, c->flags);
		return;
	}
	fputs(class, out);
	if (v & ~K_FAN_CLASS_BITS) {
		fputc('|', out);
		ktr_print_bits(out, &ktr_gen_fan_init_flags, v & ~K_FAN_CLASS_BITS, c->flags);
	}
}

static void arg_fanmark(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_bits(out, &ktr_gen_fan_mark_flags, (__u32)c->a[i], c->flags);
}

/*
 * fanotify_mark's mask, its directory (AT_FDCWD, FAN_NOFD or a descriptor)
 * and its path; a 32-bit process passes the 64-bit mask in two arguments
 * (low, high), the others one later.
 */
static void arg_fanmask(FILE *out, const struct ktr_argctx *c, int i)
{
	__u64 v = c->a[i];

	if (c->sv_flags & KTR_SV_ILP32)
		v = (__u32)v | (__u64)(__u32)c->a[i + 1] << 32;
	ktr_print_bits(out, &ktr_gen_fan_event, v, c->flags);
}

static void print_fandfd(FILE *out, const struct ktr_argctx *c, int i)
{
	if ((int)c->a[i] == FAN_NOFD && !(c->flags & KTR_DEC_RAW))
		fputs("FAN_NOFD", out);
	else
		ktr_arg_dfd(out, c, i);
}

static void arg_fanarg3(FILE *out, const struct ktr_argctx *c, int i)
{
	if (c->sv_flags & KTR_SV_ILP32)
		ktr_arg_hex(out, c, i);
	else
		print_fandfd(out, c, i);
}

static void arg_fanarg4(FILE *out, const struct ktr_argctx *c, int i)
{
	if (c->sv_flags & KTR_SV_ILP32)
		print_fandfd(out, c, i);
	else
		ktr_arg_hex(out, c, i);
}

static void arg_faneflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_open_flags(out, (__u32)c->a[i], c->flags);
}

static const struct ktr_sym epctl_sym[] = {
	KTR_SYM(EPOLL_CTL_ADD),
	KTR_SYM(EPOLL_CTL_DEL),
	KTR_SYM(EPOLL_CTL_MOD),
};
static const struct ktr_symtab epctl_tab = KTR_SYMTAB(epctl_sym);

static void arg_epctl(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &epctl_tab, (int)c->a[i], c->flags);
}

static const struct ktr_sym fadv_sym[] = {
	KTR_SYM(POSIX_FADV_NORMAL),   KTR_SYM(POSIX_FADV_RANDOM),   KTR_SYM(POSIX_FADV_SEQUENTIAL),
	KTR_SYM(POSIX_FADV_WILLNEED), KTR_SYM(POSIX_FADV_DONTNEED), KTR_SYM(POSIX_FADV_NOREUSE),
};
static const struct ktr_symtab fadv_tab = KTR_SYMTAB(fadv_sym);

static void arg_fadvice(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &fadv_tab, (int)c->a[i], c->flags);
}

#define F ktr_arg_fd
#define D ktr_arg_dfd
#define H ktr_arg_hex
#define M ktr_arg_mode

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_file[] = {
	{ KTR_SC(access), { H, arg_amode }, NULL },
	{ KTR_SC(chmod), { H, M }, NULL },
	{ KTR_SC(close_range), { F, F, arg_closerange }, NULL },
	{ KTR_SC(creat), { H, M }, NULL },
	{ KTR_SC(dup3), { F, F, arg_ocloexec }, NULL },
	{ KTR_SC(epoll_create1), { arg_epcreate }, NULL },
	{ KTR_SC(epoll_ctl), { F, arg_epctl, F, H }, NULL },
	{ KTR_SC(eventfd2), { NULL, arg_efd }, NULL },
	{ KTR_SC(faccessat), { D, H, arg_amode }, NULL },
	{ KTR_SC(faccessat2), { D, H, arg_amode, arg_ataccess }, NULL },
	{ KTR_SC(fadvise64), { F, NULL, NULL, arg_fadvice }, NULL },
	{ KTR_SC(fallocate), { F, arg_falloc }, NULL },
	{ KTR_SC(fanotify_init), { arg_faninit, arg_faneflags }, NULL },
	{ KTR_SC(fanotify_mark),
	  { F, arg_fanmark, arg_fanmask, arg_fanarg3, arg_fanarg4, H },
	  NULL },
	{ KTR_SC(fchmod), { F, M }, NULL },
	{ KTR_SC(fchmodat), { D, H, M }, NULL },
	{ KTR_SC(fchmodat2), { D, H, M, arg_atflags }, NULL },
	{ KTR_SC(fchownat), { D, H, NULL, NULL, arg_atflags }, NULL },
	{ KTR_SC(fcntl), { F, arg_fcntlcmd, arg_fcntlarg }, nargs_fcntl },
	{ KTR_SC(fcntl64), { F, arg_fcntlcmd, arg_fcntlarg }, nargs_fcntl },
	{ KTR_SC(flock), { F, arg_flockop }, NULL },
	{ KTR_SC(fstatat64), { D, H, H, arg_atflags }, NULL },
	{ KTR_SC(inotify_add_watch), { F, H, arg_inmask }, NULL },
	{ KTR_SC(inotify_init1), { arg_ininit }, NULL },
	{ KTR_SC(ioctl), { F, arg_ioctlreq, H }, NULL },
	{ KTR_SC(linkat), { D, H, D, H, arg_atflags }, NULL },
	{ KTR_SC(lseek), { F, NULL, arg_whence }, NULL },
	{ KTR_SC(memfd_create), { H, arg_mfd }, NULL },
	{ KTR_SC(mkdir), { H, M }, NULL },
	{ KTR_SC(mkdirat), { D, H, M }, NULL },
	{ KTR_SC(mknod), { H, arg_fmode }, NULL },
	{ KTR_SC(mknodat), { D, H, arg_fmode }, NULL },
	{ KTR_SC(name_to_handle_at), { D, H, H, H, arg_handleflags }, NULL },
	{ KTR_SC(newfstatat), { D, H, H, arg_atflags }, NULL },
	{ KTR_SC(open), { H, arg_oflags, M }, nargs_open },
	{ KTR_SC(open_by_handle_at), { F, H, arg_oflags }, NULL },
	{ KTR_SC(openat), { D, H, arg_oflags, M }, nargs_openat },
	{ KTR_SC(pipe2), { H, arg_ocloexec }, NULL },
	{ KTR_SC(renameat2), { D, H, D, H, arg_renameflags }, NULL },
	{ KTR_SC(signalfd4), { F, H, NULL, arg_sfd }, NULL },
	{ KTR_SC(statx), { D, H, arg_atflags, arg_statxmask, H }, NULL },
	{ KTR_SC(timerfd_create), { ktr_arg_clockid, arg_tfd }, NULL },
	{ KTR_SC(timerfd_settime), { F, arg_tfdset, H, H }, NULL },
	{ KTR_SC(umask), { M }, NULL },
	{ KTR_SC(unlinkat), { D, H, arg_atflags }, NULL },
	{ KTR_SC(utimensat), { D, H, H, arg_atflags }, NULL },
};
const size_t ktr_nscdec_file = KTR_NELEM(ktr_scdec_file);
