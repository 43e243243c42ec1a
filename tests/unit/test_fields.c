// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The fields the decoders give (decode.h): names, kinds, raw values, groups. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "decode.h"
#include "../lib/test.h"

/* Every call to the sink, one line each: "{", "}", "[", "]", "name:kind:raw:text". */
static char log_[4096];

static void put(const char *s)
{
	size_t n = strlen(log_);

	snprintf(log_ + n, sizeof(log_) - n, "%s%s", n ? " " : "", s);
}

static void l_begin(void *ctx, enum ktr_field_group g)
{
	put(g == KTR_GROUP_ARRAY ? "[" : "{");
}

static void l_end(void *ctx, enum ktr_field_group g)
{
	put(g == KTR_GROUP_ARRAY ? "]" : "}");
}

static void l_field(void *ctx, const struct ktr_field *f)
{
	static const char kinds[] = "NHTSX"; /* NUM HEX TEXT STR NOTE */
	char buf[256];

	snprintf(buf, sizeof(buf), "%s:%c:%lld:%.*s", f->name ? f->name : "-", kinds[f->kind],
		 (long long)f->raw, (int)f->len, f->text);
	put(buf);
}

static const struct ktr_field_sink sink = { l_begin, l_field, l_end, NULL, NULL };

#define FIELDS(call) (log_[0] = 0, (call), log_)

TEST(struct_members)
{
	__s32 rl[4] = { 10, 0, -1, -1 }; /* cur 10, max RLIM_INFINITY */
	__s32 fds[2] = { 3, 4 };

	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "rlimit", rl, 16, 0)),
		     "{ cur:N:10:10 max:T:0:RLIM_INFINITY }", "rlimit: a number, a name");
	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "fd_pair", fds, 8, 0)), "{ -:N:3:3 -:N:4:4 }",
		     "fd_pair: values alone");
	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "string", "ab\n", 3, 0)), "-:S:0:ab\n",
		     "string: bytes, no group");
	ASSERT_EQ(ktr_decode_struct(&sink, "nosuch", fds, 8, 0), KTR_STRUCT_UNKNOWN, "unknown");
	ASSERT_EQ(ktr_decode_struct(&sink, "fd_pair", fds, 7, 0), KTR_STRUCT_BAD_SIZE, "size");
}

TEST(struct_array)
{
	unsigned char p[16] = { 3, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0 };

	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "pollfd", p, 16, 0)),
		     "[ { fd:N:3:3 events:T:0:POLLIN revents:N:0:0 } "
		     "{ fd:N:-1:-1 events:N:0:0 revents:N:0:0 } ]",
		     "pollfd: an array of structures");
}

/*
 * A value the text shows by its name is a TEXT field; with no name for it
 * the text shows the number, and the field is that NUM (JSON prints raw).
 */
TEST(names_or_numbers)
{
	__s16 fl[16] = { F_WRLCK, 7 }; /* struct flock: type, whence 7 (no name) */
	__s32 si[8] = { 10, 0, 99 }; /* siginfo: SIGUSR1, errno 0, code 99 (no name) */
	__s32 si_unknown[8] = { 0x55, 0, 0 }; /* a signal with no name */
	__u64 sa[4] = { 0, 0, 0, 0 }; /* sigaction: SIG_DFL, no flags, empty mask */
	__u64 stack[3] = { 0x1000, 0, 0x2000 }; /* stack_t: flags 0, shown in hex */

	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "flock", fl, 32, 0)),
		     "{ type:T:0:F_WRLCK whence:N:7:7 start:N:0:0 len:N:0:0 pid:N:0:0 }",
		     "flock: a name, a number without one");
	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "siginfo", si, 16, 0)),
		     "{ signo:T:0:SIGUSR1 errno:N:0:0 code:N:99:99 }", "siginfo: code 99");
	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "siginfo", si_unknown, 16, 0)),
		     "{ signo:N:85:85 errno:N:0:0 code:T:0:SI_USER }", "siginfo: signal 85");
	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "sigaction", sa, 32, 0)),
		     "{ handler:T:0:SIG_DFL flags:N:0:0 mask:N:0:0 }", "sigaction: 0, 0");
	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "stack_t", stack, 24, 0)),
		     "{ sp:H:4096:0x1000 flags:H:0:0 size:N:8192:8192 }", "stack: flags in hex");
	/* -n: the raw numbers, as the text shows them */
	ASSERT_STREQ(FIELDS(ktr_decode_struct(&sink, "flock", fl, 32, KTR_DEC_RAW)),
		     "{ type:N:1:1 whence:N:7:7 start:N:0:0 len:N:0:0 pid:N:0:0 }", "flock -n");
}

TEST(call_fields)
{
	const __u64 a[4] = { (__u64)(__s64)AT_FDCWD, 0x7ffd1234, O_RDONLY | O_CLOEXEC, 0 };

	ASSERT_STREQ(FIELDS(ktr_decode_syscall_args(&sink, 0, __NR_openat, 4, a, 0)),
		     "dfd:T:-100:AT_FDCWD filename:T:2147291700:0x7ffd1234 "
		     "flags:T:524288:O_RDONLY|O_CLOEXEC",
		     "openat: mode not taken without O_CREAT");
	ASSERT_STREQ(FIELDS(ktr_decode_sysret(&sink, 0, __NR_openat, 2, -1, 0)),
		     "retval:T:-1:-1 errno 2 No such file or directory (ENOENT)", "an error");
	ASSERT_STREQ(FIELDS(ktr_decode_sysret(&sink, 0, __NR_read, 0, 12, KTR_DEC_RAW)),
		     "retval:T:12:0xc", "raw");
}

/* What ktr_print_syscall_args() writes, in buf */
static const char *args_text(char *buf, size_t size, unsigned int sv, int code, int narg,
			     const __u64 *a, int flags)
{
	FILE *out = fmemopen(buf, size, "w");

	buf[0] = 0;
	if (!out)
		return "(fmemopen failed)";
	ktr_print_syscall_args(out, sv, code, narg, a, flags);
	fclose(out);
	return buf;
}

/* A BSD trace's call has up to 8 arguments: the fields and the text give all of them. */
TEST(call_fields_all_args)
{
	const __u64 a[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	char text[128];

	ASSERT_STREQ(FIELDS(ktr_decode_syscall_args(&sink, KTR_SV_ABI_FREEBSD, 477, 8, a, 0)),
		     "arg0:T:0:0 arg1:T:1:0x1 arg2:T:2:0x2 arg3:T:3:0x3 arg4:T:4:0x4 "
		     "arg5:T:5:0x5 arg6:T:6:0x6 arg7:T:7:0x7",
		     "BSD: 8 fields");
	ASSERT_STREQ(args_text(text, sizeof(text), KTR_SV_ABI_FREEBSD, 477, 8, a, KTR_DEC_DECIMAL),
		     "(0,1,2,3,4,5,6,7)", "BSD: 8 in the text");
	ASSERT_STREQ(args_text(text, sizeof(text), 0, __NR_getppid, 8, a, KTR_DEC_RAW),
		     "(0,0x1,0x2,0x3,0x4,0x5)", "Linux: at most 6");
	ASSERT_STREQ(args_text(text, sizeof(text), 0, __NR_getppid, 0, a, 0), "", "no arguments");
}

TEST_MAIN()
