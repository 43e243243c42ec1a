// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* A KTR_SYSRET as a field (decode.h): a return value, or an error with its names. */
#include <string.h>
#include "struct_int.h"

static bool returns_address(unsigned int sv_flags, int code)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	return name && (strcmp(name, "mmap") == 0 || strcmp(name, "mmap2") == 0 ||
			strcmp(name, "brk") == 0 || strcmp(name, "mremap") == 0 ||
			strcmp(name, "shmat") == 0);
}

/* umask returns the old mask: octal, as its argument is printed */
static bool returns_mode(unsigned int sv_flags, int code)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	return name && strcmp(name, "umask") == 0;
}

static void print_error(FILE *out, int error, int flags)
{
	const char *name = ktr_errno_name(error);

	fprintf(out, "-1 errno %d", error);
	if (flags & KTR_DEC_RAW)
		return;
	if (error >= 512 && name)
		fprintf(out, " %s (%s)", name, ktr_errno_text(error));
	else if (name)
		fprintf(out, " %s (%s)", strerror(error), name);
	else
		fprintf(out, " Unknown error %d", error);
}

/* The field's value, as the text shows it */
static void print_sysret(FILE *out, unsigned int sv_flags, int code, int error, __s64 retval,
			 int flags)
{
	if (ktr_bsd_abi(sv_flags)) {
		ktr_bsd_print_sysret(out, sv_flags, error, retval, flags);
		return;
	}
	if (error) {
		print_error(out, error, flags);
		return;
	}
	if (flags & KTR_DEC_RAW)
		ktr_print_num(out, (__u64)retval, flags);
	else if (returns_mode(sv_flags, code))
		fprintf(out, "%#llo", (unsigned long long)retval);
	else if (returns_address(sv_flags, code))
		fprintf(out, "%#llx", (unsigned long long)retval);
	else if (retval < 0 || retval > 9)
		fprintf(out, "%lld/%#llx", (long long)retval, (unsigned long long)retval);
	else
		fprintf(out, "%lld", (long long)retval);
}

int ktr_decode_sysret(const struct ktr_field_sink *s, unsigned int sv_flags, int code, int error,
		      __s64 retval, int flags)
{
	struct ktr_fields f;
	int err;

	if (s->direct) { /* one field: give it, then its value straight to direct */
		s->field(s->ctx, &(struct ktr_field){ .name = "retval", .kind = KTR_FIELD_TEXT });
		print_sysret(s->direct, sv_flags, code, error, retval, flags);
		return 0;
	}
	err = ktr_fields_init(&f, s);
	if (err)
		return err;
	ktr_field_of(&f, "retval", (__u64)retval, true);
	print_sysret(f.out, sv_flags, code, error, retval, flags);
	ktr_fields_done(&f);
	return 0;
}
