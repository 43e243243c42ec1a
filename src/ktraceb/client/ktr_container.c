// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* -G RUNTIME:NAME: a container's group, from its runtime's CLI (ktr_container.h). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "ktr_container.h"

extern char **environ;

/* What is kept of a CLI's errors, its warnings before its error line included */
#define KTR_CONTAINER_ERR_MAX 4096

/* The id and name the last resolve found (ktr_container__label) */
static char last_id[80], last_name[128];

/* The runtimes whose CLI answers `inspect --format '{{.Id}} {{.State.Pid}} {{.Name}}' NAME`. */
static const char *const runtimes[] = { "podman", "docker" };

/* What a CLI said on one descriptor, at most size - 1 bytes, NUL-ended. */
static void container__read(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;

	while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += r;
	}
	buf[n] = '\0';
	/* the rest, unread, would hold the CLI on a full pipe */
	while (n == size - 1) {
		char rest[256];

		r = read(fd, rest, sizeof(rest));
		if (r == 0 || (r < 0 && errno != EINTR))
			break;
	}
}

/*
 * The last line of what a CLI said on its standard error, in place: a
 * rootless podman warns first ("level=warning msg=...") and says its
 * "Error: ..." last.
 */
static void container__last_line(char *err)
{
	size_t n = strlen(err);
	char *line;

	while (n > 0 && err[n - 1] == '\n')
		err[--n] = '\0';
	line = strrchr(err, '\n');
	if (line)
		memmove(err, line + 1, strlen(line + 1) + 1);
}

/*
 * argv (a runtime's CLI), as the caller: its standard output into out, its
 * last line of errors into err.  Its exit status, or -1 with why set if it
 * could not run.
 */
static int container__run(const char *const argv[], char *out, size_t osize, char *err,
			  size_t esize, char *why, size_t wsize)
{
	const char *runtime = argv[0];
	posix_spawn_file_actions_t fa;
	int po[2], pe[2], st, rc;
	pid_t pid;

	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0) {
		snprintf(why, wsize, "cannot run %s: %s", runtime, strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, po[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pe[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawnp(&pid, runtime, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	if (rc == 0) {
		container__read(po[0], out, osize);
		container__read(pe[0], err, esize);
	}
	close(po[0]);
	close(pe[0]);
	if (rc != 0) {
		snprintf(why, wsize, "cannot run %s: %s", runtime, strerror(rc));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			snprintf(why, wsize, "%s: %s", runtime, strerror(errno));
			return -1;
		}
	container__last_line(err);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* One line of what `runtime ... --format format [name]` prints into out.  0, or -1 with why set. */
static int container__ask(const char *runtime, const char *what, const char *format,
			  const char *name, char *out, size_t osize, char *why, size_t wsize)
{
	const char *argv[] = { runtime, what, "--format", format, name, NULL };
	char err[KTR_CONTAINER_ERR_MAX];
	int rc = container__run(argv, out, osize, err, sizeof(err), why, wsize);

	if (rc > 0)
		snprintf(why, wsize, "%s %s --format '%s' failed%s%s", runtime, what, format,
			 err[0] ? ": " : "", err);
	out[strcspn(out, "\n")] = '\0';
	return rc ? -1 : 0;
}

/*
 * A systemd slice's group path below prefix, as systemd makes it: each
 * dash a level ("a-b.slice" is /a.slice/a-b.slice), "-.slice" the root.
 * A parent given as a path ("/custom") is that path.
 */
static void container__slice(const char *prefix, const char *slice, char *path, size_t size)
{
	size_t n = strlen(slice) - strlen(".slice"), used;

	used = snprintf(path, size, "%s", prefix);
	if (strcmp(slice, "-.slice") == 0)
		return;
	for (size_t i = 0; i <= n && used < size; i++)
		if (i == n || slice[i] == '-')
			used += snprintf(path + used, size - used, "/%.*s.slice", (int)i, slice);
}

/*
 * Where a container not running yet will have its group, from its
 * runtime's settings (the cgroup manager, the parent the container was
 * created with, the caller for a rootless podman), into path: the
 * group's name is the container's id ("libpod-ID.scope",
 * "docker-ID.scope"; "libpod-ID" and "ID" with cgroupfs).
 * 0, or -1 with why set.
 */
static int container__place(const char *runtime, const char *name, const char *id, char *path,
			    size_t size, char *why, size_t wsize)
{
	bool podman = strcmp(runtime, "podman") == 0;
	char out[512], manager[64] = "", parent[256] = "", user[128] = "";
	const char *scope;

	if (podman) {
		if (container__ask(runtime, "inspect",
				   "{{.HostConfig.CgroupManager}} {{.HostConfig.CgroupParent}}",
				   name, out, sizeof(out), why, wsize) < 0)
			return -1;
		sscanf(out, "%63s %255s", manager, parent);
	} else {
		if (container__ask(runtime, "inspect", "{{.HostConfig.CgroupParent}}", name, out,
				   sizeof(out), why, wsize) < 0 ||
		    container__ask(runtime, "info", "{{.CgroupDriver}}", NULL, manager,
				   sizeof(manager), why, wsize) < 0)
			return -1;
		sscanf(out, "%255s", parent);
	}
	if (strcmp(manager, "cgroupfs") == 0) {
		if (!parent[0])
			snprintf(parent, sizeof(parent), podman ? "/libpod_parent" : "/docker");
		snprintf(path, size, "%s%s/%s%s", parent[0] == '/' ? "" : "/", parent,
			 podman ? "libpod-" : "", id);
		return 0;
	}
	if (strcmp(manager, "systemd") != 0) {
		snprintf(why, wsize,
			 "%s container %.12s is not running and its cgroup manager %s%s "
			 "is neither systemd nor cgroupfs",
			 runtime, id, manager[0] ? "" : "(none)", manager);
		return -1;
	}
	/* a user's podman: its slices are his systemd's, below his user@UID.service */
	if (podman && getuid() != 0)
		snprintf(user, sizeof(user), "/user.slice/user-%u.slice/user@%u.service",
			 (unsigned int)getuid(), (unsigned int)getuid());
	if (!parent[0] && !podman)
		snprintf(parent, sizeof(parent), "system.slice");
	else if (!parent[0])
		snprintf(parent, sizeof(parent), "%s", user[0] ? "user.slice" : "machine.slice");
	scope = podman ? "libpod-" : "docker-";
	if (strlen(parent) > strlen(".slice") &&
	    strcmp(parent + strlen(parent) - strlen(".slice"), ".slice") == 0)
		container__slice(user, parent, path, size);
	else
		snprintf(path, size, "%s%s%s", user, parent[0] == '/' ? "" : "/", parent);
	snprintf(path + strlen(path), size - strlen(path), "/%s%s.scope", scope, id);
	return 0;
}

/* The cgroup v2 group of pid ("0::PATH" in /proc/PID/cgroup) into path.  0, or -1 with why set. */
static int container__cgroup(long pid, char *path, size_t size, char *why, size_t wsize)
{
	char file[64], line[4096];
	FILE *f;
	int found = -1;

	snprintf(file, sizeof(file), "/proc/%ld/cgroup", pid);
	f = fopen(file, "re");
	if (!f) {
		snprintf(why, wsize, "its process %ld: %s", pid, strerror(errno));
		return -1;
	}
	while (found < 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "0::/", 4) != 0)
			continue;
		if (strlen(line + 3) >= size)
			break;
		snprintf(path, size, "%s", line + 3);
		found = 0;
	}
	fclose(f);
	if (found < 0)
		snprintf(why, wsize, "its process %ld is in no cgroup v2 group (%s)", pid, file);
	return found;
}

bool ktr_container__named(const char *group)
{
	size_t n = strspn(group, "abcdefghijklmnopqrstuvwxyz");

	return n > 0 && group[n] == ':';
}

int ktr_container__resolve(const char *group, char *path, size_t size, char *why, size_t wsize)
{
	size_t n = strcspn(group, ":");
	const char *name = group + n + 1, *runtime = NULL;
	const char *inspect[] = { NULL, "inspect", "--format", "{{.Id}} {{.State.Pid}} {{.Name}}",
				  name, NULL };
	char out[512], err[KTR_CONTAINER_ERR_MAX], id[80], cname[128] = "";
	long pid;
	int rc;

	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++)
		if (strlen(runtimes[i]) == n && strncmp(group, runtimes[i], n) == 0)
			runtime = runtimes[i];
	if (!runtime) {
		snprintf(why, wsize, "unknown container runtime %.*s (podman or docker)", (int)n,
			 group);
		return -1;
	}
	if (!*name || *name == '-') {
		snprintf(why, wsize, "no container named (%s:NAME or %s:ID)", runtime, runtime);
		return -1;
	}
	inspect[0] = runtime;
	rc = container__run(inspect, out, sizeof(out), err, sizeof(err), why, wsize);
	if (rc < 0)
		return -1;
	if (rc != 0) {
		snprintf(why, wsize, "no such %s container%s%s", runtime, err[0] ? ": " : "", err);
		return -1;
	}
	if (sscanf(out, "%79s %ld %127s", id, &pid, cname) < 2 ||
	    strspn(id, "0123456789abcdef") != strlen(id)) {
		snprintf(why, wsize, "%s inspect said no id and pid", runtime);
		return -1;
	}
	snprintf(last_id, sizeof(last_id), "%s", id);
	/* docker's names begin with a slash; a runtime that says none: as named */
	snprintf(last_name, sizeof(last_name), "%s", cname[0] ? cname + (cname[0] == '/') : name);
	if (pid <= 0)
		return container__place(runtime, name, id, path, size, why, wsize) < 0 ? -1 : 1;
	return container__cgroup(pid, path, size, why, wsize);
}

void ktr_container__label(const char *group, char *label, size_t size)
{
	snprintf(label, size, "%.*s %s %s", (int)strcspn(group, ":"), group, last_name, last_id);
}
