// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * STACK (KTR_USTACK): the user stack of the call before it (-k), unwound and
 * named by kdump_decode_stack.c (its text kdump_body_stack.c).
 */
#include "kind_file.h"
#include "kdump_decode_stack.h"

static int dec_ustack(struct kd_decoder *d, struct kd_event *ev)
{
	return kd_decoder__stacks(d) ? kd_stacks__ustack(d->stacks, d, ev) : -ENOMEM;
}

/* A stack's frames as data: the raw frame, then what kdump found of it */
static int m_ustack(struct kd_json_out *j, const struct kd_event *ev)
{
	FILE *out = j->out;

	fputs(",\"frames\":[", out);
	for (unsigned int i = 0; i < ev->ustack.n; i++) {
		const struct ktr_ustack_frame *f = &ev->ustack.frames[i];
		const struct kdump_frame_name *n = &ev->ustack.names[i];
		unsigned int idlen = 20;

		while (idlen > 1 && f->build_id[idlen - 1] == 0)
			idlen--;
		fputs(i ? ",{" : "{", out);
		if (f->status == KTR_USTACK_BUILD_ID) {
			fputs("\"build_id\":", out);
			kd_json_hex_id(out, f->build_id, idlen);
			fprintf(out, ",\"offset\":%llu", (unsigned long long)f->offset);
		} else {
			fprintf(out, "\"ip\":%llu", (unsigned long long)f->offset);
		}
		if (n->object) {
			fputs(",\"object\":", out);
			kd_json_cstr(out, n->object);
			fprintf(out, ",\"address\":%llu", n->address);
		}
		if (n->function) {
			fputs(",\"function\":", out);
			kd_json_cstr(out, n->function);
			fprintf(out, ",\"function_offset\":%llu", n->function_offset);
		}
		if (n->file) {
			fputs(",\"file\":", out);
			kd_json_cstr(out, n->file);
			fprintf(out, ",\"line\":%d", n->line);
		}
		if (n->ninlined) {
			fputs(",\"inlined\":[", out);
			for (unsigned int k = 0; k < n->ninlined; k++) {
				fputs(k ? ",{\"function\":" : "{\"function\":", out);
				kd_json_cstr(out, n->inlined[k].function);
				if (n->inlined[k].file) {
					fputs(",\"file\":", out);
					kd_json_cstr(out, n->inlined[k].file);
					fprintf(out, ",\"line\":%d", n->inlined[k].line);
				}
				fputc('}', out);
			}
			fputc(']', out);
		}
		if (n->doubt) {
			fputs(",\"doubt\":", out);
			kd_json_cstr(out, n->doubt);
		}
		fputc('}', out);
	}
	fputc(']', out);
	fputs(ev->ustack.how == KD_STACK_DWARF ? ",\"unwind\":\"dwarf\"" :
	      ev->ustack.how == KD_STACK_SHED  ? ",\"unwind\":\"frame pointers\",\"shed\":true" :
						 ",\"unwind\":\"frame pointers\"",
	      out);
	if (ev->ustack.how == KD_STACK_DWARF)
		fprintf(out, ",\"stack_bytes\":%u", ev->ustack.stack_bytes);
	if (ev->ustack.stop) {
		fputs(",\"stop\":", out);
		kd_json_cstr(out, ev->ustack.stop);
	}
	return 0;
}

const struct kd_kind_def kd_kind_ustack = {
	.kind = KD_USTACK,
	.tag = "STACK",
	.type = KTR_USTACK,
	.decode = dec_ustack,
	.text = kd_body_ustack,
	.json = m_ustack,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
