// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#include "ktraceb/ktr.h"
#include "ktr_cgroupfs.h"

#define CGROUP2_MAGIC  0x63677270
#define SEARCH_DEPTH   16 /* a name is looked for this deep at most */
#define SEARCH_MATCHES 4

int ktr_cgroupfs__mount(char *mnt, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = -ENOENT;

	if (!f)
		return -errno;
	/* "36 25 0:30 / /sys/fs/cgroup/unified rw,... shared:9 - cgroup2 cgroup2 rw" */
	while (fgets(line, sizeof(line), f)) {
		char root[PATH_MAX], point[PATH_MAX], *dash = strstr(line, " - ");
		char fstype[32];

		if (!dash || sscanf(dash, " - %31s", fstype) != 1 || strcmp(fstype, "cgroup2"))
			continue;
		if (sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2)
			continue;
		/* the hierarchy's own root, not a bind mount of a group within it */
		if (strcmp(root, "/") != 0 || strlen(point) >= size)
			continue;
		snprintf(mnt, size, "%s", point);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

int ktr_cgroupfs__path_ok(const char *path)
{
	size_t n = strnlen(path, KTR_CGROUP_PATH_MAX);

	if (n == 0 || n == KTR_CGROUP_PATH_MAX || path[0] != '/')
		return 0;
	if (n == 1)
		return 1;
	if (path[n - 1] == '/' || strstr(path, "//") || strstr(path, "/./") ||
	    strstr(path, "/../") || strcmp(path + n - 2, "/.") == 0 ||
	    (n >= 3 && strcmp(path + n - 3, "/..") == 0))
		return 0;
	return 1;
}

unsigned int ktr_cgroupfs__level(const char *path)
{
	unsigned int level = 0;

	for (const char *p = path; path[1] && *p; p++)
		level += *p == '/';
	return level;
}

/* mnt + path a cgroup2 directory: its id, 0 if not. */
static __u64 cgroupfs__id(const char *mnt, const char *path)
{
	char full[PATH_MAX];
	struct statfs sf;
	struct stat st;

	snprintf(full, sizeof(full), "%s%s", mnt, strcmp(path, "/") ? path : "");
	if (stat(full, &st) < 0 || !S_ISDIR(st.st_mode) || statfs(full, &sf) < 0 ||
	    sf.f_type != CGROUP2_MAGIC)
		return 0;
	return st.st_ino;
}

struct search {
	const char *name;
	char found[SEARCH_MATCHES][KTR_CGROUP_PATH_MAX];
	int n;
};

/* The directories named s->name at or below rel (a path below the root, "" for it). */
static void cgroupfs__search(int dfd, const char *rel, int depth, struct search *s)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) && s->n < SEARCH_MATCHES) {
		char sub[KTR_CGROUP_PATH_MAX];
		int fd;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name) >= sizeof(sub))
			continue;
		if (strcmp(de->d_name, s->name) == 0)
			snprintf(s->found[s->n++], KTR_CGROUP_PATH_MAX, "%s", sub);
		if (depth + 1 >= SEARCH_DEPTH)
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			cgroupfs__search(fd, sub, depth + 1, s);
	}
	closedir(d);
}

/* systemd's answer for unit's group (systemctl show -p ControlGroup), "" if none. */
static void cgroupfs__systemd(const char *unit, char *path, size_t size)
{
	int pipefd[2], status;
	ssize_t n = 0;
	pid_t pid;

	path[0] = '\0';
	if (access("/run/systemd/system", F_OK) < 0 || pipe2(pipefd, O_CLOEXEC) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		execlp("systemctl", "systemctl", "show", "-p", "ControlGroup", "--value", "--",
		       unit, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid > 0) {
		n = read(pipefd[0], path, size - 1);
		waitpid(pid, &status, 0);
	}
	close(pipefd[0]);
	path[n > 0 ? n : 0] = '\0';
	path[strcspn(path, "\n")] = '\0';
}

/* A name with no slash: a directory of that name, the root's first, or systemd's unit. */
static int cgroupfs__by_name(const char *mnt, const char *name, char *path, char *why, size_t wsize)
{
	struct search s = { .name = name };
	int fd;

	snprintf(path, KTR_CGROUP_PATH_MAX, "/%s", name);
	if (cgroupfs__id(mnt, path))
		return 0;
	fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		cgroupfs__search(fd, "", 0, &s);
	if (s.n == 1) {
		snprintf(path, KTR_CGROUP_PATH_MAX, "%s", s.found[0]);
		return 0;
	}
	if (s.n > 1) {
		snprintf(why, wsize,
			 "%s: %s%d groups have that name (%s, %s%s): name one by its path", name,
			 s.n == SEARCH_MATCHES ? "at least " : "", s.n, s.found[0], s.found[1],
			 s.n > 2 ? ", ..." : "");
		return -EEXIST;
	}
	cgroupfs__systemd(name, path, KTR_CGROUP_PATH_MAX);
	if (path[0] == '/')
		return 0;
	snprintf(why, wsize, "%s: no such group in %s%s", name, mnt,
		 access("/run/systemd/system", F_OK) == 0 ?
			 ", and systemd has none (is it running?)" :
			 "");
	return -ENOENT;
}

int ktr_cgroupfs__resolve(const char *mnt, const char *name, char *path, __u64 *id, char *why,
			  size_t wsize)
{
	size_t mlen = strlen(mnt);
	char real[PATH_MAX];
	int err = 0;

	*id = 0;
	if (!strchr(name, '/')) {
		err = cgroupfs__by_name(mnt, name, path, why, wsize);
	} else if (name[0] == '/' && realpath(name, real) && strncmp(real, mnt, mlen) == 0 &&
		   (real[mlen] == '/' || real[mlen] == '\0')) {
		/* a directory under the mount point */
		snprintf(path, KTR_CGROUP_PATH_MAX, "%s", real[mlen] ? real + mlen : "/");
	} else {
		/* a path below the root, with or without its first slash */
		snprintf(path, KTR_CGROUP_PATH_MAX, "%s%s", name[0] == '/' ? "" : "/", name);
		while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
			path[strlen(path) - 1] = '\0';
	}
	if (err)
		return err;
	if (!ktr_cgroupfs__path_ok(path)) {
		snprintf(why, wsize, "%s: not a group path (at most %d bytes, no . or ..)", name,
			 KTR_CGROUP_PATH_MAX - 1);
		return -EINVAL;
	}
	*id = cgroupfs__id(mnt, path);
	if (!*id) {
		snprintf(why, wsize, "%s: no such group in the cgroup2 hierarchy at %s", name, mnt);
		return -ENOENT;
	}
	return 0;
}
