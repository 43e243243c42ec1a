// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The decoder (kdump_decode.h): each record's kind, from the table of
 * kinds (kdump_kind.h) for ktraceb's own files and from the reader for
 * another system's (kd_bsd__kind); the kind's decode function checks its
 * payload's layout and takes its fields out; then what every event
 * carries, its time and its process's ABI.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_abi.h"
#include "kdump_cgroup.h"
#include "kdump_decoder_int.h"
#include "kdump_decode_stack.h"
#include "kdump_kind.h"
#include "kdump_tp.h"

/* decode.h formats every argument a CALL may have */
_Static_assert(KD_SYSCALL_MAXARGS <= KTR_DEC_MAXARGS, "KD_SYSCALL_MAXARGS");

struct kd_decoder *kd_decoder__new(void)
{
	struct kd_decoder *d = calloc(1, sizeof(*d));

	if (d)
		ktr_decode_set_machine("x86_64"); /* until the file's INFO record says */
	if (d && !(d->cgroups = kd_cgroups__new())) {
		free(d);
		d = NULL;
	}
	return d;
}

void kd_decoder__free(struct kd_decoder *d)
{
	if (!d)
		return;
	kd_stacks__free(d->stacks);
	kd_map__free(&d->abi);
	kd_threads__free(&d->threads);
	kd_tp__free(d->tp);
	kd_cgroups__free(d->cgroups);
	if (d->fdtabs)
		kd_fdtabs__free(d->fdtabs);
	free(d->fdtabs);
	free(d);
}

int kd_decoder__track_fds(struct kd_decoder *d)
{
	if (!d->fdtabs && !(d->fdtabs = calloc(1, sizeof(*d->fdtabs))))
		return -ENOMEM;
	return 0;
}

void kd_decoder__set_format(struct kd_decoder *d, const struct kd_bsd_fmt *fmt)
{
	d->fmt = *fmt;
	if (fmt->sys != KD_SYS_KTRACEB)
		d->sv_default = fmt->sv_flags;
}

unsigned long kd_decoder__ninvalid(const struct kd_decoder *d)
{
	return d->ninvalid;
}

/* The ABI of a record's call (kdump_abi.h): its own, else its process's. */
unsigned int kd_decoder__record_sv(const struct kd_decoder *d, const struct ktr_header *h)
{
	return kd_abi_of_record(d->fmt.sys, h, kd_decoder__sv_flags(d, h->ktr_pid));
}

/* The -k part, made at its first record */
struct kd_stacks *kd_decoder__stacks(struct kd_decoder *d)
{
	if (!d->stacks) {
		d->stacks = kd_stacks__new();
		if (d->stacks && d->read_objects)
			kd_stacks__set_reader(d->stacks, d->read_objects, d->read_objects_ctx);
	}
	return d->stacks;
}

void kd_decoder__object(struct kd_decoder *d, const struct ktr_object *o,
			const struct ktr_object_load *loads, const char *path)
{
	if (kd_decoder__stacks(d))
		kd_stacks__add_object(d->stacks, o, loads, path);
}

void kd_decoder__mapping(struct kd_decoder *d, const struct ktr_header *h,
			 const struct ktr_mapping *m)
{
	if (kd_decoder__stacks(d))
		kd_stacks__add_mapping(d->stacks, h, m);
}

void kd_decoder__set_objects_reader(struct kd_decoder *d,
				    void (*fn)(void *ctx, struct kd_decoder *d), void *ctx)
{
	d->read_objects = fn;
	d->read_objects_ctx = ctx;
	if (d->stacks)
		kd_stacks__set_reader(d->stacks, fn, ctx);
}

/*
 * The record's kind, and its decode function: ktraceb's types by the table
 * of kinds, another system's as its reader says (kdump_bsd.c).
 */
static int dec_type(struct kd_decoder *d, struct kd_event *ev)
{
	enum kd_kind k = d->fmt.sys == KD_SYS_KTRACEB ? kd_kind_of_type(ev->h->ktr_type) :
							kd_bsd__kind(&d->fmt, ev->h->ktr_type);
	const struct kd_kind_def *def = k < KD_NKINDS ? kd_kinds[k] : NULL;
	int err;

	ev->kind = k;
	if (!def)
		return 0;
	err = def->decode ? def->decode(d, ev) : 0;
	if (def->hidden)
		ev->kind = KD_NONE;
	return err;
}

/* --- what every event carries ---------------------------------------------- */

static __s64 timeval_ns(const struct ktr_header *h)
{
	return (__s64)((__u64)h->ktr_time_sec * 1000000000ull + (__u64)h->ktr_time_usec * 1000ull);
}

/*
 * The event's time on the trace's clock, settled by the first record: a
 * file with an INFO record, or a valid ktr_mono_ns, has the monotonic
 * clock; DragonFly files hold a kernel pointer (top bit set) there.
 * Unsigned arithmetic: hostile timestamps wrap instead of overflowing.
 */
static void dec_time(struct kd_decoder *d, struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	bool mono = h->ktr_mono_ns && !(h->ktr_mono_ns >> 63);

	if (d->time_base == 0)
		d->time_base = d->have_fileinfo || mono ? 1 : 2;
	ev->ns = d->time_base == 1 ? (__s64)h->ktr_mono_ns : timeval_ns(h);
	if (d->have_fileinfo)
		ev->wall_ns = (__s64)((__u64)d->wall_offset_ns + h->ktr_mono_ns);
	else if (d->fmt.sys != KD_SYS_KTRACEB && d->fmt.sys != KD_SYS_DRAGONFLY)
		ev->wall_ns = (__s64)h->ktr_mono_ns; /* the BSD's own ns (kdump_bsd.c) */
	else
		ev->wall_ns = timeval_ns(h);
}

/*
 * A call's time (strace -T): a RET's since its thread's CALL, when that
 * CALL is the same call (a sigreturn's RET is named after it).  A CALL
 * written at its return (a status= selection) keeps its entry time.
 */
static void dec_duration(struct kd_event *ev)
{
	/* the decoder's own thread, which events show as const */
	struct kd_thread *t = (struct kd_thread *)ev->thread;

	if ((ev->kind != KD_CALL && ev->kind != KD_RET) || !ev->valid || !t)
		return;
	if (ev->kind == KD_CALL) {
		t->in_call = true;
		t->call_ns = ev->ns;
		return;
	}
	if (ev->kind != KD_RET || !t->in_call)
		return;
	t->in_call = false;
	if (t->has_call && ev->ret.code == (__s16)t->last_call && ev->ns >= t->call_ns) {
		ev->ret.has_dur = true;
		ev->ret.dur_ns = (__u64)ev->ns - (__u64)t->call_ns;
	}
}

unsigned int kd_decoder__sv_flags(const struct kd_decoder *d, int pid)
{
	const struct kd_map_ent *e = kd_map__get(&d->abi, pid);

	return e && e->v1 ? (unsigned int)e->v1 : d->sv_default;
}

int kd_decoder__decode(struct kd_decoder *d, const struct ktr_header *h, const void *data,
		       struct kd_event *ev)
{
	int err;

	memset(ev, 0, offsetof(struct kd_event, user));
	ev->valid = true;
	ev->h = h;
	ev->data = data;
	ev->len = h->ktr_len > 0 ? (size_t)h->ktr_len : 0;
	ev->recno = ++d->nrec;
	ev->sys = d->fmt.sys;
	err = dec_type(d, ev);
	if (err)
		return err;
	kd_cgroups__ns_ids(d->cgroups, h, &ev->ns_pid, &ev->ns_tid);
	if (!ev->sv_flags) /* the call's own, if the record has one (dec_call ...) */
		ev->sv_flags = kd_decoder__sv_flags(d, h->ktr_pid);
	ev->bsd = ktr_bsd_abi(ev->sv_flags);
	dec_time(d, ev);
	dec_duration(ev);
	if (d->fmt.sys == KD_SYS_KTRACEB)
		ev->replayed = kd_replay__seen(&d->replay, ev);
	if (d->fdtabs && !ev->replayed)
		return kd_fdtabs__step(d->fdtabs, ev);
	return 0;
}
