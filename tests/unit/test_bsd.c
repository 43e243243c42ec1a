// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Each BSD's names (decode_bsd.c, tables generated from the systems' own
 * syscalls.master and errno.h) against numbers read from those systems'
 * sys/syscall.h and errno.h by hand, and the detection of a layout from
 * records built here (kdump_bsd.c): what chains is taken, what does not is
 * "not a dump".
 */
#include <errno.h>
#include <string.h>

#include "ktraceb/ktr.h"
#include "../lib/test.h"
#include "decode.h"
#include "kdump_bsd.h"

/* A number's name on one system, NULL for none. */
struct name_case {
	const char *(*name)(unsigned int abi, int n);
	unsigned int abi;
	int n;
	const char *want, *what;
};

static const char *syscall_name(unsigned int abi, int nr)
{
	return ktr_syscall_name(abi, nr);
}

/* Every row; a wrong one fails the test, named by its what. */
static void check_names(const struct name_case *c, size_t n)
{
	for (; n--; c++)
		ASSERT_STREQ_NULL(c->name(c->abi, c->n), c->want, c->what);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct name_case syscall_cases[] = {
	{ syscall_name, KTR_SV_ABI_FREEBSD, 5, "open", "FreeBSD 5" },
	{ syscall_name, KTR_SV_ABI_FREEBSD, 477, "mmap", "FreeBSD 477" },
	{ syscall_name, KTR_SV_ABI_FREEBSD, 17, "break", "FreeBSD obreak's alias" },
	{ syscall_name, KTR_SV_ABI_FREEBSD | KTR_SV_ILP32, 202, "__sysctl", "FreeBSD i386 202" },
	{ syscall_name, KTR_SV_ABI_OPENBSD, 37, "msyscall", "OpenBSD 37 (extra)" },
	{ syscall_name, KTR_SV_ABI_OPENBSD, 202, "sysctl", "OpenBSD sys_ prefix gone" },
	{ syscall_name, KTR_SV_ABI_NETBSD, 279, "__fstat13", "NetBSD COMPAT_30 entry" },
	{ syscall_name, KTR_SV_ABI_NETBSD, 439, "__stat50", "NetBSD versioned name" },
	{ syscall_name, KTR_SV_ABI_DARWIN, 45, "ktrace", "Darwin 8's ktrace" },
	{ syscall_name, KTR_SV_ABI_DARWIN, 299, "shared_region_map_file_np", "Darwin 8 299" },
	{ syscall_name, KTR_SV_ABI_DRAGONFLY, 5, "open", "DragonFly 5, not Linux's fstat" },
	{ syscall_name, KTR_SV_ABI_DRAGONFLY, 1, "exit", "DragonFly 1" },
	{ syscall_name, KTR_SV_ABI_DARWIN, 8, NULL, "Darwin's old creat has no name" },
	{ syscall_name, KTR_SV_ABI_FREEBSD, 99999, NULL, "out of range" },
	{ syscall_name, KTR_SV_LINUX_AMD64, 5, "fstat", "a Linux process keeps Linux names" },
};

TEST(syscall_names_per_system)
{
	check_names(syscall_cases, ARRAY_SIZE(syscall_cases));
}

static const struct name_case errno_cases[] = {
	{ ktr_bsd_errno_name, KTR_SV_ABI_FREEBSD, 35, "EAGAIN", "FreeBSD 35" },
	{ ktr_bsd_errno_name, KTR_SV_ABI_DRAGONFLY, 35, "EAGAIN", "DragonFly 35" },
	{ ktr_bsd_errno_name, KTR_SV_ABI_NETBSD, -3, "ERESTART", "NetBSD ERESTART" },
	{ ktr_bsd_errno_name, KTR_SV_ABI_OPENBSD, -1, "ERESTART", "OpenBSD ERESTART" },
	{ ktr_bsd_errno_name, KTR_SV_ABI_DARWIN, 2, "ENOENT", "Darwin 2" },
	{ ktr_bsd_errno_name, KTR_SV_ABI_FREEBSD, 5000, NULL, "unknown errno" },
	{ ktr_bsd_signal_name, KTR_SV_ABI_FREEBSD, 10, "SIGBUS", "BSD signal 10" },
	{ ktr_bsd_signal_name, KTR_SV_ABI_NETBSD, 20, "SIGCHLD", "BSD signal 20" },
};

TEST(errno_names_per_system)
{
	check_names(errno_cases, ARRAY_SIZE(errno_cases));
}

/* A FreeBSD i386 v0 record (44-byte header) at p: a CALL with narg args or a RET. */
static size_t fbsd_i386(unsigned char *p, int type, int narg)
{
	int len = type == KTR_SYSCALL ? 4 + 4 * narg : 12;

	memset(p, 0, 44 + len);
	memcpy(p, &len, 4);
	p[4] = (unsigned char)type;
	p[8] = 42;
	memcpy(p + 12, "sh", 2);
	p[44] = 3; /* read */
	if (type == KTR_SYSCALL)
		p[46] = (unsigned char)narg;
	return 44 + (size_t)len;
}

TEST(detects_freebsd_i386_v0)
{
	unsigned char buf[1024];
	struct kd_bsd_fmt f;
	size_t n = 0;
	int i;

	for (i = 0; i < 6; i++) {
		n += fbsd_i386(buf + n, KTR_SYSCALL, 3);
		n += fbsd_i386(buf + n, KTR_SYSRET, 0);
	}
	ASSERT_EQ(kd_bsd__detect(buf, n, true, &f), 0, "detected");
	ASSERT_EQ(f.sys, KD_SYS_FREEBSD, "FreeBSD");
	ASSERT_EQ(f.hdrsize, 44, "44-byte header");
	ASSERT_EQ(f.ws, 4, "32-bit words");
	ASSERT_EQ(kd_bsd__detect(buf, n - 5, true, &f), 0, "a cut last record still chains");
	ASSERT_EQ(f.sys, KD_SYS_FREEBSD, "FreeBSD, cut");
	/* the first CALL's narg does not match its length: not FreeBSD's layout */
	buf[46] = 7;
	kd_bsd__detect(buf, n, true, &f);
	ASSERT_TRUE(f.sys != KD_SYS_FREEBSD, "bad narg: not FreeBSD");
	/* the same break at record 9: FreeBSD's, on 8 good records (the reader reports it) */
	buf[46] = 3;
	buf[4 * (60 + 56) + 46] = 6; /* record 9, a CALL */
	ASSERT_EQ(kd_bsd__detect(buf, n, true, &f), 0, "late break");
	ASSERT_EQ(f.sys, KD_SYS_FREEBSD, "late break: FreeBSD");
}

TEST(openbsd_needs_ktr_start)
{
	unsigned char buf[128] = { 0 };
	struct kd_bsd_fmt f;

	memcpy(buf, "KTR", 4);
	memset(buf + 4, 0xff, 8); /* pid, tid -1 */
	ASSERT_EQ(kd_bsd__detect(buf, 64, true, &f), 0, "KTR_START alone");
	ASSERT_EQ(f.sys, KD_SYS_OPENBSD, "OpenBSD");
	memcpy(buf, "KTS", 4);
	ASSERT_EQ(kd_bsd__detect(buf, 64, true, &f), -ENOEXEC, "no KTR_START: not a dump");
}
TEST_MAIN()
