// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* KTR_CGROUP records (kdump_cgroup.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_cgroup.h"
#include "kdump_data.h"
#include "kdump_map.h"

#define MAX_PATHS 65536 /* cgroup ids whose paths are kept */

struct kd_cgroup_path {
	__u64 id;
	char *path;
};

/* A container a CONTAINER record named: "runtime id" (the id's first 12) and its name. */
struct kd_cgroup_box {
	char box[80];
	char *name;
};

struct kd_cgroups {
	struct kd_map ns; /* tid -> v1: its id in its pid namespace; v2: its process's */
	struct kd_cgroup_path *paths;
	size_t npaths, cap;
	struct kd_cgroup_box *boxes;
	size_t nboxes;
};

struct kd_cgroups *kd_cgroups__new(void)
{
	return calloc(1, sizeof(struct kd_cgroups));
}

void kd_cgroups__free(struct kd_cgroups *cg)
{
	if (!cg)
		return;
	kd_map__free(&cg->ns);
	for (size_t i = 0; i < cg->npaths; i++)
		free(cg->paths[i].path);
	free(cg->paths);
	for (size_t i = 0; i < cg->nboxes; i++)
		free(cg->boxes[i].name);
	free(cg->boxes);
	free(cg);
}

static const char *cgroups__path(const struct kd_cgroups *cg, __u64 id)
{
	for (size_t i = cg->npaths; i-- > 0;)
		if (cg->paths[i].id == id)
			return cg->paths[i].path;
	return NULL;
}

/* id is the group at path (ids are never used again: the first path stays). */
static int cgroups__name(struct kd_cgroups *cg, __u64 id, const char *path)
{
	struct kd_cgroup_path *tmp;

	if (!id || !path[0] || cgroups__path(cg, id) || cg->npaths >= MAX_PATHS)
		return 0;
	if (cg->npaths == cg->cap) {
		cg->cap = cg->cap ? 2 * cg->cap : 16;
		tmp = reallocarray(cg->paths, cg->cap, sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		cg->paths = tmp;
	}
	cg->paths[cg->npaths].id = id;
	cg->paths[cg->npaths].path = strdup(path);
	if (!cg->paths[cg->npaths].path)
		return -ENOMEM;
	cg->npaths++;
	return 0;
}

/* A CONTAINER record's "RUNTIME NAME ID": the container's name kept for its "runtime id". */
static int cgroups__box(struct kd_cgroups *cg, const char *label)
{
	char runtime[32], name[256], id[80];
	struct kd_cgroup_box *tmp;

	if (sscanf(label, "%31s %255s %79s", runtime, name, id) != 3 || cg->nboxes >= MAX_PATHS)
		return 0;
	tmp = reallocarray(cg->boxes, cg->nboxes + 1, sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	cg->boxes = tmp;
	snprintf(tmp[cg->nboxes].box, sizeof(tmp[cg->nboxes].box), "%s %.12s", runtime, id);
	tmp[cg->nboxes].name = strdup(name);
	if (!tmp[cg->nboxes].name)
		return -ENOMEM;
	cg->nboxes++;
	return 0;
}

/* The name a CONTAINER record gave the container path is in, NULL if none. */
static const char *cgroups__box_name(const struct kd_cgroups *cg, const char *path)
{
	char box[300];

	if (!cg->nboxes || !kd_cgroup_container(path, box, sizeof(box)))
		return NULL;
	for (size_t i = cg->nboxes; i-- > 0;)
		if (strcmp(cg->boxes[i].box, box) == 0)
			return cg->boxes[i].name;
	return NULL;
}

bool kd_cgroup_of_process(__u32 what)
{
	return (what >= KTR_CGROUP_MEMBER && what <= KTR_CGROUP_LEFT) || what == KTR_CGROUP_EXEC;
}

int kd_cgroups__decode(struct kd_cgroups *cg, struct kd_event *ev)
{
	struct ktr_cgroup *c = &ev->cgroup.c;
	const char *path = (const char *)ev->data + sizeof(*c);
	struct kd_map_ent *e;
	int err = 0;

	if (ev->len <= sizeof(*c) ||
	    strnlen(path, ev->len - sizeof(*c)) + 1 != ev->len - sizeof(*c))
		return ev->valid = false, 0;
	memcpy(c, ev->data, sizeof(*c));
	if (c->kc_what < KTR_CGROUP_MEMBER || c->kc_what > KTR_CGROUP_EXEC)
		return ev->valid = false, 0;
	ev->cgroup.path = path;
	ev->cgroup.name = NULL;
	if (c->kc_what == KTR_CGROUP_CONTAINER)
		return cgroups__box(cg, path);
	if (kd_cgroup_of_process(c->kc_what) && c->kc_what != KTR_CGROUP_LEFT && c->kc_ns_tid > 0) {
		e = kd_map__add(&cg->ns, ev->h->ktr_tid);
		if (!e)
			return -ENOMEM;
		e->v1 = (__u32)c->kc_ns_tid;
		e->v2 = c->kc_ns_pid;
	}
	if (!(c->kc_flags & KTR_CGROUP_F_GROUP_PATH) && c->kc_what != KTR_CGROUP_SKIPPED)
		err = cgroups__name(cg, c->kc_id, path);
	ev->cgroup.exact = cgroups__path(cg, c->kc_id);
	if (c->kc_what != KTR_CGROUP_SKIPPED)
		ev->cgroup.name = cgroups__box_name(cg, ev->cgroup.exact ? ev->cgroup.exact : path);
	return err;
}

void kd_cgroups__ns_ids(const struct kd_cgroups *cg, const struct ktr_header *h, int *ns_pid,
			int *ns_tid)
{
	const struct kd_map_ent *t = kd_map__get(&cg->ns, h->ktr_tid);
	const struct kd_map_ent *p = kd_map__get(&cg->ns, h->ktr_pid);

	*ns_tid = t ? (int)t->v1 : 0;
	*ns_pid = t ? (int)t->v2 : p ? (int)p->v2 : 0;
}

/* s without prefix and suffix, if it has both, into buf (at most 12 of an id's characters). */
static bool cut(const char *s, const char *prefix, const char *suffix, size_t most, char *buf,
		size_t size)
{
	size_t n = strlen(s), p = strlen(prefix), q = strlen(suffix);

	if (n <= p + q || strncmp(s, prefix, p) || strcmp(s + n - q, suffix))
		return false;
	n -= p + q;
	if (n > most)
		n = most;
	if (n >= size)
		n = size - 1;
	memcpy(buf, s + p, n);
	buf[n] = '\0';
	return true;
}

/* systemd's escapes in a unit name (\x2d for '-'), undone in place. */
static void unescape(char *s)
{
	char *w = s;

	for (const char *r = s; *r; r++) {
		unsigned int c;

		if (r[0] == '\\' && r[1] == 'x' && sscanf(r + 2, "%2x", &c) == 1) {
			*w++ = (char)c;
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* One path component as a container, "runtime name", into buf; false if it is none. */
static bool container_of(const char *comp, const char *parent, char *buf, size_t size)
{
	static const struct {
		const char *runtime, *prefix, *suffix;
		size_t most; /* an id's first characters; a name whole */
	} forms[] = {
		{ "docker", "docker-", ".scope", 12 },
		{ "podman", "libpod-", ".scope", 12 },
		{ "containerd", "cri-containerd-", ".scope", 12 },
		{ "cri-o", "crio-", ".scope", 12 },
		{ "systemd-nspawn", "systemd-nspawn@", ".service", 255 },
		{ "machine", "machine-", ".scope", 255 },
	};
	char name[256];

	if (strncmp(comp, "libpod-conmon-", 14) == 0)
		return false; /* podman's monitor, beside the container */
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (!cut(comp, forms[i].prefix, forms[i].suffix, forms[i].most, name,
			 sizeof(name)) &&
		    !(i == 1 && cut(comp, "libpod-", "", 12, name, sizeof(name))))
			continue;
		unescape(name);
		snprintf(buf, size, "%s %s", forms[i].runtime, name);
		return true;
	}
	/* docker's cgroupfs driver: /docker/<id> */
	if (parent && strcmp(parent, "docker") == 0 && strlen(comp) == 64) {
		snprintf(buf, size, "docker %.12s", comp);
		return true;
	}
	return false;
}

bool kd_cgroup_container(const char *path, char *buf, size_t size)
{
	char copy[KTR_CGROUP_PATH_MAX], *save = NULL, *parent = NULL;
	bool found = false;

	snprintf(copy, sizeof(copy), "%s", path);
	for (char *c = strtok_r(copy, "/", &save); c; parent = c, c = strtok_r(NULL, "/", &save))
		found |= container_of(c, parent, buf, size); /* the innermost wins */
	return found;
}

static void body_skipped(FILE *out, const struct ktr_cgroup *c)
{
	static const char *const what[KTR_CGROUP_SKIPS] = {
		"another user's",
		"set-id or privileged",
		"traced by root",
		"traced already",
	};
	bool any = false;

	for (int i = 0; i < KTR_CGROUP_SKIPS; i++)
		if (c->kc_skipped[i]) {
			fprintf(out, "%s%llu %s", any ? ", " : "",
				(unsigned long long)c->kc_skipped[i], what[i]);
			any = true;
		}
	if (!any)
		fputs("none", out);
}

/* Where the record's process is: its cgroup's path as the trace named it. */
static void body_where(FILE *out, const struct kd_event *ev)
{
	const struct ktr_cgroup *c = &ev->cgroup.c;
	const char *path = ev->cgroup.exact ? ev->cgroup.exact : ev->cgroup.path;
	char box[300];

	kd_putquoted(out, path, strlen(path));
	if (!ev->cgroup.exact && (c->kc_flags & KTR_CGROUP_F_GROUP_PATH))
		fprintf(out, " (or its sub-group of id %llu)", (unsigned long long)c->kc_id);
	if (!kd_cgroup_container(path, box, sizeof(box)))
		return;
	/* names from the trace file, which may hold any byte: escaped */
	fputs(", container ", out);
	if (ev->cgroup.name) { /* "runtime name id", as the trace named it */
		ktr_put_escaped(out, box, strcspn(box, " "), KTR_ESC_CR);
		fputc(' ', out);
		ktr_put_escaped(out, ev->cgroup.name, strlen(ev->cgroup.name), KTR_ESC_CR);
		ktr_put_escaped(out, box + strcspn(box, " "), strlen(box + strcspn(box, " ")),
				KTR_ESC_CR);
	} else {
		ktr_put_escaped(out, box, strlen(box), KTR_ESC_CR);
	}
}

void kd_body_cgroup(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	static const char *const what[] = {
		[KTR_CGROUP_MEMBER] = "in ",
		[KTR_CGROUP_FORKED] = "forked in ",
		[KTR_CGROUP_MOVED] = "moved into ",
		[KTR_CGROUP_THREAD] = "new thread",
		[KTR_CGROUP_LEFT] = "moved out to ",
		[KTR_CGROUP_MADE] = "group made: ",
		[KTR_CGROUP_REMOVED] = "group removed: ",
		[KTR_CGROUP_SKIPPED] = "",
		[KTR_CGROUP_CONTAINER] = "container ",
		[KTR_CGROUP_EXEC] = "traced from its exec in ",
	};
	const struct ktr_cgroup *c = &ev->cgroup.c;

	fputs(what[c->kc_what], out);
	if (c->kc_what == KTR_CGROUP_SKIPPED) {
		kd_putquoted(out, ev->cgroup.path, strlen(ev->cgroup.path));
		fputs(": processes not traced: ", out);
		body_skipped(out, c);
		return;
	}
	if (c->kc_what == KTR_CGROUP_CONTAINER) {
		/* "RUNTIME NAME ID": the group is that container */
		ktr_put_escaped(out, ev->cgroup.path, strlen(ev->cgroup.path), KTR_ESC_CR);
		return;
	}
	if (c->kc_what != KTR_CGROUP_THREAD)
		body_where(out, ev);
	if (c->kc_what == KTR_CGROUP_MEMBER)
		fputs(" when the trace began", out);
	if (c->kc_what == KTR_CGROUP_LEFT)
		fputs(": no longer traced", out);
	if (kd_cgroup_of_process(c->kc_what) && !(c->kc_flags & KTR_CGROUP_F_HOSTNS))
		fprintf(out, ", pid %d tid %d in pid namespace %u", c->kc_ns_pid, c->kc_ns_tid,
			c->kc_pidns);
}
