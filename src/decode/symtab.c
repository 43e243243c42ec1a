// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The generic printers every decoder builds on: masks, enumerations,
 * numbers, modes and escaped strings.
 */
#include <ctype.h>
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

void ktr_print_cstr(FILE *out, const char *s, size_t max, bool keep_nul)
{
	for (size_t i = 0; i < max; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == 0 && !keep_nul)
			break;
		switch (ch) {
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '"':
		case '\\':
			fprintf(out, "\\%c", ch);
			break;
		default:
			if (isprint(ch))
				fputc(ch, out);
			else
				fprintf(out, "\\%03o", ch);
		}
	}
}

void ktr_print_signal(FILE *out, __s64 sig, int flags)
{
	const char *name = (flags & KTR_DEC_RAW) ? NULL : ktr_signal_name((int)sig);

	if (name && sig == (int)sig)
		fputs(name, out);
	else
		fprintf(out, "%lld", (long long)sig);
}

static void print_siglist(FILE *out, __u64 set)
{
	int n = 0;

	for (int sig = 1; sig <= 64; sig++)
		if (set & (1ULL << (sig - 1)))
			fprintf(out, "%s%s", n++ ? "|" : "", ktr_signal_name(sig));
}

void ktr_print_sigset(FILE *out, __u64 set, int flags)
{
	if (flags & KTR_DEC_RAW)
		fprintf(out, "%#llx", (unsigned long long)set);
	else if (set == 0)
		fputs("0", out);
	else if (set == ~0ULL)
		fputs("~0", out);
	else if (__builtin_popcountll(set) > 32) {
		/* a mostly full set reads better as what it leaves out */
		fputs("~(", out);
		print_siglist(out, ~set);
		fputs(")", out);
	} else {
		print_siglist(out, set);
	}
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

void ktr_print_errno_name(FILE *out, int err)
{
	const char *name = ktr_errno_name(err);

	if (name)
		fputs(name, out);
	else
		fprintf(out, "%d", err);
}
