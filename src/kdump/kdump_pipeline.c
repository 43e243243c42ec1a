// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The pipeline (kdump_pipeline.h, kdump_event.h): every record through
 * the decoder, those the options let through (-p, -t) on to the one sink.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "kdump_pipeline.h"
#include "kdump_decode.h"
#include "kdump_sink.h"

struct kdump {
	struct kdump_opts o;
	struct kd_decoder *dec;
	const struct kd_sink *sink;
	void *state; /* the sink's */
	bool have_fmt;
	unsigned long ninvalid; /* counted by the sink */
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
	kd->state = kd->dec ? kd->sink->open(&env) : NULL;
	if (!kd->state) {
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
	free(kd);
}

unsigned long kdump__ninvalid(const struct kdump *kd)
{
	return kd->ninvalid + kd_decoder__ninvalid(kd->dec);
}

void kdump__set_format(struct kdump *kd, const struct kd_bsd_fmt *fmt)
{
	kd->have_fmt = true;
	kd_decoder__set_format(kd->dec, fmt);
	if (kd->sink->format)
		kd->sink->format(kd->state, fmt);
}

/* -t and -p; what the file misses is always said. */
static bool visible(const struct kdump *kd, const struct ktr_header *h)
{
	int type = h->ktr_type;

	if (type == KTR_LOST || type == KTR_FLIGHT)
		return true;
	if ((kd->o.flags & KD_TRSEL) &&
	    (type <= 0 || type > KTR_TYPE_MAX ||
	     !((unsigned int)kd->o.trpoints &
	       (type == KTR_TRACEPOINT ? KTRFAC_TRACEPOINT : 1u << type))))
		return false;
	if ((kd->o.flags & KD_PIDSEL) && h->ktr_pid != kd->o.pid && h->ktr_tid != kd->o.pid)
		return false;
	return true;
}

int kdump__record(struct kdump *kd, const struct ktr_header *h, const void *data)
{
	struct kd_event ev;
	int err;

	err = kd_decoder__decode(kd->dec, h, data, &ev);
	if (err)
		return err;
	if (!visible(kd, h))
		return 0;
	return kd->sink->event(kd->state, &ev);
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
