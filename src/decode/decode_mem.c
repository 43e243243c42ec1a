// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Memory syscalls: mmap, mprotect, madvise, msync, mremap, mlock. */
#include <sys/mman.h>
#include "decode_int.h"

/* Newer than the headers of Debian 12; values from include/uapi/asm-generic/mman*.h */
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#define MADV_GUARD_REMOVE  103
#endif
#ifndef MAP_UNINITIALIZED
#define MAP_UNINITIALIZED 0x4000000
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif
#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

static const struct ktr_sym prot_sym[] = {
	KTR_SYM(PROT_NONE),  KTR_SYM(PROT_READ),      KTR_SYM(PROT_WRITE),   KTR_SYM(PROT_EXEC),
	{ 0x8, "PROT_SEM" }, KTR_SYM(PROT_GROWSDOWN), KTR_SYM(PROT_GROWSUP),
};
static const struct ktr_symtab prot_tab = KTR_SYMTAB(prot_sym);

static const struct ktr_sym map_sym[] = {
	KTR_SYM(MAP_SHARED_VALIDATE), /* SHARED|PRIVATE: before its parts */
	KTR_SYM(MAP_SHARED),
	KTR_SYM(MAP_PRIVATE),
	KTR_SYM(MAP_FIXED),
	KTR_SYM(MAP_ANONYMOUS),
	{ 0x40, "MAP_32BIT" } /* x86 only */,
	KTR_SYM(MAP_GROWSDOWN),
	KTR_SYM(MAP_DENYWRITE),
	KTR_SYM(MAP_EXECUTABLE),
	KTR_SYM(MAP_LOCKED),
	KTR_SYM(MAP_NORESERVE),
	KTR_SYM(MAP_POPULATE),
	KTR_SYM(MAP_NONBLOCK),
	KTR_SYM(MAP_STACK),
	KTR_SYM(MAP_HUGETLB),
	KTR_SYM(MAP_SYNC),
	KTR_SYM(MAP_FIXED_NOREPLACE),
	KTR_SYM(MAP_UNINITIALIZED),
};
static const struct ktr_symtab map_tab = KTR_SYMTAB(map_sym);

static const struct ktr_sym madv_sym[] = {
	KTR_SYM(MADV_NORMAL),		KTR_SYM(MADV_RANDOM),	     KTR_SYM(MADV_SEQUENTIAL),
	KTR_SYM(MADV_WILLNEED),		KTR_SYM(MADV_DONTNEED),	     KTR_SYM(MADV_FREE),
	KTR_SYM(MADV_REMOVE),		KTR_SYM(MADV_DONTFORK),	     KTR_SYM(MADV_DOFORK),
	KTR_SYM(MADV_MERGEABLE),	KTR_SYM(MADV_UNMERGEABLE),   KTR_SYM(MADV_HUGEPAGE),
	KTR_SYM(MADV_NOHUGEPAGE),	KTR_SYM(MADV_DONTDUMP),	     KTR_SYM(MADV_DODUMP),
	KTR_SYM(MADV_WIPEONFORK),	KTR_SYM(MADV_KEEPONFORK),    KTR_SYM(MADV_COLD),
	KTR_SYM(MADV_PAGEOUT),		KTR_SYM(MADV_POPULATE_READ), KTR_SYM(MADV_POPULATE_WRITE),
	{ 24, "MADV_DONTNEED_LOCKED" }, KTR_SYM(MADV_COLLAPSE),	     KTR_SYM(MADV_HWPOISON),
	{ 101, "MADV_SOFT_OFFLINE" },	KTR_SYM(MADV_GUARD_INSTALL), KTR_SYM(MADV_GUARD_REMOVE),
};
static const struct ktr_symtab madv_tab = KTR_SYMTAB(madv_sym);

static const struct ktr_sym msync_sym[] = {
	KTR_SYM(MS_ASYNC),
	KTR_SYM(MS_INVALIDATE),
	KTR_SYM(MS_SYNC),
};
static const struct ktr_symtab msync_tab = KTR_SYMTAB(msync_sym);

static const struct ktr_sym mremap_sym[] = {
	KTR_SYM(MREMAP_MAYMOVE),
	KTR_SYM(MREMAP_FIXED),
	KTR_SYM(MREMAP_DONTUNMAP),
};
static const struct ktr_symtab mremap_tab = KTR_SYMTAB(mremap_sym);

static const struct ktr_sym mcl_sym[] = {
	KTR_SYM(MCL_CURRENT),
	KTR_SYM(MCL_FUTURE),
	KTR_SYM(MCL_ONFAULT),
};
static const struct ktr_symtab mcl_tab = KTR_SYMTAB(mcl_sym);

static const struct ktr_sym mlock2_sym[] = { { 1, "MLOCK_ONFAULT" } };
static const struct ktr_symtab mlock2_tab = KTR_SYMTAB(mlock2_sym);

static void arg_prot(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &prot_tab, c->a[i], c->flags);
}

static void arg_mapflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &map_tab, c->a[i], c->flags);
}

static void arg_madv(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &madv_tab, (int)c->a[i], c->flags);
}

static void arg_msync(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &msync_tab, c->a[i] & 0xffffffffu, c->flags);
}

static void arg_mremap(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &mremap_tab, c->a[i], c->flags);
}

static void arg_mcl(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &mcl_tab, c->a[i] & 0xffffffffu, c->flags);
}

static void arg_mlock2(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &mlock2_tab, c->a[i] & 0xffffffffu, c->flags);
}

#define H ktr_arg_hex

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_mem[] = {
	{ KTR_SC(madvise), { H, NULL, arg_madv }, NULL },
	{ KTR_SC(mlock2), { H, NULL, arg_mlock2 }, NULL },
	{ KTR_SC(mlockall), { arg_mcl }, NULL },
	{ KTR_SC(mmap), { H, NULL, arg_prot, arg_mapflags, ktr_arg_fd }, NULL },
	{ KTR_SC(mmap2), { H, NULL, arg_prot, arg_mapflags, ktr_arg_fd }, NULL },
	{ KTR_SC(mprotect), { H, NULL, arg_prot }, NULL },
	{ KTR_SC(mremap), { H, NULL, NULL, arg_mremap, H }, NULL },
	{ KTR_SC(msync), { H, NULL, arg_msync }, NULL },
	{ KTR_SC(munmap), { H }, NULL },
	{ KTR_SC(pkey_mprotect), { H, NULL, arg_prot, ktr_arg_int }, NULL },
	{ KTR_SC(process_madvise), { ktr_arg_fd, H, NULL, arg_madv }, NULL },
};
const size_t ktr_nscdec_mem = KTR_NELEM(ktr_scdec_mem);
