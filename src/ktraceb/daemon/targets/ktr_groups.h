/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The traced cgroups (ktraceb -G; bpf_groups.h says how BPF follows them):
 * a slot per group, its state in the groups map, its id and path in
 * group_ids and group_paths, its depth in ktr_group_levels.
 *
 * Setting a group: the caller may trace it (root any group; a user one
 * whose directory is his, and not while Yama restricts ptrace), the
 * directory the caller named is the one here (its id), then BPF is told
 * (the cgroup programs attached, the maps filled, the level's bit set last)
 * before its members are listed from cgroup.procs of it and of each
 * sub-group: a process that enters meanwhile is seen by BPF or by the
 * list.  The members are set as -p sets a process (ktr_policy.h's three
 * steps for a user), those the caller may not trace left out and counted;
 * BPF counts those that enter later.  Each count, when it changes, is a
 * KTR_CGROUP SKIPPED record in the file (ktr_groups__tick).
 *
 * Clearing a group: BPF is told first (live cleared, its ids and path
 * taken out, its level's bit gone unless another group is there), then
 * its processes' entries go: none comes back after.
 */
#ifndef KTRACEB_KTR_GROUPS_H
#define KTRACEB_KTR_GROUPS_H

#include <stdbool.h>
#include <linux/types.h>

struct ktr_bpf;
struct ktr_caller;
struct ktr_conn;
struct ktr_groups;
struct ktr_request;
struct ktr_parts;

struct ktr_groups *ktr_groups__new(struct ktr_bpf *b);
void ktr_groups__free(struct ktr_groups *g);

/*
 * Why a request's cgroup fields are malformed, or NULL; takes: the kind
 * of request takes a cgroup (SET, CLEAR).
 */
const char *ktr_groups__request_bad(const struct ktr_request *req, bool takes);

/*
 * SET -G into route r (joined, its programs attached): the group traced,
 * its processes now set.  How many are traced now (the group itself
 * counts one when none is yet), and *err.
 */
int ktr_groups__set(const struct ktr_parts *k, struct ktr_conn *cn, const struct ktr_request *req,
		    int r, char *msg, int *err);
/*
 * CLEAR -G: the group's facilities req->facs (all if 0) cleared.  1 or 0,
 * and *err; *route: the route of its file if its trace stopped (then the
 * file may end: ktr_stop__cleared), else 0.
 */
int ktr_groups__clear(const struct ktr_parts *k, const struct ktr_caller *c,
		      const struct ktr_request *req, char *msg, int *err, __u32 *route);
/* -c of route r's file (r < 0: -C): the groups c may clear stop.  How many. */
int ktr_groups__clear_route(const struct ktr_parts *k, const struct ktr_caller *c, int r);
/* Route r stops (its file failed, its foreground went): its groups stop. */
void ktr_groups__stop_route(const struct ktr_parts *k, int r);
/* Is a group traced into route r (its file lives on without processes)? */
bool ktr_groups__route(const struct ktr_groups *g, __u32 r);
/* The tick: each group's left-out count, when it changed, into its file. */
void ktr_groups__tick(const struct ktr_parts *k);

#endif /* KTRACEB_KTR_GROUPS_H */
