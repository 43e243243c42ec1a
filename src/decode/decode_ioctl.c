// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ioctl requests, as strace names them: from the table made of the
 * kernel's uapi headers (src/decode/tables/ioctls.tbl, scripts/genconsts.sh;
 * x86_64 struct sizes), every name a number has, joined by " or "; the
 * requests whose number carries an argument (evdev's EVIOCGBIT(EV_KEY, 8),
 * MIXER_WRITE(3)) by their macro; any other number by its parts,
 * _IOC(_IOC_READ, 0x94, 0x1f, 0x400), never by another request's name.
 */
#include <stdlib.h>
#include <string.h>
#include "decode_int.h"

#define IOC_NRBITS    8
#define IOC_TYPEBITS  8
#define IOC_SIZEBITS  14
#define IOC_NRSHIFT   0
#define IOC_TYPESHIFT (IOC_NRSHIFT + IOC_NRBITS)
#define IOC_SIZESHIFT (IOC_TYPESHIFT + IOC_TYPEBITS)
#define IOC_DIRSHIFT  (IOC_SIZESHIFT + IOC_SIZEBITS)
#define IOC_WRITE     1U
#define IOC_READ      2U

#define IOC_DIR(c)  (((c) >> IOC_DIRSHIFT) & 3U)
#define IOC_TYPE(c) (((c) >> IOC_TYPESHIFT) & 0xffU)
#define IOC_NR(c)   (((c) >> IOC_NRSHIFT) & 0xffU)
#define IOC_SIZE(c) (((c) >> IOC_SIZESHIFT) & ((1U << IOC_SIZEBITS) - 1))

/* The first entry of code in the generated table, or NULL. */
static const struct ktr_ioctlent *ioctl_first(__u32 code)
{
	size_t lo = 0, hi = ktr_nioctlents;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ktr_ioctlents[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ktr_nioctlents && ktr_ioctlents[lo].code == code ? &ktr_ioctlents[lo] : NULL;
}

static const char *ioctl_name_of(const struct ktr_ioctlent *e)
{
	return ktr_ioctl_names + e->name;
}

static bool is_prefix(const char *p, const char *s)
{
	return strncmp(p, s, strlen(p)) == 0;
}

const char *ktr_ioctl_name(unsigned int req)
{
	const struct ktr_ioctlent *e = ioctl_first(req);

	return e ? ioctl_name_of(e) : NULL;
}

/*
 * Every name of code, " or " between them; a name that only lengthens the
 * one before it (FOO and FOO_OLD, the same request) is left out.  The
 * count of names printed.
 */
static int print_names(FILE *out, __u32 code, int nprinted)
{
	const struct ktr_ioctlent *e = ioctl_first(code), *end = ktr_ioctlents + ktr_nioctlents;
	const char *prev = NULL;

	for (; e && e < end && e->code == code; e++) {
		const char *name = ioctl_name_of(e);

		if (prev && is_prefix(prev, name))
			continue;
		fprintf(out, "%s%s", nprinted++ ? " or " : "", name);
		prev = name;
	}
	return nprinted;
}

static void print_sym_or_num(FILE *out, const struct ktr_symtab *t, __u32 v, const char *zero)
{
	const char *name = ktr_sym_name(t, v);

	if (v == 0 && zero)
		fputs(zero, out);
	else if (name)
		fputs(name, out);
	else
		fprintf(out, "%#x", v);
}

/* evdev's requests of an argument (linux/input.h), as strace prints them. */
static bool print_evdev(FILE *out, __u32 code)
{
	static const char *const by_nr[0x20] = {
		[0x06] = "EVIOCGNAME", [0x07] = "EVIOCGPHYS",	 [0x08] = "EVIOCGUNIQ",
		[0x09] = "EVIOCGPROP", [0x0a] = "EVIOCGMTSLOTS", [0x18] = "EVIOCGKEY",
		[0x19] = "EVIOCGLED",  [0x1a] = "EVIOCGSND",	 [0x1b] = "EVIOCGSW",
	};
	__u32 nr = IOC_NR(code);

	if (IOC_DIR(code) == IOC_WRITE && nr >= 0xc0 && nr < 0xc0 + 0x40) {
		fputs("EVIOCSABS(", out);
		print_sym_or_num(out, &ktr_gen_ev_abs, nr - 0xc0, NULL);
		fputc(')', out);
		return true;
	}
	if (IOC_DIR(code) != IOC_READ)
		return false;
	if (nr >= 0x20 && nr < 0x20 + 0x20) {
		fputs("EVIOCGBIT(", out);
		print_sym_or_num(out, &ktr_gen_ev_type, nr - 0x20, "0");
		fprintf(out, ", %u)", IOC_SIZE(code));
		return true;
	}
	if (nr >= 0x40 && nr < 0x40 + 0x40) {
		fputs("EVIOCGABS(", out);
		print_sym_or_num(out, &ktr_gen_ev_abs, nr - 0x40, NULL);
		fputc(')', out);
		return true;
	}
	if (nr < 0x20 && by_nr[nr]) {
		fprintf(out, "%s(%u)", by_nr[nr], IOC_SIZE(code));
		return true;
	}
	return false;
}

/* The requests whose number holds an argument; true if printed. */
static bool print_macro(FILE *out, __u32 code)
{
	__u32 dir = IOC_DIR(code), nr = IOC_NR(code), size = IOC_SIZE(code);

	switch (IOC_TYPE(code)) {
	case 'E':
		return print_evdev(out, code);
	case 'H':
		if (dir == IOC_READ && (nr == 0x04 || nr == 0x05 || nr == 0x08 || nr == 0x12)) {
			fprintf(out, "%s(%u)",
				nr == 0x04 ? "HIDIOCGRAWNAME" :
				nr == 0x05 ? "HIDIOCGRAWPHYS" :
				nr == 0x08 ? "HIDIOCGRAWUNIQ" :
					     "HIDIOCGPHYS",
				size);
			return true;
		}
		if (dir == (IOC_READ | IOC_WRITE) && (nr == 0x06 || nr == 0x07)) {
			fprintf(out, "%s(%u)", nr == 0x06 ? "HIDIOCSFEATURE" : "HIDIOCGFEATURE",
				size);
			return true;
		}
		return false;
	case 'M':
		if (dir == IOC_WRITE || dir == IOC_READ) {
			fprintf(out, "%s(%u)", dir == IOC_WRITE ? "MIXER_WRITE" : "MIXER_READ", nr);
			return true;
		}
		return false;
	case 'U':
		if (dir == IOC_READ && nr == 0x2c) {
			fprintf(out, "UI_GET_SYSNAME(%u)", size);
			return true;
		}
		return false;
	case 'j':
		if (dir == IOC_READ && nr == 0x13) {
			fprintf(out, "JSIOCGNAME(%u)", size);
			return true;
		}
		return false;
	case 'k':
		if (dir == IOC_WRITE && nr == 0) {
			fprintf(out, "SPI_IOC_MESSAGE(%u)", size);
			return true;
		}
		return false;
	default:
		return false;
	}
}

/* A number no table knows, by its parts, as strace prints it. */
static void print_ioc(FILE *out, __u32 code)
{
	static const char *const dirs[4] = { "_IOC_NONE", "_IOC_WRITE", "_IOC_READ",
					     "_IOC_READ|_IOC_WRITE" };
	__u32 v[3] = { IOC_TYPE(code), IOC_NR(code), IOC_SIZE(code) };

	fprintf(out, "_IOC(%s", dirs[IOC_DIR(code)]);
	for (int i = 0; i < 3; i++)
		fprintf(out, v[i] ? ", %#x" : ", %u", v[i]);
	fputc(')', out);
}

void ktr_print_ioctl_req(FILE *out, __u32 code, int flags)
{
	int n = 0;

	if (flags & KTR_DEC_RAW) {
		fprintf(out, "%#x", code);
		return;
	}
	if (print_macro(out, code))
		n = 1;
	if (!print_names(out, code, n) && !n)
		print_ioc(out, code);
}

bool ktr_ioctl_table_sorted(void)
{
	for (size_t i = 1; i < ktr_nioctlents; i++)
		if (ktr_ioctlents[i - 1].code > ktr_ioctlents[i].code ||
		    (ktr_ioctlents[i - 1].code == ktr_ioctlents[i].code &&
		     strcmp(ioctl_name_of(&ktr_ioctlents[i - 1]),
			    ioctl_name_of(&ktr_ioctlents[i])) >= 0))
			return false;
	return true;
}
