// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * INFO (KTR_FILEINFO): the file's first record, the machine, kernel and clock.
 */
#include "kind_file.h"

/* INFO: its machine and clock count even without the magic a display wants. */
static int dec_fileinfo(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_fileinfo *fi = &ev->fileinfo;

	/* a later format may append fields: only the known prefix is read */
	if (ev->len < sizeof(*fi))
		return kd_dec_invalid(ev);
	memcpy(fi, ev->data, sizeof(*fi));
	fi->fi_machine[sizeof(fi->fi_machine) - 1] = '\0';
	ktr_decode_set_machine(fi->fi_machine);
	d->have_fileinfo = true;
	d->wall_offset_ns = fi->fi_wall_offset_ns;
	if (memcmp(fi->fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC)) != 0)
		return kd_dec_invalid(ev);
	return 0;
}

static void body_fileinfo(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_fileinfo *fi = &ev->fileinfo;

	fprintf(out, "ktraceb format %u, ", fi->fi_version);
	ktr_put_escaped(out, fi->fi_machine, strnlen(fi->fi_machine, sizeof(fi->fi_machine)),
			KTR_ESC_CR);
	fputs(", kernel ", out);
	ktr_put_escaped(out, fi->fi_release, strnlen(fi->fi_release, sizeof(fi->fi_release)),
			KTR_ESC_CR);
	/* the other build of the BPF programs, said; the usual one goes without a word */
	if ((fi->fi_flags & KTR_FI_BPF_KNOWN) && (fi->fi_flags & KTR_FI_BPF_OLD))
		fputs(", BPF programs for kernels before 5.12", out);
}

static int m_fileinfo(struct kd_json_out *j, const struct kd_event *ev)
{
	const struct ktr_fileinfo *fi = &ev->fileinfo;
	FILE *out = j->out;

	fprintf(out, ",\"format_version\":%u,\"machine\":", fi->fi_version);
	kd_json_str(out, fi->fi_machine, strnlen(fi->fi_machine, sizeof(fi->fi_machine)));
	fputs(",\"release\":", out);
	kd_json_str(out, fi->fi_release, strnlen(fi->fi_release, sizeof(fi->fi_release)));
	fputs(",\"tool\":", out);
	kd_json_str(out, fi->fi_tool, strnlen(fi->fi_tool, sizeof(fi->fi_tool)));
	fprintf(out, ",\"clock\":%u,\"wall_offset_ns\":%lld", fi->fi_clock,
		(long long)fi->fi_wall_offset_ns);
	if (fi->fi_flags & KTR_FI_BPF_KNOWN)
		fprintf(out, ",\"bpf_build\":\"%s\"",
			fi->fi_flags & KTR_FI_BPF_OLD ? "old_kernel" : "current");
	return 0;
}

/* -Y: a session begins: its losses are counted from zero */
static int count_info(struct kd_summary *s, const struct kd_event *ev)
{
	kd_summary__session(s);
	return 0;
}

const struct kd_kind_def kd_kind_fileinfo = {
	.kind = KD_FILEINFO,
	.tag = "INFO",
	.type = KTR_FILEINFO,
	.decode = dec_fileinfo,
	.text = body_fileinfo,
	.json = m_fileinfo,
	.count = count_info,
	.timeline = kd_timeline__not_drawn,
};
