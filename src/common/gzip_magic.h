/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * gzip's magic, the first two bytes of every member (RFC 1952): what tells
 * a compressed trace (ktraceb -z) from a plain one, for the tracer that
 * appends to a file and for kdump that reads it.
 */
#ifndef KTRACEB_GZIP_MAGIC_H
#define KTRACEB_GZIP_MAGIC_H

#include <stdbool.h>
#include <stddef.h>

#define KTR_GZIP_MAGIC_LEN 2

/* Do the n bytes at p start a gzip member? */
static inline bool ktr_gzip_magic(const unsigned char *p, size_t n)
{
	return n >= KTR_GZIP_MAGIC_LEN && p[0] == 0x1f && p[1] == 0x8b;
}

#endif /* KTRACEB_GZIP_MAGIC_H */
