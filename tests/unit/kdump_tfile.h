/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Helpers for the kdump unit tests: build a trace file in memory record by
 * record, then run the kdump printer over it and get its output as a string.
 */
#ifndef KTRACEB_KDUMP_TFILE_H
#define KTRACEB_KDUMP_TFILE_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktraceb/ktr.h"
#include "kdump_pipeline.h"
#include "kdump_reader.h"
#include "../lib/tracegen.h"

/* Times of the records tf_rec() writes: wall 1700000000 s, mono 1000 s + mono. */
#define TF_WALL_SEC  1700000000LL
#define TF_MONO_BASE 1000000000000ULL

struct tfile {
	char *buf;
	size_t len;
	FILE *f;
	__u64 mono; /* ns added to TF_MONO_BASE for the next record */
};

static inline void tf_open(struct tfile *t)
{
	memset(t, 0, sizeof(*t));
	t->f = open_memstream(&t->buf, &t->len);
}

/* Flush and hand out the bytes so far (the stream stays usable). */
static inline const char *tf_bytes(struct tfile *t)
{
	fflush(t->f);
	return t->buf;
}

static inline void tf_close(struct tfile *t)
{
	fclose(t->f);
	free(t->buf);
}

/* Who and when for the next record: CPU 3, the times from t->mono. */
static inline struct tg_who tf_who(const struct tfile *t, int pid, int tid, const char *comm)
{
	struct tg_who w = { .pid = pid,
			    .tid = tid,
			    .comm = comm,
			    .cpu = 3,
			    .sec = TF_WALL_SEC + (__s64)(t->mono / 1000000000),
			    .usec = (__s64)(t->mono % 1000000000 / 1000),
			    .mono = TF_MONO_BASE + t->mono };

	return w;
}

/* data == NULL: a header alone, for bogus and truncated records */
static inline void tf_rec_full(struct tfile *t, int type, int pid, int tid, const char *comm,
			       const void *data, int len)
{
	struct tg_who w = tf_who(t, pid, tid, comm);

	tg_write(t->f, type, len, &w, data);
}

static inline void tf_rec(struct tfile *t, int type, const void *data, int len)
{
	tf_rec_full(t, type, 1234, 1234, "cat", data, len);
}

static inline void tf_call(struct tfile *t, int code, int narg, ...)
{
	unsigned char buf[sizeof(struct ktr_syscall) + 8 * sizeof(__u64)];
	struct ktr_syscall sc = { .ktr_code = code, .ktr_narg = narg };
	va_list ap;
	__u64 a;
	int i;

	memcpy(buf, &sc, sizeof(sc));
	va_start(ap, narg);
	for (i = 0; i < narg && i < 8; i++) {
		a = va_arg(ap, __u64);
		memcpy(buf + sizeof(sc) + 8 * i, &a, 8);
	}
	va_end(ap);
	tf_rec(t, KTR_SYSCALL, buf, sizeof(sc) + 8 * narg);
}

static inline void tf_ret(struct tfile *t, int code, int error, __s64 retval)
{
	struct ktr_sysret sr = { .ktr_code = code, .ktr_error = error, .ktr_retval = retval };

	tf_rec(t, KTR_SYSRET, &sr, sizeof(sr));
}

static inline void tf_fileinfo(struct tfile *t, __s64 wall_offset_ns)
{
	struct tg_who w = tf_who(t, 1234, 1234, "cat");

	tg_info(t->f, &w, "x86_64", "6.1.0-test", "0.1", wall_offset_ns);
}

struct kd_result {
	char *out; /* what kdump printed */
	int rc; /* kdump__run() then kdump__finish() */
	unsigned long ninvalid;
};

/* Run the printer with opts over len bytes of file; free res->out afterwards. */
static inline void kd_run(const struct kdump_opts *opts, const void *file, size_t len,
			  struct kd_result *res)
{
	struct ktr_reader *r;
	struct kdump *kd;
	size_t olen;
	FILE *in, *out;

	memset(res, 0, sizeof(*res));
	in = fmemopen((void *)file, len, "r");
	out = open_memstream(&res->out, &olen);
	r = ktr_reader__open(in, 0);
	kd = kdump__new(opts, out);
	if (!in || !out || !r || !kd) {
		res->rc = -ENOMEM;
	} else {
		res->rc = kdump__run(kd, r);
		if (res->rc == 0)
			res->rc = kdump__finish(kd);
		res->ninvalid = kdump__ninvalid(kd);
	}
	kdump__free(kd);
	ktr_reader__close(r);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

/* The default options of kdump (no flags, -m 64). */
static inline struct kdump_opts kd_defaults(void)
{
	struct kdump_opts o = { .maxdata = KD_MAXDATA_DEFAULT };

	return o;
}

/* The printer's output for a file under opts; freed by the caller. */
static inline char *kd_print(const struct kdump_opts *opts, struct tfile *t)
{
	struct kd_result res;

	tf_bytes(t);
	kd_run(opts, t->buf, t->len, &res);
	return res.out;
}

#endif /* KTRACEB_KDUMP_TFILE_H */
