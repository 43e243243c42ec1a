// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ktraceb/bpf_select.h"
#include "ktr_select.h"

static const struct {
	const char *name;
	unsigned int class;
} class_names[] = {
	{ "file", KTR_CL_FILE },
	{ "desc", KTR_CL_DESC },
	{ "network", KTR_CL_NETWORK },
	{ "net", KTR_CL_NETWORK },
	{ "process", KTR_CL_PROCESS },
	{ "signal", KTR_CL_SIGNAL },
	{ "ipc", KTR_CL_IPC },
	{ "memory", KTR_CL_MEMORY },
	{ "creds", KTR_CL_CREDS },
	{ "clock", KTR_CL_CLOCK },
	{ "stat", KTR_CL_STAT },
	{ "lstat", KTR_CL_LSTAT },
	{ "fstat", KTR_CL_FSTAT },
	{ "%stat", KTR_CL_STAT_LIKE },
	{ "statfs", KTR_CL_STATFS },
	{ "fstatfs", KTR_CL_FSTATFS },
	{ "%statfs", KTR_CL_STATFS_LIKE },
	{ "pure", KTR_CL_PURE },
};

void ktr_select__init(struct ktr_select *s)
{
	memset(s, 0, sizeof(*s));
}

bool ktr_select__is_arg(const char *arg)
{
	return strncmp(arg, "trace=", 6) == 0 || strncmp(arg, "status=", 7) == 0;
}

static void bits__set(__u64 *bits, unsigned int nr)
{
	if (nr < KTR_MAX_SYSCALLS)
		bits[nr / 64] |= 1ULL << (nr % 64);
}

static bool bits__test(const __u64 *bits, long nr)
{
	return nr >= 0 && nr < KTR_MAX_SYSCALLS && (bits[nr / 64] >> (nr % 64)) & 1;
}

/* What one item of a trace= set adds to the two bitmaps (as the tables name calls). */
struct item_match {
	const char *name; /* a name, or NULL */
	unsigned int class; /* a class, or 0 */
	regex_t *re; /* a pattern, or NULL */
	bool all;
};

static bool item__matches(const struct item_match *m, const char *name)
{
	if (m->all)
		return true;
	if (m->name)
		return strcmp(m->name, name) == 0;
	if (m->class)
		return (ktr_sysclass__of(name) & m->class) != 0;
	return regexec(m->re, name, 0, NULL, 0) == 0;
}

/* Set the bits of abi's calls the item matches; how many. */
static unsigned int item__apply(const struct item_match *m, const struct ktr_select_abi *abi,
				__u64 *bits)
{
	unsigned int n = 0;

	for (unsigned int nr = 0; abi && nr < abi->n && nr < KTR_MAX_SYSCALLS; nr++)
		if (abi->tab[nr].name && item__matches(m, ktr_sysent_name(&abi->tab[nr]))) {
			bits__set(bits, nr);
			n++;
		}
	return n;
}

static int class__lookup(const char *word, unsigned int *class)
{
	for (size_t i = 0; i < sizeof(class_names) / sizeof(class_names[0]); i++)
		if (strcmp(word, class_names[i].name) == 0) {
			*class = class_names[i].class;
			return 0;
		}
	return -1;
}

/* One item of a set into the bitmaps; 0, or -1 with why (in buf). */
static int item__add(const char *item, const struct ktr_select_abi *native,
		     const struct ktr_select_abi *compat, __u64 *nbits, __u64 *cbits, bool *none,
		     char *buf, size_t size)
{
	struct item_match m = { 0 };
	bool optional = false;
	regex_t re;
	int err = 0;

	if (*item == '?') {
		optional = true;
		item++;
	}
	if (!*item) {
		snprintf(buf, size, "empty item in a syscall selection");
		return -1;
	}
	if (strcmp(item, "none") == 0) {
		*none = true;
		return 0;
	}
	if (strcmp(item, "all") == 0) {
		m.all = true;
	} else if (*item == '%') {
		if (class__lookup(item + 1, &m.class) < 0) {
			snprintf(buf, size, "unknown syscall class '%s'", item);
			return -1;
		}
	} else if (*item == '/') {
		if (regcomp(&re, item + 1, REG_EXTENDED | REG_NOSUB) != 0) {
			snprintf(buf, size, "bad regular expression '%s'", item + 1);
			return -1;
		}
		m.re = &re;
	} else if (ktr_sysclass__of(item) == 0 && class__lookup(item, &m.class) == 0) {
		; /* strace's older spelling of a class, without the % */
	} else {
		m.name = item;
	}
	if (item__apply(&m, native, nbits) + item__apply(&m, compat, cbits) == 0 && m.name &&
	    !optional) {
		snprintf(buf, size, "unknown system call '%s'", item);
		err = -1;
	}
	if (m.re)
		regfree(m.re);
	return err;
}

static int select__trace(struct ktr_select *s, const char *set, const struct ktr_select_abi *native,
			 const struct ktr_select_abi *compat, char *buf, size_t size)
{
	__u64 nbits[KTR_SELECT_WORDS] = { 0 }, cbits[KTR_SELECT_WORDS] = { 0 };
	bool negate = *set == '!', none = false, any = false;
	char copy[1024], *rest = copy, *item;

	if (negate)
		set++;
	if (!*set || strlen(set) >= sizeof(copy)) {
		snprintf(buf, size,
			 !*set ? "empty syscall selection" : "syscall selection too long");
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s", set);
	while ((item = strsep(&rest, ","))) /* strsep, not strtok: "a,,b" has an empty item */
		if (item__add(item, native, compat, nbits, cbits, &none, buf, size) < 0)
			return -1;
	for (int w = 0; w < KTR_SELECT_WORDS; w++) {
		if (negate) {
			nbits[w] = ~nbits[w];
			cbits[w] = ~cbits[w];
		}
		any |= nbits[w] || cbits[w];
		s->native[w] |= nbits[w];
		s->compat[w] |= cbits[w];
	}
	if (!any && !none) {
		snprintf(buf, size, "the syscall selection '%s%s' selects no system call",
			 negate ? "!" : "", set);
		return -1;
	}
	s->calls_given = true;
	return 0;
}

static int select__status(struct ktr_select *s, const char *set, char *buf, size_t size)
{
	char copy[256], *rest = copy, *item;
	__u32 status = 0;

	snprintf(copy, sizeof(copy), "%s", set);
	while ((item = strsep(&rest, ","))) {
		if (strcmp(item, "successful") == 0) {
			status |= KTR_SELECT_SUCCESSFUL;
		} else if (strcmp(item, "failed") == 0) {
			status |= KTR_SELECT_FAILED;
		} else if (strcmp(item, "all") == 0) {
			status |= KTR_SELECT_SUCCESSFUL | KTR_SELECT_FAILED;
		} else if (strcmp(item, "unfinished") == 0 || strcmp(item, "unavailable") == 0 ||
			   strcmp(item, "detached") == 0) {
			snprintf(buf, size,
				 "status %s is strace's, not told here: successful, failed or all",
				 item);
			return -1;
		} else {
			snprintf(buf, size, "unknown status '%s': successful, failed or all", item);
			return -1;
		}
	}
	s->status |= status;
	return 0;
}

int ktr_select__add(struct ktr_select *s, const char *arg, const struct ktr_select_abi *native,
		    const struct ktr_select_abi *compat, const char **why)
{
	static char buf[256];
	size_t used = strlen(s->text);
	int err;

	if (strncmp(arg, "trace=", 6) == 0)
		err = select__trace(s, arg + 6, native, compat, buf, sizeof(buf));
	else if (strncmp(arg, "status=", 7) == 0)
		err = select__status(s, arg + 7, buf, sizeof(buf));
	else {
		snprintf(buf, sizeof(buf), "'%s': trace=SET or status=SET", arg);
		err = -1;
	}
	if (err) {
		*why = buf;
		return -1;
	}
	if (used + strlen(arg) + 2 > sizeof(s->text)) {
		*why = "syscall selection too long";
		return -1;
	}
	snprintf(s->text + used, sizeof(s->text) - used, "%s%s", used ? " " : "", arg);
	return 0;
}

bool ktr_select__active(const struct ktr_select *s)
{
	return s->calls_given ||
	       (s->status && s->status != (KTR_SELECT_SUCCESSFUL | KTR_SELECT_FAILED));
}

bool ktr_select__has_call(const struct ktr_select *s, long nr, bool compat)
{
	return !s->calls_given || bits__test(compat ? s->compat : s->native, nr);
}

bool ktr_select__has_status(const struct ktr_select *s, int error)
{
	if (!s->status)
		return true;
	return (s->status & (error ? KTR_SELECT_FAILED : KTR_SELECT_SUCCESSFUL)) != 0;
}
