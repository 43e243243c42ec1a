// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Sizes are the x86_64 kernel's (struct stat 144, struct statx 256, the
 * kernel's struct sigaction 32 with an 8-byte sigset, struct epoll_event 12
 * because it is packed on x86_64).  Variable-length captures carry a cap.
 */
#include <string.h>

#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_limits.h"
#include "common/ktr_arch.h"
#include "ktr_captures.h"

#define ENTRY KTR_CAP_AT_ENTRY
#define EXIT  KTR_CAP_AT_EXIT

struct capture_spec {
	const char *syscall;
	const char *name; /* KTR_STRUCT name, decoded by kdump */
	__u8 kind, arg, lenarg, when;
	__u16 size;
};

static const struct capture_spec capture_specs[] = {
	{ KTR_SC(stat), "stat", KTR_CAP_FIXED, 1, 0, EXIT, 144 },
	{ KTR_SC(lstat), "stat", KTR_CAP_FIXED, 1, 0, EXIT, 144 },
	{ KTR_SC(fstat), "stat", KTR_CAP_FIXED, 1, 0, EXIT, 144 },
	{ KTR_SC(newfstatat), "stat", KTR_CAP_FIXED, 2, 0, EXIT, 144 },
	{ KTR_SC(statx), "statx", KTR_CAP_FIXED, 4, 0, EXIT, 256 },
	{ KTR_SC(statfs), "statfs", KTR_CAP_FIXED, 1, 0, EXIT, 120 },
	{ KTR_SC(fstatfs), "statfs", KTR_CAP_FIXED, 1, 0, EXIT, 120 },
	{ KTR_SC(connect), "sockaddr", KTR_CAP_LEN_ARG, 1, 2, ENTRY, 128 },
	{ KTR_SC(bind), "sockaddr", KTR_CAP_LEN_ARG, 1, 2, ENTRY, 128 },
	{ KTR_SC(sendto), "sockaddr", KTR_CAP_LEN_ARG, 4, 5, ENTRY, 128 },
	{ KTR_SC(accept), "sockaddr", KTR_CAP_LEN_PTR, 1, 2, EXIT, 128 },
	{ KTR_SC(accept4), "sockaddr", KTR_CAP_LEN_PTR, 1, 2, EXIT, 128 },
	{ KTR_SC(getsockname), "sockaddr", KTR_CAP_LEN_PTR, 1, 2, EXIT, 128 },
	{ KTR_SC(getpeername), "sockaddr", KTR_CAP_LEN_PTR, 1, 2, EXIT, 128 },
	{ KTR_SC(recvfrom), "sockaddr", KTR_CAP_LEN_PTR, 4, 5, EXIT, 128 },
	{ KTR_SC(sendmsg), "msghdr", KTR_CAP_FIXED, 1, 0, ENTRY, 56 },
	{ KTR_SC(recvmsg), "msghdr", KTR_CAP_FIXED, 1, 0, EXIT, 56 },
	{ KTR_SC(nanosleep), "timespec", KTR_CAP_FIXED, 0, 0, ENTRY, 16 },
	{ KTR_SC(clock_nanosleep), "timespec", KTR_CAP_FIXED, 2, 0, ENTRY, 16 },
	{ KTR_SC(clock_gettime), "timespec", KTR_CAP_FIXED, 1, 0, EXIT, 16 },
	{ KTR_SC(clock_getres), "timespec", KTR_CAP_FIXED, 1, 0, EXIT, 16 },
	{ KTR_SC(gettimeofday), "timeval", KTR_CAP_FIXED, 0, 0, EXIT, 16 },
	{ KTR_SC(select), "timeval", KTR_CAP_FIXED, 4, 0, ENTRY, 16 },
	{ KTR_SC(utimensat), "timespec", KTR_CAP_FIXED, 2, 0, ENTRY, 32 },
	{ KTR_SC(futimesat), "timeval", KTR_CAP_FIXED, 2, 0, ENTRY, 32 },
	{ KTR_SC(utimes), "timeval", KTR_CAP_FIXED, 1, 0, ENTRY, 32 },
	{ KTR_SC(timerfd_settime), "itimerspec", KTR_CAP_FIXED, 2, 0, ENTRY, 32 },
	{ KTR_SC(timer_settime), "itimerspec", KTR_CAP_FIXED, 2, 0, ENTRY, 32 },
	{ KTR_SC(poll), "pollfd", KTR_CAP_COUNT_ARG, 0, 1, ENTRY | EXIT, 8 },
	{ KTR_SC(ppoll), "pollfd", KTR_CAP_COUNT_ARG, 0, 1, ENTRY | EXIT, 8 },
	{ KTR_SC(ppoll), "timespec", KTR_CAP_FIXED, 2, 0, ENTRY, 16 },
	{ KTR_SC(epoll_ctl), "epoll_event", KTR_CAP_FIXED, 3, 0, ENTRY, 12 },
	{ KTR_SC(epoll_wait), "epoll_event", KTR_CAP_COUNT_RET, 1, 0, EXIT, 12 },
	{ KTR_SC(epoll_pwait), "epoll_event", KTR_CAP_COUNT_RET, 1, 0, EXIT, 12 },
	{ KTR_SC(rt_sigaction), "sigaction", KTR_CAP_FIXED, 1, 0, ENTRY, 32 },
	{ KTR_SC(rt_sigaction), "sigaction", KTR_CAP_FIXED, 2, 0, EXIT, 32 },
	{ KTR_SC(rt_sigprocmask), "sigset", KTR_CAP_FIXED, 1, 0, ENTRY, 8 },
	{ KTR_SC(rt_sigprocmask), "sigset", KTR_CAP_FIXED, 2, 0, EXIT, 8 },
	{ KTR_SC(rt_sigtimedwait), "sigset", KTR_CAP_FIXED, 0, 0, ENTRY, 8 },
	{ KTR_SC(rt_sigtimedwait), "siginfo", KTR_CAP_FIXED, 1, 0, EXIT, 128 },
	{ KTR_SC(waitid), "siginfo", KTR_CAP_FIXED, 2, 0, EXIT, 128 },
	{ KTR_SC(wait4), "wstatus", KTR_CAP_FIXED, 1, 0, EXIT, 4 },
	{ KTR_SC(wait4), "rusage", KTR_CAP_FIXED, 3, 0, EXIT, 144 },
	{ KTR_SC(getrusage), "rusage", KTR_CAP_FIXED, 1, 0, EXIT, 144 },
	{ KTR_SC(getrlimit), "rlimit", KTR_CAP_FIXED, 1, 0, EXIT, 16 },
	{ KTR_SC(setrlimit), "rlimit", KTR_CAP_FIXED, 1, 0, ENTRY, 16 },
	{ KTR_SC(prlimit64), "rlimit", KTR_CAP_FIXED, 2, 0, ENTRY, 16 },
	{ KTR_SC(prlimit64), "rlimit", KTR_CAP_FIXED, 3, 0, EXIT, 16 },
	{ KTR_SC(uname), "utsname", KTR_CAP_FIXED, 0, 0, EXIT, 390 },
	{ KTR_SC(sysinfo), "sysinfo", KTR_CAP_FIXED, 0, 0, EXIT, 112 },
	{ KTR_SC(times), "tms", KTR_CAP_FIXED, 0, 0, EXIT, 32 },
	{ KTR_SC(pipe), "fd_pair", KTR_CAP_FIXED, 0, 0, EXIT, 8 },
	{ KTR_SC(pipe2), "fd_pair", KTR_CAP_FIXED, 0, 0, EXIT, 8 },
	{ KTR_SC(socketpair), "fd_pair", KTR_CAP_FIXED, 3, 0, EXIT, 8 },
	{ KTR_SC(getdents64), "linux_dirent64", KTR_CAP_BYTES_RET, 1, 0, EXIT, 4096 },
	{ KTR_SC(openat2), "open_how", KTR_CAP_LEN_ARG, 2, 3, ENTRY, 24 },
	{ KTR_SC(clone3), "clone_args", KTR_CAP_LEN_ARG, 0, 1, ENTRY, 88 },
	{ KTR_SC(sched_setscheduler), "sched_param", KTR_CAP_FIXED, 2, 0, ENTRY, 4 },
	{ KTR_SC(sched_setparam), "sched_param", KTR_CAP_FIXED, 1, 0, ENTRY, 4 },
	{ KTR_SC(readlink), "string", KTR_CAP_BYTES_RET, 1, 0, EXIT, 4096 },
	{ KTR_SC(readlinkat), "string", KTR_CAP_BYTES_RET, 2, 0, EXIT, 4096 },
	{ KTR_SC(getcwd), "string", KTR_CAP_BYTES_RET, 0, 0, EXIT, 4096 },
};

static const struct {
	const char *syscall;
	__u8 kind;
} genio_specs[] = {
	{ KTR_SC(read), KTR_GIO_READ_BUF },	 { KTR_SC(pread64), KTR_GIO_READ_BUF },
	{ KTR_SC(recvfrom), KTR_GIO_READ_BUF },	 { KTR_SC(write), KTR_GIO_WRITE_BUF },
	{ KTR_SC(pwrite64), KTR_GIO_WRITE_BUF }, { KTR_SC(sendto), KTR_GIO_WRITE_BUF },
	{ KTR_SC(readv), KTR_GIO_READ_IOV },	 { KTR_SC(preadv), KTR_GIO_READ_IOV },
	{ KTR_SC(preadv2), KTR_GIO_READ_IOV },	 { KTR_SC(writev), KTR_GIO_WRITE_IOV },
	{ KTR_SC(pwritev), KTR_GIO_WRITE_IOV },	 { KTR_SC(pwritev2), KTR_GIO_WRITE_IOV },
	{ KTR_SC(recvmsg), KTR_GIO_READ_MSG },	 { KTR_SC(sendmsg), KTR_GIO_WRITE_MSG },
};

#define CAPTURE_NSPECS (sizeof(capture_specs) / sizeof(capture_specs[0]))
#define GENIO_NSPECS   (sizeof(genio_specs) / sizeof(genio_specs[0]))

const char *ktr_captures__syscall_at(size_t i)
{
	if (i < CAPTURE_NSPECS)
		return capture_specs[i].syscall;
	i -= CAPTURE_NSPECS;
	return i < GENIO_NSPECS ? genio_specs[i].syscall : NULL;
}

static int syscall_nr(const char *name)
{
	const struct ktr_sysent *tab = ktr_arch_host.native;

	for (unsigned int nr = 0; nr < *ktr_arch_host.nnative && nr < KTR_MAX_SYSCALLS; nr++)
		if (tab[nr].name && strcmp(ktr_sysent_name(&tab[nr]), name) == 0)
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

void ktr_captures__fill(volatile __u8 *genio, volatile struct ktr_capture (*caps)[KTR_CAPTURES],
			volatile __u8 *when)
{
	/* the layouts above are x86_64's: elsewhere GENIO only (ktr_arch.h) */
	for (size_t i = 0; ktr_arch_host.struct_captures && i < CAPTURE_NSPECS; i++) {
		int nr = syscall_nr(capture_specs[i].syscall);

		if (nr >= 0)
			capture__add(caps[nr], &capture_specs[i]);
	}
	for (size_t i = 0; i < GENIO_NSPECS; i++) {
		int nr = syscall_nr(genio_specs[i].syscall);

		if (nr >= 0)
			genio[nr] = genio_specs[i].kind;
	}
	for (int nr = 0; nr < KTR_MAX_SYSCALLS; nr++)
		for (int c = 0; c < KTR_CAPTURES; c++)
			if (caps[nr][c].kind != KTR_CAP_NONE)
				when[nr] |= caps[nr][c].when;
}
