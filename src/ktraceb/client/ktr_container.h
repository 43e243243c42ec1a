/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * -G RUNTIME:NAME, a container by its runtime and its name or id
 * (podman:web, docker:3f2a...): the runtime's own CLI, run as the caller,
 * says the container's id, its first process and its name (`inspect
 * --format '{{.Id}} {{.State.Pid}} {{.Name}}'`), and that process's /proc/PID/cgroup says its
 * group, whatever the runtime's layout (machine.slice/libpod-ID.scope, a
 * user's slice for a rootless podman, system.slice/docker-ID.scope,
 * /docker/ID under cgroupfs).  A container made but not started
 * (`podman create`, `docker create`, or stopped) has no process: its group
 * is where the runtime will make it, from the runtime's cgroup manager
 * and the parent the container was created with, and the daemon traces
 * it from when it is made (KTR_REQ_CGROUP_WAIT), so from the container's
 * first process.  The client resolves; the daemon still checks that the
 * caller may trace the group.
 */
#ifndef KTRACEB_KTR_CONTAINER_H
#define KTRACEB_KTR_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>

/* Does -G's name take the RUNTIME:NAME form (a word of a-z, a colon, a name)? */
bool ktr_container__named(const char *group);

/*
 * The group of the container group names (RUNTIME:NAME): its path below
 * the cgroup2 root into path (size bytes), 0; 1 if the container is not
 * running, path the group it will have; or -1 with why set (a line, no
 * newline): an unknown runtime, a CLI that cannot run, an unknown
 * container, one not running whose group cannot be told.
 */
int ktr_container__resolve(const char *group, char *path, size_t size, char *why, size_t wsize);

/*
 * The container group names (RUNTIME:NAME, resolved by
 * ktr_container__resolve), as the trace names it: "RUNTIME NAME ID" into
 * label (size bytes), its name and full id as the runtime said them in
 * the last resolve.
 */
void ktr_container__label(const char *group, char *label, size_t size);

#endif /* KTRACEB_KTR_CONTAINER_H */
