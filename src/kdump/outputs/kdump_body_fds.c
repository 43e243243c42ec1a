// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * -y in the text (kdump_body.h): each descriptor followed by what it is, as
 * strace -y shows it, "read(3</etc/hostname>,...)", "RET openat 3</etc/hostname>",
 * from the decoder's tables (kdump_fdtab.h).
 */
#include <string.h>

#include "decode.h"
#include "kdump_body.h"

void kd_put_fd(FILE *out, const struct kd_event *ev, int fd, const struct kdump_opts *o)
{
	char name[KD_FDNAME_MAX];
	bool deleted;
	size_t n =
		kd_fdproc__name(ev->fds, fd, o->flags & KD_FDS_SOCK, name, sizeof(name), &deleted);

	if (!n)
		return;
	fputc('<', out);
	fwrite(name, 1, n, out);
	fputc('>', out);
	if (deleted)
		fputs("(deleted)", out);
}

struct fd_args {
	FILE *out;
	const struct kd_event *ev;
	const struct kdump_opts *o;
	int n; /* the arguments written */
};

static void no_group(void *ctx, enum ktr_field_group g)
{
}

/* The argument before this one ends: its descriptor's name; then "(" or "," */
static void arg_begins(void *ctx, const struct ktr_field *f)
{
	struct fd_args *a = ctx;
	int prev = a->n - 1;

	if (prev >= 0 && (a->ev->call.fdmask & (1u << prev)))
		kd_put_fd(a->out, a->ev, (int)a->ev->call.args[prev], a->o);
	fputc(a->n++ ? ',' : '(', a->out);
}

void kd_body_call_fds(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	struct fd_args a = { out, ev, o, 0 };
	const struct ktr_field_sink sink = { no_group, arg_begins, no_group, &a, out };

	ktr_decode_syscall_args(&sink, ev->sv_flags, ev->call.code, ev->call.narg, ev->call.args,
				o->decode);
	if (!a.n)
		return;
	if (ev->call.fdmask & (1u << (a.n - 1)))
		kd_put_fd(out, ev, (int)ev->call.args[a.n - 1], o);
	fputc(')', out);
}

/* A pipe's or socket pair's descriptors: "struct fd_pair { 3<pipe:[#1]>, 4<pipe:[#1]> }" */
bool kd_body_fdpair(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	__s32 fd[2];

	if (ev->bsd || ev->strct.nlen != 7 || memcmp(ev->strct.name, "fd_pair", 7) != 0 ||
	    ev->strct.len != sizeof(fd) || (o->decode & KTR_DEC_RAW))
		return false;
	memcpy(fd, ev->strct.data, sizeof(fd));
	fprintf(out, "struct fd_pair { %d", fd[0]);
	kd_put_fd(out, ev, fd[0], o);
	fprintf(out, ", %d", fd[1]);
	kd_put_fd(out, ev, fd[1], o);
	fputs(" }", out);
	return true;
}
