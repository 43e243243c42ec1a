// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * CGRP (KTR_CGROUP): where a process of a traced cgroup was (-G); the cgroups
 * and namespaces it names are kdump_cgroup.c's.
 */
#include "kind_file.h"
#include "kdump_cgroup.h"

static int dec_cgroup(struct kd_decoder *d, struct kd_event *ev)
{
	return kd_cgroups__decode(d->cgroups, ev);
}

/* CGRP: what, the cgroup's id and path, the namespace ids, the container, the counts */
static int m_cgroup(struct kd_json_out *j, const struct kd_event *ev)
{
	static const char *const what[] = {
		[KTR_CGROUP_MEMBER] = "member",	      [KTR_CGROUP_FORKED] = "forked",
		[KTR_CGROUP_MOVED] = "moved",	      [KTR_CGROUP_THREAD] = "thread",
		[KTR_CGROUP_LEFT] = "left",	      [KTR_CGROUP_MADE] = "made",
		[KTR_CGROUP_REMOVED] = "removed",     [KTR_CGROUP_SKIPPED] = "skipped",
		[KTR_CGROUP_CONTAINER] = "container", [KTR_CGROUP_EXEC] = "exec",
	};
	const struct ktr_cgroup *c = &ev->cgroup.c;
	const char *path = ev->cgroup.exact ? ev->cgroup.exact : ev->cgroup.path;
	FILE *out = j->out;
	char box[300];

	fprintf(out, ",\"what\":\"%s\",\"cgroup_id\":%llu,\"path\":", what[c->kc_what],
		(unsigned long long)c->kc_id);
	kd_json_cstr(out, path);
	if (!ev->cgroup.exact && (c->kc_flags & KTR_CGROUP_F_GROUP_PATH))
		fputs(",\"path_of_group\":true", out);
	if (kd_cgroup_of_process(c->kc_what))
		fprintf(out, ",\"pidns\":%u,\"pidns_host\":%s", c->kc_pidns,
			(c->kc_flags & KTR_CGROUP_F_HOSTNS) ? "true" : "false");
	if (c->kc_what != KTR_CGROUP_SKIPPED && kd_cgroup_container(path, box, sizeof(box))) {
		fputs(",\"container\":", out);
		kd_json_cstr(out, box);
	}
	if (ev->cgroup.name) {
		fputs(",\"container_name\":", out);
		kd_json_cstr(out, ev->cgroup.name);
	}
	if (c->kc_what == KTR_CGROUP_SKIPPED)
		fprintf(out,
			",\"skipped\":{\"not_yours\":%llu,\"privileged\":%llu,\"root\":%llu,"
			"\"traced\":%llu}",
			(unsigned long long)c->kc_skipped[0], (unsigned long long)c->kc_skipped[1],
			(unsigned long long)c->kc_skipped[2], (unsigned long long)c->kc_skipped[3]);
	return 0;
}

const struct kd_kind_def kd_kind_cgroup = {
	.kind = KD_CGROUP,
	.tag = "CGRP",
	.type = KTR_CGROUP,
	.decode = dec_cgroup,
	.text = kd_body_cgroup,
	.json = m_cgroup,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
