// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The JSON lines sink (kdump -J, kdump_sink.h): one JSON object a line,
 * every decoded field as data.  The first line says what the output is
 * ({"type":"info","format":"ktraceb-json","version":2,...}); then one line
 * per event the text would show, its text tag as "type".  docs/JSON.md
 * lists every member.  An event whose payload does not fit its kind gets
 * "invalid":true and is counted, as the text's "invalid record".  Each
 * kind's members are its own (kdump_kind.h), from its fields; another
 * system's kinds with no members of their own carry their text
 * (kdump_body.h) as "text".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_body.h"
#include "kdump_jsonout.h"
#include "kdump_sink.h"

#define JSON_FORMAT_VERSION 2

struct json {
	struct kd_sink_env env;
	struct kd_capture *cap;
	struct kd_bsd_fmt fmt;
	bool have_fmt;
	bool started; /* the head line written */
};

static const char *const sys_names[] = {
	[KD_SYS_KTRACEB] = "ktraceb", [KD_SYS_DRAGONFLY] = "dragonfly",
	[KD_SYS_FREEBSD] = "freebsd", [KD_SYS_OPENBSD] = "openbsd",
	[KD_SYS_NETBSD] = "netbsd",   [KD_SYS_DARWIN] = "darwin",
};

static void *json__open(const struct kd_sink_env *env)
{
	struct json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->env = *env;
	j->cap = kd_capture__new();
	if (!j->cap) {
		free(j);
		return NULL;
	}
	return j;
}

static void json__close(void *state)
{
	struct json *j = state;

	kd_capture__free(j->cap);
	free(j);
}

static void json__format(void *state, const struct kd_bsd_fmt *fmt)
{
	struct json *j = state;

	j->fmt = *fmt;
	j->have_fmt = true;
}

static void json__head(struct json *j)
{
	FILE *out = j->env.out;
	char desc[128];

	j->started = true;
	fprintf(out, "{\"type\":\"info\",\"format\":\"ktraceb-json\",\"version\":%d",
		JSON_FORMAT_VERSION);
	/* no "system" when the input is not a trace at all */
	if (!j->have_fmt || j->fmt.sys > KD_SYS_DARWIN)
		return (void)fputs("}\n", out);
	fprintf(out, ",\"system\":\"%s\"", sys_names[j->fmt.sys]);
	if (j->fmt.sys != KD_SYS_KTRACEB) {
		kd_bsd__describe(&j->fmt, desc, sizeof(desc));
		fputs(",\"detected\":", out);
		kd_json_cstr(out, desc);
	}
	fputs("}\n", out);
}

/* A kind's text as "text" (kdump_kind.h json_text: only another system's kinds). */
static int put_text(struct json *j, const struct kd_event *ev)
{
	FILE *cap = kd_capture__start(j->cap);
	const char *text;
	size_t len;

	if (!cap)
		return -ENOMEM;
	kd_body(cap, ev, j->env.o);
	text = kd_capture__text(j->cap, &len);
	fputs(",\"text\":", j->env.out);
	kd_json_str(j->env.out, text ? text : "", text ? len : 0);
	return 0;
}

/* A valid event's members: its kind's, then its text if the kind says so. */
static int put_members(struct json *j, const struct kd_kind_def *k, const struct kd_event *ev)
{
	struct kd_json_out jo = { .out = j->env.out, .o = j->env.o, .cap = j->cap };
	int err = k->json ? k->json(&jo, ev) : 0;

	return err || !k->json_text ? err : put_text(j, ev);
}

static int json__event(void *state, const struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	const struct kd_kind_def *k = kd_kinds[ev->kind];
	const char *tag = kd_kind_tag(ev->kind);
	struct json *j = state;
	FILE *out = j->env.out;
	int err = 0;

	if (ev->kind == KD_NONE)
		return 0;
	if (!j->started)
		json__head(j);
	fputs("{\"type\":", out);
	if (tag)
		kd_json_cstr(out, tag);
	else
		fputs("\"UNKNOWN\"", out);
	fprintf(out, ",\"ktr_type\":%d,\"pid\":%d,\"tid\":%d,\"comm\":", h->ktr_type, h->ktr_pid,
		h->ktr_tid);
	kd_json_comm(out, h);
	if (ev->ns_pid)
		fprintf(out, ",\"ns_pid\":%d,\"ns_tid\":%d", ev->ns_pid, ev->ns_tid);
	fprintf(out, ",\"cpu\":%d,\"ts_ns\":%lld,\"wall_ns\":%lld", KTRH_CPUID_DECODE(h->ktr_flags),
		(long long)ev->ns, (long long)ev->wall_ns);
	if (ev->replayed)
		fputs(",\"replayed\":true", out);
	if (k)
		err = ev->valid ? put_members(j, k, ev) : -EINVAL;
	if (err == -ENOMEM)
		return err;
	if (err) {
		fprintf(out, ",\"invalid\":true,\"len\":%zu", ev->len);
		++*j->env.ninvalid;
	}
	fputs("}\n", out);
	if (j->env.o->flags & KD_FOLLOW)
		fflush(out);
	return 0;
}

static int json__finish(void *state)
{
	struct json *j = state;

	if (!j->started)
		json__head(j);
	return 0;
}

const struct kd_sink kd_sink_json = {
	.open = json__open,
	.format = json__format,
	.event = json__event,
	.finish = json__finish,
	.close = json__close,
};
