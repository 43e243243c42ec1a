/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Internals of the KTR_STRUCT printers.  A printer gets bytes whose length
 * the dispatcher (struct.c) has already checked against its table entry, so
 * it may memcpy one element into a local copy of the x86_64 layout.
 */
#ifndef KTRACEB_STRUCT_INT_H
#define KTRACEB_STRUCT_INT_H

#include "decode_int.h"

typedef void (*ktr_structfn)(FILE *out, const unsigned char *p, size_t len, int flags);

struct ktr_structdec {
	const char *name;
	size_t min, max; /* accepted lengths */
	size_t elem; /* nonzero: an array of elements of this size */
	ktr_structfn fn; /* prints one struct, or one element of an array */
};

/* "name=" with ", " before every field but the first of a struct. */
struct ktr_fields {
	FILE *out;
	int n;
};
void ktr_field(struct ktr_fields *f, const char *name);
void ktr_field_u64(struct ktr_fields *f, const char *name, __u64 v);
void ktr_field_s64(struct ktr_fields *f, const char *name, __s64 v);
void ktr_field_hex(struct ktr_fields *f, const char *name, __u64 v);
/* An extensible struct shorter than a whole version: "<N bytes more>" for
 * the bytes from shown to len, nothing when shown == len. */
void ktr_field_rest(struct ktr_fields *f, size_t len, size_t shown);
/* "1700000000.123456789" (ndigits 9) or "1.500000" (ndigits 6) */
void ktr_print_time(FILE *out, __s64 sec, __s64 frac, int ndigits);

extern const struct ktr_structdec ktr_structs_net[];
extern const size_t ktr_nstructs_net;
extern const struct ktr_structdec ktr_structs_proc[];
extern const size_t ktr_nstructs_proc;

#endif /* KTRACEB_STRUCT_INT_H */
