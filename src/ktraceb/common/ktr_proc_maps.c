// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* /proc/PID/maps, the lines that map a file (ktr_proc_maps.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "ktr_proc_maps.h"

int usdt_maps__read(pid_t pid, struct map_line **out)
{
	char path[64], line[PATH_MAX + 128];
	struct map_line *v = NULL, *tmp;
	int n = 0, cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct map_line m;
		unsigned int maj, min;
		unsigned long ino;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu %n", &m.start, &m.end, perms, &m.pgoff,
			   &maj, &min, &ino, &pos) < 7 ||
		    ino == 0 || line[pos] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line + pos, " (deleted)"))
			continue; /* its path names no file any more */
		m.dev = makedev(maj, min);
		m.ino = ino;
		m.exec = perms[2] == 'x';
		m.write = perms[1] == 'w';
		snprintf(m.path, sizeof(m.path), "%s", line + pos);
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			tmp = reallocarray(v, cap, sizeof(*v));
			if (!tmp) {
				free(v);
				fclose(f);
				return -ENOMEM;
			}
			v = tmp;
		}
		v[n++] = m;
	}
	fclose(f);
	*out = v;
	return n;
}
