// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The "name=value, ..." fields every KTR_STRUCT printer writes (struct_int.h). */
#include "struct_int.h"

void ktr_field(struct ktr_fields *f, const char *name)
{
	fprintf(f->out, "%s%s=", f->n++ ? ", " : "", name);
}

void ktr_field_u64(struct ktr_fields *f, const char *name, __u64 v)
{
	ktr_field(f, name);
	fprintf(f->out, "%llu", (unsigned long long)v);
}

void ktr_field_s64(struct ktr_fields *f, const char *name, __s64 v)
{
	ktr_field(f, name);
	fprintf(f->out, "%lld", (long long)v);
}

void ktr_field_hex(struct ktr_fields *f, const char *name, __u64 v)
{
	ktr_field(f, name);
	fprintf(f->out, "%#llx", (unsigned long long)v);
}

void ktr_field_rest(struct ktr_fields *f, size_t len, size_t shown)
{
	if (len <= shown)
		return;
	fprintf(f->out, "%s<%zu byte%s more>", f->n++ ? ", " : "", len - shown,
		len - shown == 1 ? "" : "s");
}

void ktr_print_time(FILE *out, __s64 sec, __s64 frac, int ndigits)
{
	fprintf(out, "%lld.%0*lld", (long long)sec, ndigits, (long long)frac);
}
