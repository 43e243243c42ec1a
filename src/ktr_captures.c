// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Sizes are the x86_64 kernel's (struct stat 144, struct statx 256, the
 * kernel's struct sigaction 32 with an 8-byte sigset, struct epoll_event 12
 * because it is packed on x86_64).  Variable-length captures carry a cap.
 */
#include <string.h>

#include "ktr_captures.h"
#include "syscalltab.h"

#define ENTRY KTR_CAP_AT_ENTRY
#define EXIT  KTR_CAP_AT_EXIT

struct capture_spec {
	const char *syscall;
	const char *name; /* KTR_STRUCT name, decoded by kdump */
	__u8 kind, arg, lenarg, when;
	__u16 size;
};

static const struct capture_spec capture_specs[] = {
	{ "stat", "stat", KTR_CAP_FIXED, 1, 0, EXIT, 144 },
	{ "lstat", "stat", KTR_CAP_FIXED, 1, 0, EXIT, 144 },
	{ "fstat", "stat", KTR_CAP_FIXED, 1, 0, EXIT, 144 },
	{ "newfstatat", "stat", KTR_CAP_FIXED, 2, 0, EXIT, 144 },
	{ "statx", "statx", KTR_CAP_FIXED, 4, 0, EXIT, 256 },
	{ "statfs", "statfs", KTR_CAP_FIXED, 1, 0, EXIT, 120 },
	{ "fstatfs", "statfs", KTR_CAP_FIXED, 1, 0, EXIT, 120 },
	{ "connect", "sockaddr", KTR_CAP_LEN_ARG, 1, 2, ENTRY, 128 },
	{ "bind", "sockaddr", KTR_CAP_LEN_ARG, 1, 2, ENTRY, 128 },
	{ "sendto", "sockaddr", KTR_CAP_LEN_ARG, 4, 5, ENTRY, 128 },
	{ "accept", "sockaddr", KTR_CAP_LEN_PTR, 1, 2, EXIT, 128 },
	{ "accept4", "sockaddr", KTR_CAP_LEN_PTR, 1, 2, EXIT, 128 },
	{ "getsockname", "sockaddr", KTR_CAP_LEN_PTR, 1, 2, EXIT, 128 },
	{ "getpeername", "sockaddr", KTR_CAP_LEN_PTR, 1, 2, EXIT, 128 },
	{ "recvfrom", "sockaddr", KTR_CAP_LEN_PTR, 4, 5, EXIT, 128 },
	{ "sendmsg", "msghdr", KTR_CAP_FIXED, 1, 0, ENTRY, 56 },
	{ "recvmsg", "msghdr", KTR_CAP_FIXED, 1, 0, EXIT, 56 },
	{ "nanosleep", "timespec", KTR_CAP_FIXED, 0, 0, ENTRY, 16 },
	{ "clock_nanosleep", "timespec", KTR_CAP_FIXED, 2, 0, ENTRY, 16 },
	{ "clock_gettime", "timespec", KTR_CAP_FIXED, 1, 0, EXIT, 16 },
	{ "clock_getres", "timespec", KTR_CAP_FIXED, 1, 0, EXIT, 16 },
	{ "gettimeofday", "timeval", KTR_CAP_FIXED, 0, 0, EXIT, 16 },
	{ "select", "timeval", KTR_CAP_FIXED, 4, 0, ENTRY, 16 },
	{ "utimensat", "timespec", KTR_CAP_FIXED, 2, 0, ENTRY, 32 },
	{ "futimesat", "timeval", KTR_CAP_FIXED, 2, 0, ENTRY, 32 },
	{ "utimes", "timeval", KTR_CAP_FIXED, 1, 0, ENTRY, 32 },
	{ "timerfd_settime", "itimerspec", KTR_CAP_FIXED, 2, 0, ENTRY, 32 },
	{ "timer_settime", "itimerspec", KTR_CAP_FIXED, 2, 0, ENTRY, 32 },
	{ "poll", "pollfd", KTR_CAP_COUNT_ARG, 0, 1, ENTRY | EXIT, 8 },
	{ "ppoll", "pollfd", KTR_CAP_COUNT_ARG, 0, 1, ENTRY | EXIT, 8 },
	{ "ppoll", "timespec", KTR_CAP_FIXED, 2, 0, ENTRY, 16 },
	{ "epoll_ctl", "epoll_event", KTR_CAP_FIXED, 3, 0, ENTRY, 12 },
	{ "epoll_wait", "epoll_event", KTR_CAP_COUNT_RET, 1, 0, EXIT, 12 },
	{ "epoll_pwait", "epoll_event", KTR_CAP_COUNT_RET, 1, 0, EXIT, 12 },
	{ "rt_sigaction", "sigaction", KTR_CAP_FIXED, 1, 0, ENTRY, 32 },
	{ "rt_sigaction", "sigaction", KTR_CAP_FIXED, 2, 0, EXIT, 32 },
	{ "rt_sigprocmask", "sigset", KTR_CAP_FIXED, 1, 0, ENTRY, 8 },
	{ "rt_sigprocmask", "sigset", KTR_CAP_FIXED, 2, 0, EXIT, 8 },
	{ "rt_sigtimedwait", "sigset", KTR_CAP_FIXED, 0, 0, ENTRY, 8 },
	{ "rt_sigtimedwait", "siginfo", KTR_CAP_FIXED, 1, 0, EXIT, 128 },
	{ "waitid", "siginfo", KTR_CAP_FIXED, 2, 0, EXIT, 128 },
	{ "wait4", "wstatus", KTR_CAP_FIXED, 1, 0, EXIT, 4 },
	{ "wait4", "rusage", KTR_CAP_FIXED, 3, 0, EXIT, 144 },
	{ "getrusage", "rusage", KTR_CAP_FIXED, 1, 0, EXIT, 144 },
	{ "getrlimit", "rlimit", KTR_CAP_FIXED, 1, 0, EXIT, 16 },
	{ "setrlimit", "rlimit", KTR_CAP_FIXED, 1, 0, ENTRY, 16 },
	{ "prlimit64", "rlimit", KTR_CAP_FIXED, 2, 0, ENTRY, 16 },
	{ "prlimit64", "rlimit", KTR_CAP_FIXED, 3, 0, EXIT, 16 },
	{ "uname", "utsname", KTR_CAP_FIXED, 0, 0, EXIT, 390 },
	{ "sysinfo", "sysinfo", KTR_CAP_FIXED, 0, 0, EXIT, 112 },
	{ "times", "tms", KTR_CAP_FIXED, 0, 0, EXIT, 32 },
	{ "pipe", "fd_pair", KTR_CAP_FIXED, 0, 0, EXIT, 8 },
	{ "pipe2", "fd_pair", KTR_CAP_FIXED, 0, 0, EXIT, 8 },
	{ "socketpair", "fd_pair", KTR_CAP_FIXED, 3, 0, EXIT, 8 },
	{ "getdents64", "linux_dirent64", KTR_CAP_BYTES_RET, 1, 0, EXIT, 4096 },
	{ "openat2", "open_how", KTR_CAP_LEN_ARG, 2, 3, ENTRY, 24 },
	{ "clone3", "clone_args", KTR_CAP_LEN_ARG, 0, 1, ENTRY, 88 },
	{ "sched_setscheduler", "sched_param", KTR_CAP_FIXED, 2, 0, ENTRY, 4 },
	{ "sched_setparam", "sched_param", KTR_CAP_FIXED, 1, 0, ENTRY, 4 },
	{ "readlink", "string", KTR_CAP_BYTES_RET, 1, 0, EXIT, 4096 },
	{ "readlinkat", "string", KTR_CAP_BYTES_RET, 2, 0, EXIT, 4096 },
	{ "getcwd", "string", KTR_CAP_BYTES_RET, 0, 0, EXIT, 4096 },
};

static const struct {
	const char *syscall;
	__u8 kind;
} genio_specs[] = {
	{ "read", KTR_GIO_READ_BUF },	   { "pread64", KTR_GIO_READ_BUF },
	{ "recvfrom", KTR_GIO_READ_BUF },  { "write", KTR_GIO_WRITE_BUF },
	{ "pwrite64", KTR_GIO_WRITE_BUF }, { "sendto", KTR_GIO_WRITE_BUF },
	{ "readv", KTR_GIO_READ_IOV },	   { "preadv", KTR_GIO_READ_IOV },
	{ "preadv2", KTR_GIO_READ_IOV },   { "writev", KTR_GIO_WRITE_IOV },
	{ "pwritev", KTR_GIO_WRITE_IOV },  { "pwritev2", KTR_GIO_WRITE_IOV },
	{ "recvmsg", KTR_GIO_READ_MSG },   { "sendmsg", KTR_GIO_WRITE_MSG },
};

static int syscall_nr(const char *name)
{
	for (unsigned int nr = 0; nr < ktr_nsysent_x86_64 && nr < KTR_MAX_SYSCALLS; nr++)
		if (ktr_sysent_x86_64[nr].name && strcmp(ktr_sysent_x86_64[nr].name, name) == 0)
			return nr;
	return -1;
}

static void capture__add(volatile struct ktr_capture *slots, const struct capture_spec *spec)
{
	for (int i = 0; i < KTR_CAPTURES; i++) {
		volatile struct ktr_capture *c = &slots[i];

		if (c->kind != KTR_CAP_NONE)
			continue;
		c->kind = spec->kind;
		c->arg = spec->arg;
		c->lenarg = spec->lenarg;
		c->when = spec->when;
		c->size = spec->size;
		c->namelen = strlen(spec->name) + 1;
		for (size_t j = 0; j < KTR_CAP_NAME_MAX; j++)
			c->name[j] = j < c->namelen ? spec->name[j] : 0;
		return;
	}
}

void ktr_captures__fill(volatile __u8 *genio, volatile struct ktr_capture (*caps)[KTR_CAPTURES])
{
	for (size_t i = 0; i < sizeof(capture_specs) / sizeof(capture_specs[0]); i++) {
		int nr = syscall_nr(capture_specs[i].syscall);

		if (nr >= 0)
			capture__add(caps[nr], &capture_specs[i]);
	}
	for (size_t i = 0; i < sizeof(genio_specs) / sizeof(genio_specs[0]); i++) {
		int nr = syscall_nr(genio_specs[i].syscall);

		if (nr >= 0)
			genio[nr] = genio_specs[i].kind;
	}
}
