/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The cgroup2 hierarchy as ktraceb -G names a group in it: where it is
 * mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified beside the v1
 * hierarchies of a hybrid system), and a group named by a path, a
 * directory or a systemd unit's name, as its path below the cgroup2 root
 * ("/system.slice/nginx.service") and its id (its directory's inode
 * number, the id the kernel gives BPF).
 */
#ifndef KTRACEB_KTR_CGROUPFS_H
#define KTRACEB_KTR_CGROUPFS_H

#include <stddef.h>
#include <linux/types.h>

/* The cgroup2 mount point, from /proc/self/mountinfo: 0, or -ENOENT if none is mounted. */
int ktr_cgroupfs__mount(char *mnt, size_t size);

/*
 * name as a group below the cgroup2 root mounted at mnt: a path under mnt
 * (/sys/fs/cgroup/unified/app), a path below the root (/system.slice/x,
 * system.slice/x), or a directory's name found in the hierarchy, or a unit
 * systemd names its group (nginx.service).  Its path (below the root,
 * "/" for the root itself) into path (KTR_CGROUP_PATH_MAX bytes) and its
 * id into *id: 0, or -errno with why set (a line, no newline).
 */
int ktr_cgroupfs__resolve(const char *mnt, const char *name, char *path, __u64 *id, char *why,
			  size_t wsize);

/* Is path a well-formed group path: "/" or "/a/b", no "." or ".." or "//", no trailing "/"? */
int ktr_cgroupfs__path_ok(const char *path);

/* The depth of a well-formed path below the root: "/" 0, "/a" 1, "/a/b" 2. */
unsigned int ktr_cgroupfs__level(const char *path);

#endif /* KTRACEB_KTR_CGROUPFS_H */
