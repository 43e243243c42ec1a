// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Single calls with flags or operations of their own: getrandom, execveat,
 * seccomp, io_uring_register, the NUMA memory policies, personality and
 * userfaultfd.  Names and values from the kernel's headers where they
 * have them as numbers (the generated consts.c), else written out.
 */
#include <fcntl.h>
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

#define F ktr_arg_fd
#define D ktr_arg_dfd
#define H ktr_arg_hex

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_misc[] = {
	{ KTR_SC(execveat), { D, H, H, H, arg_execveat }, NULL },
	{ KTR_SC(get_mempolicy), { H, H, NULL, H, arg_mpol_get }, NULL },
	{ KTR_SC(getrandom), { H, NULL, arg_grnd }, NULL },
	{ KTR_SC(io_uring_register), { F, arg_uring_register, H }, NULL },
	{ KTR_SC(mbind), { H, NULL, arg_mpol_mode, H, NULL, arg_mpol_mf }, NULL },
	{ KTR_SC(personality), { arg_personality }, NULL },
	{ KTR_SC(seccomp), { arg_seccomp_op, arg_seccomp_flags, H }, NULL },
	{ KTR_SC(set_mempolicy), { arg_mpol_mode, H }, NULL },
	{ KTR_SC(userfaultfd), { arg_uffd }, NULL },
};
const size_t ktr_nscdec_misc = KTR_NELEM(ktr_scdec_misc);
