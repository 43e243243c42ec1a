/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The files a process maps, as /proc/PID/maps lists them: read by the
 * daemon for the USDT probes of a traced process (daemon/ktr_usdt.c), and
 * by ktraceb -e usdt:list (client/ktr_usdt_list.c).
 */
#ifndef KTRACEB_KTR_PROC_MAPS_H
#define KTRACEB_KTR_PROC_MAPS_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

/* One line of /proc/PID/maps that maps a file. */
struct map_line {
	unsigned long start, end, pgoff;
	dev_t dev;
	ino_t ino;
	bool exec, write;
	char path[PATH_MAX];
};

/*
 * The lines of pid's maps that map a file still there, into *out
 * (malloc'ed): how many, or -errno.
 */
int usdt_maps__read(pid_t pid, struct map_line **out);

#endif /* KTRACEB_KTR_PROC_MAPS_H */
