// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kdump_event.h"
#include "kdump_priv.h"
#include "kdump_tp.h"

#define KD_TP_MAX_FORMATS 4096 /* formats kept from one file */

struct kd_tpfmt {
	struct ktr_tpformat f;
	struct ktr_tpfield *fields;
	unsigned long count; /* -Y */
};

struct kd_tp {
	struct kd_tpfmt *v;
	size_t n;
};

void kd_tp__free(struct kd_tp *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].fields);
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

static struct kd_tpfmt *tp__find(const struct kdump *kd, __u32 id)
{
	const struct kd_tp *t = kd->tp;

	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i].f.tf_id == id)
			return &t->v[i];
	return NULL;
}

int kd_tp__format(struct kdump *kd, const struct kd_event *ev)
{
	struct ktr_tpformat f;
	struct ktr_tpfield *fields;
	struct kd_tpfmt *e;

	if (ev->len < sizeof(f))
		return -EINVAL;
	memcpy(&f, ev->data, sizeof(f));
	if (f.tf_nfields > KTR_TP_MAXFIELDS ||
	    ev->len != sizeof(f) + (size_t)f.tf_nfields * sizeof(struct ktr_tpfield) ||
	    !name_ok(f.tf_name, sizeof(f.tf_name)))
		return -EINVAL;
	fields = calloc(f.tf_nfields + 1, sizeof(*fields));
	if (!fields)
		return -ENOMEM;
	memcpy(fields, ev->data + sizeof(f), f.tf_nfields * sizeof(*fields));
	for (unsigned int i = 0; i < f.tf_nfields; i++)
		if (!field_ok(&fields[i])) {
			free(fields);
			return -EINVAL;
		}
	if (!kd->tp && !(kd->tp = calloc(1, sizeof(*kd->tp)))) {
		free(fields);
		return -ENOMEM;
	}
	e = tp__find(kd, f.tf_id);
	if (!e) {
		struct kd_tpfmt *v;

		if (kd->tp->n >= KD_TP_MAX_FORMATS ||
		    !(v = realloc(kd->tp->v, (kd->tp->n + 1) * sizeof(*v)))) {
			free(fields);
			return kd->tp->n >= KD_TP_MAX_FORMATS ? -EINVAL : -ENOMEM;
		}
		kd->tp->v = v;
		e = &v[kd->tp->n++];
		memset(e, 0, sizeof(*e));
	}
	/* a later format of the same id (another kernel's, appended) replaces it */
	free(e->fields);
	e->f = f;
	e->fields = fields;
	return 0;
}

/* The little-endian-or-not integer of size bytes at p, sign-extended if asked. */
static void print_int(FILE *out, const unsigned char *p, unsigned int size, bool sgn, bool hex)
{
	__u64 u = 0;
	__s64 s;

	switch (size) {
	case 1: {
		__u8 v = p[0];
		u = v;
		s = (__s8)v;
		break;
	}
	case 2: {
		__u16 v;
		memcpy(&v, p, 2);
		u = v;
		s = (__s16)v;
		break;
	}
	case 4: {
		__u32 v;
		memcpy(&v, p, 4);
		u = v;
		s = (__s32)v;
		break;
	}
	default:
		memcpy(&u, p, 8);
		s = (__s64)u;
	}
	if (hex)
		fprintf(out, "0x%llx", (unsigned long long)u);
	else if (sgn)
		fprintf(out, "%lld", (long long)s);
	else
		fprintf(out, "%llu", (unsigned long long)u);
}

static void print_hex(FILE *out, const unsigned char *p, size_t len)
{
	fputs("0x", out);
	for (size_t i = 0; i < len; i++)
		fprintf(out, "%02x", p[i]);
}

/* One field of the entry raw (len bytes): "name=value", "name=?" if outside it. */
static void print_field(FILE *out, const struct ktr_tpfield *fl, const unsigned char *raw,
			size_t len)
{
	size_t off = fl->tp_offset, size = fl->tp_size;

	fprintf(out, " %s=", fl->tp_name);
	if (off + size > len) {
		fputc('?', out);
		return;
	}
	if (fl->tp_flags & KTR_TPF_DATA_LOC) {
		__u32 loc;

		memcpy(&loc, raw + off, 4);
		off = loc & 0xffff;
		size = loc >> 16;
		if (off + size > len) {
			fputc('?', out);
			return;
		}
	}
	if (fl->tp_flags & KTR_TPF_STRING)
		kd_putquoted(out, raw + off, strnlen((const char *)raw + off, size));
	else if ((fl->tp_flags & (KTR_TPF_DATA_LOC | KTR_TPF_ARRAY)) ||
		 (size != 1 && size != 2 && size != 4 && size != 8))
		print_hex(out, raw + off, size);
	else
		print_int(out, raw + off, (unsigned int)size, fl->tp_flags & KTR_TPF_SIGNED,
			  strchr(fl->tp_type, '*') != NULL);
}

int kd_tp__print(struct kdump *kd, const struct kd_event *ev)
{
	struct ktr_tracepoint t;
	const struct kd_tpfmt *e;
	const unsigned char *raw;

	if (ev->len < sizeof(t))
		return -EINVAL;
	memcpy(&t, ev->data, sizeof(t));
	if (t.kt_len != ev->len - sizeof(t) || t.kt_len > KTR_TP_MAX_BYTES)
		return -EINVAL;
	raw = ev->data + sizeof(t);
	e = tp__find(kd, t.kt_id);
	if (!e) {
		fprintf(kd->out, "event %u (no format in the file) ", t.kt_id);
		print_hex(kd->out, raw, t.kt_len < 64 ? t.kt_len : 64);
		return 0;
	}
	fputs(e->f.tf_name, kd->out);
	for (unsigned int i = 0; i < e->f.tf_nfields; i++)
		print_field(kd->out, &e->fields[i], raw, t.kt_len);
	return 0;
}

int kd_tp__count(struct kdump *kd, const struct kd_event *ev)
{
	struct ktr_tracepoint t;
	struct kd_tpfmt *e;

	if (ev->len < sizeof(t)) {
		kd->ninvalid++;
		return 0;
	}
	memcpy(&t, ev->data, sizeof(t));
	e = tp__find(kd, t.kt_id);
	if (e)
		e->count++;
	return 0;
}

void kd_tp__print_summary(struct kdump *kd, FILE *out)
{
	const struct kd_tp *t = kd->tp;
	bool any = false;

	for (size_t i = 0; t && i < t->n; i++) {
		if (!t->v[i].count)
			continue;
		if (!any)
			fprintf(out, "\n%9s %s\n", "count", "kernel event");
		any = true;
		fprintf(out, "%9lu %s\n", t->v[i].count, t->v[i].f.tf_name);
	}
}
