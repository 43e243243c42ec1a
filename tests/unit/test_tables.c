// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The syscall tables come from the kernel's (src/decode/tables/, kernel
 * 6.18), not from the build machine's headers; every name a decoder or
 * capture table uses is in them; extensible structs print what their
 * recorded size holds.
 */
#include <stdlib.h>
#include <string.h>
#include "ktraceb/ktr.h"
#include "syscalltab.h"
#include "decode.h"
#include "decode_int.h"
#include "daemon/programs/ktr_captures.h"
#include "../lib/test.h"

static const struct {
	const char *abi;
	const struct ktr_sysent *tab;
	const unsigned int *n;
} abis[] = {
	{ "x86_64", ktr_sysent_x86_64, &ktr_nsysent_x86_64 },
	{ "i386", ktr_sysent_i386, &ktr_nsysent_i386 },
	{ "arm64", ktr_sysent_arm64, &ktr_nsysent_arm64 },
};

static int nr_of(const struct ktr_sysent *tab, unsigned int n, const char *name)
{
	for (unsigned int nr = 0; nr < n; nr++)
		if (tab[nr].name && strcmp(ktr_sysent_name(&tab[nr]), name) == 0)
			return nr;
	return -1;
}

static const char *name_of(const struct ktr_sysent *tab, unsigned int n, unsigned int nr)
{
	return nr < n && tab[nr].name ? ktr_sysent_name(&tab[nr]) : "(none)";
}

TEST(x86_64_past_the_headers)
{
	/* Debian 12's headers stop at 450; kernel 6.18 goes to 469 */
	ASSERT_STREQ(name_of(ktr_sysent_x86_64, ktr_nsysent_x86_64, 452), "fchmodat2", "452");
	ASSERT_EQ(ktr_sysent_x86_64[452].pathmask, 0x2, "fchmodat2 has a path: NAMI");
	ASSERT_STREQ(name_of(ktr_sysent_x86_64, ktr_nsysent_x86_64, 458), "listmount", "458");
	ASSERT_EQ(ktr_sysent_x86_64[458].narg, 4, "listmount arguments from its signature");
	ASSERT_STREQ(name_of(ktr_sysent_x86_64, ktr_nsysent_x86_64, 469), "file_setattr", "469");
	ASSERT_STREQ(name_of(ktr_sysent_x86_64, ktr_nsysent_x86_64, 335), "uretprobe", "335");
	ASSERT_EQ(ktr_nsysent_x86_64, 470, "x86_64 table ends at 469");
	/* an entry point other than its name: stat is sys_newstat */
	ASSERT_EQ(ktr_sysent_x86_64[4].narg, 2, "stat via newstat");
	ASSERT_EQ(ktr_sysent_x86_64[4].pathmask, 0x1, "stat path");
}

TEST(i386_and_arm64)
{
	ASSERT_STREQ(name_of(ktr_sysent_i386, ktr_nsysent_i386, 11), "execve", "i386 11");
	ASSERT_STREQ(name_of(ktr_sysent_i386, ktr_nsysent_i386, 452), "fchmodat2", "i386 452");
	ASSERT_EQ(ktr_sysent_i386[212].narg, 3, "chown32 via chown");
	ASSERT_STREQ(name_of(ktr_sysent_arm64, ktr_nsysent_arm64, 56), "openat", "arm64 56");
	ASSERT_STREQ(name_of(ktr_sysent_arm64, ktr_nsysent_arm64, 221), "execve", "arm64 221");
	ASSERT_STREQ(name_of(ktr_sysent_arm64, ktr_nsysent_arm64, 435), "clone3", "arm64 435");
	ASSERT_STREQ(name_of(ktr_sysent_arm64, ktr_nsysent_arm64, 458), "listmount", "arm64 458");
	ASSERT_EQ(ktr_sysent_arm64[56].pathmask, 0x2, "arm64 openat path");
	ASSERT_EQ(nr_of(ktr_sysent_arm64, ktr_nsysent_arm64, "open"), -1, "arm64 has no open");
	ASSERT_EQ(nr_of(ktr_sysent_arm64, ktr_nsysent_arm64, "fstat"), 80, "arm64 fstat");
	ASSERT_EQ(ktr_sysent_arm64[80].narg, 2, "arm64 fstat via newfstat");
}

/* Each table's strings from its own pool: an entry's offsets are into its table's string. */
TEST(argument_types_and_names)
{
	const struct ktr_sysent *read = &ktr_sysent_x86_64[0], *chown32 = &ktr_sysent_i386[212],
				*openat = &ktr_sysent_arm64[56];

	ASSERT_STREQ(ktr_sysent_str(read, read->argtype[0]), "unsigned int", "read's fd type");
	ASSERT_STREQ(ktr_sysent_str(read, read->argname[1]), "buf", "read's buf");
	ASSERT_STREQ(ktr_sysent_str(chown32, chown32->argname[0]), "filename", "i386 chown32");
	ASSERT_STREQ(ktr_sysent_str(chown32, chown32->argtype[1]), "uid_t", "i386 chown32 uid");
	ASSERT_STREQ(ktr_sysent_str(openat, openat->argname[1]), "filename", "arm64 openat");
	ASSERT_STREQ(ktr_sysent_str(openat, openat->argtype[3]), "umode_t", "arm64 openat mode");
	ASSERT_TRUE(ktr_sysent_str(read, read->argtype[3]) == NULL, "no fourth argument");
}

TEST(every_decoder_name_is_a_syscall)
{
	size_t i, unknown = 0;
	const char *name;

	for (i = 0; (name = ktr_scdec_name_at(i)); i++) {
		int found = 0;

		for (size_t a = 0; a < sizeof(abis) / sizeof(abis[0]); a++)
			found |= nr_of(abis[a].tab, *abis[a].n, name) >= 0;
		if (!ASSERT_TRUE(found, name))
			unknown++;
	}
	ASSERT_TRUE(i > 100, "decoder entries walked");
	ASSERT_EQ(unknown, 0, "decoder names no table has");
}

TEST(every_capture_name_is_an_x86_64_syscall)
{
	size_t i, unknown = 0;
	const char *name;

	/* the capture tables are filled for x86_64 numbers */
	for (i = 0; (name = ktr_captures__syscall_at(i)); i++)
		if (!ASSERT_TRUE(nr_of(ktr_sysent_x86_64, ktr_nsysent_x86_64, name) >= 0, name))
			unknown++;
	ASSERT_TRUE(i > 50, "capture entries walked");
	ASSERT_EQ(unknown, 0, "capture names x86_64 lacks");
}

static char outbuf[4096];

static const char *print_struct(const char *name, const void *p, size_t len)
{
	char *b = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&b, &n);

	ktr_print_struct(out, name, p, len, 0);
	fclose(out);
	snprintf(outbuf, sizeof(outbuf), "%s", b ? b : "");
	free(b);
	return outbuf;
}

TEST(clone_args_by_size)
{
	__u64 a[12] = { 0x100 /* CLONE_VM */, 0, 0, 0, 17, 0x7000, 4096, 0, 0x8000, 1, 5, 9 };

	ASSERT_STREQ(print_struct("clone_args", a, 64),
		     "struct clone_args { flags=CLONE_VM, pidfd=0, child_tid=0, parent_tid=0, "
		     "exit_signal=SIGCHLD, stack=0x7000, stack_size=4096, tls=0 }",
		     "v0, 64 bytes");
	ASSERT_STREQ(print_struct("clone_args", a, 88),
		     "struct clone_args { flags=CLONE_VM, pidfd=0, child_tid=0, parent_tid=0, "
		     "exit_signal=SIGCHLD, stack=0x7000, stack_size=4096, tls=0, set_tid=0x8000, "
		     "set_tid_size=1, cgroup=5 }",
		     "v2, 88 bytes");
	ASSERT_STREQ(print_struct("clone_args", a, 56),
		     "struct clone_args { flags=CLONE_VM, pidfd=0, child_tid=0, parent_tid=0, "
		     "exit_signal=SIGCHLD, stack=0x7000, stack_size=4096 }",
		     "56 bytes: what the size holds");
	ASSERT_STREQ(print_struct("clone_args", a, 12),
		     "struct clone_args { flags=CLONE_VM, <4 bytes more> }", "a partial field");
	ASSERT_STREQ(print_struct("clone_args", a, 72),
		     "struct clone_args { flags=CLONE_VM, pidfd=0, child_tid=0, parent_tid=0, "
		     "exit_signal=SIGCHLD, stack=0x7000, stack_size=4096, tls=0, <8 bytes more> }",
		     "between v0 and v1");
	ASSERT_TRUE(strstr(print_struct("clone_args", a, 96), "invalid record") != NULL,
		    "more than v2 was never captured");
}

TEST(open_how_by_size)
{
	__u64 h[3] = { 0101 /* O_WRONLY|O_CREAT */, 0644, 0x8 /* RESOLVE_BENEATH */ };

	ASSERT_STREQ(print_struct("open_how", h, 24),
		     "struct open_how { flags=O_WRONLY|O_CREAT, mode=0644, "
		     "resolve=RESOLVE_BENEATH }",
		     "24 bytes");
	ASSERT_STREQ(print_struct("open_how", h, 11),
		     "struct open_how { flags=O_WRONLY|O_CREAT, <3 bytes more> }", "11 bytes");
	ASSERT_STREQ(print_struct("open_how", h, 3), "struct open_how { <3 bytes more> }",
		     "3 bytes");
}

TEST(statx_by_mask)
{
	unsigned char st[256] = { 0 };
	__u32 mask = 0x7ff; /* STATX_BASIC_STATS, no STATX_BTIME */
	__s64 btime = 1234567;

	memcpy(st, &mask, 4);
	memcpy(st + 0x50, &btime, 8); /* stx_btime: filled or not, the mask says */
	ASSERT_TRUE(strstr(print_struct("statx", st, 256), "btime=") == NULL, "no btime bit");
	ASSERT_TRUE(strstr(outbuf, "mtime=") != NULL, "mtime in the basic stats");
	mask |= 0x800;
	memcpy(st, &mask, 4);
	ASSERT_TRUE(strstr(print_struct("statx", st, 256), "btime=1234567.") != NULL,
		    "btime with STATX_BTIME");
	mask = 0x1; /* STATX_TYPE alone */
	memcpy(st, &mask, 4);
	print_struct("statx", st, 256);
	ASSERT_TRUE(strstr(outbuf, " size=") == NULL, "no size without STATX_SIZE");
	ASSERT_TRUE(strstr(outbuf, "mode=") != NULL, "the type is in mode");
}

TEST_MAIN()
