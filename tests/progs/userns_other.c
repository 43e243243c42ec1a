// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * userns_other UID GID CMD [ARGS...]: run as root.  Runs CMD with the ids
 * UID and GID and every capability, in a user namespace root made: its
 * uid 0 is UID outside.  Unlike a rootless container's process (a
 * namespace UID made himself), its capabilities are not UID's to hand out,
 * and UID may not trace it (t_cgroup.sh).  Exits with CMD's status.
 */
#define _GNU_SOURCE
#include <err.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Write text to /proc/PID/NAME. */
static void write_proc(pid_t pid, const char *name, const char *text)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		err(1, "%s", path);
	close(fd);
}

int main(int argc, char **argv)
{
	int ready[2], mapped[2], status;
	char map[64], c;
	pid_t pid;

	if (argc < 4)
		errx(2, "usage: userns_other UID GID CMD [ARGS...]");
	if (pipe(ready) < 0 || pipe(mapped) < 0)
		err(1, "pipe");
	pid = fork();
	if (pid < 0)
		err(1, "fork");
	if (pid == 0) {
		/* no supplementary group of root's comes along */
		if (setgroups(0, NULL) < 0 || unshare(CLONE_NEWUSER) < 0)
			err(1, "user namespace");
		if (write(ready[1], "r", 1) != 1 || read(mapped[0], &c, 1) != 1)
			errx(1, "the parent went away");
		if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
			err(1, "ids in the namespace");
		execvp(argv[3], argv + 3);
		err(127, "%s", argv[3]);
	}
	if (read(ready[0], &c, 1) != 1)
		errx(1, "the child went away");
	snprintf(map, sizeof(map), "0 %s 1\n", argv[1]);
	write_proc(pid, "uid_map", map);
	write_proc(pid, "setgroups", "deny");
	snprintf(map, sizeof(map), "0 %s 1\n", argv[2]);
	write_proc(pid, "gid_map", map);
	if (write(mapped[1], "m", 1) != 1)
		err(1, "pipe");
	if (waitpid(pid, &status, 0) < 0)
		err(1, "waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
