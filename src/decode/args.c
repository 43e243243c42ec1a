// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * KTR_SYSCALL arguments.  Each syscall with symbolic arguments has an entry
 * in one of the per-family tables (decode_file.c, decode_mem.c, ...); every
 * other argument follows a generic rule driven by the kernel's declared
 * type and name from the generated table: pointers in hex, descriptors and
 * ids in decimal, the rest as plain numbers like BSD kdump.
 */
#include <stdlib.h>
#include <string.h>
#include "ktraceb/ktr.h"
#include "struct_int.h"

static const struct {
	const struct ktr_scdec *tab;
	const size_t *n;
} families[] = {
	{ ktr_scdec_file, &ktr_nscdec_file }, { ktr_scdec_mem, &ktr_nscdec_mem },
	{ ktr_scdec_proc, &ktr_nscdec_proc }, { ktr_scdec_signal, &ktr_nscdec_signal },
	{ ktr_scdec_net, &ktr_nscdec_net },   { ktr_scdec_prctl, &ktr_nscdec_prctl },
	{ ktr_scdec_ipc, &ktr_nscdec_ipc },   { ktr_scdec_misc, &ktr_nscdec_misc },
};

static int scdec_cmp(const void *key, const void *ent)
{
	return strcmp(key, ((const struct ktr_scdec *)ent)->name);
}

static const struct ktr_scdec *scdec_find(const char *name)
{
	for (size_t f = 0; f < KTR_NELEM(families); f++) {
		const struct ktr_scdec *d;

		d = bsearch(name, families[f].tab, *families[f].n, sizeof(*d), scdec_cmp);
		if (d)
			return d;
	}
	return NULL;
}

bool ktr_scdec_tables_sorted(void)
{
	for (size_t f = 0; f < KTR_NELEM(families); f++)
		for (size_t i = 1; i < *families[f].n; i++)
			if (strcmp(families[f].tab[i - 1].name, families[f].tab[i].name) >= 0)
				return false;
	return true;
}

const char *ktr_scdec_name_at(size_t i)
{
	for (size_t f = 0; f < KTR_NELEM(families); f++) {
		if (i < *families[f].n)
			return families[f].tab[i].name;
		i -= *families[f].n;
	}
	return NULL;
}

static bool name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(name, *list) == 0)
			return true;
	return false;
}

static const char *const fd_names[] = {
	"fd",	     "epfd",	  "ufd",      "pidfd",	     "oldfd",	   "newfd",  "fd_in",
	"fd_out",    "in_fd",	  "out_fd",   "fdin",	     "fdout",	   "fildes", "fs_fd",
	"kernel_fd", "initrd_fd", "group_fd", "fanotify_fd", "ruleset_fd", NULL,
};
static const char *const dfd_names[] = {
	"dfd", "olddfd", "newdfd", "to_dfd", "from_dfd", "mountdirfd", NULL,
};
static const char *const int32_types[] = {
	"int",	     "const int",	"pid_t",	"key_t", "mqd_t",
	"clockid_t", "const clockid_t", "key_serial_t", "__s32", NULL,
};
static const char *const id_types[] = { "pid_t", "qid_t", NULL };
static const char *const uid_types[] = { "uid_t", "gid_t", "old_uid_t", "old_gid_t", NULL };

static void print_generic(FILE *out, const struct ktr_argctx *c, int i)
{
	const struct ktr_sysent *se = c->se;
	const char *type = i < se->narg ? ktr_sysent_str(se, se->argtype[i]) : NULL;
	const char *name = i < se->narg ? ktr_sysent_str(se, se->argname[i]) : NULL;
	__u64 v = c->a[i];

	if ((se->pathmask | se->strmask) & (1u << i) || (type && strchr(type, '*'))) {
		ktr_arg_hex(out, c, i);
		return;
	}
	if (!type || !name) {
		ktr_print_num(out, v, c->flags);
		return;
	}
	if (name_in(name, dfd_names))
		ktr_arg_dfd(out, c, i);
	else if (name_in(type, uid_types))
		ktr_arg_uid(out, c, i);
	else if (strcmp(type, "umode_t") == 0)
		ktr_arg_mode(out, c, i);
	else if (name_in(name, fd_names) || name_in(type, id_types))
		ktr_arg_fd(out, c, i);
	else if (strstr(name, "timeout") && strcmp(type, "int") == 0)
		ktr_arg_int(out, c, i);
	else if (name_in(type, int32_types))
		ktr_print_num(out, (__u64)(__s64)(int)v, c->flags);
	else if (strstr(type, "int") || strcmp(type, "unsigned") == 0 || strcmp(type, "u32") == 0)
		ktr_print_num(out, v & 0xffffffffu, c->flags);
	else
		ktr_print_num(out, v, c->flags);
}

/* Calls whose descriptor-named arguments strace -y shows as plain numbers */
static const char *const fd_args_plain[] = { "close_range", NULL };

unsigned int ktr_syscall_fd_args(unsigned int sv_flags, int code)
{
	const struct ktr_sysent *se;
	unsigned int mask = 0;

	if (ktr_bsd_abi(sv_flags))
		return 0;
	se = ktr_sysent_lookup(sv_flags, code);
	if (!se || name_in(ktr_sysent_name(se), fd_args_plain))
		return 0;
	for (int i = 0; i < se->narg && i < KTR_MAXARGS; i++) {
		const char *type = ktr_sysent_str(se, se->argtype[i]);
		const char *name = ktr_sysent_str(se, se->argname[i]);

		if (name && type && !strchr(type, '*') &&
		    (name_in(name, fd_names) || name_in(name, dfd_names)))
			mask |= 1u << i;
	}
	return mask;
}

/* The decoder of a syscall, or NULL for the generic rule (also under KTR_DEC_RAW). */
static const struct ktr_scdec *scdec_for(const struct ktr_sysent *se, unsigned int sv_flags,
					 int flags)
{
	/* i386 "mmap" is old_mmap(struct mmap_arg_struct *): not the x86_64 layout */
	if (!se || (flags & KTR_DEC_RAW) ||
	    ((sv_flags & KTR_SV_ILP32) && strcmp(ktr_sysent_name(se), "mmap") == 0))
		return NULL;
	return scdec_find(ktr_sysent_name(se));
}

static void print_arg(FILE *out, const struct ktr_scdec *d, const struct ktr_argctx *c, int i)
{
	if (d && d->fn[i])
		d->fn[i](out, c, i);
	else if (c->se && !(c->flags & KTR_DEC_RAW))
		print_generic(out, c, i);
	else
		ktr_print_num(out, c->a[i], c->flags);
}

/* The arguments a call takes (ktr_nargfn), of the narg it has. */
static int nargs_taken(const struct ktr_scdec *d, const struct ktr_argctx *c)
{
	int n = d && d->nargs ? d->nargs(c) : c->narg;

	return n < 0 ? 0 : n < c->narg ? n : c->narg;
}

/* A name for argument i when the tables have none: "arg3". */
static const char *const arg_names[KTR_DEC_MAXARGS] = {
	"arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7",
};

static const char *arg_name(const struct ktr_sysent *se, int i)
{
	if (se && i < se->narg && i < KTR_MAXARGS && se->argname[i])
		return ktr_sysent_str(se, se->argname[i]);
	return arg_names[i];
}

/* The arguments of a call in a BSD's ABI: all of them, each in hex (or decimal). */
static void give_bsd_args(struct ktr_fields *f, int narg, const __u64 *args, int flags)
{
	for (int i = 0; i < narg; i++) {
		ktr_field_of(f, arg_names[i], args[i], false);
		ktr_bsd_print_arg(f->out, args[i], flags);
	}
}

int ktr_decode_syscall_args(const struct ktr_field_sink *s, unsigned int sv_flags, int code,
			    int narg, const __u64 *args, int flags)
{
	bool bsd = ktr_bsd_abi(sv_flags);
	const struct ktr_sysent *se = NULL;
	const struct ktr_scdec *d = NULL;
	struct ktr_argctx c = { args, narg, flags, sv_flags, NULL };
	struct ktr_fields f;
	int n, err;

	if (narg <= 0)
		return 0;
	if (bsd) {
		n = narg < KTR_DEC_MAXARGS ? narg : KTR_DEC_MAXARGS;
	} else {
		c.se = se = ktr_sysent_lookup(sv_flags, code);
		d = scdec_for(se, sv_flags, flags);
		c.narg = narg < KTR_MAXARGS ? narg : KTR_MAXARGS;
		n = nargs_taken(d, &c); /* all of them under KTR_DEC_RAW (d is NULL) */
	}
	if (n == 0)
		return 0;
	err = ktr_fields_init(&f, s);
	if (err)
		return err;
	if (bsd) {
		give_bsd_args(&f, n, args, flags);
	} else {
		for (int i = 0; i < n; i++) {
			ktr_field_of(&f, arg_name(se, i), args[i], false);
			print_arg(f.out, d, &c, i);
		}
	}
	ktr_fields_done(&f);
	return 0;
}
