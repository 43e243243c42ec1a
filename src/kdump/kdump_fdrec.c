// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * KTR_FD records (ktr.h): a descriptor a process had when its trace began,
 * checked, taken into its process's table for -y (kdump_fdtab.h), and
 * printed: "FD    3</etc/hostname>", "FD    4<TCP:[127.0.0.1:40000->127.0.0.1:8080]>".
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "kdump_body.h"
#include "kdump_fdtab.h"

int kd_fdrec__decode(struct kd_event *ev)
{
	struct ktr_fd *r = &ev->fd.r;
	const unsigned char *p = ev->data;
	size_t head, rest;

	if (ev->len < sizeof(*r))
		return ev->valid = false, 0;
	memcpy(r, p, sizeof(*r));
	head = sizeof(*r) + (size_t)r->kf_llen + r->kf_rlen;
	if (r->kf_kind < KTR_FD_PATH || r->kf_kind > KTR_FD_LEFT || r->kf_llen > KTR_FD_SA_MAX ||
	    r->kf_rlen > KTR_FD_SA_MAX || head > ev->len ||
	    (r->kf_fd < 0) != (r->kf_kind == KTR_FD_LEFT))
		return ev->valid = false, 0;
	ev->fd.local = p + sizeof(*r);
	ev->fd.remote = ev->fd.local + r->kf_llen;
	rest = ev->len - head;
	if (r->kf_kind == KTR_FD_PATH || r->kf_kind == KTR_FD_ANON) {
		/* the name, NUL-terminated, ends the record */
		if (rest == 0 || strnlen((const char *)p + head, rest) + 1 != rest)
			return ev->valid = false, 0;
		ev->fd.name = (const char *)p + head;
	}
	return 0;
}

/* What the record says, as a file of the table would be (f->path borrowed, not owned). */
static void fdrec__file(const struct kd_event *ev, struct kd_file *f)
{
	const struct ktr_fd *r = &ev->fd.r;
	static const unsigned int kinds[KTR_FD_LEFT + 1] = {
		[KTR_FD_PATH] = KD_FILE_PATH,
		[KTR_FD_PIPE] = KD_FILE_PIPE,
		[KTR_FD_SOCKET] = KD_FILE_SOCKET,
		[KTR_FD_ANON] = KD_FILE_ANON,
	};

	memset(f, 0, sizeof(*f));
	f->kind = kinds[r->kf_kind];
	f->path = (char *)ev->fd.name;
	f->deleted = r->kf_flags & KTR_FD_F_DELETED;
	f->ino = r->kf_ino;
	f->family = r->kf_family;
	f->type = r->kf_type;
	f->llen = r->kf_llen;
	f->rlen = r->kf_rlen;
	memcpy(f->local, ev->fd.local, r->kf_llen);
	memcpy(f->remote, ev->fd.remote, r->kf_rlen);
}

int kd_fdrec__step(struct kd_fdtabs *fs, struct kd_event *ev)
{
	struct kd_file tmp, *f;
	struct kd_fdproc *p;
	int err;

	if (ev->fd.r.kf_kind == KTR_FD_LEFT)
		return 0;
	p = kd_fdtabs__proc(fs, ev->h->ktr_pid);
	if (!p)
		return -ENOMEM;
	fdrec__file(ev, &tmp);
	f = kd_file__new(tmp.kind);
	if (!f)
		return -ENOMEM;
	tmp.refs = f->refs;
	tmp.path = NULL;
	if (ev->fd.name && !(tmp.path = strdup(ev->fd.name))) {
		kd_file__put(f);
		return -ENOMEM;
	}
	*f = tmp;
	if (f->kind == KD_FILE_PIPE || f->kind == KD_FILE_SOCKET)
		f->serial = ++fs->serial;
	err = kd_fdproc__set(p, ev->fd.r.kf_fd, f, ev->fd.r.kf_flags & KTR_FD_F_CLOEXEC);
	kd_file__put(f); /* the table holds it */
	return err;
}

size_t kd_fdrec__name(const struct kd_event *ev, char *buf, size_t size, bool *deleted)
{
	struct kd_file f;

	*deleted = false;
	if (ev->fd.r.kf_kind == KTR_FD_LEFT)
		return 0;
	fdrec__file(ev, &f);
	return kd_file__name(&f, true, buf, size, deleted);
}

void kd_body_fd(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_fd *r = &ev->fd.r;
	char name[KD_FDNAME_MAX];
	bool deleted;
	size_t n;

	(void)o;
	if (r->kf_kind == KTR_FD_LEFT) {
		fprintf(out, "%llu more not recorded", (unsigned long long)r->kf_ino);
		return;
	}
	n = kd_fdrec__name(ev, name, sizeof(name), &deleted);
	fprintf(out, "%d<", r->kf_fd);
	fwrite(name, 1, n, out);
	fputc('>', out);
	if (deleted)
		fputs("(deleted)", out);
	if (r->kf_flags & KTR_FD_F_CLOEXEC)
		fputs(" O_CLOEXEC", out);
}
