// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The JSON lines sink (kdump -J): one JSON object a line, every decoded
 * field as data.  The first line says what the output is
 * ({"type":"info","format":"ktraceb-json","version":1,...}); then one line
 * per record the text view would print, with its text tag as "type".
 * docs/JSON.md lists every member.  A record whose payload does not fit
 * its type gets "invalid":true and is counted, as the text's "invalid
 * record".
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "decode.h"
#include "kdump_event.h"
#include "kdump_jsonout.h"
#include "kdump_priv.h"

#define JSON_FORMAT_VERSION 1
#define FIELDS_MAX	    64 /* members of a STRU's "fields" */

static const char *const sys_names[] = {
	[KD_SYS_KTRACEB] = "ktraceb", [KD_SYS_DRAGONFLY] = "dragonfly",
	[KD_SYS_FREEBSD] = "freebsd", [KD_SYS_OPENBSD] = "openbsd",
	[KD_SYS_NETBSD] = "netbsd",   [KD_SYS_DARWIN] = "darwin",
};

static void json__head(struct kdump *kd)
{
	char desc[128];

	kd->sink_started = 1;
	fprintf(kd->out, "{\"type\":\"info\",\"format\":\"ktraceb-json\",\"version\":%d",
		JSON_FORMAT_VERSION);
	/* no "system" when the input is not a trace at all */
	if (!kd->have_fmt || kd->fmt.sys > KD_SYS_DARWIN)
		return (void)fputs("}\n", kd->out);
	fprintf(kd->out, ",\"system\":\"%s\"", sys_names[kd->fmt.sys]);
	if (kd->fmt.sys != KD_SYS_KTRACEB) {
		kd_bsd__describe(&kd->fmt, desc, sizeof(desc));
		fputs(",\"detected\":", kd->out);
		kd_json_cstr(kd->out, desc);
	}
	fputs("}\n", kd->out);
}

/* --- STRU: the decoder's "struct name { key=value, ... }" as members ----- */

struct field {
	const char *key, *val;
	size_t klen, vlen;
};

/* The top-level "k=v" pieces of "{ k=v, k=v }"; 0, or -1 if text is not of that form. */
static int split_fields(const char *s, size_t len, struct field *f, int *nf)
{
	const char *end = s + len, *p;
	int depth = 0, n = 0;
	bool quoted = false;

	if (len < 4 || memcmp(s, "{ ", 2) != 0 || memcmp(end - 2, " }", 2) != 0)
		return -1;
	s += 2;
	end -= 2;
	for (p = s;; p++) {
		if (p < end && quoted) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				quoted = false;
			continue;
		}
		if (p < end && !(depth == 0 && end - p >= 2 && p[0] == ',' && p[1] == ' ')) {
			if (*p == '"')
				quoted = true;
			else if (*p == '{' || *p == '[' || *p == '(')
				depth++;
			else if (*p == '}' || *p == ']' || *p == ')')
				depth--;
			continue;
		}
		/* a piece [s, p) */
		const char *eq = memchr(s, '=', p - s);

		if (!eq || eq == s || n == FIELDS_MAX)
			return -1;
		for (const char *k = s; k < eq; k++)
			if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
			      (*k >= '0' && *k <= '9') || *k == '_' || *k == '.'))
				return -1;
		f[n++] = (struct field){ s, eq + 1, eq - s, p - eq - 1 };
		if (p >= end)
			break;
		s = p + 2;
		p++;
	}
	*nf = n;
	return depth == 0 && !quoted ? 0 : -1;
}

static bool is_integer(const char *s, size_t len)
{
	size_t i = len && s[0] == '-';

	if (i == len || len > 19 || (s[i] == '0' && len > i + 1))
		return false;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* A decoder's quoted string ("a\"b\n\001"), its C escapes undone, as JSON. */
static void put_cquoted(FILE *out, const char *s, size_t len)
{
	unsigned char buf[KTR_PATH_MAX];
	size_t n = 0;

	for (size_t i = 1; i + 1 < len && n < sizeof(buf); i++) {
		unsigned char c = s[i];

		if (c == '\\' && i + 2 < len) {
			c = s[++i];
			if (c >= '0' && c <= '7') {
				unsigned int v = c - '0';

				for (int k = 0;
				     k < 2 && i + 2 < len && s[i + 1] >= '0' && s[i + 1] <= '7';
				     k++)
					v = v * 8 + (s[++i] - '0');
				c = (unsigned char)v;
			} else {
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
			}
		}
		buf[n++] = c;
	}
	kd_json_str(out, buf, n);
}

static void put_fields(FILE *out, const char *text, size_t len)
{
	struct field f[FIELDS_MAX];
	const char *body = memchr(text, '{', len);
	int n;

	if (!body || split_fields(body, len - (body - text), f, &n) < 0)
		return;
	fputs(",\"fields\":{", out);
	for (int i = 0; i < n; i++) {
		fputs(i ? "," : "", out);
		kd_json_str(out, f[i].key, f[i].klen);
		fputc(':', out);
		if (is_integer(f[i].val, f[i].vlen))
			fwrite(f[i].val, 1, f[i].vlen, out);
		else if (f[i].vlen >= 2 && f[i].val[0] == '"' && f[i].val[f[i].vlen - 1] == '"')
			put_cquoted(out, f[i].val, f[i].vlen);
		else
			kd_json_str(out, f[i].val, f[i].vlen);
	}
	fputc('}', out);
}

static int json__struct(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	const unsigned char *d = ev->data, *nul = memchr(d, '\0', ev->len);
	size_t nl;
	const char *text;
	size_t tlen;
	FILE *cap;

	if (!nul || nul == d)
		return -EINVAL;
	nl = nul - d;
	for (size_t i = 0; i < nl; i++)
		if (d[i] < 0x20 || d[i] > 0x7e)
			return -EINVAL;
	fputs(",\"struct\":", out);
	kd_json_str(out, d, nl);
	fprintf(out, ",\"len\":%zu,\"text\":", ev->len - nl - 1);
	cap = kd_json_capture(kd);
	if (!cap || kd_print_body(kd, ev, cap) < 0) {
		fputs("null", out);
		return 0;
	}
	text = kd_json_capture_text(kd, &tlen);
	if (!text) {
		fputs("null", out);
		return 0;
	}
	kd_json_str(out, text, tlen);
	if (!ktr_bsd_abi(ev->sv_flags) && !(kd->o.decode & KTR_DEC_RAW))
		put_fields(out, text, tlen);
	return 0;
}

/* --- the other records ----------------------------------------------------- */

/* ARGS, ENVS: NUL-separated strings, the last NUL optional. */
static int json__strings(FILE *out, const struct kd_event *ev)
{
	const unsigned char *d = ev->data, *end = d + ev->len, *nul;

	fputs(",\"strings\":[", out);
	for (int i = 0; d < end; i++) {
		nul = memchr(d, '\0', end - d);
		if (!nul)
			nul = end;
		fputs(i ? "," : "", out);
		kd_json_str(out, d, nul - d);
		d = nul + 1;
	}
	fputc(']', out);
	return 0;
}

static int json__fileinfo(FILE *out, const struct kd_event *ev)
{
	struct ktr_fileinfo fi;

	if (ev->len < sizeof(fi))
		return -EINVAL;
	memcpy(&fi, ev->data, sizeof(fi));
	if (memcmp(fi.fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC)) != 0)
		return -EINVAL;
	fprintf(out, ",\"format_version\":%u,\"machine\":", fi.fi_version);
	kd_json_str(out, fi.fi_machine, strnlen(fi.fi_machine, sizeof(fi.fi_machine)));
	fputs(",\"release\":", out);
	kd_json_str(out, fi.fi_release, strnlen(fi.fi_release, sizeof(fi.fi_release)));
	fputs(",\"tool\":", out);
	kd_json_str(out, fi.fi_tool, strnlen(fi.fi_tool, sizeof(fi.fi_tool)));
	fprintf(out, ",\"clock\":%u,\"wall_offset_ns\":%lld", fi.fi_clock,
		(long long)fi.fi_wall_offset_ns);
	return 0;
}

/* NAMI: the path, and the syscall it is an argument of (its thread's CALL). */
static int json__namei(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	const struct kd_map_ent *e = kd_map__get(&kd->calls, ev->h->ktr_tid);
	const char *name = e ? ktr_syscall_name(ev->sv_flags, (__s16)e->v1) : NULL;

	fputs(",\"path\":", out);
	kd_json_str(out, ev->data, ev->len);
	if (name) {
		fputs(",\"syscall\":", out);
		kd_json_cstr(out, name);
	}
	return 0;
}

/* Any other record the text view shows: its text as "text". */
static int json__text(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	FILE *cap = kd_json_capture(kd);
	const char *text;
	size_t len;

	if (!cap)
		return -ENOMEM;
	if (kd_print_body(kd, ev, cap) == -EINVAL)
		return -EINVAL;
	text = kd_json_capture_text(kd, &len);
	fputs(",\"text\":", out);
	kd_json_str(out, text ? text : "", text ? len : 0);
	return 0;
}

static int json__members(struct kdump *kd, FILE *out, const struct kd_event *ev)
{
	const char *tag;

	/* a type only another system's files have: its text */
	if (kd->fmt.sys != KD_SYS_KTRACEB && kd_bsd_printer(ev->h->ktr_type, &tag))
		return json__text(kd, out, ev);
	switch (ev->h->ktr_type) {
	case KTR_SYSCALL:
		return kd_json_call(kd, out, ev, false);
	case KTR_SYSRET:
		return kd_json_ret(kd, out, ev);
	case KTR_NAMEI:
		return json__namei(kd, out, ev);
	case KTR_GENIO:
		return kd_json_genio(kd, out, ev);
	case KTR_PSIG:
		return kd_json_psig(kd, out, ev);
	case KTR_USER:
		return kd_json_user(kd, out, ev);
	case KTR_STRUCT:
		return json__struct(kd, out, ev);
	case KTR_ARGS:
	case KTR_ENVS:
		return json__strings(out, ev);
	case KTR_FILEINFO:
		return json__fileinfo(out, ev);
	case KTR_LOST:
		if (!ev->valid)
			return -EINVAL;
		fprintf(out, ",\"lost\":%llu,\"lost_total\":%llu",
			(unsigned long long)ev->lost.lost, (unsigned long long)ev->lost.total);
		return 0;
	case KTR_EXIT:
		return kd_json_exit(kd, out, ev);
	default:
		return json__text(kd, out, ev);
	}
}

static int json__event(struct kdump *kd, const struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	const char *tag = kd_print_tag(kd, h->ktr_type);
	FILE *out = kd->out;
	int err;

	if (!tag && h->ktr_type > 0 && h->ktr_type <= KTR_TYPE_MAX)
		return 0; /* PROCCTOR, PROCDTOR, and types DragonFly kdump skips */
	if (!kd->sink_started)
		json__head(kd);
	fputs("{\"type\":", out);
	if (tag)
		kd_json_str(out, tag, strcspn(tag, " "));
	else
		fputs("\"UNKNOWN\"", out);
	fprintf(out, ",\"ktr_type\":%d,\"pid\":%d,\"tid\":%d,\"comm\":", h->ktr_type, h->ktr_pid,
		h->ktr_tid);
	kd_json_comm(out, h);
	fprintf(out, ",\"cpu\":%d,\"ts_ns\":%lld,\"wall_ns\":%lld", KTRH_CPUID_DECODE(h->ktr_flags),
		(long long)kd_event__ns(kd, h), (long long)kd_event__wall_ns(kd, h));
	err = tag ? json__members(kd, out, ev) : 0;
	if (err == -ENOMEM)
		return err;
	if (err) {
		fprintf(out, ",\"invalid\":true,\"len\":%zu", ev->len);
		kd->ninvalid++;
	}
	fputs("}\n", out);
	if (kd->o.flags & KD_FOLLOW)
		fflush(out);
	return 0;
}

static int json__finish(struct kdump *kd)
{
	if (!kd->sink_started)
		json__head(kd);
	return 0;
}

const struct kd_sink kd_sink_json = { json__event, json__finish };
