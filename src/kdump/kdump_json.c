// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The JSON lines sink (kdump -J, kdump_sink.h): one JSON object a line,
 * every decoded field as data.  The first line says what the output is
 * ({"type":"info","format":"ktraceb-json","version":1,...}); then one line
 * per event the text would show, its text tag as "type".  docs/JSON.md
 * lists every member.  An event whose payload does not fit its kind gets
 * "invalid":true and is counted, as the text's "invalid record".  Kinds
 * with no members of their own carry their text (kdump_body.h) as "text".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "decode.h"
#include "kdump_body.h"
#include "kdump_cgroup.h"
#include "kdump_jsonout.h"
#include "kdump_sink.h"
#include "kdump_tp.h"

#define JSON_FORMAT_VERSION 1

struct json {
	struct kd_sink_env env;
	struct kd_capture *cap;
	struct kd_capture *fcap; /* a structure's "fields", kept until its text is out */
	struct kd_bsd_fmt fmt;
	bool have_fmt;
	bool started; /* the head line written */
};

struct tp_out {
	FILE *out;
	unsigned int n;
};

typedef int (*members_fn)(struct json *j, const struct kd_event *ev);

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
	j->fcap = kd_capture__new();
	if (!j->cap || !j->fcap) {
		kd_capture__free(j->cap);
		kd_capture__free(j->fcap);
		free(j);
		return NULL;
	}
	return j;
}

static void json__close(void *state)
{
	struct json *j = state;

	kd_capture__free(j->cap);
	kd_capture__free(j->fcap);
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

/* STRU: its name, length and text, and its members as the decoder gives them. */
static int m_struct(struct json *j, const struct kd_event *ev)
{
	FILE *out = j->env.out, *cap, *fcap = NULL;
	const char *text, *fields = NULL;
	size_t tlen, flen = 0;
	bool linux_fields = !ev->bsd && !(j->env.o->decode & KTR_DEC_RAW);

	fputs(",\"struct\":", out);
	kd_json_str(out, ev->strct.name, ev->strct.nlen);
	fprintf(out, ",\"len\":%zu,\"text\":", ev->strct.len);
	cap = kd_capture__start(j->cap);
	if (cap && linux_fields)
		fcap = kd_capture__start(j->fcap);
	if (fcap) { /* the text and the members from one decoding */
		if (kd_json_struct_text(cap, fcap, ev->strct.name, ev->strct.data, ev->strct.len,
					j->env.o->decode))
			fields = kd_capture__text(j->fcap, &flen);
	} else if (cap) {
		kd_body(cap, ev, j->env.o);
	}
	text = cap ? kd_capture__text(j->cap, &tlen) : NULL;
	if (!text) {
		fputs("null", out);
		return 0;
	}
	kd_json_str(out, text, tlen);
	if (fields)
		fwrite(fields, 1, flen, out);
	return 0;
}

/* --- the other kinds --------------------------------------------------------- */

static int m_call(struct json *j, const struct kd_event *ev)
{
	kd_json_call(j->env.out, ev, j->env.o, false);
	return 0;
}

static int m_ret(struct json *j, const struct kd_event *ev)
{
	kd_json_ret(j->env.out, ev, j->env.o);
	return 0;
}

/* NAMI: the path, and the syscall it is an argument of (its thread's CALL). */
static int m_namei(struct json *j, const struct kd_event *ev)
{
	const char *name = ev->namei.has_call ? ktr_syscall_name(ev->sv_flags, ev->namei.call) :
						NULL;

	fputs(",\"path\":", j->env.out);
	kd_json_str(j->env.out, ev->data, ev->len);
	if (ev->namei.cut)
		fputs(",\"cut\":true", j->env.out);
	if (name) {
		fputs(",\"syscall\":", j->env.out);
		kd_json_cstr(j->env.out, name);
	}
	return 0;
}

static int m_genio(struct json *j, const struct kd_event *ev)
{
	kd_json_genio(j->env.out, ev, j->env.o);
	return 0;
}

static int m_psig(struct json *j, const struct kd_event *ev)
{
	kd_json_psig(j->env.out, ev);
	return 0;
}

static int m_user(struct json *j, const struct kd_event *ev)
{
	kd_json_user(j->env.out, ev, j->env.o);
	return 0;
}

/* ARGS, ENVS: NUL-separated strings, the last NUL optional. */
static int m_strings(struct json *j, const struct kd_event *ev)
{
	const unsigned char *d = ev->data, *end = d + ev->len, *nul;
	FILE *out = j->env.out;

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

static int m_fileinfo(struct json *j, const struct kd_event *ev)
{
	const struct ktr_fileinfo *fi = &ev->fileinfo;
	FILE *out = j->env.out;

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

static int m_lost(struct json *j, const struct kd_event *ev)
{
	kd_json_lost(j->env.out, ev);
	return 0;
}

static int m_end(struct json *j, const struct kd_event *ev)
{
	kd_json_end(j->env.out, ev);
	return 0;
}

static int m_exit(struct json *j, const struct kd_event *ev)
{
	kd_json_exit(j->env.out, ev);
	return 0;
}

/* INFO of a selection: of what, what it was, and whether CALLs wait for their return */
static int m_filter(struct json *j, const struct kd_event *ev)
{
	FILE *out = j->env.out;

	fprintf(out, ",\"of\":\"%s\"",
		(ev->filter.flags & KTR_FILTER_USDT_HOT) ? "usdt_high_rate" :
		(ev->filter.flags & KTR_FILTER_USDT)	 ? "usdt" :
							   "syscalls");
	fputs(",\"selection\":", out);
	kd_json_cstr(out, ev->filter.text);
	fprintf(out, ",\"calls_at_return\":%s",
		(ev->filter.flags & KTR_FILTER_CALLS_AT_RETURN) ? "true" : "false");
	return 0;
}

static void put_hex_id(FILE *out, const __u8 *id, unsigned int len)
{
	fputc('"', out);
	for (unsigned int i = 0; i < len; i++)
		fprintf(out, "%02x", id[i]);
	fputc('"', out);
}

/* A stack's frames as data: the raw frame, then what kdump found of it */
static int m_ustack(struct json *j, const struct kd_event *ev)
{
	FILE *out = j->env.out;

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
			put_hex_id(out, f->build_id, idlen);
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

static int m_object(struct json *j, const struct kd_event *ev)
{
	FILE *out = j->env.out;

	fputs(",\"build_id\":", out);
	put_hex_id(out, ev->object.build_id, ev->object.id_len);
	fputs(",\"path\":", out);
	kd_json_cstr(out, ev->object.path);
	return 0;
}

/* FD: "fd", "kind", "cloexec", what it is as -yy says it ("fd_path"), its inode */
static int m_fd(struct json *j, const struct kd_event *ev)
{
	static const char *const kind[] = {
		[KTR_FD_PATH] = "path",	      [KTR_FD_PIPE] = "pipe", [KTR_FD_SOCKET] = "socket",
		[KTR_FD_ANON] = "anon_inode", [KTR_FD_LEFT] = "left",
	};
	const struct ktr_fd *r = &ev->fd.r;
	FILE *out = j->env.out;
	char name[KD_FDNAME_MAX + 16];
	bool deleted;
	size_t n;

	if (r->kf_kind == KTR_FD_LEFT) {
		fprintf(out, ",\"kind\":\"left\",\"left\":%llu", (unsigned long long)r->kf_ino);
		return 0;
	}
	fprintf(out, ",\"fd\":%d,\"kind\":\"%s\",\"cloexec\":%s", r->kf_fd, kind[r->kf_kind],
		(r->kf_flags & KTR_FD_F_CLOEXEC) ? "true" : "false");
	n = kd_fdrec__name(ev, name, KD_FDNAME_MAX, &deleted);
	if (deleted) { /* as the kernel's /proc/PID/fd links say it */
		memcpy(name + n, " (deleted)", 10);
		n += 10;
	}
	fputs(",\"fd_path\":", out);
	kd_json_str(out, name, n);
	if (r->kf_kind == KTR_FD_PIPE || r->kf_kind == KTR_FD_SOCKET)
		fprintf(out, ",\"inode\":%llu", (unsigned long long)r->kf_ino);
	return 0;
}

/* CGRP: what, the cgroup's id and path, the namespace ids, the container, the counts */
static int m_cgroup(struct json *j, const struct kd_event *ev)
{
	static const char *const what[] = {
		[KTR_CGROUP_MEMBER] = "member",	      [KTR_CGROUP_FORKED] = "forked",
		[KTR_CGROUP_MOVED] = "moved",	      [KTR_CGROUP_THREAD] = "thread",
		[KTR_CGROUP_LEFT] = "left",	      [KTR_CGROUP_MADE] = "made",
		[KTR_CGROUP_REMOVED] = "removed",     [KTR_CGROUP_SKIPPED] = "skipped",
		[KTR_CGROUP_CONTAINER] = "container",
	};
	const struct ktr_cgroup *c = &ev->cgroup.c;
	const char *path = ev->cgroup.exact ? ev->cgroup.exact : ev->cgroup.path;
	FILE *out = j->env.out;
	char box[300];

	fprintf(out, ",\"what\":\"%s\",\"cgroup_id\":%llu,\"path\":", what[c->kc_what],
		(unsigned long long)c->kc_id);
	kd_json_cstr(out, path);
	if (!ev->cgroup.exact && (c->kc_flags & KTR_CGROUP_F_GROUP_PATH))
		fputs(",\"path_of_group\":true", out);
	if (c->kc_what <= KTR_CGROUP_LEFT)
		fprintf(out, ",\"pidns\":%u,\"pidns_host\":%s", c->kc_pidns,
			(c->kc_flags & KTR_CGROUP_F_HOSTNS) ? "true" : "false");
	if (c->kc_what != KTR_CGROUP_SKIPPED && kd_cgroup_container(path, box, sizeof(box))) {
		fputs(",\"container\":", out);
		kd_json_cstr(out, box);
	}
	if (ev->cgroup.name) {
		fputs(",\"container_name\":", out);
		kd_json_cstr(out, ev->cgroup.name);
	}
	if (c->kc_what == KTR_CGROUP_SKIPPED)
		fprintf(out,
			",\"skipped\":{\"not_yours\":%llu,\"privileged\":%llu,\"root\":%llu,"
			"\"traced\":%llu}",
			(unsigned long long)c->kc_skipped[0], (unsigned long long)c->kc_skipped[1],
			(unsigned long long)c->kc_skipped[2], (unsigned long long)c->kc_skipped[3]);
	return 0;
}

/* Any other kind: its text as "text". */
static int m_text(struct json *j, const struct kd_event *ev)
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

/* CSW: out (stopping) or in, in user or kernel mode, and the wait channel if any; and "text" */
static int m_csw(struct json *j, const struct kd_event *ev)
{
	FILE *out = j->env.out;

	fprintf(out, ",\"switch\":\"%s\",\"mode\":\"%s\"", ev->csw.out ? "out" : "in",
		ev->csw.user ? "user" : "kernel");
	if (ev->csw.wmesg) {
		fputs(",\"wmesg\":", out);
		kd_json_str(out, ev->csw.wmesg, ev->csw.wlen);
	}
	return m_text(j, ev);
}

/* RING: the part, the counts, why the ring was dumped and the process's end; and "text" */
static int m_flight(struct json *j, const struct kd_event *ev)
{
	static const char *const why[] = {
		[KTR_FLIGHT_CRASH] = "crash",
		[KTR_FLIGHT_EXIT] = "exit",
		[KTR_FLIGHT_DEMAND] = "demand",
	};
	const struct ktr_flight_info *fi = &ev->flight;
	FILE *out = j->env.out;

	if (fi->kf_part == KTR_FLIGHT_LAST_PER_CPU) {
		fprintf(out, ",\"part\":\"last_per_cpu\",\"kept\":%llu",
			(unsigned long long)fi->kf_kept);
		return m_text(j, ev);
	}
	fprintf(out, ",\"part\":\"ring\",\"kept\":%llu,\"produced\":%llu,\"out_of_order\":%llu",
		(unsigned long long)fi->kf_kept, (unsigned long long)fi->kf_produced,
		(unsigned long long)fi->kf_out_of_order);
	fprintf(out, ",\"compact\":%s", fi->kf_compact ? "true" : "false");
	if (fi->kf_why < sizeof(why) / sizeof(why[0]) && why[fi->kf_why])
		fprintf(out, ",\"why\":\"%s\"", why[fi->kf_why]);
	else
		fprintf(out, ",\"why\":%u", fi->kf_why);
	if (fi->kf_why == KTR_FLIGHT_CRASH && WIFSIGNALED(fi->kf_status)) {
		fprintf(out, ",\"ended_pid\":%d,\"signal\":", fi->kf_pid);
		if (ktr_signal_name(WTERMSIG(fi->kf_status)))
			kd_json_cstr(out, ktr_signal_name(WTERMSIG(fi->kf_status)));
		else
			fputs("null", out);
		fprintf(out, ",\"signo\":%d", WTERMSIG(fi->kf_status));
	} else if (fi->kf_why == KTR_FLIGHT_EXIT && WIFEXITED(fi->kf_status)) {
		fprintf(out, ",\"ended_pid\":%d,\"exit_code\":%d", fi->kf_pid,
			WEXITSTATUS(fi->kf_status));
	}
	return m_text(j, ev);
}

/* one field of a TRACE: "name":value, a number, a string, bytes in hex, null if cut */
static void tp_member(void *ctx, const struct kd_tpval *v)
{
	struct tp_out *t = ctx;
	FILE *out = t->out;

	fputs(t->n++ ? "," : "", out);
	kd_json_cstr(out, v->name);
	fputc(':', out);
	switch (v->kind) {
	case KD_TPV_OUTSIDE:
		fputs("null", out);
		break;
	case KD_TPV_STRING:
		kd_json_str(out, v->p, v->len);
		break;
	case KD_TPV_BYTES:
		fputc('"', out);
		kd_tp__put_hex(out, v->p, v->len);
		fputc('"', out);
		break;
	case KD_TPV_POINTER:
		fprintf(out, "\"0x%llx\"", (unsigned long long)v->u);
		break;
	case KD_TPV_SIGNED:
		fprintf(out, "%lld", (long long)v->s);
		break;
	case KD_TPV_UNSIGNED:
		fprintf(out, "%llu", (unsigned long long)v->u);
		break;
	}
}

/* TRACE: the event's id, its name and fields as its format reads them; and "text" */
static int m_tracepoint(struct json *j, const struct kd_event *ev)
{
	struct tp_out t = { .out = j->env.out };

	fprintf(t.out, ",\"event_id\":%u,\"event\":", ev->tp.id);
	if (ev->tp.fmt) {
		kd_json_cstr(t.out, ev->tp.fmt->f.tf_name);
		fputs(",\"fields\":{", t.out);
		kd_tp__fields(ev->tp.fmt, ev->tp.raw, ev->tp.len, tp_member, &t);
		fputc('}', t.out);
	} else {
		fputs("null", t.out);
	}
	return m_text(j, ev);
}

/* clang-format off */
static const members_fn members[KD_NKINDS] = {
	[KD_CALL] = m_call,		[KD_RET] = m_ret,		[KD_NAMEI] = m_namei,
	[KD_GENIO] = m_genio,		[KD_PSIG] = m_psig,		[KD_CSW] = m_csw, 
	[KD_USER] = m_user,		[KD_STRUCT] = m_struct,		[KD_ARGS] = m_strings,
	[KD_ENVS] = m_strings,		[KD_FILEINFO] = m_fileinfo,	[KD_LOST] = m_lost,
	[KD_EXIT] = m_exit,		[KD_FLIGHT] = m_flight,		[KD_TRACEPOINT] = m_tracepoint,
	[KD_SYSCTL] = m_text,		[KD_CAPFAIL] = m_text,		[KD_FAULT] = m_text,
	[KD_FAULTEND] = m_text,		[KD_STRUCT_ARRAY] = m_text,	[KD_EXTERR] = m_text,
	[KD_EMUL] = m_text,		[KD_MIB] = m_text,		[KD_PLEDGE] = m_text,
	[KD_START] = m_text,		[KD_OTHER] = m_text,		[KD_PROCCTOR] = m_text,
	[KD_PROCDTOR] = m_text,		[KD_FILTER] = m_filter,		[KD_USTACK] = m_ustack,
	[KD_OBJECT] = m_object,		[KD_CGROUP] = m_cgroup,		[KD_END] = m_end,
	[KD_FD] = m_fd,
};
/* clang-format on */

static int json__event(void *state, const struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	const char *tag = kd_kind_tag[ev->kind];
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
	if (members[ev->kind])
		err = ev->valid ? members[ev->kind](j, ev) : -EINVAL;
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
