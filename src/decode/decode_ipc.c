// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * SysV IPC: the commands of semctl, shmctl and msgctl (with IPC_64, which
 * 32-bit programs add), the keys and flags of the *get calls, shmat's and
 * the message calls' flags.  Commands from the kernel's headers (the
 * generated consts.c); flag bits written out (linux/ipc.h, shm.h, msg.h).
 */
#include "decode_int.h"

#define K_IPC_64 0x100

static const struct ktr_sym ipcget_sym[] = {
	{ 001000, "IPC_CREAT" },
	{ 002000, "IPC_EXCL" },
};
static const struct ktr_symtab ipcget_tab = KTR_SYMTAB(ipcget_sym);

static const struct ktr_sym shmget_sym[] = {
	{ 001000, "IPC_CREAT" },
	{ 002000, "IPC_EXCL" },
	{ 004000, "SHM_HUGETLB" },
	{ 010000, "SHM_NORESERVE" },
};
static const struct ktr_symtab shmget_tab = KTR_SYMTAB(shmget_sym);

static const struct ktr_sym shmat_sym[] = {
	{ 010000, "SHM_RDONLY" },
	{ 020000, "SHM_RND" },
	{ 040000, "SHM_REMAP" },
	{ 0100000, "SHM_EXEC" },
};
static const struct ktr_symtab shmat_tab = KTR_SYMTAB(shmat_sym);

static const struct ktr_sym msgflg_sym[] = {
	{ 004000, "IPC_NOWAIT" },
	{ 010000, "MSG_NOERROR" },
	{ 020000, "MSG_EXCEPT" },
	{ 040000, "MSG_COPY" },
};
static const struct ktr_symtab msgflg_tab = KTR_SYMTAB(msgflg_sym);

/* "IPC_STAT", "IPC_64|SEM_STAT": a command of the call's table or the common ones. */
static void print_cmd(FILE *out, const struct ktr_symtab *t, __u32 cmd, int flags)
{
	__u32 base = cmd & ~(__u32)K_IPC_64;
	const char *name = ktr_sym_name(&ktr_gen_ipc_cmd, base);

	if (!name)
		name = ktr_sym_name(t, base);
	if ((flags & KTR_DEC_RAW) || !name) {
		fprintf(out, "%#x", cmd);
		return;
	}
	fprintf(out, "%s%s", cmd & K_IPC_64 ? "IPC_64|" : "", name);
}

static void arg_semcmd(FILE *out, const struct ktr_argctx *c, int i)
{
	print_cmd(out, &ktr_gen_sem_cmd, (__u32)c->a[i], c->flags);
}

static void arg_shmcmd(FILE *out, const struct ktr_argctx *c, int i)
{
	print_cmd(out, &ktr_gen_shm_cmd, (__u32)c->a[i], c->flags);
}

static void arg_msgcmd(FILE *out, const struct ktr_argctx *c, int i)
{
	print_cmd(out, &ktr_gen_msg_cmd, (__u32)c->a[i], c->flags);
}

static void arg_key(FILE *out, const struct ktr_argctx *c, int i)
{
	if ((int)c->a[i] == 0 && !(c->flags & KTR_DEC_RAW))
		fputs("IPC_PRIVATE", out);
	else
		fprintf(out, "%#x", (__u32)c->a[i]);
}

/* The flags, then the permission bits in octal: "IPC_CREAT|IPC_EXCL|0600". */
static void print_getflags(FILE *out, const struct ktr_symtab *t, __u32 v, int flags)
{
	int n;

	if (flags & KTR_DEC_RAW) {
		fprintf(out, "%#x", v);
		return;
	}
	n = ktr_print_mask_cont(out, t, v & ~0777U, 0);
	if ((v & 0777) || !n)
		fprintf(out, "%s%#o", n ? "|" : "", v & 0777);
}

static void arg_ipcget(FILE *out, const struct ktr_argctx *c, int i)
{
	print_getflags(out, &ipcget_tab, (__u32)c->a[i], c->flags);
}

static void arg_shmget(FILE *out, const struct ktr_argctx *c, int i)
{
	print_getflags(out, &shmget_tab, (__u32)c->a[i], c->flags);
}

static void arg_shmat(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &shmat_tab, (__u32)c->a[i], c->flags);
}

static void arg_msgflg(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &msgflg_tab, (__u32)c->a[i], c->flags);
}

#define I ktr_arg_int
#define H ktr_arg_hex

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_ipc[] = {
	{ KTR_SC(msgctl), { I, arg_msgcmd, H }, NULL },
	{ KTR_SC(msgget), { arg_key, arg_ipcget }, NULL },
	{ KTR_SC(msgrcv), { I, H, NULL, NULL, arg_msgflg }, NULL },
	{ KTR_SC(msgsnd), { I, H, NULL, arg_msgflg }, NULL },
	{ KTR_SC(semctl), { I, I, arg_semcmd, H }, NULL },
	{ KTR_SC(semget), { arg_key, I, arg_ipcget }, NULL },
	{ KTR_SC(shmat), { I, H, arg_shmat }, NULL },
	{ KTR_SC(shmctl), { I, arg_shmcmd, H }, NULL },
	{ KTR_SC(shmget), { arg_key, NULL, arg_shmget }, NULL },
};
const size_t ktr_nscdec_ipc = KTR_NELEM(ktr_scdec_ipc);
