// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The bodies of what -e trace=, -e usdt: and -k leave in a file
 * (kdump_body.h): the selections, a user stack frame by frame, an
 * object's build id.
 * Every string from the file or from an object file is escaped.
 */
#include <string.h>

#include "decode.h"
#include "kdump_body.h"

/*
 * "syscall selection: trace=openat status=failed (CALLs written at their
 * return)", "USDT probes armed: ktraceb:* python:function__entry",
 * "USDT probes armed that fire at high rates: python:line"
 */
void kd_body_filter(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	if (ev->filter.flags & (KTR_FILTER_USDT | KTR_FILTER_USDT_HOT)) {
		fputs(ev->filter.flags & KTR_FILTER_USDT_HOT ?
			      "USDT probes armed that fire at high rates: " :
			      "USDT probes armed: ktraceb:* ",
		      out);
		ktr_put_escaped(out, ev->filter.text, strlen(ev->filter.text), KTR_ESC_CR);
		return;
	}
	fputs("syscall selection: ", out);
	ktr_put_escaped(out, ev->filter.text, strlen(ev->filter.text), KTR_ESC_CR);
	if (ev->filter.flags & KTR_FILTER_CALLS_AT_RETURN)
		fputs(" (CALLs written at their return)", out);
}

static void put_build_id(FILE *out, const __u8 *id, unsigned int len)
{
	for (unsigned int i = 0; i < len; i++)
		fprintf(out, "%02x", id[i]);
}

/* A build id's length: its trailing zero bytes are padding (ktr.h) */
static unsigned int build_id_len(const __u8 id[20])
{
	unsigned int n = 20;

	while (n > 1 && id[n - 1] == 0)
		n--;
	return n;
}

/* " at file.c:12", if known */
static void put_where(FILE *out, const char *file, int line)
{
	if (!file)
		return;
	fputs(" at ", out);
	ktr_put_escaped(out, file, strlen(file), KTR_ESC_CR);
	fprintf(out, ":%d", line);
}

void kd_frame_text(FILE *out, const struct ktr_ustack_frame *f, const struct kdump_frame_name *n,
		   const struct kdump_opts *o)
{
	bool raw = o->decode & KTR_DEC_RAW;

	if (f->status != KTR_USTACK_BUILD_ID) {
		fprintf(out, "%#llx", (unsigned long long)f->offset);
	} else if (!raw && n->function) {
		ktr_put_escaped(out, n->function, strlen(n->function), KTR_ESC_CR);
		fprintf(out, "+%#llx (", n->function_offset);
		ktr_put_escaped(out, n->object, strlen(n->object), KTR_ESC_CR);
		fputc(')', out);
	} else if (!raw && n->object) {
		fprintf(out, "%#llx (", n->address);
		ktr_put_escaped(out, n->object, strlen(n->object), KTR_ESC_CR);
		fputc(')', out);
	} else {
		fputs("build id ", out);
		put_build_id(out, f->build_id, build_id_len(f->build_id));
		fprintf(out, " +%#llx", (unsigned long long)f->offset);
		if (!raw)
			fputs(" (no file with this build id)", out);
	}
	if (raw)
		return;
	put_where(out, n->file, n->line);
	for (unsigned int i = 0; i < n->ninlined; i++) {
		fputs(", inlined ", out);
		ktr_put_escaped(out, n->inlined[i].function, strlen(n->inlined[i].function),
				KTR_ESC_CR);
		put_where(out, n->inlined[i].file, n->inlined[i].line);
	}
	if (n->doubt) {
		fputs(" [", out);
		ktr_put_escaped(out, n->doubt, strlen(n->doubt), KTR_ESC_CR);
		fputc(']', out);
	}
}

/*
 * "3 frames", then a line for each: "#0  raw_openat+0x38 (/bin/prog) at
 * prog.c:29", then, if the frames end before the outermost one, why:
 * "[the unwind ends here: the stack copy ends at ...]".
 */
void kd_body_ustack(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	unsigned int n = ev->ustack.n;
	const char *stop = ev->ustack.stop;

	fprintf(out, "%u frame%s", n, n == 1 ? "" : "s");
	if (n == 0)
		fputs(" (none could be read)", out);
	if (ev->ustack.how == KD_STACK_SHED)
		fputs(" (the kernel's frame-pointer walk: the stack copy was shed, its trace "
		      "past its budget or the ring buffer half full)",
		      out);
	for (unsigned int i = 0; i < n; i++) {
		fprintf(out, "\n       #%-2u ", i);
		kd_frame_text(out, &ev->ustack.frames[i], &ev->ustack.names[i], o);
	}
	if (stop) {
		fprintf(out, "\n       [the %s ends here: ",
			ev->ustack.how == KD_STACK_DWARF ? "unwind" : "walk");
		ktr_put_escaped(out, stop, strlen(stop), KTR_ESC_CR);
		fputc(']', out);
	}
}

/* "8d2c...e1 /usr/lib/x86_64-linux-gnu/libc.so.6" */
void kd_body_object(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	put_build_id(out, ev->object.build_id, ev->object.id_len);
	fputc(' ', out);
	ktr_put_escaped(out, ev->object.path, strlen(ev->object.path), KTR_ESC_CR);
}
