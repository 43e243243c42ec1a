// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* A traced group's members when its trace begins (ktr_group_members.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_groups.h"
#include "common/ktr_cgroupfs.h"
#include "common/ktr_perm.h"
#include "daemon/ktr_clock.h"
#include "daemon/files/ktr_files.h"
#include "ktr_fds.h"
#include "ktr_group_members.h"
#include "ktr_proc_usdt.h"
#include "ktr_procmap.h"
#include "daemon/ktr_record.h"
#include "daemon/ktr_parts.h"
#include "trstr.h"

#define MAX_DIRS	 65536 /* sub-groups listed at most */
#define MAX_THREADS_SAID 4096 /* threads of one member whose ids are said */

/* A process found in a group: its pid, its cgroup's id and path. */
struct member {
	pid_t pid;
	__u64 id;
	char path[KTR_CGROUP_PATH_MAX];
	int why; /* -1: traced; else KTR_CGROUP_SKIP_*; -2: gone, or already the group's */
};

struct members {
	struct member *v;
	size_t n, cap;
	size_t dirs;
};

static int members__add(struct members *m, pid_t pid, __u64 id, const char *path)
{
	struct member *tmp;

	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].pid == pid)
			return 0; /* cgroup.threads lists a process once per thread */
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		tmp = reallocarray(m->v, m->cap, sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		m->v = tmp;
	}
	m->v[m->n] = (struct member){ .pid = pid, .id = id, .why = -1 };
	snprintf(m->v[m->n++].path, KTR_CGROUP_PATH_MAX, "%s", path);
	return 0;
}

/*
 * The processes of one group directory (dfd): cgroup.procs, or, in a
 * threaded sub-group (whose cgroup.procs cannot be read), the processes
 * of cgroup.threads.
 */
static void members__of_dir(struct members *m, int dfd, const char *path)
{
	struct stat st;
	bool threads = false;
	int fd = openat(dfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	char line[32];
	FILE *f;

	if (fstat(dfd, &st) < 0)
		return;
	f = fd >= 0 ? fdopen(fd, "re") : NULL;
	if (f && !fgets(line, sizeof(line), f) && ferror(f)) {
		fclose(f);
		fd = openat(dfd, "cgroup.threads", O_RDONLY | O_CLOEXEC);
		f = fd >= 0 ? fdopen(fd, "re") : NULL;
		threads = true;
	} else if (f) {
		rewind(f);
	}
	while (f && fgets(line, sizeof(line), f)) {
		int pid = atoi(line);

		if (threads && pid > 0)
			pid = ktr_procs__tgid(pid);
		if (pid > 0 && members__add(m, pid, st.st_ino, path) < 0)
			break;
	}
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
}

/* The processes of the group at path (dfd) and of every sub-group, depth first. */
static void members__walk(struct members *m, int dfd, const char *path, unsigned int depth)
{
	DIR *d;
	struct dirent *de;

	members__of_dir(m, dfd, path);
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) && m->dirs < MAX_DIRS && depth < KTR_GROUP_LEVELS) {
		char sub[KTR_CGROUP_PATH_MAX];
		int fd;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", strcmp(path, "/") ? path : "",
				     de->d_name) >= sizeof(sub))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		m->dirs++;
		members__walk(m, fd, sub, depth + 1);
	}
	closedir(d);
}

/* Is pid a kernel thread (the root group lists them)?  Its stat's flags say. */
static bool member__kthread(pid_t pid)
{
	char path[64], buf[512], *p;
	unsigned long flags = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	p = f && fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	if (f)
		fclose(f);
	/* ") S ppid pgrp session tty tpgid flags" */
	return p && sscanf(p, ") %*c %*d %*d %*d %*d %*d %lu", &flags) == 1 &&
	       (flags & 0x00200000); /* PF_KTHREAD */
}

/*
 * Step 1 for one member (ktr_policy.h): checked, then its entry put,
 * pending for a user.  Its why: -1 put, -2 nothing to do, else why not.
 */
static int member__put(const struct ktr_parts *k, const struct ktr_caller *c,
		       const struct ktr_proc_state *tmpl, pid_t pid)
{
	struct ktr_proc_state old, ps = *tmpl;
	bool traced = ktr_procmap__get(k->procs, pid, &old);
	struct ktr_perm_no no;
	int err;

	if (pid == getpid() || member__kthread(pid))
		return -2; /* the daemon itself, or no system call to trace */
	if (traced && !(old.flags & KTR_PS_GROUP))
		return KTR_CGROUP_SKIP_TRACED; /* -p, -i, a command: that trace stays */
	if (traced && old.group == tmpl->group && old.route == tmpl->route)
		return -2; /* BPF took it in as it entered */
	err = ktr_perm__canset(c, &(struct ktr_target){ .pid = pid, .facs = traced ? old.facs : 0 },
			       &no);
	if (err == -ESRCH || err == -ENOENT)
		return -2;
	if (err)
		return no.skip;
	if (c->uid != 0)
		ps.flags |= KTR_PS_PENDING;
	ktr_procmap__mark_traced(k->procs, pid);
	return ktr_procmap__put(k->procs, pid, &ps, BPF_ANY) < 0 ? -2 : -1;
}

/* Steps 2 and 3: checked again (a user's), then started.  Its why, as member__put's. */
static int member__start(const struct ktr_parts *k, const struct ktr_caller *c, pid_t pid,
			 __u32 route)
{
	struct ktr_proc_state ps;
	struct ktr_perm_no no;
	int err;

	if (!ktr_procmap__get(k->procs, pid, &ps) || ps.route != route)
		return -2; /* it exited, or exec'd a set-id program */
	if (!(ps.flags & KTR_PS_PENDING))
		return -1;
	err = ktr_perm__canset(c, &(struct ktr_target){ .pid = pid, .facs = ps.facs }, &no);
	if (!err) {
		ps.flags &= ~KTR_PS_PENDING;
		if (ktr_procmap__put(k->procs, pid, &ps, BPF_EXIST) < 0)
			err = -errno;
	}
	if (!err)
		return -1;
	ktr_procmap__drop(k->procs, pid);
	return err == -ESRCH || err == -ENOENT ? -2 : no.skip;
}

/* The ids pid's (or thread tid's) namespace gives it, and that namespace, into kc. */
static void member__ns(pid_t pid, pid_t tid, struct ktr_cgroup *kc)
{
	char path[64], line[256];
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	if (stat(path, &st) == 0)
		kc->kc_pidns = st.st_ino;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		int n = 0, v = 0, off = 0, used;

		if (strncmp(line, "NSpid:", 6) != 0)
			continue;
		/* "NSpid:	4218	1": the host's first, its own namespace's last */
		for (char *p = line + 6; sscanf(p, "%d%n", &v, &used) == 1; p += used, n++)
			off = v;
		kc->kc_ns_tid = off;
		kc->kc_flags |= n == 1 ? KTR_CGROUP_F_HOSTNS : 0;
	}
	if (f)
		fclose(f);
}

static void member__comm(pid_t pid, char *comm, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	comm[0] = '\0';
	f = fopen(path, "re");
	if (f && fgets(comm, size, f))
		comm[strcspn(comm, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* A KTR_CGROUP record the daemon makes, about thread tid of pid (0: its own). */
static void group__append(struct ktr_tracefile *f, pid_t pid, pid_t tid, const char *comm,
			  const struct ktr_cgroup *kc, const char *path)
{
	struct {
		struct ktr_cgroup c;
		char path[KTR_CGROUP_PATH_MAX];
	} rec = { .c = *kc };
	size_t n = strnlen(path, KTR_CGROUP_PATH_MAX - 1);
	struct ktr_header h;

	memcpy(rec.path, path, n);
	rec.path[n] = '\0';
	if (pid)
		ktr_record__header(&h, KTR_CGROUP, sizeof(rec.c) + n + 1, 0, pid, tid, comm,
				   ktr_mono_ns());
	else
		ktr_record__own(&h, KTR_CGROUP, sizeof(rec.c) + n + 1, 0);
	ktr_tracefile__append_made(f, &h, &rec, ktr_wall_offset_ns());
}

/*
 * A member traced now, said in its file: MEMBER, PROCCTOR, its descriptors
 * (dir: its /proc directory, opened before its entry was found in the
 * procs map; ktr_fds.h), and its threads' ids.
 */
static void member__said(struct ktr_tracefile *f, const struct member *mb,
			 const struct ktr_proc_state *ps, int dir)
{
	struct ktr_proc_ctor ctor = { .sv_flags = ps->sv_flags };
	struct ktr_cgroup kc = { .kc_id = mb->id, .kc_what = KTR_CGROUP_MEMBER };
	char comm[32], tasks[64];
	struct ktr_header h;
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	member__comm(mb->pid, comm, sizeof(comm));
	member__ns(mb->pid, mb->pid, &kc);
	kc.kc_ns_pid = kc.kc_ns_tid;
	group__append(f, mb->pid, mb->pid, comm, &kc, mb->path);
	ktr_record__header(&h, KTR_PROCCTOR, sizeof(ctor), 0, mb->pid, mb->pid, comm,
			   ktr_mono_ns());
	ktr_tracefile__append_made(f, &h, &ctor, ktr_wall_offset_ns());
	if (dir >= 0)
		ktr_fds__write(f, dir, mb->pid, comm);
	snprintf(tasks, sizeof(tasks), "/proc/%d/task", mb->pid);
	d = opendir(tasks);
	while (d && (de = readdir(d)) && n < MAX_THREADS_SAID) {
		pid_t tid = atoi(de->d_name);
		struct ktr_cgroup tc = { .kc_what = KTR_CGROUP_THREAD, .kc_ns_pid = kc.kc_ns_pid };

		if (tid <= 0 || tid == mb->pid)
			continue;
		member__ns(mb->pid, tid, &tc);
		group__append(f, mb->pid, tid, comm, &tc, "");
		n++;
	}
	if (d)
		closedir(d);
}

int ktr_group_members__set(const struct ktr_parts *k, const struct ktr_caller *c,
			   const struct ktr_proc_state *tmpl, const char *mnt, const char *path,
			   __u64 out[KTR_CGROUP_SKIPS])
{
	struct ktr_tracefile *f = ktr_files__get(k->files, tmpl->route);
	struct members m = { 0 };
	char full[PATH_MAX];
	int fd, done = 0;

	snprintf(full, sizeof(full), "%s%s", mnt, strcmp(path, "/") ? path : "");
	fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		members__walk(&m, fd, path, ktr_cgroupfs__level(path));
	for (size_t i = 0; i < m.n; i++)
		m.v[i].why = member__put(k, c, tmpl, m.v[i].pid);
	for (size_t i = 0; i < m.n; i++) {
		struct member *mb = &m.v[i];
		struct ktr_proc_state ps;
		char proc[32];
		int dir;

		if (mb->why == -1)
			mb->why = member__start(k, c, mb->pid, tmpl->route);
		if (mb->why >= 0) {
			out[mb->why]++;
			continue;
		}
		snprintf(proc, sizeof(proc), "/proc/%d", mb->pid);
		dir = open(proc, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (!ktr_procmap__get(k->procs, mb->pid, &ps) || ps.route != tmpl->route) {
			if (dir >= 0)
				close(dir);
			continue;
		}
		done++;
		if (mb->why == -1 && f)
			member__said(f, mb, &ps, dir);
		if (dir >= 0)
			close(dir);
		if (mb->why == -1 && (ps.facs & ktr_facs_that(KTR_FAC_SCANNED)))
			ktr_proc_usdt__scan(k, mb->pid, tmpl->route, false, false);
	}
	free(m.v);
	return done;
}

void ktr_group_members__skipped(struct ktr_tracefile *f, __u64 id, const char *path,
				const __u64 counts[KTR_CGROUP_SKIPS])
{
	struct ktr_cgroup kc = { .kc_id = id, .kc_what = KTR_CGROUP_SKIPPED };

	memcpy(kc.kc_skipped, counts, sizeof(kc.kc_skipped));
	group__append(f, 0, 0, "", &kc, path);
}

void ktr_group_members__container(struct ktr_tracefile *f, __u64 id, const char *label)
{
	struct ktr_cgroup kc = { .kc_id = id, .kc_what = KTR_CGROUP_CONTAINER };

	if (f)
		group__append(f, 0, 0, "", &kc, label);
}
