// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The pipeline (kdump_pipeline.h, kdump_event.h): every record through
 * the decoder, those the options let through (-p, -t) on to the one sink.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kdump_pipeline.h"
#include "kdump_decode.h"
#include "kdump_select.h"
#include "kdump_sink.h"
#include "trstr.h"

struct kdump {
	struct kdump_opts o;
	struct kd_decoder *dec;
	struct kd_select *select; /* -e trace=, status=; NULL if none */
	const struct kd_sink *sink;
	void *state; /* the sink's */
	bool have_fmt;
	enum kd_sys sys; /* the file's system, once have_fmt */
	unsigned long ninvalid; /* counted by the sink */
	const char *path; /* the input, to be read again for its objects; NULL if it cannot */
};

const struct kd_sink *kd_sink_for(const struct kdump_opts *o)
{
	if (o->flags & KD_SUMMARY)
		return &kd_sink_summary;
	if (o->flags & KD_TREE)
		return &kd_sink_tree;
	if (o->flags & KD_JSON)
		return &kd_sink_json;
	if (o->flags & KD_CHROME)
		return &kd_sink_chrome;
	return &kd_sink_text;
}

struct kdump *kdump__new(const struct kdump_opts *opts, FILE *out)
{
	struct kd_sink_env env;
	struct kdump *kd;

	kd = calloc(1, sizeof(*kd));
	if (!kd)
		return NULL;
	kd->o = *opts;
	kd->sink = kd_sink_for(opts);
	env = (struct kd_sink_env){ &kd->o, out, &kd->ninvalid };
	kd->dec = kd_decoder__new();
	if (kd->dec && (opts->flags & KD_FDS) && kd_decoder__track_fds(kd->dec)) {
		kd_decoder__free(kd->dec);
		kd->dec = NULL;
	}
	kd->state = kd->dec ? kd->sink->open(&env) : NULL;
	if (kd->state && opts->nselect)
		kd->select = kd_select__new(opts->select, opts->nselect);
	if (!kd->state || (opts->nselect && !kd->select)) {
		kdump__free(kd);
		errno = ENOMEM;
		return NULL;
	}
	return kd;
}

void kdump__free(struct kdump *kd)
{
	if (!kd)
		return;
	if (kd->state)
		kd->sink->close(kd->state);
	kd_decoder__free(kd->dec);
	kd_select__free(kd->select);
	free(kd);
}

unsigned long kdump__ninvalid(const struct kdump *kd)
{
	return kd->ninvalid + kd_decoder__ninvalid(kd->dec);
}

void kdump__set_format(struct kdump *kd, const struct kd_bsd_fmt *fmt)
{
	kd->have_fmt = true;
	kd->sys = fmt->sys;
	kd_decoder__set_format(kd->dec, fmt);
	if (kd->sink->format)
		kd->sink->format(kd->state, fmt);
}

/*
 * The -t facility a record type shows with (its row's .shows, trstr.c: a
 * stack and its objects go with the calls); in the BSDs' files 19 and 21
 * are their own (21 is an OpenBSD pledge, kdump_bsd.h).
 */
static unsigned int type_fac(const struct kdump *kd, int type)
{
	if (kd->sys != KD_SYS_KTRACEB && (type == KTR_OBJECT || type == KTR_FD))
		return 1u << type;
	return ktr_facs_showing(type);
}

/* -t and -p; what the file misses is always said. */
static bool visible(const struct kdump *kd, const struct ktr_header *h)
{
	int type = h->ktr_type;

	if (type == KTR_LOST || type == KTR_FLIGHT ||
	    (type == KTR_END && kd->sys == KD_SYS_KTRACEB))
		return true;
	if ((kd->o.flags & KD_TRSEL) && (type <= 0 || type > KTR_TYPE_MAX ||
					 !((unsigned int)kd->o.trpoints & type_fac(kd, type))))
		return false;
	if ((kd->o.flags & KD_PIDSEL) && h->ktr_pid != kd->o.pid && h->ktr_tid != kd->o.pid)
		return false;
	return true;
}

/* A record decoded, and shown if the selection and the options let it through. */
static int deliver(void *ctx, const struct ktr_header *h, const void *data, bool show)
{
	struct kdump *kd = ctx;
	struct kd_event ev;
	int err;

	err = kd_decoder__decode(kd->dec, h, data, &ev);
	if (err)
		return err;
	if (!show || !visible(kd, h))
		return 0;
	/* what a recorder's dump shows again is not counted or drawn twice */
	if (ev.replayed && (kd->o.flags & (KD_SUMMARY | KD_TREE | KD_CHROME)))
		return 0;
	return kd->sink->event(kd->state, &ev);
}

int kdump__record(struct kdump *kd, const struct ktr_header *h, const void *data)
{
	if (!kd->select)
		return deliver(kd, h, data, true);
	/* a selection names Linux's calls */
	if (kd->sys != KD_SYS_KTRACEB)
		return -EPFNOSUPPORT;
	return kd_select__record(kd->select, h, data, kd_decoder__record_sv(kd->dec, h), deliver,
				 kd);
}

/* The whole file's KTR_OBJECT and KTR_MAPPING records to the decoder (kdump__set_path). */
static void read_objects(void *ctx, struct kd_decoder *d)
{
	struct kdump *kd = ctx;
	FILE *in = fopen(kd->path, "re");
	struct ktr_reader *r = in ? ktr_reader__open(in, 0) : NULL;
	struct ktr_record rec;

	while (r && ktr_reader__next(r, &rec) > 0) {
		struct ktr_object_load loads[KTR_OBJECT_MAXLOADS];
		struct ktr_object o;
		const char *path;

		if (ktr_reader__format(r)->sys != KD_SYS_KTRACEB)
			continue;
		if (rec.hdr.ktr_type == KTR_OBJECT &&
		    kd_object__parse(rec.data, rec.hdr.ktr_len, &o, loads, &path) == 0)
			kd_decoder__object(d, &o, loads, path);
		if (rec.hdr.ktr_type == KTR_MAPPING &&
		    rec.hdr.ktr_len == sizeof(struct ktr_mapping)) {
			struct ktr_mapping m;

			memcpy(&m, rec.data, sizeof(m));
			kd_decoder__mapping(d, &rec.hdr, &m);
		}
	}
	if (r)
		ktr_reader__close(r);
	if (in)
		fclose(in);
}

void kdump__set_path(struct kdump *kd, const char *path)
{
	kd->path = path;
	kd_decoder__set_objects_reader(kd->dec, read_objects, kd);
}

int kdump__run(struct kdump *kd, struct ktr_reader *r)
{
	struct ktr_record rec;
	int err;

	while ((err = ktr_reader__next(r, &rec)) > 0) {
		if (!kd->have_fmt)
			kdump__set_format(kd, ktr_reader__format(r));
		err = kdump__record(kd, &rec.hdr, rec.data);
		if (err)
			return err;
	}
	return err;
}

int kdump__finish(struct kdump *kd)
{
	return kd->sink->finish(kd->state);
}
