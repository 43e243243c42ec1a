// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common/ktr_proc_maps.h"
#include "common/ktr_usdt_notes.h"
#include "common/ktr_usdt_sel.h"
#include "ktr_options.h"
#include "ktr_usdt_list.h"

/* Root reads a user's files with that user's rights (as the daemon's file readers do). */
static void list__drop(uid_t uid, gid_t gid)
{
	if (geteuid() != 0 || uid == 0)
		return;
	if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
		err(EX_OSERR, "-e usdt:list: cannot take uid %u's rights", uid);
}

/* The real uid and gid of process pid. */
static int list__owner(pid_t pid, uid_t *uid, gid_t *gid)
{
	char path[64], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned int id;

		if (sscanf(line, "Uid: %u", &id) == 1)
			*uid = id, found |= 1;
		else if (sscanf(line, "Gid: %u", &id) == 1)
			*gid = id, found |= 2;
	}
	if (f)
		fclose(f);
	return found == 3 ? 0 : -1;
}

/* The program as execvp(3) finds it: into buf, or NULL. */
static const char *list__find(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(name, '/'))
		return name;
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p;) {
		size_t len = strcspn(p, ":");
		struct stat st;

		snprintf(buf, size, "%.*s/%s", (int)(len ? len : 1), len ? p : ".", name);
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
			return buf;
		p += len + (p[len] == ':');
	}
	return NULL;
}

/* One line per probe name of the file open at fd; how many names. */
static int list__file(int fd, const char *path, const struct ktr_usdt_sel *sel)
{
	struct ktr_usdt_note *notes = calloc(KTR_USDT_FILE_NOTES, sizeof(*notes));
	int seen = 0, n = notes ? ktr_usdt_notes__read(fd, notes, KTR_USDT_FILE_NOTES, &seen) : -1,
	    names = 0;

	if (n < 0)
		warnx("%s: cannot read its probe notes%s", path,
		      n == -EFBIG ? ": past the limits" : "");
	for (int i = 0; i < n; i++) {
		const struct ktr_usdt_note *a = &notes[i];
		char probe[2 * KTR_UREC_NAME_MAX];
		bool first = true;
		int sites = 0;

		for (int j = 0; j < n; j++) {
			bool same = !strcmp(notes[j].provider, a->provider) &&
				    !strcmp(notes[j].name, a->name);

			first &= !(same && j < i);
			sites += same;
		}
		if (!first)
			continue;
		snprintf(probe, sizeof(probe), "%s:%s", a->provider, a->name);
		printf("%c %-44s %5d  %-4s  %s\n",
		       ktr_usdt_sel__match(sel, a->provider, a->name) ? '+' : ' ', probe, sites,
		       ktr_usdt_sel__is_hot(a->provider, a->name) ? "high" : "", path);
		names++;
	}
	if (seen > n && n >= 0)
		warnx("%s: only the first %d of its %d probes are armed", path, n, seen);
	free(notes);
	return names;
}

/* The probes of every executable file pid maps; how many names. */
static int list__process(pid_t pid, const struct ktr_usdt_sel *sel)
{
	struct map_line *m = NULL;
	int n = usdt_maps__read(pid, &m), names = 0;
	uid_t uid = 0;
	gid_t gid = 0;

	if (n < 0)
		errx(1, "-e usdt:list: pid %d: cannot read its mappings: %s", pid, strerror(-n));
	if (list__owner(pid, &uid, &gid) < 0)
		errx(1, "-e usdt:list: pid %d: no such process", pid);
	list__drop(uid, gid);
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX + 64];
		bool dup = false;
		int fd;

		for (int j = 0; j < i; j++)
			dup |= m[j].exec && m[j].dev == m[i].dev && m[j].ino == m[i].ino;
		if (!m[i].exec || dup)
			continue;
		/* as the process sees it: its root, its mount namespace */
		snprintf(path, sizeof(path), "/proc/%d/root%s", pid, m[i].path);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0) {
			warn("%s", m[i].path);
			continue;
		}
		names += list__file(fd, m[i].path, sel);
		close(fd);
	}
	free(m);
	return names;
}

int ktr_usdt_list(const struct ktr_options *o, char **command)
{
	struct ktr_usdt_sel sel;
	char buf[PATH_MAX];
	const char *why, *prog;
	struct stat st;
	int fd, names;

	if (ktr_usdt_sel__parse(&sel, o->usdt, &why) < 0)
		errx(EX_SOFTWARE, "-e usdt: %s", why);
	if ((o->pid > 0) == !!command || o->pid < 0)
		errx(EX_USAGE, "-e usdt:list: name one process (-p pid) or one program");
	printf("  %-44s %5s  %-4s  %s\n", "PROBE", "SITES", "RATE", "FILE");
	if (o->pid > 0) {
		names = list__process(o->pid, &sel);
	} else {
		prog = list__find(command[0], buf, sizeof(buf));
		if (!prog || stat(prog, &st) < 0 || !S_ISREG(st.st_mode))
			errx(1, "-e usdt:list: %s: no such program", command[0]);
		list__drop(st.st_uid, st.st_gid);
		fd = open(prog, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			err(1, "%s", prog);
		names = list__file(fd, prog, &sel);
		close(fd);
	}
	if (!names)
		warnx("-e usdt:list: no USDT probes found");
	fflush(stdout);
	return 0;
}
