// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * flagcalls: the calls whose flags issue 42 found printed as numbers where
 * strace names them, each made once with raw syscall(2), so that kdump's
 * arguments can be held against strace's (t_strace_compare.sh): real-time
 * signals, name_to_handle_at's flags, the keyrings' special ids and
 * keyctl's operations, fanotify's flags, masks and FAN_NOFD, IPv6 socket
 * options and btrfs ioctls.  Many fail (EPERM, EINVAL, EBADF, ENOTTY):
 * their arguments are what count.  It prints "done" and exits 0.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/btrfs.h>
#include <linux/fanotify.h>
#include <linux/keyctl.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

static void signals(void)
{
	static const int sigs[] = { 32, 33, 34, 35, 40, 63, 64 };
	unsigned long all = ~0UL;

	/* every signal blocked, so the real-time ones sent stay pending */
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, 8);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		syscall(SYS_kill, getpid(), sigs[i]);
	syscall(SYS_tgkill, getpid(), getpid(), 36);
	syscall(SYS_tkill, getpid(), 50);
}

static void handles(void)
{
	struct {
		unsigned int bytes;
		int type;
		unsigned char h[128];
	} fh;
	int mnt;

	fh.bytes = sizeof(fh.h);
	syscall(SYS_name_to_handle_at, AT_FDCWD, "/", &fh, &mnt, AT_SYMLINK_FOLLOW | AT_EMPTY_PATH);
	fh.bytes = sizeof(fh.h);
	syscall(SYS_name_to_handle_at, AT_FDCWD, "/", &fh, &mnt, AT_SYMLINK_FOLLOW | 0xfc);
	fh.bytes = sizeof(fh.h);
	syscall(SYS_name_to_handle_at, AT_FDCWD, "/", &fh, &mnt, 0);
}

static void keys(void)
{
	char buf[16];

	syscall(SYS_add_key, "flagcalls_no_such_type", "d", "x", 1, KEY_SPEC_THREAD_KEYRING);
	syscall(SYS_add_key, "flagcalls_no_such_type", "d", "x", 1, KEY_SPEC_REQUESTOR_KEYRING);
	syscall(SYS_request_key, "flagcalls_no_such_type", "d", NULL, KEY_SPEC_SESSION_KEYRING);
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0);
	syscall(SYS_keyctl, KEYCTL_READ, KEY_SPEC_REQKEY_AUTH_KEY, buf, sizeof(buf));
	syscall(SYS_keyctl, KEYCTL_LINK, KEY_SPEC_PROCESS_KEYRING, KEY_SPEC_USER_SESSION_KEYRING);
	syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, KEY_SPEC_GROUP_KEYRING, 10);
	syscall(SYS_keyctl, KEYCTL_INVALIDATE, 12345);
}

static void fanotify(void)
{
	int fd = (int)syscall(SYS_fanotify_init, FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
			      O_RDONLY | O_LARGEFILE);

	syscall(SYS_fanotify_mark, fd, FAN_MARK_ADD | FAN_MARK_MOUNT,
		FAN_OPEN | FAN_CLOSE_WRITE | FAN_ONDIR, AT_FDCWD, "/");
	syscall(SYS_fanotify_mark, fd, FAN_MARK_ADD, FAN_OPEN, FAN_NOFD, "/");
	syscall(SYS_fanotify_mark, fd, FAN_MARK_REMOVE | FAN_MARK_ONLYDIR, FAN_ACCESS | FAN_MODIFY,
		AT_FDCWD, "/");
	syscall(SYS_fanotify_mark, fd, FAN_MARK_FLUSH | FAN_MARK_MOUNT, 0, FAN_NOFD, NULL);
	if (fd >= 0)
		close(fd);
	fd = (int)syscall(SYS_fanotify_init, FAN_CLASS_CONTENT | FAN_UNLIMITED_QUEUE, O_RDWR);
	if (fd >= 0)
		close(fd);
}

static void sockopts(void)
{
	struct group_req gr;
	struct ipv6_mreq mr;
	socklen_t len = sizeof(int);
	int one = 1, s;

	memset(&gr, 0, sizeof(gr));
	memset(&mr, 0, sizeof(mr));
	s = socket(AF_INET6, SOCK_DGRAM, 0);
	setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	getsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, &len);
	setsockopt(s, IPPROTO_IPV6, MCAST_JOIN_GROUP, &gr, sizeof(gr));
	setsockopt(s, IPPROTO_IPV6, MCAST_LEAVE_GROUP, &gr, sizeof(gr));
	setsockopt(s, IPPROTO_IPV6, IPV6_ADD_MEMBERSHIP, &mr, sizeof(mr));
	close(s);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	setsockopt(s, IPPROTO_IP, MCAST_JOIN_GROUP, &gr, sizeof(gr));
	setsockopt(s, IPPROTO_IP, MCAST_MSFILTER, &gr, sizeof(gr));
	close(s);
}

static void btrfs(void)
{
	struct btrfs_ioctl_fs_info_args info;
	int fd = open("/", O_RDONLY | O_DIRECTORY);

	syscall(SYS_ioctl, fd, BTRFS_IOC_FS_INFO, &info);
	syscall(SYS_ioctl, fd, BTRFS_IOC_SYNC, 0);
	syscall(SYS_ioctl, fd, BTRFS_IOC_START_SYNC, &info);
	close(fd);
}

int main(void)
{
	signals();
	handles();
	keys();
	fanotify();
	sockopts();
	btrfs();
	puts("done");
	return 0;
}
