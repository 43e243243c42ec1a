// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * FD (KTR_FD): a descriptor a process had when it was attached (-p, -g, -G);
 * its layout and name are kdump_fdrec.c's.
 */
#include "kind_file.h"
#include "kdump_fdtab.h"

static int dec_fd(struct kd_decoder *d, struct kd_event *ev)
{
	return kd_fdrec__decode(ev);
}

/* FD: "fd", "kind", "cloexec", what it is as -yy says it ("fd_path"), its inode */
static int m_fd(struct kd_json_out *j, const struct kd_event *ev)
{
	static const char *const kind[] = {
		[KTR_FD_PATH] = "path",	      [KTR_FD_PIPE] = "pipe", [KTR_FD_SOCKET] = "socket",
		[KTR_FD_ANON] = "anon_inode", [KTR_FD_LEFT] = "left",
	};
	const struct ktr_fd *r = &ev->fd.r;
	FILE *out = j->out;
	char name[KD_FDNAME_MAX + 16];
	bool deleted;
	size_t n;

	if (r->kf_kind == KTR_FD_LEFT) {
		fprintf(out, ",\"kind\":\"left\",\"left\":%llu", (unsigned long long)r->kf_ino);
		return 0;
	}
	fprintf(out, ",\"fd\":%d,\"kind\":\"%s\",\"cloexec\":%s", r->kf_fd, kind[r->kf_kind],
		(r->kf_flags & KTR_FD_F_CLOEXEC) ? "true" : "false");
	n = kd_fdrec__name(ev, name, KD_FDNAME_MAX, &deleted);
	if (deleted) { /* as the kernel's /proc/PID/fd links say it */
		memcpy(name + n, " (deleted)", 10);
		n += 10;
	}
	fputs(",\"fd_path\":", out);
	kd_json_str(out, name, n);
	if (r->kf_kind == KTR_FD_PIPE || r->kf_kind == KTR_FD_SOCKET)
		fprintf(out, ",\"inode\":%llu", (unsigned long long)r->kf_ino);
	return 0;
}

const struct kd_kind_def kd_kind_fd = {
	.kind = KD_FD,
	.tag = "FD",
	.type = KTR_FD,
	.decode = dec_fd,
	.text = kd_body_fd,
	.json = m_fd,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
