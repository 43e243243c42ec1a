// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kdump_data.h"
#include "kdump_tp.h"

#define KD_TP_MAX_FORMATS 4096 /* formats kept from one file */

struct kd_tp {
	struct kd_tpfmt **v; /* each allocated alone: an event's pointer stays valid */
	size_t n;
};

void kd_tp__free(struct kd_tp *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i]->fields);
		free(t->v[i]);
	}
	free(t->v);
	free(t);
}

/* A name of a format: NUL-terminated within size, printable, not empty. */
static bool name_ok(const char *s, size_t size)
{
	size_t len = strnlen(s, size);

	if (len == 0 || len == size)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f)
			return false;
	return true;
}

static bool field_ok(const struct ktr_tpfield *fl)
{
	return name_ok(fl->tp_name, sizeof(fl->tp_name)) &&
	       strnlen(fl->tp_type, sizeof(fl->tp_type)) < sizeof(fl->tp_type) && fl->tp_size > 0 &&
	       (unsigned int)fl->tp_offset + fl->tp_size <= KTR_TP_MAX_BYTES &&
	       !(fl->tp_flags &
		 ~(KTR_TPF_SIGNED | KTR_TPF_DATA_LOC | KTR_TPF_ARRAY | KTR_TPF_STRING)) &&
	       (!(fl->tp_flags & KTR_TPF_DATA_LOC) || fl->tp_size == 4);
}

const struct kd_tpfmt *kd_tp__find(const struct kd_tp *t, __u32 id)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i]->f.tf_id == id)
			return t->v[i];
	return NULL;
}

/* The entry of id, added (with no fields) if new; NULL when out of memory or room. */
static struct kd_tpfmt *tp__entry(struct kd_tp *t, __u32 id)
{
	struct kd_tpfmt **v, *e = (struct kd_tpfmt *)kd_tp__find(t, id);

	if (e)
		return e;
	v = realloc(t->v, (t->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	t->v = v;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->seq = t->n;
	v[t->n++] = e;
	return e;
}

int kd_tp__add(struct kd_tp **tp, const unsigned char *data, size_t len)
{
	struct ktr_tpformat f;
	struct ktr_tpfield *fields;
	struct kd_tpfmt *e;

	if (len < sizeof(f))
		return -EINVAL;
	memcpy(&f, data, sizeof(f));
	if (f.tf_nfields > KTR_TP_MAXFIELDS ||
	    len != sizeof(f) + (size_t)f.tf_nfields * sizeof(struct ktr_tpfield) ||
	    !name_ok(f.tf_name, sizeof(f.tf_name)))
		return -EINVAL;
	fields = calloc(f.tf_nfields + 1, sizeof(*fields));
	if (!fields)
		return -ENOMEM;
	memcpy(fields, data + sizeof(f), f.tf_nfields * sizeof(*fields));
	for (unsigned int i = 0; i < f.tf_nfields; i++)
		if (!field_ok(&fields[i])) {
			free(fields);
			return -EINVAL;
		}
	if (!*tp && !(*tp = calloc(1, sizeof(**tp)))) {
		free(fields);
		return -ENOMEM;
	}
	if (!kd_tp__find(*tp, f.tf_id) && (*tp)->n >= KD_TP_MAX_FORMATS) {
		free(fields);
		return -EINVAL;
	}
	e = tp__entry(*tp, f.tf_id);
	if (!e) {
		free(fields);
		return -ENOMEM;
	}
	/* a later format of the same id (another kernel's, appended) replaces it */
	free(e->fields);
	e->f = f;
	e->fields = fields;
	return 0;
}

/* The integer of size bytes at p: in v->u, and sign-extended in v->s. */
static void read_int(struct kd_tpval *v, const unsigned char *p, unsigned int size)
{
	__u64 u = 0;
	__s64 s;

	switch (size) {
	case 1: {
		__u8 b = p[0];
		u = b;
		s = (__s8)b;
		break;
	}
	case 2: {
		__u16 b;
		memcpy(&b, p, 2);
		u = b;
		s = (__s16)b;
		break;
	}
	case 4: {
		__u32 b;
		memcpy(&b, p, 4);
		u = b;
		s = (__s32)b;
		break;
	}
	default:
		memcpy(&u, p, 8);
		s = (__s64)u;
	}
	v->u = u;
	v->s = s;
}

/* One field of the entry raw (len bytes), as its format says. */
static void read_field(struct kd_tpval *v, const struct ktr_tpfield *fl, const unsigned char *raw,
		       size_t len)
{
	size_t off = fl->tp_offset, size = fl->tp_size;

	memset(v, 0, sizeof(*v));
	v->name = fl->tp_name;
	v->kind = KD_TPV_OUTSIDE;
	if (off + size > len)
		return;
	if (fl->tp_flags & KTR_TPF_DATA_LOC) {
		__u32 loc;

		memcpy(&loc, raw + off, 4);
		off = loc & 0xffff;
		size = loc >> 16;
		if (off + size > len)
			return;
	}
	v->p = raw + off;
	if (fl->tp_flags & KTR_TPF_STRING) {
		v->kind = KD_TPV_STRING;
		v->len = strnlen((const char *)raw + off, size);
	} else if ((fl->tp_flags & (KTR_TPF_DATA_LOC | KTR_TPF_ARRAY)) ||
		   (size != 1 && size != 2 && size != 4 && size != 8)) {
		v->kind = KD_TPV_BYTES;
		v->len = size;
	} else {
		v->kind = strchr(fl->tp_type, '*')	  ? KD_TPV_POINTER :
			  (fl->tp_flags & KTR_TPF_SIGNED) ? KD_TPV_SIGNED :
							    KD_TPV_UNSIGNED;
		v->len = size;
		read_int(v, raw + off, (unsigned int)size);
	}
}

void kd_tp__fields(const struct kd_tpfmt *fmt, const unsigned char *raw, size_t len,
		   void (*field)(void *ctx, const struct kd_tpval *v), void *ctx)
{
	struct kd_tpval v;

	for (unsigned int i = 0; fmt && i < fmt->f.tf_nfields; i++) {
		read_field(&v, &fmt->fields[i], raw, len);
		field(ctx, &v);
	}
}

void kd_tp__put_hex(FILE *out, const unsigned char *p, size_t len)
{
	fputs("0x", out);
	for (size_t i = 0; i < len; i++)
		fprintf(out, "%02x", p[i]);
}

/* One field as the text shows it: " name=value", "name=?" if outside the entry. */
static void print_field(void *ctx, const struct kd_tpval *v)
{
	FILE *out = ctx;

	fprintf(out, " %s=", v->name);
	switch (v->kind) {
	case KD_TPV_OUTSIDE:
		fputc('?', out);
		break;
	case KD_TPV_STRING:
		kd_putquoted(out, v->p, v->len);
		break;
	case KD_TPV_BYTES:
		kd_tp__put_hex(out, v->p, v->len);
		break;
	case KD_TPV_POINTER:
		fprintf(out, "0x%llx", (unsigned long long)v->u);
		break;
	case KD_TPV_SIGNED:
		fprintf(out, "%lld", (long long)v->s);
		break;
	case KD_TPV_UNSIGNED:
		fprintf(out, "%llu", (unsigned long long)v->u);
		break;
	}
}

void kd_tp__print(FILE *out, const struct kd_tpfmt *fmt, __u32 id, const unsigned char *raw,
		  size_t len)
{
	if (!fmt) {
		fprintf(out, "event %u (no format in the file) ", id);
		kd_tp__put_hex(out, raw, len < 64 ? len : 64);
		return;
	}
	fputs(fmt->f.tf_name, out);
	kd_tp__fields(fmt, raw, len, print_field, out);
}
