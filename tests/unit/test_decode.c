// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Golden strings for the decoders in src/decode/. */
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <sys/file.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include <linux/fanotify.h>
#include <linux/keyctl.h>
#include <asm/termbits.h>
#include <asm/ioctls.h>
#include "ktraceb/ktr.h"
#include "decode.h"
#include "decode_int.h"
#include "../lib/test.h"

static char outbuf[4096];

/* Run a printer into a memory stream and keep its output in outbuf. */
#define CAPTURE(call)                                                 \
	({                                                            \
		char *b_ = NULL;                                      \
		size_t n_ = 0;                                        \
		FILE *out = open_memstream(&b_, &n_);                 \
		call;                                                 \
		fclose(out);                                          \
		snprintf(outbuf, sizeof(outbuf), "%s", b_ ? b_ : ""); \
		free(b_);                                             \
		outbuf;                                               \
	})

/* A row's arguments: how many, then their values. */
/* clang-format off */
#define N(...) sizeof((__u64[]){ __VA_ARGS__ }) / sizeof(__u64), { __VA_ARGS__ }
/* clang-format on */

/* One call's arguments and the text they decode to. */
struct args_case {
	int nr, flags, nargs;
	__u64 args[6];
	const char *want, *what;
};

/* One return value and its text. */
struct ret_case {
	int nr, err;
	__s64 val;
	int flags;
	const char *want, *what;
};

/* Decode every row; a wrong one fails the test, named by its what. */
static void check_args(const struct args_case *c, size_t n)
{
	for (; n--; c++)
		ASSERT_STREQ(
			CAPTURE(ktr_print_syscall_args(out, 0, c->nr, c->nargs, c->args, c->flags)),
			c->want, c->what);
}

static void check_ret(const struct ret_case *c, size_t n)
{
	for (; n--; c++)
		ASSERT_STREQ(CAPTURE(ktr_print_sysret(out, 0, c->nr, c->err, c->val, c->flags)),
			     c->want, c->what);
}

/* A number's name, NULL for none; sv is the ABI or signal, when the name needs one. */
struct name_case {
	const char *(*name)(long sv, long n);
	long sv, n;
	const char *want, *what;
};

static void check_names(const struct name_case *c, size_t n)
{
	for (; n--; c++)
		ASSERT_STREQ_NULL(c->name(c->sv, c->n), c->want, c->what);
}

static const char *syscall_name(long sv, long n)
{
	return ktr_syscall_name(sv, n);
}

static const char *errno_name(long sv, long n)
{
	(void)sv;
	return ktr_errno_name(n);
}

static const char *signal_name(long sv, long n)
{
	(void)sv;
	return ktr_signal_name(n);
}

static const char *sigcode_name(long sig, long code)
{
	return ktr_sigcode_name(sig, code);
}

#define ARRAY_SIZE(a)		    (sizeof(a) / sizeof((a)[0]))
#define STRUCT(name, p, len, flags) CAPTURE(ktr_print_struct(out, name, p, len, flags))

#define FDCWD ((__u64)(__s64)AT_FDCWD)

static const struct name_case syscall_names_cases[] = {
	{ syscall_name, 0, __NR_openat, "openat", "x86_64 openat" },
	{ syscall_name, 0, 0, "read", "x86_64 read" },
	{ syscall_name, KTR_SV_LINUX_AMD64, 231, "exit_group", "amd64 sv_flags" },
	{ syscall_name, KTR_SV_LINUX_I386, 295, "openat", "i386 openat" },
	{ syscall_name, KTR_SV_LINUX_I386, 1, "exit", "i386 exit" },
	{ syscall_name, 0, 400, NULL, "unused number" },
	{ syscall_name, 0, 99999, NULL, "out of range" },
	{ syscall_name, 0, -1, NULL, "negative" },
};

TEST(syscall_names)
{
	check_names(syscall_names_cases, ARRAY_SIZE(syscall_names_cases));
	ASSERT_TRUE(ktr_scdec_tables_sorted(), "dispatch tables sorted");
}

static const struct args_case args_basic_cases[] = {
	{ __NR_getpid, 0, N(0), "(0)", "one arg" },
	{ __NR_read, 0, N(3, 0x7ffd1234, 100), "(3,0x7ffd1234,0x64)", "read" },
	{ __NR_read, KTR_DEC_DECIMAL, N(3, 0x7ffd1234, 100), "(3,0x7ffd1234,100)", "read -d" },
	{ __NR_close, 0, N(0xffffffff), "(-1)", "close(-1)" },
	{ 9999, 0, N(1, 0x20), "(0x1,0x20)", "unknown syscall" },
	{ __NR_exit_group, 0, N(1), "(1)", "exit_group" },
};

TEST(args_basic)
{
	check_args(args_basic_cases, ARRAY_SIZE(args_basic_cases));
	ASSERT_STREQ(CAPTURE(ktr_print_syscall_args(out, 0, __NR_getpid, 0, NULL, 0)), "",
		     "narg 0 prints nothing");
}

static const struct args_case args_open_cases[] = {
	{ __NR_openat, 0, N(FDCWD, 0x7ffd1234, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644),
	  "(AT_FDCWD,0x7ffd1234,O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC,0644)", "openat creat" },
	{ __NR_openat, 0, N(FDCWD, 0x7ffd1234, O_RDONLY | O_CLOEXEC, 0),
	  "(AT_FDCWD,0x7ffd1234,O_RDONLY|O_CLOEXEC)", "openat rdonly: no mode" },
	/* only the low 32 bits of an int register count */
	{ __NR_openat, 0, N(0xffffff9c, 0x1000, O_RDWR | O_TMPFILE, 0600),
	  "(AT_FDCWD,0x1000,O_RDWR|O_TMPFILE,0600)", "openat tmpfile" },
	{ __NR_openat, 0, N(5, 0x1000, O_RDONLY | O_DIRECTORY | 0x40000000, 0),
	  "(5,0x1000,O_RDONLY|O_DIRECTORY|0x40000000)", "leftover bits" },
	{ __NR_open, 0, N(0x1000, O_WRONLY | O_SYNC | O_APPEND, 0x1b6),
	  "(0x1000,O_WRONLY|O_SYNC|O_APPEND)", "open O_SYNC" },
	{ __NR_openat, KTR_DEC_RAW, N(FDCWD, 0x7ffd1234, O_RDONLY | O_CLOEXEC, 0),
	  "(0xffffffffffffff9c,0x7ffd1234,0x80000,0)", "openat -n" },
	{ __NR_openat, KTR_DEC_RAW | KTR_DEC_DECIMAL, N(FDCWD, 4096, O_CLOEXEC, 0),
	  "(-100,4096,524288,0)", "openat -n -d" },
};

TEST(args_open)
{
	check_args(args_open_cases, ARRAY_SIZE(args_open_cases));
}

static const struct args_case args_file_cases[] = {
	{ __NR_access, 0, N(0x1000, F_OK), "(0x1000,F_OK)", "access F_OK" },
	{ __NR_faccessat, 0, N(FDCWD, 0x1000, R_OK | W_OK), "(AT_FDCWD,0x1000,R_OK|W_OK)",
	  "faccessat" },
	{ __NR_umask, 0, N(022), "(022)", "umask" },
	{ __NR_mkdirat, 0, N(FDCWD, 0x1000, 0755), "(AT_FDCWD,0x1000,0755)", "mkdirat" },
	{ __NR_mknodat, 0, N(FDCWD, 0x1000, S_IFCHR | 0666, 0x103),
	  "(AT_FDCWD,0x1000,S_IFCHR|0666,0x103)", "mknodat" },
	{ __NR_unlinkat, 0, N(3, 0x1000, AT_REMOVEDIR), "(3,0x1000,AT_REMOVEDIR)", "unlinkat" },
	{ __NR_newfstatat, 0, N(3, 0x1000, 0x2000, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW),
	  "(3,0x1000,0x2000,AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH)", "newfstatat" },
	{ __NR_fcntl, 0, N(3, F_SETFL, O_RDWR | O_NONBLOCK), "(3,F_SETFL,O_RDWR|O_NONBLOCK)",
	  "fcntl F_SETFL" },
	{ __NR_fcntl, 0, N(3, F_SETFD, FD_CLOEXEC), "(3,F_SETFD,FD_CLOEXEC)", "fcntl F_SETFD" },
	{ __NR_fcntl, 0, N(3, F_GETFL, 0), "(3,F_GETFL)", "fcntl F_GETFL: two" },
	{ __NR_fcntl, KTR_DEC_RAW, N(3, F_GETFL, 0), "(0x3,0x3,0)", "fcntl -n: all" },
	{ __NR_fcntl, 0, N(3, F_DUPFD_CLOEXEC, 10), "(3,F_DUPFD_CLOEXEC,10)",
	  "fcntl F_DUPFD_CLOEXEC" },
	{ __NR_lseek, 0, N(3, 0, SEEK_END), "(3,0,SEEK_END)", "lseek" },
	{ __NR_flock, 0, N(3, LOCK_EX | LOCK_NB), "(3,LOCK_EX|LOCK_NB)", "flock" },
	{ __NR_dup3, 0, N(3, 4, O_CLOEXEC), "(3,4,O_CLOEXEC)", "dup3" },
	{ __NR_pipe2, 0, N(0x1000, O_CLOEXEC | O_NONBLOCK), "(0x1000,O_CLOEXEC|O_NONBLOCK)",
	  "pipe2" },
	{ __NR_epoll_ctl, 0, N(5, 1, 3, 0x1000), "(5,EPOLL_CTL_ADD,3,0x1000)", "epoll_ctl" },
	{ __NR_renameat2, 0, N(FDCWD, 0x1000, FDCWD, 0x2000, 1),
	  "(AT_FDCWD,0x1000,AT_FDCWD,0x2000,RENAME_NOREPLACE)", "renameat2" },
};

TEST(args_file)
{
	check_args(args_file_cases, ARRAY_SIZE(args_file_cases));
}

static const struct args_case args_ioctl_cases[] = {
	{ __NR_ioctl, 0, N(1, TCGETS, 0x7ffc0000), "(1,TCGETS,0x7ffc0000)", "TCGETS" },
	{ __NR_ioctl, 0, N(1, TIOCGWINSZ, 0x7ffc0000), "(1,TIOCGWINSZ,0x7ffc0000)", "TIOCGWINSZ" },
	{ __NR_ioctl, 0, N(3, FIOCLEX, 0), "(3,FIOCLEX,0)", "FIOCLEX" },
	{ __NR_ioctl, 0, N(3, 1, 0x1000), "(3,FIBMAP,0x1000)", "FIBMAP, the table's first line" },
	{ __NR_ioctl, 0, N(3, 0x80081272, 0x1000), "(3,BLKGETSIZE64,0x1000)", "BLKGETSIZE64" },
	{ __NR_ioctl, 0, N(3, 0xdeadbeef, 0),
	  "(3,_IOC(_IOC_READ|_IOC_WRITE, 0xbe, 0xef, 0x1ead),0)", "unknown ioctl: its parts" },
	{ __NR_ioctl, 0, N(3, 0x8400941f, 0x1000), "(3,BTRFS_IOC_FS_INFO,0x1000)",
	  "btrfs, from the generated table" },
	{ __NR_ioctl, 0, N(3, 0x8400941e, 0x1000), "(3,_IOC(_IOC_READ, 0x94, 0x1e, 0x400),0x1000)",
	  "a neighbour no table has" },
	{ __NR_ioctl, 0, N(3, 0x5400, 0), "(3,_IOC(_IOC_NONE, 0x54, 0, 0),0)",
	  "nr 0 and size 0 as 0" },
	{ __NR_ioctl, 0, N(3, 0x80084521, 0x1000), "(3,EVIOCGBIT(EV_KEY, 8),0x1000)",
	  "evdev's request of an argument" },
	{ __NR_ioctl, 0, N(3, 0x80184540, 0x1000), "(3,EVIOCGABS(ABS_X),0x1000)", "EVIOCGABS" },
	{ __NR_ioctl, 0, N(3, 0x541b, 0x1000), "(3,FIONREAD,0x1000)",
	  "FIONREAD, not TIOCINQ after it" },
	{ __NR_ioctl, KTR_DEC_RAW, N(1, TCGETS, 0), "(0x1,0x5401,0)", "ioctl -n" },
};

TEST(args_ioctl)
{
	check_args(args_ioctl_cases, ARRAY_SIZE(args_ioctl_cases));
	ASSERT_TRUE(ktr_ioctl_table_sorted(), "the generated table is sorted for its lookup");
}

/* Issue 42: flags strace names, from the tables of the kernel's headers. */
static const struct args_case args_named_cases[] = {
	{ __NR_kill, 0, N(10, 33), "(10,SIGRT_1)", "SIGRT_1" },
	{ __NR_tkill, 0, N(10, 64), "(10,SIGRT_32)", "SIGRT_32" },
	{ __NR_name_to_handle_at, 0,
	  N((__u64)AT_FDCWD, 0x1000, 0x2000, 0x3000, AT_SYMLINK_FOLLOW | AT_EMPTY_PATH),
	  "(AT_FDCWD,0x1000,0x2000,0x3000,AT_SYMLINK_FOLLOW|AT_EMPTY_PATH)", "name_to_handle_at" },
	{ __NR_name_to_handle_at, 0, N(3, 0x1000, 0x2000, 0x3000, AT_SYMLINK_FOLLOW | 0xfc),
	  "(3,0x1000,0x2000,0x3000,AT_SYMLINK_FOLLOW|0xfc)", "name_to_handle_at unknown bits" },
	{ __NR_name_to_handle_at, 0, N(3, 0x1000, 0x2000, 0x3000, 0x200),
	  "(3,0x1000,0x2000,0x3000,AT_HANDLE_FID)", "AT_HANDLE_FID (6.5)" },
	{ __NR_name_to_handle_at, 0, N(3, 0x1000, 0x2000, 0x3000, 0), "(3,0x1000,0x2000,0x3000,0)",
	  "name_to_handle_at 0" },
	{ __NR_add_key, 0, N(0x1000, 0x2000, 0x3000, 1, (__u64)KEY_SPEC_THREAD_KEYRING),
	  "(0x1000,0x2000,0x3000,0x1,KEY_SPEC_THREAD_KEYRING)", "add_key -1" },
	{ __NR_add_key, 0, N(0x1000, 0x2000, 0x3000, 1, 0xfffffff8),
	  "(0x1000,0x2000,0x3000,0x1,KEY_SPEC_REQUESTOR_KEYRING)", "add_key -8, 32 bits" },
	{ __NR_add_key, 0, N(0x1000, 0x2000, 0x3000, 1, 12345), "(0x1000,0x2000,0x3000,0x1,12345)",
	  "add_key id" },
	{ __NR_request_key, 0, N(0x1000, 0x2000, 0, (__u64)KEY_SPEC_SESSION_KEYRING),
	  "(0x1000,0x2000,0,KEY_SPEC_SESSION_KEYRING)", "request_key" },
	{ __NR_keyctl, 0, N(KEYCTL_GET_KEYRING_ID, (__u64)KEY_SPEC_USER_KEYRING, 1, 7, 7),
	  "(KEYCTL_GET_KEYRING_ID,KEY_SPEC_USER_KEYRING,1)", "keyctl GET_KEYRING_ID" },
	{ __NR_keyctl, 0,
	  N(KEYCTL_LINK, (__u64)KEY_SPEC_PROCESS_KEYRING, (__u64)KEY_SPEC_USER_SESSION_KEYRING),
	  "(KEYCTL_LINK,KEY_SPEC_PROCESS_KEYRING,KEY_SPEC_USER_SESSION_KEYRING)", "keyctl LINK" },
	{ __NR_keyctl, 0, N(KEYCTL_READ, (__u64)KEY_SPEC_REQKEY_AUTH_KEY, 0x1000, 16, 0),
	  "(KEYCTL_READ,KEY_SPEC_REQKEY_AUTH_KEY,0x1000,0x10)", "keyctl READ" },
	{ __NR_keyctl, 0, N(KEYCTL_SET_REQKEY_KEYRING, (__u64)KEY_REQKEY_DEFL_NO_CHANGE),
	  "(KEYCTL_SET_REQKEY_KEYRING,KEY_REQKEY_DEFL_NO_CHANGE)", "keyctl SET_REQKEY_KEYRING" },
	{ __NR_keyctl, 0, N(KEYCTL_INVALIDATE, 12345, 0, 0, 0), "(KEYCTL_INVALIDATE,12345)",
	  "keyctl INVALIDATE" },
	{ __NR_keyctl, 0, N(KEYCTL_SESSION_TO_PARENT, 0, 0, 0, 0), "(KEYCTL_SESSION_TO_PARENT)",
	  "keyctl no arguments" },
	{ __NR_keyctl, 0, N(99, 1, 2, 3, 4), "(99,0x1,0x2,0x3,0x4)", "keyctl unknown" },
	{ __NR_fanotify_init, 0, N(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY),
	  "(FAN_CLASS_NOTIF|FAN_CLOEXEC|FAN_NONBLOCK,O_RDONLY)", "fanotify_init" },
	{ __NR_fanotify_init, 0, N(FAN_CLASS_CONTENT | FAN_UNLIMITED_QUEUE | 0x80000000, O_RDWR),
	  "(FAN_CLASS_CONTENT|FAN_UNLIMITED_QUEUE|0x80000000,O_RDWR)", "fanotify_init class" },
	{ __NR_fanotify_mark, 0,
	  N(3, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_OPEN | FAN_CLOSE_WRITE | FAN_ONDIR,
	    (__u64)AT_FDCWD, 0x1000),
	  "(3,FAN_MARK_ADD|FAN_MARK_MOUNT,FAN_CLOSE_WRITE|FAN_OPEN|FAN_ONDIR,AT_FDCWD,0x1000)",
	  "fanotify_mark" },
	{ __NR_fanotify_mark, 0, N(3, FAN_MARK_MOUNT | FAN_MARK_FLUSH, 0, (__u64)FAN_NOFD, 0),
	  "(3,FAN_MARK_MOUNT|FAN_MARK_FLUSH,0,FAN_NOFD,0)", "fanotify_mark FAN_NOFD" },
	{ __NR_fanotify_mark, 0, N(3, 0x10000, 0x100000000ULL | FAN_ACCESS, 4, 0),
	  "(3,0x10000,FAN_ACCESS|0x100000000,4,0)", "fanotify_mark unknown bits" },
	{ __NR_fanotify_mark, KTR_DEC_RAW, N(3, 1, 0x20, (__u64)-1, 0),
	  "(0x3,0x1,0x20,0xffffffffffffffff,0)", "fanotify_mark -n" },
	{ __NR_setsockopt, 0, N(3, SOL_IPV6, IPV6_V6ONLY, 0x1000, 4),
	  "(3,SOL_IPV6,IPV6_V6ONLY,0x1000,0x4)", "IPV6_V6ONLY" },
	{ __NR_setsockopt, 0, N(3, SOL_IPV6, MCAST_JOIN_GROUP, 0x1000, 136),
	  "(3,SOL_IPV6,MCAST_JOIN_GROUP,0x1000,0x88)", "SOL_IPV6 MCAST_JOIN_GROUP" },
	{ __NR_getsockopt, 0, N(3, SOL_IPV6, MCAST_MSFILTER, 0x1000, 0x2000),
	  "(3,SOL_IPV6,MCAST_MSFILTER,0x1000,0x2000)", "SOL_IPV6 MCAST_MSFILTER" },
	{ __NR_setsockopt, 0, N(3, SOL_IP, MCAST_JOIN_GROUP, 0x1000, 136),
	  "(3,SOL_IP,MCAST_JOIN_GROUP,0x1000,0x88)", "SOL_IP MCAST_JOIN_GROUP" },
	{ __NR_ioctl, 0, N(3, 0x80089418, 0x1000), "(3,BTRFS_IOC_START_SYNC,0x1000)",
	  "BTRFS_IOC_START_SYNC" },
	{ __NR_ioctl, 0, N(3, 0x9408, 0), "(3,BTRFS_IOC_SYNC,0)", "BTRFS_IOC_SYNC" },
};

TEST(args_named)
{
	static const __u64 i386_mark[6] = { 3, FAN_MARK_ADD, FAN_OPEN, 1, (__u64)FAN_NOFD, 0x1000 };

	check_args(args_named_cases, ARRAY_SIZE(args_named_cases));
	/* i386 (fanotify_mark 339): the mask in two arguments, low and high */
	ASSERT_STREQ(CAPTURE(ktr_print_syscall_args(out, KTR_SV_LINUX_I386, 339, 6, i386_mark, 0)),
		     "(3,FAN_MARK_ADD,FAN_OPEN|0x100000000,0x1,FAN_NOFD,0x1000)",
		     "i386 fanotify_mark");
}

static const struct args_case args_mem_cases[] = {
	{ __NR_mmap, 0,
	  N(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, (__u64)-1, 0),
	  "(0,0x1000,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0)", "mmap anon" },
	{ __NR_mmap, 0, N(0x7f0000000000, 8192, PROT_NONE, MAP_SHARED | MAP_FIXED, 3, 0x2000),
	  "(0x7f0000000000,0x2000,PROT_NONE,MAP_SHARED|MAP_FIXED,3,0x2000)", "mmap file" },
	{ __NR_mprotect, 0, N(0x1000, 0x1000, PROT_READ | PROT_EXEC),
	  "(0x1000,0x1000,PROT_READ|PROT_EXEC)", "mprotect" },
	{ __NR_madvise, 0, N(0x1000, 0x1000, MADV_DONTNEED), "(0x1000,0x1000,MADV_DONTNEED)",
	  "madvise" },
	{ __NR_msync, 0, N(0x1000, 0x1000, MS_SYNC | MS_INVALIDATE),
	  "(0x1000,0x1000,MS_INVALIDATE|MS_SYNC)", "msync" },
};

TEST(args_mem)
{
	check_args(args_mem_cases, ARRAY_SIZE(args_mem_cases));
}

static const struct args_case args_proc_cases[] = {
	{ __NR_clone, 0,
	  N(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
		    CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID,
	    0x7f00, 0x7f10, 0x7f10, 0x7f20),
	  "(CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|"
	  "CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID,0x7f00,0x7f10,0x7f10,0x7f20)",
	  "clone thread" },
	{ __NR_clone, 0, N(CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | SIGCHLD, 0, 0, 0x7f10, 0),
	  "(CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD,0,0,0x7f10,0)", "clone fork" },
	{ __NR_kill, 0, N(1234, SIGTERM), "(1234,SIGTERM)", "kill" },
	{ __NR_kill, 0, N((__u64)-1, 0), "(-1,0)", "kill -1 0" },
	{ __NR_kill, KTR_DEC_RAW, N(1234, SIGTERM), "(0x4d2,0xf)", "kill -n" },
	{ __NR_tgkill, 0, N(10, 11, 40), "(10,11,SIGRT_8)", "tgkill RT" },
	{ __NR_rt_sigprocmask, 0, N(SIG_BLOCK, 0x1000, 0, 8), "(SIG_BLOCK,0x1000,0,0x8)",
	  "rt_sigprocmask" },
	{ __NR_rt_sigaction, 0, N(SIGINT, 0x1000, 0x2000, 8), "(SIGINT,0x1000,0x2000,0x8)",
	  "rt_sigaction" },
	{ __NR_wait4, 0, N((__u64)-1, 0x1000, WNOHANG | __WALL, 0), "(-1,0x1000,WNOHANG|__WALL,0)",
	  "wait4" },
	{ __NR_futex, 0, N(0x1000, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 2, 0, 0, 0),
	  "(0x1000,FUTEX_WAIT_PRIVATE,0x2,0,0,0)", "futex" },
	{ __NR_clock_gettime, 0, N(CLOCK_MONOTONIC, 0x1000), "(CLOCK_MONOTONIC,0x1000)",
	  "clock_gettime" },
	{ __NR_prlimit64, 0, N(0, RLIMIT_NOFILE, 0, 0x1000), "(0,RLIMIT_NOFILE,0,0x1000)",
	  "prlimit64" },
	{ __NR_arch_prctl, 0, N(0x1002, 0x7f00), "(ARCH_SET_FS,0x7f00)", "arch_prctl" },
	{ __NR_prctl, 0, N(1, SIGKILL, 0, 0, 0), "(PR_SET_PDEATHSIG,SIGKILL)",
	  "prctl: the arguments PR_SET_PDEATHSIG takes" },
	{ __NR_prctl, 0, N(0x47, 0, 0, 0, 0), "(PR_RISCV_SET_ICACHE_FLUSH_CTX,0,0)",
	  "71 is the riscv option (issue 36: named two off)" },
	{ __NR_prctl, 0, N(74, 0x1000, 0, 0, 0), "(PR_GET_SHADOW_STACK_STATUS,0x1000,0,0,0)",
	  "74: shadow stack" },
	{ __NR_prctl, 0, N(77, 0, 0, 0, 0), "(PR_TIMER_CREATE_RESTORE_IDS,0,0,0,0)", "77" },
	{ __NR_prctl, 0, N(78, 1, 0, 0, 0), "(PR_FUTEX_HASH,0x1,0,0,0)", "78" },
	{ __NR_prctl, 0, N(0x41555856, 0x1000, 64, 0, 0), "(PR_GET_AUXV,0x1000,0x40,0,0)",
	  "PR_GET_AUXV" },
	{ __NR_prctl, 0, N(0x63, 0, 0, 0, 0), "(0x63,0,0,0,0)", "unknown: a number" },
	{ __NR_prctl, 0, N(3, 0, 0, 0, 0), "(PR_GET_DUMPABLE)", "a getter alone" },
	{ __NR_prctl, 0, N(23, 21, 0, 0, 0), "(PR_CAPBSET_READ,CAP_SYS_ADMIN)", "a capability" },
	{ __NR_prctl, 0, N(47, 2, 12, 0, 0),
	  "(PR_CAP_AMBIENT,PR_CAP_AMBIENT_RAISE,CAP_NET_ADMIN,0,0)", "ambient raise" },
	{ __NR_prctl, 0, N(22, 2, 0x1000, 0, 0), "(PR_SET_SECCOMP,SECCOMP_MODE_FILTER,0x1000)",
	  "seccomp filter" },
	{ __NR_arch_prctl, 0, N(0x1026, 0), "(0x1026,0)",
	  "0x1026 is no code (TILECFG is a feature)" },
	{ __NR_arch_prctl, 0, N(0x1023, 18), "(ARCH_REQ_XCOMP_PERM,XFEATURE_XTILE_DATA)",
	  "the feature ARCH_REQ_XCOMP_PERM asks for" },
	{ __NR_arch_prctl, 0, N(0x1011, 0), "(ARCH_GET_CPUID)", "no argument" },
};

TEST(args_proc)
{
	check_args(args_proc_cases, ARRAY_SIZE(args_proc_cases));
}

/* issue 36: the values the kernel sees, and the flags and commands it names */
static const struct args_case args_kernel_types_cases[] = {
	{ __NR_mkdir, 0, N(0x1000, 0xffffffffffff01edULL), "(0x1000,0755)",
	  "mkdir: umode_t is 16 bits" },
	{ __NR_umask, 0, N(0xffffffffffff0000ULL), "(0)", "umask(000)" },
	{ __NR_chown, 0, N(0x1000, 4294901760ULL, 0xffffffffULL), "(0x1000,4294901760,-1)",
	  "chown: uid_t unsigned, -1 as -1" },
	{ __NR_getrandom, 0, N(0x1000, 8, 1), "(0x1000,0x8,GRND_NONBLOCK)", "getrandom" },
	{ __NR_execveat, 0, N(FDCWD, 0x1000, 0x2000, 0x3000, 0x1100),
	  "(AT_FDCWD,0x1000,0x2000,0x3000,AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH)", "execveat" },
	{ __NR_semctl, 0, N(3, 0, 2, 0x1000), "(3,0,IPC_STAT,0x1000)", "semctl" },
	{ __NR_semctl, 0, N(3, 0, 0x102, 0x1000), "(3,0,IPC_64|IPC_STAT,0x1000)", "semctl IPC_64" },
	{ __NR_shmctl, 0, N(3, 14, 0x1000), "(3,SHM_INFO,0x1000)", "shmctl" },
	{ __NR_msgctl, 0, N(3, 0, 0), "(3,IPC_RMID,0)", "msgctl" },
	{ __NR_semget, 0, N(0, 1, 01600), "(IPC_PRIVATE,1,IPC_CREAT|0600)", "semget" },
	{ __NR_setsockopt, 0, N(3, SOL_IP, 42, 0x1000, 136),
	  "(3,SOL_IP,MCAST_JOIN_GROUP,0x1000,0x88)", "SOL_IP from linux/in.h" },
	{ __NR_setsockopt, 0, N(3, 6 /* SOL_TCP */, 1, 0x1000, 4),
	  "(3,SOL_TCP,TCP_NODELAY,0x1000,0x4)", "SOL_TCP" },
	{ __NR_setsockopt, 0, N(3, SOL_NETLINK, 1, 0x1000, 4),
	  "(3,SOL_NETLINK,NETLINK_ADD_MEMBERSHIP,0x1000,0x4)", "SOL_NETLINK" },
	{ __NR_setsockopt, 0, N(3, SOL_PACKET, 1, 0x1000, 4),
	  "(3,SOL_PACKET,PACKET_ADD_MEMBERSHIP,0x1000,0x4)", "SOL_PACKET" },
	{ __NR_setsockopt, 0, N(3, 17 /* SOL_UDP */, 103, 0x1000, 4),
	  "(3,SOL_UDP,UDP_SEGMENT,0x1000,0x4)", "SOL_UDP" },
	{ __NR_seccomp, 0, N(1, 1, 0x1000),
	  "(SECCOMP_SET_MODE_FILTER,"
	  "SECCOMP_FILTER_FLAG_TSYNC,0x1000)",
	  "seccomp" },
	{ __NR_io_uring_register, 0, N(3, 2, 0x1000, 1), "(3,IORING_REGISTER_FILES,0x1000,0x1)",
	  "io_uring_register" },
	{ __NR_mbind, 0, N(0x1000, 0x1000, 0x8002, 0x2000, 2, 1),
	  "(0x1000,0x1000,MPOL_BIND|MPOL_F_STATIC_NODES,0x2000,0x2,MPOL_MF_STRICT)", "mbind" },
	{ __NR_set_mempolicy, 0, N(4, 0, 0), "(MPOL_LOCAL,0,0)", "set_mempolicy" },
	{ __NR_personality, 0, N(0x40000), "(PER_LINUX|ADDR_NO_RANDOMIZE)", "personality" },
	{ __NR_personality, 0, N(0xffffffff), "(0xffffffff)", "personality query" },
	{ __NR_userfaultfd, 0, N(O_CLOEXEC | 1), "(O_CLOEXEC|UFFD_USER_MODE_ONLY)", "userfaultfd" },
};

TEST(args_kernel_types)
{
	check_args(args_kernel_types_cases, ARRAY_SIZE(args_kernel_types_cases));
}

static const struct args_case args_net_cases[] = {
	{ __NR_socket, 0, N(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP),
	  "(AF_INET,SOCK_STREAM|SOCK_CLOEXEC,IPPROTO_TCP)", "socket inet" },
	{ __NR_socket, 0, N(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0),
	  "(AF_UNIX,SOCK_DGRAM|SOCK_NONBLOCK,0)", "socket unix" },
	{ __NR_socket, 0, N(AF_NETLINK, SOCK_RAW, 0), "(AF_NETLINK,SOCK_RAW,NETLINK_ROUTE)",
	  "socket netlink" },
	{ __NR_setsockopt, 0, N(3, SOL_SOCKET, SO_REUSEADDR, 0x1000, 4),
	  "(3,SOL_SOCKET,SO_REUSEADDR,0x1000,0x4)", "setsockopt" },
	{ __NR_setsockopt, 0, N(3, IPPROTO_TCP, 1, 0x1000, 4), "(3,SOL_TCP,TCP_NODELAY,0x1000,0x4)",
	  "setsockopt tcp" },
	{ __NR_sendto, 0, N(3, 0x1000, 5, MSG_NOSIGNAL | MSG_DONTWAIT, 0, 0),
	  "(3,0x1000,0x5,MSG_DONTWAIT|MSG_NOSIGNAL,0,0)", "sendto" },
	{ __NR_shutdown, 0, N(3, SHUT_WR), "(3,SHUT_WR)", "shutdown" },
};

TEST(args_net)
{
	check_args(args_net_cases, ARRAY_SIZE(args_net_cases));
}

static const struct ret_case sysret_cases[] = {
	{ __NR_read, 0, 3, 0, "3", "small" },
	{ __NR_read, 0, 12, 0, "12/0xc", "large" },
	{ __NR_read, 0, 0, 0, "0", "zero" },
	{ __NR_openat, ENOENT, -1, 0, "-1 errno 2 No such file or directory (ENOENT)", "ENOENT" },
	{ __NR_read, 512, -1, 0, "-1 errno 512 ERESTARTSYS (To be restarted if SA_RESTART is set)",
	  "ERESTARTSYS" },
	{ __NR_nanosleep, 516, -1, 0, "-1 errno 516 ERESTART_RESTARTBLOCK (Interrupted by signal)",
	  "RESTARTBLOCK" },
	{ __NR_read, 999, -1, 0, "-1 errno 999 Unknown error 999", "unknown errno" },
	{ __NR_openat, ENOENT, -1, KTR_DEC_RAW, "-1 errno 2", "-n error" },
	{ __NR_read, 0, 12, KTR_DEC_RAW, "0xc", "-n success" },
	{ __NR_read, 0, 12, KTR_DEC_RAW | KTR_DEC_DECIMAL, "12", "-n -d success" },
	{ __NR_mmap, 0, 0x7f1234567000, 0, "0x7f1234567000", "mmap address" },
	{ __NR_brk, 0, 0x55550000, 0, "0x55550000", "brk address" },
};

TEST(sysret)
{
	check_ret(sysret_cases, ARRAY_SIZE(sysret_cases));
}

static const struct name_case names_cases[] = {
	{ errno_name, 0, 1, "EPERM", "EPERM" },
	{ errno_name, 0, 11, "EAGAIN", "EAGAIN" },
	{ errno_name, 0, 133, "EHWPOISON", "EHWPOISON" },
	{ errno_name, 0, 513, "ERESTARTNOINTR", "ERESTARTNOINTR" },
	{ errno_name, 0, 530, "ERECALLCONFLICT", "ERECALLCONFLICT" },
	{ errno_name, 0, 0, NULL, "0" },
	{ errno_name, 0, 41, NULL, "hole 41" },
	{ errno_name, 0, 134, NULL, "134" },
	{ errno_name, 0, 520, NULL, "hole 520" },
	{ signal_name, 0, 1, "SIGHUP", "SIGHUP" },
	{ signal_name, 0, 9, "SIGKILL", "SIGKILL" },
	{ signal_name, 0, 31, "SIGSYS", "SIGSYS" },
	{ signal_name, 0, 32, "SIGRTMIN", "SIGRTMIN" },
	{ signal_name, 0, 33, "SIGRT_1", "SIGRT_1" },
	{ signal_name, 0, 37, "SIGRT_5", "SIGRT_5" },
	{ signal_name, 0, 64, "SIGRT_32", "64" },
	{ signal_name, 0, 0, NULL, "0" },
	{ signal_name, 0, 65, NULL, "65" },
	{ sigcode_name, SIGSEGV, 1, "SEGV_MAPERR", "SEGV_MAPERR" },
	{ sigcode_name, SIGSEGV, 2, "SEGV_ACCERR", "SEGV_ACCERR" },
	{ sigcode_name, SIGCHLD, 1, "CLD_EXITED", "CLD_EXITED" },
	{ sigcode_name, SIGCHLD, 6, "CLD_CONTINUED", "CLD_CONTINUED" },
	{ sigcode_name, SIGBUS, 2, "BUS_ADRERR", "BUS_ADRERR" },
	{ sigcode_name, SIGTRAP, 1, "TRAP_BRKPT", "TRAP_BRKPT" },
	{ sigcode_name, SIGTERM, 0, "SI_USER", "SI_USER" },
	{ sigcode_name, SIGTERM, -6, "SI_TKILL", "SI_TKILL" },
	{ sigcode_name, SIGALRM, -2, "SI_TIMER", "SI_TIMER" },
	{ sigcode_name, SIGSEGV, 0x80, "SI_KERNEL", "SI_KERNEL" },
	{ sigcode_name, SIGTERM, 5, NULL, "no code 5 for SIGTERM" },
	{ sigcode_name, SIGSEGV, 99, NULL, "SEGV 99" },
};

TEST(names)
{
	check_names(names_cases, ARRAY_SIZE(names_cases));
}

/* A mode and its ls -l letters. */
static const struct {
	mode_t mode;
	const char *want, *what;
} modes_cases[] = {
	{ S_IFREG | 0644, "-rw-r--r--", "file" },
	{ S_IFDIR | 01777, "drwxrwxrwt", "sticky" },
	{ S_IFREG | 04755, "-rwsr-xr-x", "setuid" },
	{ S_IFREG | 02644, "-rw-r-Sr--", "setgid no x" },
	{ S_IFCHR | 0666, "crw-rw-rw-", "chr" },
	{ S_IFLNK | 0777, "lrwxrwxrwx", "link" },
};

TEST(modes)
{
	for (size_t i = 0; i < ARRAY_SIZE(modes_cases); i++)
		ASSERT_STREQ(CAPTURE(ktr_print_modestr(out, modes_cases[i].mode)),
			     modes_cases[i].want, modes_cases[i].what);
}

TEST(struct_stat_real)
{
	char path[] = "/tmp/ktr_decode_XXXXXX", expect[1024];
	struct stat st;
	int fd = mkstemp(path);

	if (!ASSERT_TRUE(fd >= 0, "mkstemp"))
		return;
	ASSERT_EQ(write(fd, "hello world\n", 12), 12, "write");
	fchmod(fd, 0640);
	ASSERT_EQ(fstat(fd, &st), 0, "fstat");
	close(fd);
	unlink(path);
	snprintf(
		expect, sizeof(expect),
		"struct stat { dev=%u:%u, ino=%lu, mode=-rw-r-----, nlink=1, uid=%u, gid=%u, rdev=0:0, "
		"size=12, blksize=%ld, blocks=%ld, atime=%ld.%09ld, mtime=%ld.%09ld, "
		"ctime=%ld.%09ld }",
		major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino, st.st_uid, st.st_gid,
		(long)st.st_blksize, (long)st.st_blocks, st.st_atim.tv_sec, st.st_atim.tv_nsec,
		st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	ASSERT_STREQ(STRUCT("stat", &st, sizeof(st), 0), expect, "stat");
	ASSERT_STREQ(STRUCT("stat", &st, 100, 0), "struct stat invalid record (len 100)", "short");
}

TEST(struct_sockaddr)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(8080) };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(443) };
	struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	struct sockaddr_un abs = { .sun_family = AF_UNIX, .sun_path = "\0foo" };

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin6.sin6_addr = in6addr_loopback;
	ASSERT_STREQ(STRUCT("sockaddr", &sin, sizeof(sin), 0),
		     "struct sockaddr { AF_INET 127.0.0.1:8080 }", "inet");
	ASSERT_STREQ(STRUCT("sockaddr", &sin6, sizeof(sin6), 0),
		     "struct sockaddr { AF_INET6 [::1]:443 }", "inet6");
	ASSERT_STREQ(STRUCT("sockaddr", &sun, offsetof(struct sockaddr_un, sun_path) + 12, 0),
		     "struct sockaddr { AF_UNIX /run/x.sock }", "unix");
	ASSERT_STREQ(STRUCT("sockaddr", &abs, offsetof(struct sockaddr_un, sun_path) + 4, 0),
		     "struct sockaddr { AF_UNIX @foo }", "abstract");
	ASSERT_STREQ(STRUCT("sockaddr", &sin, 1, 0), "struct sockaddr invalid record (len 1)",
		     "too short");
}

TEST(struct_arrays)
{
	struct pollfd pfd[2] = { { 3, POLLIN, POLLIN }, { 4, POLLIN | POLLOUT, 0 } };
	unsigned char ev[24] = { 0 };
	__u64 data = 7;

	ASSERT_STREQ(STRUCT("pollfd", pfd, sizeof(pfd), 0),
		     "struct pollfd [ { fd=3, events=POLLIN, revents=POLLIN }, "
		     "{ fd=4, events=POLLIN|POLLOUT, revents=0 } ]",
		     "pollfd");
	ASSERT_STREQ(STRUCT("pollfd", pfd, 12, 0), "struct pollfd invalid record (len 12)",
		     "pollfd partial");
	ev[0] = 1;
	memcpy(ev + 4, &data, 8);
	ev[12] = 4;
	ev[15] = 0x80;
	ASSERT_STREQ(STRUCT("epoll_event", ev, 24, 0),
		     "struct epoll_event [ { events=EPOLLIN, data=0x7 }, "
		     "{ events=EPOLLOUT|EPOLLET, data=0 } ]",
		     "epoll_event");
}

TEST(struct_misc)
{
	__s64 ts[2] = { 1, 500000000 }, rl[2] = { 1024, -1 };
	__s32 fds[2] = { 3, 4 }, ws;
	__u64 sa[4] = { 0x401000, 0x14000000, 0x402000, (1 << 1) | (1 << 14) };
	unsigned char junk[3] = { 1, 2, 0xff };

	ASSERT_STREQ(STRUCT("timespec", ts, 16, 0), "struct timespec { 1.500000000 }", "timespec");
	ts[1] = 500000;
	ASSERT_STREQ(STRUCT("timeval", ts, 16, 0), "struct timeval { 1.500000 }", "timeval");
	ASSERT_STREQ(STRUCT("rlimit", rl, 16, 0), "struct rlimit { cur=1024, max=RLIM_INFINITY }",
		     "rlimit");
	ASSERT_STREQ(STRUCT("fd_pair", fds, 8, 0), "struct fd_pair { 3, 4 }", "fd_pair");
	ASSERT_STREQ(STRUCT("sigaction", sa, 32, 0),
		     "struct sigaction { handler=0x401000, flags=SA_RESTORER|SA_RESTART, "
		     "restorer=0x402000, mask=SIGINT|SIGTERM }",
		     "sigaction");
	sa[0] = 1;
	sa[1] = 0;
	sa[3] = 0;
	ASSERT_STREQ(STRUCT("sigaction", sa, 32, 0),
		     "struct sigaction { handler=SIG_IGN, flags=0, mask=0 }", "sigaction ign");
	ws = 0;
	ASSERT_STREQ(STRUCT("wstatus", &ws, 4, 0),
		     "struct wstatus { WIFEXITED(s) && WEXITSTATUS(s) == 0 }", "exit 0");
	ws = 3 << 8;
	ASSERT_STREQ(STRUCT("wstatus", &ws, 4, 0),
		     "struct wstatus { WIFEXITED(s) && WEXITSTATUS(s) == 3 }", "exit 3");
	ws = SIGKILL;
	ASSERT_STREQ(STRUCT("wstatus", &ws, 4, 0),
		     "struct wstatus { WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL }", "killed");
	ws = 0x137f;
	ASSERT_STREQ(STRUCT("wstatus", &ws, 4, 0),
		     "struct wstatus { WIFSTOPPED(s) && WSTOPSIG(s) == SIGSTOP }", "stopped");
	ws = 0x80 | SIGSEGV; /* with core */
	ASSERT_STREQ(CAPTURE(ktr_print_wstatus(out, ws, 0)),
		     "WIFSIGNALED(s) && WTERMSIG(s) == SIGSEGV && WCOREDUMP(s)", "core");
	ASSERT_STREQ(CAPTURE(ktr_print_wstatus(out, 0xffff, 0)), "WIFCONTINUED(s)", "continued");
	ASSERT_STREQ(STRUCT("foo", junk, 3, 0), "struct foo 3 bytes 01 02 ff", "unknown struct");
	ASSERT_STREQ(STRUCT("rlimit", rl, 8, 0), "struct rlimit invalid record (len 8)",
		     "rlimit short");
}

TEST(struct_siginfo)
{
	__s32 si[32] = { SIGCHLD, 0, 1, 0, 4321, 1000, 7 };

	ASSERT_STREQ(
		STRUCT("siginfo", si, sizeof(si), 0),
		"struct siginfo { signo=SIGCHLD, errno=0, code=CLD_EXITED, pid=4321, uid=1000, "
		"status=7 }",
		"siginfo chld");
	si[0] = SIGTERM;
	si[2] = -6;
	ASSERT_STREQ(STRUCT("siginfo", si, sizeof(si), 0),
		     "struct siginfo { signo=SIGTERM, errno=0, code=SI_TKILL, pid=4321, uid=1000 }",
		     "siginfo tkill");
}

/* One escaper, three styles: the decoders' C strings, kdump's text, JSON. */
TEST(escape_styles)
{
	static const char in[] = "a\"b\\c\n\t\r\001\177\xe9 z";
	unsigned char back[64];
	size_t n;

	ASSERT_STREQ(CAPTURE(ktr_put_escaped(out, in, sizeof(in) - 1, KTR_ESC_C)),
		     "a\\\"b\\\\c\\n\\t\\015\\001\\177\\351 z", "C: \\r in octal");
	ASSERT_STREQ(CAPTURE(ktr_put_escaped(out, in, sizeof(in) - 1, KTR_ESC_CR)),
		     "a\\\"b\\\\c\\n\\t\\r\\001\\177\\351 z", "text: \\r");
	ASSERT_STREQ(CAPTURE(ktr_put_escaped(out, in, sizeof(in) - 1, KTR_ESC_JSON)),
		     "a\\\"b\\\\c\\n\\t\\r\\u0001\\u007f\\u00e9 z", "JSON: \\u00XX");
	ASSERT_STREQ(CAPTURE(ktr_print_cstr(out, "ab\0cd", 5, false)), "ab", "stops at NUL");
	ASSERT_STREQ(CAPTURE(ktr_print_cstr(out, "ab\0cd", 5, true)), "ab\\000cd", "keeps NUL");
	CAPTURE(ktr_put_escaped(out, in, sizeof(in) - 1, KTR_ESC_CR));
	n = ktr_unescape_c(back, sizeof(back), outbuf, strlen(outbuf));
	ASSERT_TRUE(n == sizeof(in) - 1 && memcmp(back, in, n) == 0, "text escapes undone");
}

/* Long strings go out in chunks: the same bytes as escaping one byte at a time. */
TEST(escape_chunks)
{
	static unsigned char in[9000];
	char *got = NULL, *want = NULL, e[8];
	size_t gn = 0, wn = 0;
	FILE *g = open_memstream(&got, &gn), *w = open_memstream(&want, &wn);

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = i % 1500 < 1100 ? 'a' + i % 26 : (unsigned char)(i * 7);
	for (int how = KTR_ESC_C; how <= KTR_ESC_JSON; how++) {
		ktr_put_escaped(g, in, sizeof(in), how);
		for (size_t i = 0; i < sizeof(in); i++)
			fwrite(e, 1, ktr_escape_byte(e, in[i], how), w);
	}
	fclose(g);
	fclose(w);
	ASSERT_TRUE(gn == wn && memcmp(got, want, gn) == 0, "chunked as byte by byte");
	free(got);
	free(want);
}

TEST_MAIN()

static const struct ret_case sysret_umask_octal_cases[] = {
	{ __NR_umask, 0, 022, 0, "022", "old mask in octal, as the argument" },
	{ __NR_umask, 0, 0, 0, "0", "zero" },
};

TEST(sysret_umask_octal)
{
	check_ret(sysret_umask_octal_cases, ARRAY_SIZE(sysret_umask_octal_cases));
}

TEST(struct_string)
{
	ASSERT_STREQ(STRUCT("string", "/usr/bin/x\n", 11, 0), "string \"/usr/bin/x\\n\"",
		     "readlink target, escaped");
	ASSERT_STREQ(STRUCT("string", "ab", 0, 0), "string \"\"", "empty");
}
