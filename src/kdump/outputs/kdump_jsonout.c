// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* JSON strings and decoded values for the -J and -P sinks (kdump_jsonout.h). */
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "decode.h"
#include "kdump_fmt.h"
#include "kdump_jsonout.h"

void kd_json_hex_id(FILE *out, const __u8 *id, unsigned int len)
{
	fputc('"', out);
	for (unsigned int i = 0; i < len; i++)
		fprintf(out, "%02x", id[i]);
	fputc('"', out);
}

struct kd_capture {
	FILE *f; /* open_memstream over buf */
	char *buf;
	size_t size;
};

void kd_json_str(FILE *out, const void *p, size_t len)
{
	fputc('"', out);
	ktr_put_escaped(out, p, len, KTR_ESC_JSON);
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

struct kd_capture *kd_capture__new(void)
{
	return calloc(1, sizeof(struct kd_capture));
}

void kd_capture__free(struct kd_capture *c)
{
	if (!c)
		return;
	if (c->f)
		fclose(c->f);
	free(c->buf);
	free(c);
}

FILE *kd_capture__start(struct kd_capture *c)
{
	if (!c->f) {
		c->f = open_memstream(&c->buf, &c->size);
		if (c->f) /* one sink's, used by one thread: no lock each write */
			__fsetlocking(c->f, FSETLOCKING_BYCALLER);
		return c->f;
	}
	if (fseeko(c->f, 0, SEEK_SET) != 0)
		return NULL;
	return c->f;
}

const char *kd_capture__text(struct kd_capture *c, size_t *len)
{
	off_t end;

	if (!c->f || fflush(c->f) != 0 || (end = ftello(c->f)) < 0 || !c->buf)
		return NULL;
	*len = (size_t)end;
	return c->buf;
}

static void member_name(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	if (s)
		kd_json_cstr(out, s);
	else
		fputs("null", out);
}

/* A syscall's arguments or its return, as the decoder gives them (decode.h). */
struct values {
	FILE *out;
	bool as_object; /* arguments: {"name":value}, not [{"name","value","raw"}] */
	int n;
	const struct kd_event *ev; /* -y: the CALL whose descriptors have an fd_path; NULL */
	const struct kdump_opts *o;
};

/* -y: ,"fd_path":"..." for what descriptor fd of the event's process is, if known */
static void fd_path(FILE *out, const struct kd_event *ev, int fd, const struct kdump_opts *o)
{
	char name[KD_FDNAME_MAX + 16];
	bool deleted;
	size_t n =
		kd_fdproc__name(ev->fds, fd, o->flags & KD_FDS_SOCK, name, KD_FDNAME_MAX, &deleted);

	if (!n)
		return;
	if (deleted) { /* as the kernel's /proc/PID/fd links say it */
		memcpy(name + n, " (deleted)", 10);
		n += 10;
	}
	fputs(",\"fd_path\":", out);
	kd_json_str(out, name, n);
}

static void no_group(void *ctx, enum ktr_field_group g)
{
	(void)ctx;
	(void)g;
}

static void arg_field(void *ctx, const struct ktr_field *f)
{
	struct values *v = ctx;
	FILE *out = v->out;

	fputs(v->n++ ? "," : "", out);
	if (v->as_object) {
		kd_json_cstr(out, f->name);
		fputc(':', out);
		kd_json_str(out, f->text, f->len);
		return;
	}
	fputs("{\"name\":", out);
	kd_json_cstr(out, f->name);
	fputs(",\"value\":", out);
	kd_json_str(out, f->text, f->len);
	fprintf(out, ",\"raw\":\"%#llx\"", (unsigned long long)f->raw);
	if (v->ev && (v->ev->call.fdmask & (1u << (v->n - 1))))
		fd_path(out, v->ev, (int)f->raw, v->o);
	fputc('}', out);
}

static void ret_field(void *ctx, const struct ktr_field *f)
{
	struct values *v = ctx;

	v->n++;
	kd_json_str(v->out, f->text, f->len);
}

void kd_json_call(FILE *out, const struct kd_event *ev, const struct kdump_opts *o, bool as_object)
{
	struct values v = { out, as_object, 0, NULL, o };
	const struct ktr_field_sink sink = { no_group, arg_field, no_group, &v, NULL };

	if ((o->flags & KD_FDS) && ev->call.fdmask)
		v.ev = ev;
	member_name(out, "syscall", ktr_syscall_name(ev->sv_flags, ev->call.code));
	fprintf(out, ",\"nr\":%d,\"args\":%c", ev->call.code, as_object ? '{' : '[');
	ktr_decode_syscall_args(&sink, ev->sv_flags, ev->call.code, ev->call.narg, ev->call.args,
				o->decode);
	fputc(as_object ? '}' : ']', out);
}

void kd_json_ret(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	struct values v = { out, false, 0, NULL, o };
	const struct ktr_field_sink sink = { no_group, ret_field, no_group, &v, NULL };

	member_name(out, "syscall", ktr_syscall_name(ev->sv_flags, ev->ret.code));
	fprintf(out, ",\"nr\":%d,\"retval\":%lld,\"error\":%d", ev->ret.code,
		(long long)ev->ret.retval, ev->ret.error);
	if (ev->ret.error)
		member_name(out, "errno",
			    ev->bsd ? ktr_bsd_errno_name(ev->sv_flags, ev->ret.error) :
				      ktr_errno_name(ev->ret.error));
	if (ev->ret.new_tid)
		fprintf(out, ",\"new_tid\":%d", ev->ret.new_tid);
	if (ev->ret.has_dur)
		fprintf(out, ",\"duration_ns\":%llu", (unsigned long long)ev->ret.dur_ns);
	if ((o->flags & KD_FDS) && ev->ret.fd_new)
		fd_path(out, ev, (int)ev->ret.retval, o);
	fputs(",\"value\":", out);
	ktr_decode_sysret(&sink, ev->sv_flags, ev->ret.code, ev->ret.error, ev->ret.retval,
			  o->decode);
	if (!v.n)
		fputs("null", out);
}

void kd_json_genio(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	size_t n = ev->genio.n, shown = n;

	fprintf(out, ",\"fd\":%d,\"dir\":\"%s\",\"len\":%zu", ev->genio.fd,
		ev->genio.read ? "read" : "write", n);
	if (o->flags & KD_NOGIO)
		return;
	if (o->maxdata > 0 && n > (size_t)o->maxdata)
		shown = o->maxdata;
	fputs(",\"data\":", out);
	kd_json_str(out, ev->genio.data, shown);
	if (shown < n)
		fputs(",\"truncated\":true", out);
}

void kd_json_psig(FILE *out, const struct kd_event *ev)
{
	const struct ktr_psig *ps = &ev->psig;
	const char *code;

	fprintf(out, ",\"signo\":%d", ps->signo);
	member_name(out, "signal",
		    ev->bsd ? ktr_bsd_signal_name(ev->sv_flags, ps->signo) :
			      ktr_signal_name(ps->signo));
	if (ps->action == 0 || ps->action == 1) {
		fprintf(out, ",\"action\":\"%s\"", ps->action ? "SIG_IGN" : "SIG_DFL");
	} else {
		/* Linux sigset_t is 64 bits, in mask[0] (low) and mask[1]; a BSD's is mask[0] */
		unsigned long long mask = ev->bsd ? ps->mask[0] :
						    (__u64)ps->mask[1] << 32 | ps->mask[0];

		fprintf(out, ",\"action\":\"caught\",\"handler\":\"%#llx\",\"mask\":\"%#llx\"",
			(unsigned long long)ps->action, mask);
	}
	fprintf(out, ",\"code\":%d", ps->code);
	code = ev->bsd ? NULL : ktr_sigcode_name(ps->signo, ps->code);
	if (code)
		member_name(out, "code_name", code);
}

void kd_json_exit(FILE *out, const struct kd_event *ev)
{
	int status = ev->exit_status;

	fprintf(out, ",\"status\":%d", status);
	if (WIFEXITED(status)) {
		fprintf(out, ",\"exit_code\":%d", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		member_name(out, "signal", ktr_signal_name(WTERMSIG(status)));
		fprintf(out, ",\"signo\":%d,\"core\":%s", WTERMSIG(status),
			WCOREDUMP(status) ? "true" : "false");
	}
}

void kd_json_end(FILE *out, const struct kd_event *ev)
{
	const struct ktr_end *e = &ev->end;
	const char *why = kd_fmt_end_why(e->ke_why, true);

	if (why)
		member_name(out, "why", why);
	else
		fprintf(out, ",\"why\":%u", e->ke_why);
	if (e->ke_why == KTR_END_WRITE_ERROR) {
		fprintf(out, ",\"error\":%d", e->ke_errno);
		member_name(out, "errno", ktr_errno_name(e->ke_errno));
	}
	if (e->ke_why == KTR_END_CLEARED && e->ke_pid)
		fprintf(out, ",\"by_pid\":%d,\"by_uid\":%u", e->ke_pid, e->ke_uid);
	fprintf(out, ",\"records\":%llu,\"lost\":%llu,\"unwritten\":%llu",
		(unsigned long long)e->ke_records, (unsigned long long)e->ke_lost,
		(unsigned long long)e->ke_unwritten);
}

void kd_json_lost(FILE *out, const struct kd_event *ev)
{
	fprintf(out, ",\"lost\":%llu,\"lost_total\":%llu", (unsigned long long)ev->lost.lost,
		(unsigned long long)ev->lost.total);
}

static const char *const user_kinds[] = {
	[KTR_UREC_PROBE] = "probe",
	[KTR_UREC_SPAN_ENTER] = "span_enter",
	[KTR_UREC_SPAN_EXIT] = "span_exit",
};

void kd_json_user(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct kd_urec *u = &ev->user;
	const struct kd_span_step *st = &ev->span;
	size_t n = ev->len;

	if (!ev->ktru || (o->decode & KTR_DEC_RAW)) {
		/* utrace(2) bytes, clipped by -m as GIO data */
		fprintf(out, ",\"kind\":\"utrace\",\"len\":%zu,\"data\":", n);
		if (o->maxdata > 0 && n > (size_t)o->maxdata)
			n = o->maxdata;
		kd_json_str(out, ev->data, n);
		if (n < ev->len)
			fputs(",\"truncated\":true", out);
		return;
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
		return;
	fprintf(out, ",\"span\":\"%s\",\"depth\":%d", st->is_exit ? "exit" : "enter", st->depth);
	if (st->is_exit && st->found)
		fprintf(out, ",\"dur_ns\":%llu", (unsigned long long)st->dur);
	else if (st->is_exit)
		fputs(",\"dur_ns\":null", out);
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
