// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The one pass between the reader and the sinks (kdump_event.h): every
 * record, visible or not, updates kdump's state here and is decoded into a
 * typed event; a payload's fixed layout is checked here, once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "kdump_event.h"
#include "kdump_priv.h"
#include "kdump_tp.h"

void kd_fmt_scname(const struct kdump *kd, char *buf, size_t size, unsigned int sv_flags, int code)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	if (!name)
		snprintf(buf, size, "[%d]", code);
	else if (kd->o.flags & KD_SYSNR)
		snprintf(buf, size, "%s[%d]", name, code);
	else
		snprintf(buf, size, "%s", name);
}

static unsigned int event__abi(const struct kdump *kd, int pid)
{
	const struct kd_map_ent *e = kd_map__get(&kd->abi, pid);

	return e ? (unsigned int)e->v1 : 0;
}

/* Unsigned arithmetic: hostile timestamps wrap instead of overflowing. */
__s64 kd_event__ns(struct kdump *kd, const struct ktr_header *h)
{
	/* DragonFly files hold a kernel pointer (top bit set) in the mono slot */
	if (kd->time_base == 0)
		kd->time_base =
			kd->have_fileinfo || (h->ktr_mono_ns && !(h->ktr_mono_ns >> 63)) ? 1 : 2;
	if (kd->time_base == 1)
		return (__s64)h->ktr_mono_ns;
	return (__s64)((__u64)h->ktr_time_sec * 1000000000ull + (__u64)h->ktr_time_usec * 1000ull);
}

__s64 kd_event__wall_ns(const struct kdump *kd, const struct ktr_header *h)
{
	if (kd->have_fileinfo)
		return (__s64)((__u64)kd->wall_offset_ns + h->ktr_mono_ns);
	if (kd->fmt.sys != KD_SYS_KTRACEB && kd->fmt.sys != KD_SYS_DRAGONFLY)
		return (__s64)h->ktr_mono_ns; /* the BSD's own ns (kdump_bsd.c) */
	return (__s64)((__u64)h->ktr_time_sec * 1000000000ull + (__u64)h->ktr_time_usec * 1000ull);
}

static int event__call(struct kdump *kd, struct kd_event *ev)
{
	struct ktr_syscall sc;
	struct kd_map_ent *e;

	if (ev->len < sizeof(sc))
		return 0;
	memcpy(&sc, ev->data, sizeof(sc));
	/* the thread's last CALL names a sigreturn's RET, valid or not */
	e = kd_map__add(&kd->calls, ev->h->ktr_tid);
	if (!e)
		return -ENOMEM;
	e->v1 = (__u64)(__s64)sc.ktr_code;
	if (sc.ktr_narg < 0 || sc.ktr_narg > KD_SYSCALL_MAXARGS ||
	    ev->len != sizeof(sc) + sizeof(__u64) * sc.ktr_narg)
		return 0;
	ev->call.code = sc.ktr_code;
	ev->call.narg = sc.ktr_narg;
	memcpy(ev->call.args, ev->data + sizeof(sc), sizeof(__u64) * sc.ktr_narg);
	ev->valid = true;
	return 0;
}

static void event__ret(struct kdump *kd, struct kd_event *ev)
{
	struct ktr_sysret sr;

	if (ev->len != sizeof(sr))
		return;
	memcpy(&sr, ev->data, sizeof(sr));
	ev->ret.raw_code = ev->ret.code = sr.ktr_code;
	/* rt_sigreturn restores orig_ax = -1: the return is the thread's last call's */
	if (sr.ktr_code < 0) {
		const struct kd_map_ent *e = kd_map__get(&kd->calls, ev->h->ktr_tid);

		if (e)
			ev->ret.code = (__s16)e->v1;
	}
	ev->ret.error = sr.ktr_error;
	ev->ret.retval = sr.ktr_retval;
	ev->valid = true;
}

/* USER: the record parsed, and what it does to its thread's open spans. */
static void event__user(struct kdump *kd, struct kd_event *ev)
{
	struct kd_span_step *st = &ev->span;
	struct kd_urec *u = &ev->user;
	size_t base;

	if (kd_urec__parse(ev->data, ev->len, u) < 0)
		return;
	ev->valid = true;
	if (u->h.ku_kind != KTR_UREC_PROBE)
		st->is_exit = u->h.ku_kind == KTR_UREC_SPAN_EXIT;
	else if (!kd_urec__pair(u->name, &base, &st->is_exit))
		return; /* a lone probe opens and closes nothing */
	st->spanlike = true;
	st->thread = kd_thread__get(kd, ev->h->ktr_tid);
	if (st->thread) {
		st->open_before = st->thread->n;
		if (st->is_exit) {
			char key[KD_SPAN_KEY_MAX];
			int i;

			kd_urec__key(u, key, sizeof(key));
			i = kd_thread__find(st->thread, key);
			if (i >= 0)
				st->closed = st->thread->stack[i];
		}
	}
	st->depth = kd_span__step(kd, ev->h, u, st->is_exit, &st->dur, &st->found);
}

static void event__fileinfo(struct kdump *kd, const struct kd_event *ev)
{
	struct ktr_fileinfo fi;

	if (ev->len < sizeof(fi))
		return;
	memcpy(&fi, ev->data, sizeof(fi));
	fi.fi_machine[sizeof(fi.fi_machine) - 1] = '\0';
	ktr_decode_set_machine(fi.fi_machine);
	kd->have_fileinfo = 1;
	kd->wall_offset_ns = fi.fi_wall_offset_ns;
}

int kd_event__decode(struct kdump *kd, const struct ktr_header *h, const void *data,
		     struct kd_event *ev)
{
	struct ktr_proc_ctor pc;
	struct ktr_lost lo;
	struct kd_map_ent *e;

	memset(ev, 0, offsetof(struct kd_event, user));
	ev->span.spanlike = false;
	ev->h = h;
	ev->data = data;
	ev->len = h->ktr_len > 0 ? (size_t)h->ktr_len : 0;
	switch (h->ktr_type) {
	case KTR_SYSCALL:
		if (event__call(kd, ev) < 0)
			return -ENOMEM;
		break;
	case KTR_SYSRET:
		event__ret(kd, ev);
		break;
	case KTR_LOST:
		if (ev->len == sizeof(lo)) {
			memcpy(&lo, data, sizeof(lo));
			ev->lost.lost = lo.lost;
			ev->lost.total = lo.lost_total;
			ev->valid = true;
		}
		break;
	case KTR_USER:
		memset(&ev->span, 0, sizeof(ev->span));
		event__user(kd, ev);
		break;
	case KTR_PROCCTOR:
		if (ev->len != sizeof(pc)) {
			kd->ninvalid++;
			break;
		}
		memcpy(&pc, data, sizeof(pc));
		e = kd_map__add(&kd->abi, h->ktr_pid);
		if (!e)
			return -ENOMEM;
		e->v1 = pc.sv_flags;
		break;
	case KTR_PROCDTOR:
		e = kd_map__get(&kd->abi, h->ktr_pid);
		if (e)
			e->v1 = 0;
		break;
	case KTR_FILEINFO:
		event__fileinfo(kd, ev);
		break;
	case KTR_TPFORMAT:
		/* a malformed format counts as invalid; its events print without it */
		switch (kd_tp__format(kd, ev)) {
		case 0:
			break;
		case -ENOMEM:
			return -ENOMEM;
		default:
			kd->ninvalid++;
		}
		break;
	}
	ev->sv_flags = event__abi(kd, h->ktr_pid);
	if (!ev->sv_flags)
		ev->sv_flags = kd->sv_default;
	return 0;
}
