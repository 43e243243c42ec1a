/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * KTR_CGROUP records (ktraceb -G): what the decoder keeps of them (each
 * process's and thread's ids in its pid namespace, each cgroup id's path),
 * the container a path names, and how the text and JSON outputs show one.
 */
#ifndef KTRACEB_KDUMP_CGROUP_H
#define KTRACEB_KDUMP_CGROUP_H

#include <stdio.h>
#include "kdump_event.h"
#include "kdump_opts.h"

struct kd_cgroups;

struct kd_cgroups *kd_cgroups__new(void);
void kd_cgroups__free(struct kd_cgroups *cg);

/* A KTR_CGROUP record checked and taken into ev->cgroup, and kept; 0 or -ENOMEM. */
int kd_cgroups__decode(struct kd_cgroups *cg, struct kd_event *ev);
/* The ids the record's process and thread have in their pid namespace, 0 if none said. */
void kd_cgroups__ns_ids(const struct kd_cgroups *cg, const struct ktr_header *h, int *ns_pid,
			int *ns_tid);

/*
 * The container a cgroup path names, as "docker 0123456789ab" (docker,
 * podman, systemd-nspawn, machined, containerd, CRI-O), into buf; false
 * if it names none.
 */
bool kd_cgroup_container(const char *path, char *buf, size_t size);

/*
 * Is a record of this kc_what about one process (in, forked, moved, its
 * exec, a thread, left): its pid namespace's ids are in it?
 */
bool kd_cgroup_of_process(__u32 what);

/* The text of a CGRP record (kinds/cgroup.c). */
void kd_body_cgroup(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);

#endif /* KTRACEB_KDUMP_CGROUP_H */
