// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * JSON strings and decoded values for the -J and -P sinks
 * (kdump_jsonout.h).  Every payload is checked here before use, as the
 * text printers do, and a decoder's words are caught in one memory stream
 * per kdump, reused record after record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "decode.h"
#include "kdump_event.h"
#include "kdump_jsonout.h"
#include "kdump_priv.h"
#include "kdump_user.h"

struct kd_jsonout {
	FILE *cap; /* open_memstream over buf */
	char *buf;
	size_t size;
};

void kd_json_str(FILE *out, const void *p, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = p, *end = s + len, *run;

	fputc('"', out);
	while (s < end) {
		for (run = s; s < end && *s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\'; s++)
			;
		if (s > run)
			fwrite(run, 1, s - run, out);
		if (s == end)
			break;
		switch (*s) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			fprintf(out, "\\u00%c%c", hex[*s >> 4], hex[*s & 15]);
		}
		s++;
	}
	fputc('"', out);
}

void kd_json_cstr(FILE *out, const char *s)
{
	kd_json_str(out, s, strlen(s));
}

void kd_json_comm(FILE *out, const struct ktr_header *h)
{
	kd_json_str(out, h->ktr_comm, strnlen(h->ktr_comm, KTR_MAXCOMLEN));
}

FILE *kd_json_capture(struct kdump *kd)
{
	if (!kd->jo) {
		kd->jo = calloc(1, sizeof(*kd->jo));
		if (!kd->jo)
			return NULL;
	}
	if (!kd->jo->cap) {
		kd->jo->cap = open_memstream(&kd->jo->buf, &kd->jo->size);
		return kd->jo->cap;
	}
	if (fseeko(kd->jo->cap, 0, SEEK_SET) != 0)
		return NULL;
	return kd->jo->cap;
}

const char *kd_json_capture_text(struct kdump *kd, size_t *len)
{
	off_t end;

	if (!kd->jo || !kd->jo->cap || fflush(kd->jo->cap) != 0 ||
	    (end = ftello(kd->jo->cap)) < 0 || !kd->jo->buf)
		return NULL;
	*len = (size_t)end;
	return kd->jo->buf;
}

void kd_json_captured(struct kdump *kd, FILE *out)
{
	size_t len;
	const char *text = kd_json_capture_text(kd, &len);

	if (text)
		kd_json_str(out, text, len);
	else
		fputs("null", out);
}

void kd_jsonout__free(struct kdump *kd)
{
	if (!kd->jo)
		return;
	if (kd->jo->cap)
		fclose(kd->jo->cap);
	free(kd->jo->buf);
	free(kd->jo);
	kd->jo = NULL;
}

static void member_name(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	if (s)
		kd_json_cstr(out, s);
	else
		fputs("null", out);
}

int kd_json_call(struct kdump *kd, FILE *out, const struct kd_event *ev, bool as_object)
{
	int narg = ev->call.narg < KTR_MAXARGS ? ev->call.narg : KTR_MAXARGS;
	const char *name;
	FILE *cap;

	if (!ev->valid)
		return -EINVAL;
	member_name(out, "syscall", ktr_syscall_name(ev->sv_flags, ev->call.code));
	fprintf(out, ",\"nr\":%d,\"args\":%c", ev->call.code, as_object ? '{' : '[');
	for (int i = 0; i < narg; i++) {
		char argn[16];

		name = ktr_syscall_argname(ev->sv_flags, ev->call.code, i);
		if (!name) {
			snprintf(argn, sizeof(argn), "arg%d", i);
			name = argn;
		}
		fputs(i ? "," : "", out);
		if (as_object) {
			kd_json_cstr(out, name);
			fputc(':', out);
		} else {
			fputs("{\"name\":", out);
			kd_json_cstr(out, name);
			fputs(",\"value\":", out);
		}
		cap = kd_json_capture(kd);
		if (cap)
			ktr_print_syscall_arg(cap, ev->sv_flags, ev->call.code, ev->call.narg,
					      ev->call.args, i, kd->o.decode);
		kd_json_captured(kd, out);
		if (!as_object)
			fprintf(out, ",\"raw\":\"%#llx\"}", (unsigned long long)ev->call.args[i]);
	}
	fputc(as_object ? '}' : ']', out);
	return 0;
}

static const char *errno_name(unsigned int sv_flags, int error)
{
	return ktr_bsd_abi(sv_flags) ? ktr_bsd_errno_name(sv_flags, error) : ktr_errno_name(error);
}

static const char *signal_name(unsigned int sv_flags, int sig)
{
	return ktr_bsd_abi(sv_flags) ? ktr_bsd_signal_name(sv_flags, sig) : ktr_signal_name(sig);
}

int kd_json_ret(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	FILE *cap;

	if (!ev->valid)
		return -EINVAL;
	member_name(out, "syscall", ktr_syscall_name(ev->sv_flags, ev->ret.code));
	fprintf(out, ",\"nr\":%d,\"retval\":%lld,\"error\":%d", ev->ret.code,
		(long long)ev->ret.retval, ev->ret.error);
	if (ev->ret.error)
		member_name(out, "errno", errno_name(ev->sv_flags, ev->ret.error));
	fputs(",\"value\":", out);
	cap = kd_json_capture(kd);
	if (cap)
		ktr_print_sysret(cap, ev->sv_flags, ev->ret.code, ev->ret.error, ev->ret.retval,
				 kd->o.decode);
	kd_json_captured(kd, out);
	return 0;
}

int kd_json_genio(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	struct ktr_genio gio;
	size_t n, shown;

	if (ev->len < sizeof(gio))
		return -EINVAL;
	memcpy(&gio, ev->data, sizeof(gio));
	if (gio.ktr_rw != KTR_UIO_READ && gio.ktr_rw != KTR_UIO_WRITE)
		return -EINVAL;
	n = shown = ev->len - sizeof(gio);
	fprintf(out, ",\"fd\":%d,\"dir\":\"%s\",\"len\":%zu", gio.ktr_fd,
		gio.ktr_rw == KTR_UIO_READ ? "read" : "write", n);
	if (kd->o.flags & KD_NOGIO)
		return 0;
	if (kd->o.maxdata > 0 && n > (size_t)kd->o.maxdata)
		shown = kd->o.maxdata;
	fputs(",\"data\":", out);
	kd_json_str(out, ev->data + sizeof(gio), shown);
	if (shown < n)
		fputs(",\"truncated\":true", out);
	return 0;
}

int kd_json_psig(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	bool bsd = ktr_bsd_abi(ev->sv_flags);
	struct ktr_psig ps;
	const char *code;

	(void)kd;
	if (ev->len != sizeof(ps))
		return -EINVAL;
	memcpy(&ps, ev->data, sizeof(ps));
	fprintf(out, ",\"signo\":%d", ps.signo);
	member_name(out, "signal", signal_name(ev->sv_flags, ps.signo));
	if (ps.action == 0 || ps.action == 1) {
		fprintf(out, ",\"action\":\"%s\"", ps.action ? "SIG_IGN" : "SIG_DFL");
	} else {
		/* Linux sigset_t is 64 bits, in mask[0] (low) and mask[1]; a BSD's is mask[0] */
		unsigned long long mask = bsd ? ps.mask[0] : (__u64)ps.mask[1] << 32 | ps.mask[0];

		fprintf(out, ",\"action\":\"caught\",\"handler\":\"%#llx\",\"mask\":\"%#llx\"",
			(unsigned long long)ps.action, mask);
	}
	fprintf(out, ",\"code\":%d", ps.code);
	code = bsd ? NULL : ktr_sigcode_name(ps.signo, ps.code);
	if (code)
		member_name(out, "code_name", code);
	return 0;
}

int kd_json_exit(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	struct ktr_exit ex;

	(void)kd;
	if (ev->len != sizeof(ex))
		return -EINVAL;
	memcpy(&ex, ev->data, sizeof(ex));
	fprintf(out, ",\"status\":%d", ex.status);
	if (WIFEXITED(ex.status)) {
		fprintf(out, ",\"exit_code\":%d", WEXITSTATUS(ex.status));
	} else if (WIFSIGNALED(ex.status)) {
		member_name(out, "signal", ktr_signal_name(WTERMSIG(ex.status)));
		fprintf(out, ",\"signo\":%d,\"core\":%s", WTERMSIG(ex.status),
			WCOREDUMP(ex.status) ? "true" : "false");
	}
	return 0;
}

static const char *const user_kinds[] = {
	[KTR_UREC_PROBE] = "probe",
	[KTR_UREC_SPAN_ENTER] = "span_enter",
	[KTR_UREC_SPAN_EXIT] = "span_exit",
};

int kd_json_user(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	const struct kd_urec *u = &ev->user;
	const struct kd_span_step *st = &ev->span;
	size_t n = ev->len;

	if (!ev->valid || (kd->o.decode & KTR_DEC_RAW)) {
		/* utrace(2) bytes, clipped by -m as GIO data */
		fprintf(out, ",\"kind\":\"utrace\",\"len\":%zu,\"data\":", n);
		if (kd->o.maxdata > 0 && n > (size_t)kd->o.maxdata)
			n = kd->o.maxdata;
		kd_json_str(out, ev->data, n);
		if (n < ev->len)
			fputs(",\"truncated\":true", out);
		return 0;
	}
	fprintf(out, ",\"kind\":\"%s\"", user_kinds[u->h.ku_kind]);
	member_name(out, u->h.ku_kind == KTR_UREC_PROBE ? "provider" : "subsys", u->who);
	member_name(out, "name", u->name);
	if (u->h.ku_kind == KTR_UREC_PROBE) {
		fputs(",\"args\":[", out);
		for (int i = 0; i < u->h.ku_nargs; i++) {
			fputs(i ? "," : "", out);
			if (u->argstr[i])
				kd_json_cstr(out, u->argstr[i]);
			else
				fprintf(out, "%lld", (long long)u->args[i]);
		}
		fputc(']', out);
	} else {
		member_name(out, "kv", u->kv);
		if (st->is_exit)
			fprintf(out, ",\"err\":%s",
				(u->h.ku_flags & KTR_UREC_ERR) ? "true" : "false");
	}
	if (!st->spanlike)
		return 0;
	fprintf(out, ",\"span\":\"%s\",\"depth\":%d", st->is_exit ? "exit" : "enter", st->depth);
	if (st->is_exit && st->found)
		fprintf(out, ",\"dur_ns\":%llu", (unsigned long long)st->dur);
	else if (st->is_exit)
		fputs(",\"dur_ns\":null", out);
	return 0;
}

void kd_json_span_name(const struct kd_event *ev, char *buf, size_t size)
{
	const struct kd_urec *u = &ev->user;
	size_t base;
	bool is_exit;

	if (u->h.ku_kind == KTR_UREC_PROBE && kd_urec__pair(u->name, &base, &is_exit))
		snprintf(buf, size, "%s:%.*s", u->who, (int)base, u->name);
	else
		snprintf(buf, size, "%s:%s", u->who, u->name);
}
