/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* kdump_bsd*.c: a foreign file's integers, in its byte order and word size. */
#ifndef KTRACEB_KDUMP_BSD_INT_H
#define KTRACEB_KDUMP_BSD_INT_H

#include "kdump_bsd.h"

static inline __u32 rd32(const struct kd_bsd_fmt *f, const unsigned char *p)
{
	if (f->be)
		return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
	return (__u32)p[3] << 24 | (__u32)p[2] << 16 | (__u32)p[1] << 8 | p[0];
}

static inline __s16 rd16(const struct kd_bsd_fmt *f, const unsigned char *p)
{
	return (__s16)(f->be ? (p[0] << 8 | p[1]) : (p[1] << 8 | p[0]));
}

static inline __u64 rd64(const struct kd_bsd_fmt *f, const unsigned char *p)
{
	__u64 a = rd32(f, p), b = rd32(f, p + 4);

	return f->be ? a << 32 | b : b << 32 | a;
}

/* A word (long, pointer, register_t) sign-extended to 64 bits. */
static inline __s64 rdw(const struct kd_bsd_fmt *f, const unsigned char *p)
{
	return f->ws == 8 ? (__s64)rd64(f, p) : (__s64)(__s32)rd32(f, p);
}

#endif /* KTRACEB_KDUMP_BSD_INT_H */
