// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * GIO (KTR_GENIO): the data a read or write moved.
 */
#include "kind_file.h"

static int dec_genio(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_genio gio;

	if (ev->len < sizeof(gio))
		return kd_dec_invalid(ev);
	memcpy(&gio, ev->data, sizeof(gio));
	if (gio.ktr_rw != KTR_UIO_READ && gio.ktr_rw != KTR_UIO_WRITE)
		return kd_dec_invalid(ev);
	ev->genio.fd = gio.ktr_fd;
	ev->genio.read = gio.ktr_rw == KTR_UIO_READ;
	ev->genio.data = ev->data + sizeof(gio);
	ev->genio.n = ev->len - sizeof(gio);
	return 0;
}

static void body_genio(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	size_t n = ev->genio.n;

	fprintf(out, "fd %d %s %zu byte%s", ev->genio.fd, ev->genio.read ? "read" : "wrote", n,
		n == 1 ? "" : "s");
	kd_body_data(out, ev->genio.data, n, o);
}

static int m_genio(struct kd_json_out *j, const struct kd_event *ev)
{
	kd_json_genio(j->out, ev, j->o);
	return 0;
}

/* -P: an instant with its data */
static int draw_genio(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		      __s64 ns)
{
	kd_timeline__instant(c, t, "io", kd_kind_tag(KD_GENIO), kd_kind_tag(KD_GENIO), ns);
	kd_json_genio(kd_timeline__out(c), ev, kd_timeline__opts(c));
	kd_timeline__done(c);
	return 0;
}

const struct kd_kind_def kd_kind_genio = {
	.kind = KD_GENIO,
	.tag = "GIO",
	.type = KTR_GENIO,
	.decode = dec_genio,
	.text = body_genio,
	.json = m_genio,
	.count = kd_summary__not_counted,
	.timeline = draw_genio,
};
