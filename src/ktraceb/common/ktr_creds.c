// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "ktr_creds.h"
#include "ktr_perm.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77 /* Linux 6.5: a pidfd of the process that connected */
#endif
/* include/linux/proc_ns.h: PROC_PID_INIT_INO, fixed since Linux 3.8 */
#define PROC_PID_INIT_INO 0xEFFFFFFCU

static int pidfd__open(pid_t pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}

static int pidns__ino(pid_t pid, ino_t *ino)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	if (stat(path, &st) < 0)
		return -errno;
	*ino = st.st_ino;
	return 0;
}

/*
 * How many pid namespaces below the one /proc belongs to pid lives (0: in
 * it): NSpid lists its pid in each, from /proc's down (Linux 4.1).
 * -errno if unknown.
 */
static int pidns__depth(pid_t pid)
{
	char path[64], line[256];
	int depth = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (depth < 0 && fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL;

		if (strncmp(line, "NSpid:", 6) != 0)
			continue;
		depth = -1;
		for (tok = strtok_r(line + 6, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			depth++;
	}
	fclose(f);
	return depth;
}

/*
 * Is pid in this process's pid namespace?  Its ns link says so exactly, but
 * only to whom may ptrace it: a user's daemon asked by root cannot read
 * root's.  Then NSpid, which anyone may read, says whether both live in
 * the namespace /proc belongs to.
 */
static bool pidns__same(pid_t pid)
{
	ino_t mine, theirs;
	int err = pidns__ino(pid, &theirs);

	if (err == 0)
		return pidns__ino(getpid(), &mine) == 0 && mine == theirs;
	return pidns__depth(pid) == 0 && pidns__depth(getpid()) == 0;
}

bool ktr_creds__init_pidns(void)
{
	ino_t ino;

	return pidns__ino(getpid(), &ino) == 0 && ino == PROC_PID_INIT_INO;
}

int ktr_creds__pin(int sock, struct ktr_caller *c)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);
	int fd = -1;

	memset(c, 0, sizeof(*c));
	c->pidfd = -1;
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
		return -errno;
	c->pid = uc.pid;
	c->uid = uc.uid;
	c->gid = uc.gid;
	len = sizeof(fd);
	/*
	 * SO_PEERPIDFD names the very process that connected; pidfd_open by
	 * pid (older kernels) could name a process that reused a dead
	 * caller's pid, a window left open there.
	 */
	if (getsockopt(sock, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) < 0 || fd < 0)
		fd = pidfd__open(uc.pid);
	c->pidfd = fd;
	/*
	 * A process never changes its pid namespace; read it now, and trust
	 * the reading only if the process is still alive afterwards (its pid
	 * was not reused in between).
	 */
	c->same_pidns = pidns__same(c->pid) && ktr_caller__alive(c);
	return 0;
}

void ktr_creds__unpin(struct ktr_caller *c)
{
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->pidfd = -1;
}

void ktr_creds__daemon_setup(void)
{
	/*
	 * Root's supplementary groups would satisfy a group check made while
	 * writing a user's file (ext4's reserved-blocks group, for one).
	 */
	if (geteuid() == 0 && setgroups(0, NULL) < 0)
		perror("ktraceb daemon: setgroups");
}

static int caps__get(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capget, &hdr, data);
}

static int caps__set(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capset, &hdr, data);
}

int ktr_creds__as_owner(uid_t uid, gid_t gid, struct ktr_saved_creds *saved)
{
	struct __user_cap_data_struct data[2];

	saved->fsuid = setfsuid(-1);
	saved->fsgid = setfsgid(-1);
	saved->caps_dropped = false;
	/* setfsuid() tells nothing on failure: read back what took */
	setfsgid(gid);
	setfsuid(uid);
	if ((uid_t)setfsuid(-1) != uid || (gid_t)setfsgid(-1) != gid)
		return -EPERM;
	if (caps__get(data) < 0)
		return -errno;
	data[0].effective = 0;
	data[1].effective = 0;
	if (caps__set(data) < 0)
		return -errno;
	saved->caps_dropped = true;
	return 0;
}

void ktr_creds__restore(struct ktr_saved_creds *saved)
{
	struct __user_cap_data_struct data[2];

	if (saved->caps_dropped && caps__get(data) == 0) {
		data[0].effective = data[0].permitted;
		data[1].effective = data[1].permitted;
		caps__set(data);
	}
	/* back to the daemon's own ids, which need no capability */
	setfsuid(saved->fsuid);
	setfsgid(saved->fsgid);
}

int ktr_creds__become(uid_t uid, gid_t gid, bool keep_read)
{
	struct __user_cap_data_struct data[2] = { { 0 } };
	/* CAP_DAC_OVERRIDE 1, CAP_DAC_READ_SEARCH 2, CAP_SYS_PTRACE 19 */
	const __u32 read_caps = (1u << 1) | (1u << 2) | (1u << 19);

	if (geteuid() == 0 && setgroups(0, NULL) < 0)
		return -errno;
	if (setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
		return -errno;
	/* a user's own daemon keeps its file capabilities across the uid it already has */
	if (caps__get(data) < 0)
		return -errno;
	data[0].effective &= keep_read ? read_caps : 0;
	data[0].permitted &= keep_read ? read_caps : 0;
	data[0].inheritable = 0;
	data[1].effective = data[1].permitted = data[1].inheritable = 0;
	if (caps__set(data) < 0)
		return -errno;
	return 0;
}
