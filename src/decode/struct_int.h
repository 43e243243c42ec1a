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

/*
 * How a printer gives its fields (decode.h) to the sink (args.c's
 * arguments and sysret.c's returns come the same way).  ktr_field()
 * starts a field of decoded text that the printer then writes to out; the
 * field ends where the next one starts, or at a group's begin or end.
 */
struct ktr_fields {
	const struct ktr_field_sink *sink;
	FILE *out; /* the value of the field being written */
	char **buf; /* where out's bytes are */
	char *own; /* out's bytes when out is not the thread's spare stream */
	size_t size;
	bool spare; /* out is the thread's spare stream */
	bool direct; /* out is the sink's direct stream */
	struct ktr_field cur;
	bool open; /* cur is being written to out */
};

typedef void (*ktr_structfn)(struct ktr_fields *f, const unsigned char *p, size_t len, int flags);

struct ktr_structdec {
	const char *name;
	size_t min, max; /* accepted lengths */
	size_t elem; /* nonzero: an array of elements of this size */
	ktr_structfn fn; /* gives one struct's fields, or one element's */
};

/* 0, or -ENOMEM: no memory for the values. */
int ktr_fields_init(struct ktr_fields *f, const struct ktr_field_sink *sink);
/* Ends the last field, frees what init took. */
void ktr_fields_done(struct ktr_fields *f);
void ktr_fields_begin(struct ktr_fields *f, enum ktr_field_group g);
void ktr_fields_end(struct ktr_fields *f, enum ktr_field_group g);

/*
 * A field of text the caller writes next to f->out; name NULL: a value alone.
 * A direct sink (decode.h) has it already, with no text, raw or is_signed.
 */
void ktr_field(struct ktr_fields *f, const char *name);
/* The same, of a number raw (an __s64 if is_signed) that the text shows decoded */
void ktr_field_of(struct ktr_fields *f, const char *name, __u64 raw, bool is_signed);
void ktr_field_u64(struct ktr_fields *f, const char *name, __u64 v);
void ktr_field_s64(struct ktr_fields *f, const char *name, __s64 v);
void ktr_field_hex(struct ktr_fields *f, const char *name, __u64 v);
/*
 * A number the text shows by its name (a flag set, one of a list, a
 * signal): a TEXT field of the name when there is one, else a NUM field of
 * the number, which JSON prints from raw.  The text is ktr_print_mask's,
 * ktr_print_enum's, ktr_print_signal's, ktr_print_sigset's.
 */
void ktr_field_mask(struct ktr_fields *f, const char *name, const struct ktr_symtab *t, __u64 v,
		    int flags);
void ktr_field_enum(struct ktr_fields *f, const char *name, const struct ktr_symtab *t, __s64 v,
		    int flags);
void ktr_field_signal(struct ktr_fields *f, const char *name, __s64 sig, int flags);
void ktr_field_sigset(struct ktr_fields *f, const char *name, __u64 set, int flags);
/* len bytes, which the text shows quoted and escaped (KTR_ESC_C) */
void ktr_field_str(struct ktr_fields *f, const char *name, const void *p, size_t len);
/* What was left out, as the text says it: "... 5 more" */
void ktr_field_note(struct ktr_fields *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
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
