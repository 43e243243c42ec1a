// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/nsfs.h>

#include "ktraceb/ktr.h"
#include "ktr_perm.h"

struct proc_status {
	pid_t tgid;
	uid_t uid[4]; /* real, effective, saved, fs */
	gid_t gid[4];
	unsigned long long cap_prm; /* CapPrm */
	pid_t ppid;
	char state;
};

static int status__read(pid_t pid, struct proc_status *st)
{
	char path[64], line[256];
	FILE *f;
	int got = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	memset(st, 0, sizeof(*st));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Tgid: %d", &st->tgid) == 1)
			got |= 1;
		else if (sscanf(line, "Uid: %u %u %u %u", &st->uid[0], &st->uid[1], &st->uid[2],
				&st->uid[3]) == 4)
			got |= 2;
		else if (sscanf(line, "Gid: %u %u %u %u", &st->gid[0], &st->gid[1], &st->gid[2],
				&st->gid[3]) == 4)
			got |= 4;
		else if (sscanf(line, "State: %c", &st->state) == 1)
			got |= 8;
		else if (sscanf(line, "CapPrm: %llx", &st->cap_prm) == 1)
			got |= 16;
		else if (sscanf(line, "PPid: %d", &st->ppid) == 1)
			got |= 32;
	}
	fclose(f);
	return got == 63 ? 0 : -ESRCH;
}

/*
 * A process that is not dumpable (it gained privileges by a set-id exec,
 * or said so with PR_SET_DUMPABLE) has its private /proc files owned by
 * root (task_dump_owner()); the /proc/PID directory itself keeps the
 * process's owner, so look at auxv.
 */
static bool proc__dumpable(pid_t pid, const struct proc_status *st)
{
	char path[64];
	struct stat sb;

	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	if (stat(path, &sb) < 0)
		return false;
	return sb.st_uid == st->uid[1];
}

void ktr_caller__self(struct ktr_caller *c)
{
	c->pid = getpid();
	c->uid = getuid();
	c->gid = getgid();
	c->pidfd = -1;
	c->same_pidns = true;
}

bool ktr_caller__alive(const struct ktr_caller *c)
{
	if (c->pid == getpid())
		return true;
	/* EPERM: alive, and not ours to signal (root asking a user's daemon) */
	return c->pidfd >= 0 &&
	       (syscall(SYS_pidfd_send_signal, c->pidfd, 0, NULL, 0) == 0 || errno == EPERM);
}

int ktr_perm__yama_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	int scope = 0;

	if (!f)
		return 0; /* no Yama: ptrace's own rules only */
	if (fscanf(f, "%d", &scope) != 1)
		scope = 3; /* unreadable: the strictest reading */
	fclose(f);
	return scope;
}

int ktr_perm__yama(int scope, bool descendant, const char **why)
{
	if (scope < 0)
		scope = ktr_perm__yama_scope();
	if (scope <= 0 || (scope == 1 && descendant))
		return 0;
	if (scope == 1)
		*why = "not your descendant (Yama ptrace_scope 1)";
	else if (scope == 2)
		*why = "only root may trace (Yama ptrace_scope 2)";
	else
		*why = "tracing is disabled (Yama ptrace_scope 3)";
	return -EPERM;
}

bool ktr_procs__descends(pid_t target, pid_t ancestor)
{
	struct proc_status st;
	pid_t p = target;

	/* bounded: a parent chain is never longer than the pid space is deep */
	for (int depth = 0; depth < 4096 && p > 1; depth++) {
		if (status__read(p, &st) < 0)
			return false;
		if (st.ppid == ancestor)
			return true;
		p = st.ppid;
	}
	return false;
}

/*
 * The one check.  A process is read from /proc first: its owner is its real
 * uid.  A group has an owner but no process: only the rules about who
 * traces apply to it, and Yama as to a process that is no descendant.
 */
/* Is the namespace open on fd the one st (the initial one) describes? */
static bool perm__same_ns(int fd, const struct stat *st)
{
	struct stat ns;

	return fstat(fd, &ns) == 0 && ns.st_dev == st->st_dev && ns.st_ino == st->st_ino;
}

/*
 * Are pid's capabilities those of a user namespace uid made (directly
 * below the initial one, the daemon's), or of one below it?  A rootless
 * container's root holds every capability there and none over uid: the
 * kernel lets uid ptrace it (cap_ptrace_access_check), and so does
 * ktraceb.  The BPF programs' rule is canset__own_userns (canset.bpf.h).
 */
static bool perm__own_userns(pid_t pid, uid_t uid)
{
	char path[64];
	struct stat init;
	uid_t owner;
	bool own = false;
	int fd, up;

	if (stat("/proc/self/ns/user", &init) < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	for (int depth = 0; fd >= 0 && depth < 32 && !perm__same_ns(fd, &init); depth++) {
		up = ioctl(fd, NS_GET_PARENT);
		if (up < 0)
			break;
		if (perm__same_ns(up, &init)) {
			own = ioctl(fd, NS_GET_OWNER_UID, &owner) == 0 && owner == uid;
			close(up);
			break;
		}
		close(fd);
		fd = up;
	}
	if (fd >= 0)
		close(fd);
	return own;
}

int ktr_perm__canset(const struct ktr_caller *caller, const struct ktr_target *t,
		     struct ktr_perm_no *no)
{
	struct proc_status st;
	uid_t owner = t->owner;
	int err;

	no->why = "operation not permitted";
	no->skip = KTR_CGROUP_SKIP_PRIVILEGED;
	if (t->pid > 0) {
		err = status__read(t->pid, &st);
		if (err) {
			no->why = "no such process";
			return err;
		}
		if (st.state == 'Z' || st.state == 'X') {
			no->why = "process has exited";
			return -ESRCH;
		}
		owner = st.uid[0];
	}
	if (caller->uid == 0)
		return 0;
	if (t->facs & KTRFAC_ROOT) {
		no->why = "tracing on it was set by root";
		no->skip = KTR_CGROUP_SKIP_ROOT;
		return -EPERM;
	}
	if (owner != caller->uid) {
		no->why = t->pid > 0 ? "not your process" : "not your group";
		no->skip = KTR_CGROUP_SKIP_NOT_YOURS;
		return -EPERM;
	}
	if (t->pid <= 0)
		return ktr_perm__yama(-1, false, &no->why);
	if (st.uid[0] != st.uid[2] || caller->gid != st.gid[0] || st.gid[0] != st.gid[2])
		no->why = "set-id process (real and saved ids differ)";
	else if (!proc__dumpable(t->pid, &st))
		no->why = "process gained privileges by exec (not dumpable)";
	else if (st.cap_prm && !perm__own_userns(t->pid, caller->uid))
		/*
		 * A file-capability exec leaves a process dumpable; ptrace asks
		 * for the capabilities themselves, which a caller is never
		 * credited with (struct ktr_caller): only root traces these.
		 */
		no->why = "process has capabilities (only root may trace it)";
	else
		return ktr_perm__yama(
			-1, ktr_procs__descends(t->pid, caller->pid) && ktr_caller__alive(caller),
			&no->why);
	return -EPERM;
}

int ktr_procs__tgid(pid_t pid)
{
	struct proc_status st;
	int err = status__read(pid, &st);

	return err ? err : st.tgid;
}

int ktr_procs__parent(pid_t pid)
{
	struct proc_status st;
	int err = status__read(pid, &st);

	return err ? err : st.ppid;
}

struct proc_entry {
	pid_t pid, ppid, pgrp;
};

/* pid, ppid and pgrp of every process, from /proc/N/stat. */
static int procs__scan(struct proc_entry **out)
{
	struct proc_entry *v = NULL, *tmp;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[64], buf[512], *p;
		struct proc_entry e;
		FILE *f;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (!p || sscanf(p, ") %*c %d %d", &e.ppid, &e.pgrp) != 2)
			continue;
		e.pid = atoi(de->d_name);
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			tmp = reallocarray(v, cap, sizeof(*v));
			if (!tmp) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = tmp;
		}
		v[n++] = e;
	}
	closedir(d);
	*out = v;
	return n;
}

static bool pids__has(const pid_t *v, int n, pid_t pid)
{
	for (int i = 0; i < n; i++)
		if (v[i] == pid)
			return true;
	return false;
}

int ktr_procs__collect(pid_t pid, bool descend, pid_t **out)
{
	struct proc_entry *all = NULL;
	int nall, n = 0;
	pid_t *v;

	/*
	 * One process, not its children: its own status, not every process's
	 * stat (each attach read as many files as the machine has processes:
	 * 5,000 traces by -p, 25 million reads).  A thread is not one: the
	 * scan lists processes only.
	 */
	if (pid > 0 && !descend) {
		struct proc_status st;

		v = calloc(1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		if (status__read(pid, &st) == 0 && st.tgid == pid)
			v[n++] = pid;
		*out = v;
		return n;
	}
	nall = procs__scan(&all);
	if (nall < 0)
		return nall;
	v = calloc(nall + 1, sizeof(*v));
	if (!v) {
		free(all);
		return -ENOMEM;
	}
	for (int i = 0; i < nall; i++)
		if (pid > 0 ? all[i].pid == pid : all[i].pgrp == -pid)
			v[n++] = all[i].pid;
	/* breadth first: v grows while we walk it, so every depth is reached */
	for (int i = 0; descend && i < n; i++)
		for (int j = 0; j < nall; j++)
			if (all[j].ppid == v[i] && !pids__has(v, n, all[j].pid))
				v[n++] = all[j].pid;
	free(all);
	*out = v;
	return n;
}

int ktr_procs__owners(pid_t pid, bool descend, uid_t **out)
{
	int tgid = pid > 0 ? ktr_procs__tgid(pid) : pid, n = 0, nown = 0;
	pid_t *pids = NULL;
	uid_t *own;

	*out = NULL;
	if (pid > 0 && tgid < 0)
		return 0; /* no such process */
	n = ktr_procs__collect(tgid, descend, &pids);
	if (n <= 0)
		return n;
	own = calloc(n, sizeof(*own));
	if (!own) {
		free(pids);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		struct proc_status st;
		int j = 0;

		if (status__read(pids[i], &st) < 0)
			continue; /* gone: nothing of it is traced any more */
		while (j < nown && own[j] != st.uid[0])
			j++;
		if (j == nown)
			own[nown++] = st.uid[0];
	}
	free(pids);
	*out = own;
	return nown;
}
