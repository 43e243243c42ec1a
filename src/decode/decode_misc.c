// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Single calls with flags or operations of their own: getrandom, execveat,
 * seccomp, io_uring_register, the NUMA memory policies, personality,
 * userfaultfd and the keyrings (add_key, request_key, keyctl).  Names and values from the kernel's headers where they
 * have them as numbers (the generated consts.c), else written out.
 */
#include <fcntl.h>
#include <string.h>
#include <linux/keyctl.h>
#include "decode_int.h"

#define K_AT_EXECVE_CHECK	       0x10000
#define K_UFFD_USER_MODE_ONLY	       1
#define K_REGISTER_USE_REGISTERED_RING 0x80000000U
#define K_MPOL_MODE_FLAGS	       0xe000U /* MPOL_F_STATIC_NODES | RELATIVE_NODES | NUMA_BALANCING */
#define K_SECCOMP_SET_MODE_FILTER      1

static void arg_grnd(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &ktr_gen_grnd, (__u32)c->a[i], c->flags);
}

static const struct ktr_sym execveat_sym[] = {
	{ AT_SYMLINK_NOFOLLOW, "AT_SYMLINK_NOFOLLOW" },
	{ AT_EMPTY_PATH, "AT_EMPTY_PATH" },
	{ K_AT_EXECVE_CHECK, "AT_EXECVE_CHECK" },
};
static const struct ktr_symtab execveat_tab = KTR_SYMTAB(execveat_sym);

static void arg_execveat(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &execveat_tab, (__u32)c->a[i], c->flags);
}

static void arg_seccomp_op(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &ktr_gen_seccomp_op, (__u32)c->a[i], c->flags);
}

/* The flags of SECCOMP_SET_MODE_FILTER; the other operations take none (0). */
static void arg_seccomp_flags(FILE *out, const struct ktr_argctx *c, int i)
{
	if ((__u32)c->a[0] == K_SECCOMP_SET_MODE_FILTER)
		ktr_print_mask(out, &ktr_gen_seccomp_filter_flags, (__u32)c->a[i], c->flags);
	else
		fprintf(out, "%#x", (__u32)c->a[i]);
}

static void arg_uring_register(FILE *out, const struct ktr_argctx *c, int i)
{
	__u32 op = (__u32)c->a[i];
	const char *name =
		ktr_sym_name(&ktr_gen_uring_register, op & ~K_REGISTER_USE_REGISTERED_RING);

	if ((c->flags & KTR_DEC_RAW) || !name) {
		fprintf(out, "%#x", op);
		return;
	}
	fprintf(out, "%s%s",
		op & K_REGISTER_USE_REGISTERED_RING ? "IORING_REGISTER_USE_REGISTERED_RING|" : "",
		name);
}

/* A memory policy: its mode, then its mode flags ("MPOL_BIND|MPOL_F_STATIC_NODES"). */
static void arg_mpol_mode(FILE *out, const struct ktr_argctx *c, int i)
{
	__u32 v = (__u32)c->a[i];
	const char *name = ktr_sym_name(&ktr_gen_mpol_mode, v & ~K_MPOL_MODE_FLAGS);

	if ((c->flags & KTR_DEC_RAW) || !name) {
		fprintf(out, "%#x", v);
		return;
	}
	fputs(name, out);
	ktr_print_mask_cont(out, &ktr_gen_mpol_mode_flags, v & K_MPOL_MODE_FLAGS, 1);
}

static void arg_mpol_mf(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &ktr_gen_mpol_mf, (__u32)c->a[i], c->flags);
}

static void arg_mpol_get(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &ktr_gen_mpol_get_flags, (__u32)c->a[i], c->flags);
}

/* The execution domains (linux/personality.h's low byte), by number. */
static const struct ktr_sym per_sym[] = {
	{ 0x00, "PER_LINUX" },	 { 0x01, "PER_SVR4" },	   { 0x02, "PER_SVR3" },
	{ 0x03, "PER_SCOSVR3" }, { 0x04, "PER_WYSEV386" }, { 0x05, "PER_ISCR4" },
	{ 0x06, "PER_BSD" },	 { 0x07, "PER_XENIX" },	   { 0x08, "PER_LINUX32" },
	{ 0x09, "PER_IRIX32" },	 { 0x0a, "PER_IRIXN32" },  { 0x0b, "PER_IRIX64" },
	{ 0x0c, "PER_RISCOS" },	 { 0x0d, "PER_SOLARIS" },  { 0x0e, "PER_UW7" },
	{ 0x0f, "PER_OSF4" },	 { 0x10, "PER_HPUX" },
};
static const struct ktr_symtab per_tab = KTR_SYMTAB(per_sym);

/* personality(0xffffffff) asks; anything else is a domain and its flags. */
static void arg_personality(FILE *out, const struct ktr_argctx *c, int i)
{
	__u32 v = (__u32)c->a[i];
	const char *name = ktr_sym_name(&per_tab, v & 0xff);

	if ((c->flags & KTR_DEC_RAW) || v == 0xffffffff || !name) {
		fprintf(out, "%#x", v);
		return;
	}
	fputs(name, out);
	ktr_print_mask_cont(out, &ktr_gen_personality_flags, v & ~0xffU, 1);
}

static const struct ktr_sym uffd_sym[] = {
	{ O_CLOEXEC, "O_CLOEXEC" },
	{ O_NONBLOCK, "O_NONBLOCK" },
	{ K_UFFD_USER_MODE_ONLY, "UFFD_USER_MODE_ONLY" },
};
static const struct ktr_symtab uffd_tab = KTR_SYMTAB(uffd_sym);

static void arg_uffd(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &uffd_tab, (__u32)c->a[i], c->flags);
}

/* A key or keyring: KEY_SPEC_THREAD_KEYRING (-1) to KEY_SPEC_REQUESTOR_KEYRING (-8), or its id. */
static void print_keyid(FILE *out, __u64 v, int flags)
{
	ktr_print_enum(out, &ktr_gen_key_spec, (__s64)(__s32)v, flags);
}

static void arg_keyid(FILE *out, const struct ktr_argctx *c, int i)
{
	print_keyid(out, c->a[i], c->flags);
}

static void arg_keyctl_op(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &ktr_gen_keyctl_op, (__s64)(__s32)c->a[i], c->flags);
}

/*
 * What keyctl's arguments after the operation are, as strace shows them:
 * k a key id, i an int, u a uid or gid, r KEY_REQKEY_DEFL_, x a number or
 * an address; the string's length is how many the operation takes.
 */
static const char *const keyctl_args[] = {
	[KEYCTL_GET_KEYRING_ID] = "ki",
	[KEYCTL_JOIN_SESSION_KEYRING] = "x",
	[KEYCTL_UPDATE] = "kxx",
	[KEYCTL_REVOKE] = "k",
	[KEYCTL_CHOWN] = "kuu",
	[KEYCTL_SETPERM] = "kx",
	[KEYCTL_DESCRIBE] = "kxx",
	[KEYCTL_CLEAR] = "k",
	[KEYCTL_LINK] = "kk",
	[KEYCTL_UNLINK] = "kk",
	[KEYCTL_SEARCH] = "kxxk",
	[KEYCTL_READ] = "kxx",
	[KEYCTL_INSTANTIATE] = "kxxk",
	[KEYCTL_NEGATE] = "kik",
	[KEYCTL_SET_REQKEY_KEYRING] = "r",
	[KEYCTL_SET_TIMEOUT] = "ki",
	[KEYCTL_ASSUME_AUTHORITY] = "k",
	[KEYCTL_GET_SECURITY] = "kxx",
	[KEYCTL_SESSION_TO_PARENT] = "",
	[KEYCTL_REJECT] = "kiik",
	[KEYCTL_INSTANTIATE_IOV] = "kxxk",
	[KEYCTL_INVALIDATE] = "k",
	[KEYCTL_GET_PERSISTENT] = "uk",
	[KEYCTL_RESTRICT_KEYRING] = "kxx",
	[KEYCTL_MOVE] = "kkkx",
	[KEYCTL_CAPABILITIES] = "xx",
	[KEYCTL_WATCH_KEY] = "kix",
};

/* The argument kinds of c's operation, NULL for one without a row (all in hex). */
static const char *keyctl_kinds(const struct ktr_argctx *c)
{
	__u32 op = (__u32)c->a[0];

	return op < KTR_NELEM(keyctl_args) ? keyctl_args[op] : NULL;
}

static void arg_keyctl(FILE *out, const struct ktr_argctx *c, int i)
{
	const char *k = keyctl_kinds(c);
	char kind = k && (size_t)i <= strlen(k) ? k[i - 1] : 'x';

	switch (kind) {
	case 'k':
		print_keyid(out, c->a[i], c->flags);
		break;
	case 'i':
		ktr_arg_int(out, c, i);
		break;
	case 'u':
		ktr_arg_uid(out, c, i);
		break;
	case 'r':
		ktr_print_enum(out, &ktr_gen_key_reqkey_defl, (__s64)(__s32)c->a[i], c->flags);
		break;
	default:
		ktr_arg_hex(out, c, i);
	}
}

static int nargs_keyctl(const struct ktr_argctx *c)
{
	const char *k = keyctl_kinds(c);

	return k ? 1 + (int)strlen(k) : c->narg;
}

#define F ktr_arg_fd
#define D ktr_arg_dfd
#define H ktr_arg_hex
#define K arg_keyctl

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_misc[] = {
	{ KTR_SC(add_key), { H, H, H, NULL, arg_keyid }, NULL },
	{ KTR_SC(execveat), { D, H, H, H, arg_execveat }, NULL },
	{ KTR_SC(get_mempolicy), { H, H, NULL, H, arg_mpol_get }, NULL },
	{ KTR_SC(getrandom), { H, NULL, arg_grnd }, NULL },
	{ KTR_SC(io_uring_register), { F, arg_uring_register, H }, NULL },
	{ KTR_SC(keyctl), { arg_keyctl_op, K, K, K, K }, nargs_keyctl },
	{ KTR_SC(mbind), { H, NULL, arg_mpol_mode, H, NULL, arg_mpol_mf }, NULL },
	{ KTR_SC(personality), { arg_personality }, NULL },
	{ KTR_SC(request_key), { H, H, H, arg_keyid }, NULL },
	{ KTR_SC(seccomp), { arg_seccomp_op, arg_seccomp_flags, H }, NULL },
	{ KTR_SC(set_mempolicy), { arg_mpol_mode, H }, NULL },
	{ KTR_SC(userfaultfd), { arg_uffd }, NULL },
};
const size_t ktr_nscdec_misc = KTR_NELEM(ktr_scdec_misc);
