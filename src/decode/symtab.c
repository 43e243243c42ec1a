// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The generic printers every decoder builds on: masks, enumerations,
 * numbers and modes.  They call nothing of the other decoders: every
 * other file of src/decode may use them.
 */
#include <sys/stat.h>
#include "decode_int.h"

const char *ktr_sym_name(const struct ktr_symtab *t, __u64 v)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->sym[i].val == v)
			return t->sym[i].name;
	return NULL;
}

int ktr_print_mask_cont(FILE *out, const struct ktr_symtab *t, __u64 v, int nprinted)
{
	for (size_t i = 0; i < t->n && v; i++) {
		__u64 bits = t->sym[i].val;

		if (bits == 0 || (v & bits) != bits)
			continue;
		fprintf(out, "%s%s", nprinted++ ? "|" : "", t->sym[i].name);
		v &= ~bits;
	}
	if (v)
		fprintf(out, "%s%#llx", nprinted++ ? "|" : "", (unsigned long long)v);
	return nprinted;
}

void ktr_print_mask(FILE *out, const struct ktr_symtab *t, __u64 v, int flags)
{
	const char *zero;

	if (flags & KTR_DEC_RAW) {
		ktr_print_num(out, v, flags);
		return;
	}
	if (v == 0) {
		zero = ktr_sym_name(t, 0);
		fputs(zero ? zero : "0", out);
		return;
	}
	ktr_print_mask_cont(out, t, v, 0);
}

void ktr_print_bits(FILE *out, const struct ktr_symtab *t, __u64 v, int flags)
{
	__u64 rest = 0;
	int n = 0;

	if ((flags & KTR_DEC_RAW) || v == 0) {
		ktr_print_mask(out, t, v, flags);
		return;
	}
	for (int b = 0; b < 64; b++) {
		__u64 bit = 1ULL << b;
		const char *name = (v & bit) ? ktr_sym_name(t, bit) : NULL;

		if (name)
			fprintf(out, "%s%s", n++ ? "|" : "", name);
		else
			rest |= v & bit;
	}
	if (rest)
		fprintf(out, "%s%#llx", n ? "|" : "", (unsigned long long)rest);
}

void ktr_print_enum(FILE *out, const struct ktr_symtab *t, __s64 v, int flags)
{
	const char *name = (flags & KTR_DEC_RAW) ? NULL : ktr_sym_name(t, (__u64)v);

	if (name)
		fputs(name, out);
	else
		fprintf(out, "%lld", (long long)v);
}

void ktr_print_num(FILE *out, __u64 v, int flags)
{
	if (flags & KTR_DEC_DECIMAL)
		fprintf(out, "%lld", (long long)v);
	else
		fprintf(out, "%#llx", (unsigned long long)v);
}

void ktr_print_octal(FILE *out, __u64 v, int flags)
{
	if (flags & KTR_DEC_RAW)
		ktr_print_num(out, v, flags);
	else
		fprintf(out, "%#llo", (unsigned long long)v);
}

void ktr_print_modestr(FILE *out, unsigned int m)
{
	static const char types[16] = { [S_IFIFO >> 12] = 'p', [S_IFCHR >> 12] = 'c',
					[S_IFDIR >> 12] = 'd', [S_IFBLK >> 12] = 'b',
					[S_IFREG >> 12] = '-', [S_IFLNK >> 12] = 'l',
					[S_IFSOCK >> 12] = 's' };
	char s[11];

	s[0] = types[(m & S_IFMT) >> 12] ? types[(m & S_IFMT) >> 12] : '?';
	for (int i = 0; i < 3; i++) {
		unsigned int p = m >> (6 - 3 * i);

		s[1 + 3 * i] = (p & 4) ? 'r' : '-';
		s[2 + 3 * i] = (p & 2) ? 'w' : '-';
		s[3 + 3 * i] = (p & 1) ? 'x' : '-';
	}
	if (m & S_ISUID)
		s[3] = (m & S_IXUSR) ? 's' : 'S';
	if (m & S_ISGID)
		s[6] = (m & S_IXGRP) ? 's' : 'S';
	if (m & S_ISVTX)
		s[9] = (m & S_IXOTH) ? 't' : 'T';
	s[10] = 0;
	fputs(s, out);
}

static const struct ktr_sym ftype_sym[] = {
	KTR_SYM(S_IFSOCK), KTR_SYM(S_IFLNK), KTR_SYM(S_IFREG), KTR_SYM(S_IFBLK),
	KTR_SYM(S_IFDIR),  KTR_SYM(S_IFCHR), KTR_SYM(S_IFIFO),
};
static const struct ktr_symtab ftype_tab = KTR_SYMTAB(ftype_sym);

void ktr_print_filemode(FILE *out, __u64 mode, int flags)
{
	const char *type = ktr_sym_name(&ftype_tab, mode & S_IFMT);

	if ((flags & KTR_DEC_RAW) || !type || (mode & ~(__u64)07777 & ~(__u64)S_IFMT)) {
		ktr_print_octal(out, mode, flags);
		return;
	}
	fprintf(out, "%s|%#llo", type, (unsigned long long)(mode & 07777));
}
