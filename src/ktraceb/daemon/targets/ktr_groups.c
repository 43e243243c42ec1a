// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The traced cgroups (ktr_groups.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_groups.h"
#include "common/ktr_cgroupfs.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "daemon/programs/ktr_attach.h"
#include "daemon/programs/ktr_bpf.h"
#include "daemon/requests/ktr_conn.h"
#include "daemon/files/ktr_files.h"
#include "ktr_group_members.h"
#include "ktr_groups.h"
#include "ktr_procmap.h"
#include "daemon/requests/ktr_policy.h"
#include "daemon/ktr_parts.h"
#include "daemon/requests/ktr_share.h"
#include "daemon/files/ktr_selection.h"

struct group_slot {
	bool used;
	__u64 id; /* its cgroup's id when its trace began */
	char path[KTR_CGROUP_PATH_MAX];
	__u32 route;
	uid_t owner; /* who set it */
	bool root; /* root's: KTRFAC_ROOT, and no user clears it */
	__u32 level;
	__u64 listed_out[KTR_CGROUP_SKIPS]; /* members the daemon left out */
	__u64 said[KTR_CGROUP_SKIPS]; /* the counts in its file's last SKIPPED record */
};

struct ktr_groups {
	int groups_fd, ids_fd, paths_fd;
	__u64 *levels; /* ktr_group_levels, in the mapped .bss */
	unsigned int nused;
	struct group_slot slot[KTR_MAX_GROUPS]; /* slot 0: none */
};

struct ktr_groups *ktr_groups__new(struct ktr_bpf *b)
{
	struct ktr_groups *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->groups_fd = ktr_bpf__map_fd(b, groups);
	g->ids_fd = ktr_bpf__map_fd(b, group_ids);
	g->paths_fd = ktr_bpf__map_fd(b, group_paths);
	g->levels = &b->bss->ktr_group_levels;
	return g;
}

void ktr_groups__free(struct ktr_groups *g)
{
	free(g);
}

const char *ktr_groups__request_bad(const struct ktr_request *req, bool takes)
{
	static const char zero[KTR_CGROUP_PATH_MAX];
	size_t n = strnlen(req->cgroup, sizeof(req->cgroup));

	if (!(req->flags & KTR_REQ_CGROUP))
		return req->cgroup_id || memcmp(req->cgroup, zero, sizeof(zero)) ?
			       "a cgroup without the cgroup flag" :
			       NULL;
	if (!takes)
		return "a cgroup only SET and CLEAR take";
	if (n == sizeof(req->cgroup) || memcmp(req->cgroup + n, zero, sizeof(zero) - n))
		return "cgroup path not NUL-padded";
	if (!ktr_cgroupfs__path_ok(req->cgroup))
		return "not a cgroup path";
	if (ktr_cgroupfs__level(req->cgroup) >= KTR_GROUP_LEVELS)
		return "a cgroup nested too deep (32 levels at most)";
	if (req->pid || (req->flags & (KTR_REQ_DESCEND | KTR_REQ_AWAIT_EXEC | KTR_REQ_SYSWIDE)))
		return "a cgroup with a process, -d or -S";
	if (req->facs & KTRFAC_INHERIT)
		return "a cgroup's processes are followed by their group, not inherited (-i)";
	if ((req->flags & KTR_REQ_CGROUP_WAIT) && req->cgroup_id)
		return "a cgroup to wait for with an id";
	n = strnlen(req->container, sizeof(req->container));
	if (n == sizeof(req->container) ||
	    memcmp(req->container + n, zero, sizeof(req->container) - n))
		return "container name not NUL-padded";
	return NULL;
}

/* The slot of the group at path, 0 if it is not traced. */
static __u32 groups__find(const struct ktr_groups *g, const char *path)
{
	for (__u32 s = 1; s < KTR_MAX_GROUPS; s++)
		if (g->slot[s].used && strcmp(g->slot[s].path, path) == 0)
			return s;
	return 0;
}

/* Every traced group's level, a bit each, into .bss: what BPF looks up at. */
static void groups__levels(struct ktr_groups *g)
{
	__u64 levels = 0;

	for (__u32 s = 1; s < KTR_MAX_GROUPS; s++)
		if (g->slot[s].used)
			levels |= 1ull << g->slot[s].level;
	__atomic_store_n(g->levels, levels, __ATOMIC_SEQ_CST);
}

/*
 * The group of slot s untraced: BPF first (not live, no id, no path),
 * then its processes' entries; its slot free.
 */
static void groups__drop(const struct ktr_parts *k, __u32 s)
{
	struct ktr_groups *g = k->groups;
	struct group_slot *gs = &g->slot[s];
	struct ktr_group_path key = { 0 };
	struct ktr_group zero = { 0 };
	__u64 id, next, *prev = NULL;
	__u32 *keys, v;
	int n;

	bpf_map_update_elem(g->groups_fd, &s, &zero, BPF_ANY);
	snprintf(key.path, sizeof(key.path), "%s", gs->path);
	bpf_map_delete_elem(g->paths_fd, &key);
	while (bpf_map_get_next_key(g->ids_fd, prev, &next) == 0) {
		id = next;
		if (bpf_map_lookup_elem(g->ids_fd, &id, &v) == 0 && v == s) {
			bpf_map_delete_elem(g->ids_fd, &id);
			prev = NULL; /* deleting while walking: from the start again */
			continue;
		}
		prev = &id;
	}
	gs->used = false;
	g->nused--;
	groups__levels(g);
	n = ktr_procmap__keys(k->procs, gs->route, &keys);
	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;

		if (ktr_procmap__get(k->procs, keys[i], &ps) && (ps.flags & KTR_PS_GROUP) &&
		    ps.group == s)
			ktr_procmap__drop(k->procs, keys[i]);
	}
	free(keys);
	if (!g->nused)
		ktr_attach__groups(k->attach, false);
}

/* The group's state in BPF (live), and its processes' entries the same. */
static int groups__put(const struct ktr_parts *k, __u32 s, const struct ktr_group *grp)
{
	struct ktr_groups *g = k->groups;
	__u32 *keys;
	int n;

	if (bpf_map_update_elem(g->groups_fd, &s, grp, BPF_ANY) < 0)
		return -errno;
	n = ktr_procmap__keys(k->procs, -1, &keys);
	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;

		if (ktr_procmap__get(k->procs, keys[i], &ps) && (ps.flags & KTR_PS_GROUP) &&
		    ps.group == s)
			ktr_procmap__put(k->procs, keys[i], &grp->ps, BPF_EXIST);
	}
	free(keys);
	return 0;
}

/*
 * May c trace the group whose directory is st, untraced until now (the
 * one check, ktr_perm.h: its owner is its directory's, a user traces only
 * a group delegated to him)?  0, or -EPERM with a line in msg.
 */
static int groups__may(const struct ktr_caller *c, const char *path, const struct stat *st,
		       char *msg)
{
	struct ktr_perm_no no;
	int err = ktr_perm__canset(c, &(struct ktr_target){ .owner = st->st_uid }, &no);

	if (err && no.skip == KTR_CGROUP_SKIP_NOT_YOURS)
		ktr_proto__msg_add(msg,
				   "-G %s: %s (its directory is uid %u's): a user traces only a "
				   "group delegated to him\n",
				   path, no.why, (unsigned int)st->st_uid);
	else if (err)
		ktr_proto__msg_add(msg, "-G %s: %s\n", path, no.why);
	return err;
}

/*
 * The group the request names, as this daemon sees it: its directory's
 * stat.  0, 1 for a group to wait for that is not there yet (st zeroed),
 * or -errno.
 */
static int groups__open(const struct ktr_request *req, struct stat *st, char *msg)
{
	char mnt[PATH_MAX], full[PATH_MAX + KTR_CGROUP_PATH_MAX];
	bool waits = req->flags & KTR_REQ_CGROUP_WAIT;
	int rc;

	if (ktr_cgroupfs__mount(mnt, sizeof(mnt)) < 0) {
		ktr_proto__msg_add(msg, "-G: the daemon sees no cgroup2 file system mounted\n");
		return -ENOENT;
	}
	snprintf(full, sizeof(full), "%s%s", mnt, strcmp(req->cgroup, "/") ? req->cgroup : "");
	rc = stat(full, st);
	if (rc < 0 && errno == ENOENT && waits) {
		memset(st, 0, sizeof(*st));
		return 1;
	}
	if (rc < 0 || !S_ISDIR(st->st_mode)) {
		ktr_proto__msg_add(msg, "-G %s: no such group\n", req->cgroup);
		return -ENOENT;
	}
	if (st->st_ino != req->cgroup_id && !waits) {
		ktr_proto__msg_add(msg, "-G %s: another group now (removed and made again?)\n",
				   req->cgroup);
		return -ESTALE;
	}
	return 0;
}

/*
 * May c wait for the group at path, not there yet?  Root may.  A user may
 * where Yama lets him trace and below a group of his own: the deepest
 * group of the path that is there already must be his (a user's own
 * delegated tree, as a rootless podman's), so that no user holds a path
 * where another user's or root's group will be made.  The group, when it
 * is made, is taken only if its directory is his (cgroup.bpf.c's
 * cgroup_mkdir).  0, or -EPERM with a line in msg.
 */
static int groups__may_wait(const struct ktr_caller *c, const char *path, char *msg)
{
	char full[PATH_MAX + KTR_CGROUP_PATH_MAX], *cut;
	const char *why = NULL;
	struct stat st;
	size_t base;

	memset(&st, 0, sizeof(st));
	if (c->uid == 0)
		return 0;
	if (ktr_perm__yama(-1, false, &why) != 0) {
		ktr_proto__msg_add(msg, "-G %s: %s\n", path, why);
		return -EPERM;
	}
	if (ktr_cgroupfs__mount(full, sizeof(full)) < 0)
		return -ENOENT;
	base = strlen(full);
	snprintf(full + base, sizeof(full) - base, "%s", path);
	do {
		cut = strrchr(full + base, '/');
		if (!cut)
			break;
		*cut = '\0';
	} while (lstat(full, &st) < 0 && full[base]);
	if (!full[base] && lstat(full, &st) < 0)
		return -ENOENT;
	if (S_ISDIR(st.st_mode) && st.st_uid == c->uid)
		return 0;
	ktr_proto__msg_add(msg, "-G %s: not there yet, and not below a group of yours\n", path);
	return -EPERM;
}

/*
 * A free slot for a new group of c's, within c's share of them
 * (ktr_share.h: users' groups are those root did not set), or 0 with a
 * line in msg.
 */
static __u32 groups__new_slot(struct ktr_groups *g, const struct ktr_caller *c, const char *path,
			      char *msg)
{
	unsigned long long mine = 0, all = 0;
	char why[160];
	__u32 slot = 0;

	for (__u32 s = KTR_MAX_GROUPS - 1; s >= 1; s--) {
		const struct group_slot *gs = &g->slot[s];

		if (!gs->used) {
			slot = s; /* the first free one, when the loop ends */
		} else if (!gs->root) {
			all++;
			mine += gs->owner == c->uid;
		}
	}
	if (ktr_share__may(KTR_POOL_GROUPS, c->uid, mine, all, 1, why, sizeof(why)) < 0) {
		ktr_proto__msg_add(msg, "-G %s: %s\n", path, why);
		return 0;
	}
	if (!slot)
		ktr_proto__msg_add(msg, "-G %s: %d groups are traced already\n", path,
				   KTR_MAX_GROUPS - 1);
	return slot;
}

/* The state a group traced by c into route r gives its processes. */
static void groups__state(const struct ktr_parts *k, const struct ktr_caller *c,
			  const struct ktr_request *req, int r, __u32 s, struct ktr_group *grp)
{
	struct ktr_request eff;
	const struct ktr_request *fr = ktr_policy__for_file(k, req, r, &eff);

	memset(grp, 0, sizeof(*grp));
	grp->ps.facs = (fr->facs & KTR_REQ_FACS) | (c->uid == 0 ? KTRFAC_ROOT : 0);
	grp->ps.route = r;
	grp->ps.flags = KTR_PS_GROUP;
	grp->ps.sv_flags = KTR_SV_LINUX_AMD64;
	grp->ps.iosize = req->iosize;
	grp->ps.select = ktr_selection__slot(k->selection, r);
	grp->ps.group = s;
	grp->uid = c->uid;
	grp->gid = c->gid;
	grp->live = 1;
	grp->level = ktr_cgroupfs__level(req->cgroup);
	snprintf(grp->path, sizeof(grp->path), "%s", req->cgroup);
}

/* BPF told of the new group of slot s: its programs, state, id, path, level last.  0 or -errno. */
static int groups__start(const struct ktr_parts *k, __u32 s, const struct ktr_group *grp, __u64 id,
			 char *msg)
{
	struct ktr_groups *g = k->groups;
	struct ktr_group_path key = { 0 };
	const char *why = NULL;
	int err = ktr_attach__load_groups(k->attach, &why);

	if (err) {
		ktr_proto__msg_add(msg, "-G: cgroups are not traced on this kernel: %s\n", why);
		return err;
	}
	err = ktr_attach__groups(k->attach, true);
	snprintf(key.path, sizeof(key.path), "%s", grp->path);
	if (!err && bpf_map_update_elem(g->groups_fd, &s, grp, BPF_ANY) < 0)
		err = -errno;
	/* a group not made yet (id 0) is found by its path when it is */
	if (!err && id && bpf_map_update_elem(g->ids_fd, &id, &s, BPF_ANY) < 0)
		err = -errno;
	if (!err && bpf_map_update_elem(g->paths_fd, &key, &s, BPF_ANY) < 0)
		err = -errno;
	if (err) {
		ktr_proto__msg_add(msg, "-G %s: cannot trace it: %s\n", grp->path, strerror(-err));
		bpf_map_delete_elem(g->ids_fd, &id);
		bpf_map_delete_elem(g->paths_fd, &key);
		if (!g->nused)
			ktr_attach__groups(k->attach, false);
		return err;
	}
	g->slot[s] = (struct group_slot){ .used = true,
					  .id = id,
					  .route = grp->ps.route,
					  .level = grp->level,
					  .owner = grp->uid,
					  .root = (grp->ps.facs & KTRFAC_ROOT) != 0 };
	snprintf(g->slot[s].path, sizeof(g->slot[s].path), "%s", grp->path);
	g->nused++;
	groups__levels(g);
	return 0;
}

/*
 * May c change group gs, traced again or cleared (the one check,
 * ktr_perm.h: root any, a user only his own, never root's)?  0, or -EPERM
 * with a line in msg (unless msg is NULL).
 */
static int groups__may_change(const struct group_slot *gs, const struct ktr_caller *c,
			      const char *path, char *msg)
{
	struct ktr_perm_no no;
	int err = ktr_perm__canset(
		c, &(struct ktr_target){ .owner = gs->owner, .facs = gs->root ? KTRFAC_ROOT : 0 },
		&no);

	if (err && msg)
		ktr_proto__msg_add(msg, "-G %s: %s\n", path, no.why);
	return err;
}

/* A group traced already: moved to this file (BSD's ktrops), if c may.  0 or -errno. */
static int groups__move(const struct ktr_parts *k, const struct ktr_caller *c, __u32 s,
			struct ktr_group *grp, char *msg)
{
	struct group_slot *gs = &k->groups->slot[s];
	struct ktr_group old;
	int err = groups__may_change(gs, c, gs->path, msg);

	if (err)
		return err;
	if (bpf_map_lookup_elem(k->groups->groups_fd, &s, &old) == 0 &&
	    old.ps.route == grp->ps.route)
		grp->ps.facs |= old.ps.facs; /* the same file: the facilities or'ed */
	err = groups__put(k, s, grp);
	if (err)
		return err;
	/* root's now, if root moved it: no user changes it after (BSD's ktrops) */
	gs->route = grp->ps.route;
	gs->owner = grp->uid;
	gs->root = (grp->ps.facs & KTRFAC_ROOT) != 0;
	return 0;
}

/* The left-out counts, if any, in the answer. */
static void groups__say_out(const char *path, const __u64 out[KTR_CGROUP_SKIPS], char *msg)
{
	static const char *const what[KTR_CGROUP_SKIPS] = {
		"another user's",
		"set-id or privileged",
		"traced by root",
		"traced already",
	};
	char line[256];
	size_t used = 0;

	for (int i = 0; i < KTR_CGROUP_SKIPS; i++)
		if (out[i] && used < sizeof(line))
			used += snprintf(line + used, sizeof(line) - used, "%s%llu %s",
					 used ? ", " : "", (unsigned long long)out[i], what[i]);
	if (used)
		ktr_proto__msg_add(msg, "-G %s: processes not traced: %s\n", path, line);
}

int ktr_groups__set(const struct ktr_parts *k, struct ktr_conn *cn, const struct ktr_request *req,
		    int r, char *msg, int *err)
{
	const struct ktr_caller *c = ktr_conn__caller(cn);
	struct ktr_groups *g = k->groups;
	char mnt[PATH_MAX];
	struct ktr_group grp;
	struct stat st;
	__u32 s;
	int done;

	*err = groups__open(req, &st, msg);
	if (*err == 1)
		*err = groups__may_wait(c, req->cgroup, msg);
	else if (!*err)
		*err = groups__may(c, req->cgroup, &st, msg);
	if (*err)
		return 0;
	s = groups__find(g, req->cgroup);
	if (s) {
		groups__state(k, c, req, r, s, &grp);
		*err = groups__move(k, c, s, &grp, msg);
	} else if ((s = groups__new_slot(g, c, req->cgroup, msg))) {
		groups__state(k, c, req, r, s, &grp);
		*err = groups__start(k, s, &grp, st.st_ino, msg);
	} else {
		*err = -ENOSPC;
	}
	if (*err)
		return 0;
	ktr_cgroupfs__mount(mnt, sizeof(mnt));
	if (req->container[0])
		ktr_group_members__container(ktr_files__get(k->files, r), g->slot[s].id,
					     req->container);
	done = ktr_group_members__set(k, c, &grp.ps, mnt, req->cgroup, g->slot[s].listed_out);
	groups__say_out(req->cgroup, g->slot[s].listed_out, msg);
	if (req->flags & KTR_REQ_FOREGROUND)
		ktr_tracefile__wait(ktr_files__get(k->files, r), cn);
	ktr_attach__more(k->attach, req->facs);
	if (req->flight_bytes)
		ktr_attach__pins(k->attach, ktr_files__recording(k->files));
	ktr_groups__tick(k);
	return done ? done : 1; /* the group is traced, with or without processes yet */
}

int ktr_groups__clear(const struct ktr_parts *k, const struct ktr_caller *c,
		      const struct ktr_request *req, char *msg, int *err, __u32 *route)
{
	__u32 s = groups__find(k->groups, req->cgroup), facs = req->facs & KTRFAC_MASK;
	struct group_slot *gs = &k->groups->slot[s];
	struct ktr_group grp;

	*err = 0;
	*route = 0;
	if (!s)
		return 0; /* BSD: clearing what is not traced succeeds */
	*err = groups__may_change(gs, c, req->cgroup, msg);
	if (*err)
		return 0;
	if (facs && bpf_map_lookup_elem(k->groups->groups_fd, &s, &grp) == 0 &&
	    (grp.ps.facs & KTRFAC_MASK & ~facs)) {
		grp.ps.facs &= ~facs;
		*err = groups__put(k, s, &grp);
		return !*err;
	}
	*route = gs->route;
	groups__drop(k, s);
	return 1;
}

int ktr_groups__clear_route(const struct ktr_parts *k, const struct ktr_caller *c, int r)
{
	int done = 0;

	for (__u32 s = 1; s < KTR_MAX_GROUPS; s++) {
		struct group_slot *gs = &k->groups->slot[s];

		if (gs->used && (r < 0 || gs->route == (__u32)r) &&
		    groups__may_change(gs, c, gs->path, NULL) == 0) {
			groups__drop(k, s);
			done++;
		}
	}
	return done;
}

void ktr_groups__stop_route(const struct ktr_parts *k, int r)
{
	for (__u32 s = 1; s < KTR_MAX_GROUPS; s++)
		if (k->groups->slot[s].used && k->groups->slot[s].route == (__u32)r)
			groups__drop(k, s);
}

bool ktr_groups__route(const struct ktr_groups *g, __u32 r)
{
	for (__u32 s = 1; g->nused && s < KTR_MAX_GROUPS; s++)
		if (g->slot[s].used && g->slot[s].route == r)
			return true;
	return false;
}

void ktr_groups__tick(const struct ktr_parts *k)
{
	struct ktr_groups *g = k->groups;

	for (__u32 s = 1; g->nused && s < KTR_MAX_GROUPS; s++) {
		struct group_slot *gs = &g->slot[s];
		struct ktr_tracefile *f;
		__u64 now[KTR_CGROUP_SKIPS];
		struct ktr_group grp;

		if (!gs->used || bpf_map_lookup_elem(g->groups_fd, &s, &grp) < 0)
			continue;
		for (int i = 0; i < KTR_CGROUP_SKIPS; i++)
			now[i] = grp.skipped[i] + gs->listed_out[i];
		if (!memcmp(now, gs->said, sizeof(now)))
			continue;
		f = ktr_files__get(k->files, gs->route);
		if (f)
			ktr_group_members__skipped(f, gs->id, gs->path, now);
		memcpy(gs->said, now, sizeof(now));
	}
}
