// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The decoder (kdump_decode.h): the one table of record types in kdump,
 * an entry per type with the function that checks its payload's layout
 * and takes its fields out; then what every event carries, its time and
 * its process's ABI.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_abi.h"
#include "kdump_cgroup.h"
#include "kdump_decode.h"
#include "kdump_decode_stack.h"
#include "kdump_replay.h"
#include "kdump_map.h"
#include "kdump_tp.h"

#define CSW_OLD_LEN 8 /* DragonFly / old FreeBSD struct ktr_csw */

/* decode.h formats every argument a CALL may have */
_Static_assert(KD_SYSCALL_MAXARGS <= KTR_DEC_MAXARGS, "KD_SYSCALL_MAXARGS");

/* clang-format off */
const char *const kd_kind_tag[KD_NKINDS] = {
	[KD_CALL] = "CALL",	[KD_RET] = "RET",	[KD_NAMEI] = "NAMI",
	[KD_GENIO] = "GIO",	[KD_PSIG] = "PSIG",	[KD_CSW] = "CSW",
	[KD_USER] = "USER",	[KD_STRUCT] = "STRU",	[KD_ARGS] = "ARGS",
	[KD_ENVS] = "ENVS",	[KD_FILEINFO] = "INFO",	[KD_LOST] = "LOST",
	[KD_EXIT] = "EXIT",	[KD_FLIGHT] = "RING",	[KD_TRACEPOINT] = "TRACE",
	[KD_SYSCTL] = "SCTL",	[KD_CAPFAIL] = "CAP",	[KD_FAULT] = "PFLT",
	[KD_FAULTEND] = "PRET",	[KD_STRUCT_ARRAY] = "STRU", [KD_EXTERR] = "EERR",
	[KD_EMUL] = "EMUL",	[KD_MIB] = "MIB",	[KD_PLEDGE] = "PLDG",
	[KD_START] = "STRT",	[KD_OTHER] = "OTHR",	[KD_PROCCTOR] = "CTOR",
	[KD_PROCDTOR] = "DTOR",	[KD_FILTER] = "INFO",	[KD_USTACK] = "STACK",
	[KD_OBJECT] = "OBJ",	[KD_CGROUP] = "CGRP",	[KD_END] = "END",
	[KD_FD] = "FD",
};
/* clang-format on */

struct kd_decoder {
	struct kd_bsd_fmt fmt; /* the file's system; ktraceb's until said */
	unsigned int sv_default; /* the ABI of a pid without PROCCTOR: 0, or the BSD's */
	struct kd_map abi; /* pid -> PROCCTOR sv_flags */
	struct kd_threads threads; /* last calls and open spans */
	struct kd_tp *tp; /* kernel events' formats */
	struct kd_cgroups *cgroups; /* -G's records: namespace ids, cgroup paths */
	bool have_fileinfo;
	__s64 wall_offset_ns; /* KTR_FILEINFO: CLOCK_REALTIME - CLOCK_MONOTONIC */
	int time_base; /* 0 = unset, 1 = ktr_mono_ns, 2 = ktr_time (no mono) */
	unsigned long nrec;
	unsigned long ninvalid;
	struct kd_stacks *stacks; /* -k's objects, mappings and stacks; NULL until one */
	void (*read_objects)(void *ctx, struct kd_decoder *d);
	void *read_objects_ctx;
	struct kd_replay replay; /* a recorder's dumps: what they show again */
	struct kd_fdtabs *fdtabs; /* -y: the processes' descriptors; NULL without */
};

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

/* --- one function per record type: its layout checked, its fields taken -- */

/*
 * Each returns 0, or -ENOMEM; a payload that does not fit its kind makes
 * the event !valid, with its fields unset.
 */
typedef int (*dec_fn)(struct kd_decoder *d, struct kd_event *ev);

static int invalid(struct kd_event *ev)
{
	ev->valid = false;
	return 0;
}

/* The ABI of a record's call (kdump_abi.h): its own, else its process's. */
unsigned int kd_decoder__record_sv(const struct kd_decoder *d, const struct ktr_header *h)
{
	return kd_abi_of_record(d->fmt.sys, h, kd_decoder__sv_flags(d, h->ktr_pid));
}

static int dec_call(struct kd_decoder *d, struct kd_event *ev)
{
	struct kd_thread *t = kd_threads__get(&d->threads, ev->h->ktr_tid);
	struct ktr_syscall sc;

	if (!t)
		return -ENOMEM;
	ev->thread = t;
	ev->sv_flags = kd_decoder__record_sv(d, ev->h);
	if (ev->len < sizeof(sc))
		return invalid(ev);
	memcpy(&sc, ev->data, sizeof(sc));
	/* the thread's last CALL names a sigreturn's RET, valid or not */
	t->has_call = true;
	t->last_call = sc.ktr_code;
	t->last_sv = ev->sv_flags;
	if (sc.ktr_narg < 0 || sc.ktr_narg > KD_SYSCALL_MAXARGS ||
	    ev->len != sizeof(sc) + sizeof(__u64) * sc.ktr_narg)
		return invalid(ev);
	ev->call.code = sc.ktr_code;
	ev->call.narg = sc.ktr_narg;
	memcpy(ev->call.args, ev->data + sizeof(sc), sizeof(__u64) * sc.ktr_narg);
	return 0;
}

static int dec_ret(struct kd_decoder *d, struct kd_event *ev)
{
	struct kd_thread *t = kd_threads__get(&d->threads, ev->h->ktr_tid);
	struct ktr_sysret sr;

	if (!t)
		return -ENOMEM;
	ev->thread = t;
	if (ev->len != sizeof(sr))
		return invalid(ev);
	memcpy(&sr, ev->data, sizeof(sr));
	ev->sv_flags = kd_decoder__record_sv(d, ev->h);
	ev->ret.raw_code = ev->ret.code = sr.ktr_code;
	/* rt_sigreturn restores orig_ax = -1: the return is the thread's last call's */
	if (sr.ktr_code < 0 && t->has_call) {
		ev->ret.code = (__s16)t->last_call;
		ev->sv_flags = t->last_sv;
	} else if (kd_abi_exec_ret_of_call(ev, &sr, t)) {
		ev->ret.code = (__s16)t->last_call;
		ev->sv_flags = t->last_sv;
	}
	ev->ret.error = sr.ktr_error;
	ev->ret.retval = sr.ktr_retval;
	/* the exec's RET carries the id its thread called with (docs/FORMAT.md) */
	if (sr.ktr_error == 0 && sr.ktr_retval == 0 && ev->h->ktr_tid != ev->h->ktr_pid &&
	    d->fmt.sys == KD_SYS_KTRACEB && kd_abi_is_exec(ev->sv_flags, ev->ret.code))
		ev->ret.new_tid = ev->h->ktr_pid;
	return 0;
}

/* NAMI: any bytes; the call it is an argument of, the thread's last. */
static int dec_namei(struct kd_decoder *d, struct kd_event *ev)
{
	const struct kd_thread *t = kd_threads__find(&d->threads, ev->h->ktr_tid);

	if (t && t->has_call) {
		ev->namei.has_call = true;
		ev->namei.call = (__s16)t->last_call;
		ev->sv_flags = t->last_sv;
	}
	ev->namei.cut = ev->len >= KTR_PATH_MAX && d->fmt.sys == KD_SYS_KTRACEB;
	return 0;
}

static int dec_genio(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_genio gio;

	if (ev->len < sizeof(gio))
		return invalid(ev);
	memcpy(&gio, ev->data, sizeof(gio));
	if (gio.ktr_rw != KTR_UIO_READ && gio.ktr_rw != KTR_UIO_WRITE)
		return invalid(ev);
	ev->genio.fd = gio.ktr_fd;
	ev->genio.read = gio.ktr_rw == KTR_UIO_READ;
	ev->genio.data = ev->data + sizeof(gio);
	ev->genio.n = ev->len - sizeof(gio);
	return 0;
}

static int dec_psig(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != sizeof(ev->psig))
		return invalid(ev);
	memcpy(&ev->psig, ev->data, sizeof(ev->psig));
	return 0;
}

static int dec_csw(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_csw cs;

	/* FreeBSD tells the two layouts apart by size (ktr_csw_old) */
	if (ev->len != sizeof(cs) && ev->len != CSW_OLD_LEN)
		return invalid(ev);
	memset(&cs, 0, sizeof(cs));
	memcpy(&cs, ev->data, ev->len);
	ev->csw.out = cs.out;
	ev->csw.user = cs.user;
	if (ev->len == sizeof(cs) && cs.wmesg[0]) {
		ev->csw.wmesg = (const char *)ev->data + offsetof(struct ktr_csw, wmesg);
		ev->csw.wlen = strnlen(cs.wmesg, sizeof(cs.wmesg));
	}
	return 0;
}

/* USER: a KTRU record, and what it does to its thread's open spans; or utrace bytes. */
static int dec_user(struct kd_decoder *d, struct kd_event *ev)
{
	struct kd_thread *t = kd_threads__get(&d->threads, ev->h->ktr_tid);

	if (!t)
		return -ENOMEM;
	ev->thread = t;
	memset(&ev->span, 0, sizeof(ev->span));
	if (kd_urec__parse(ev->data, ev->len, &ev->user) < 0)
		return 0;
	ev->ktru = true;
	return kd_threads__step(&d->threads, t, ev->h, ev->recno, &ev->user, &ev->span);
}

/* STRUCT: a printable name, its NUL, then the structure's bytes. */
static int dec_struct(struct kd_decoder *d, struct kd_event *ev)
{
	const unsigned char *nul = memchr(ev->data, '\0', ev->len);
	size_t nl;

	if (!nul || nul == ev->data)
		return invalid(ev);
	nl = nul - ev->data;
	for (size_t i = 0; i < nl; i++)
		if (ev->data[i] < 0x20 || ev->data[i] > 0x7e)
			return invalid(ev);
	ev->strct.name = (const char *)ev->data;
	ev->strct.nlen = nl;
	ev->strct.data = nul + 1;
	ev->strct.len = ev->len - nl - 1;
	return 0;
}

/* INFO: its machine and clock count even without the magic a display wants. */
static int dec_fileinfo(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_fileinfo *fi = &ev->fileinfo;

	/* a later format may append fields: only the known prefix is read */
	if (ev->len < sizeof(*fi))
		return invalid(ev);
	memcpy(fi, ev->data, sizeof(*fi));
	fi->fi_machine[sizeof(fi->fi_machine) - 1] = '\0';
	ktr_decode_set_machine(fi->fi_machine);
	d->have_fileinfo = true;
	d->wall_offset_ns = fi->fi_wall_offset_ns;
	if (memcmp(fi->fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC)) != 0)
		return invalid(ev);
	return 0;
}

/* TRACE: -Y counts a record by its id even when the entry's length is wrong. */
static int dec_tracepoint(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_tracepoint t;

	if (ev->len < sizeof(t))
		return invalid(ev);
	memcpy(&t, ev->data, sizeof(t));
	ev->tp.has_id = true;
	ev->tp.id = t.kt_id;
	ev->tp.fmt = kd_tp__find(d->tp, t.kt_id);
	if (t.kt_len != ev->len - sizeof(t) || t.kt_len > KTR_TP_MAX_BYTES)
		return invalid(ev);
	ev->tp.raw = ev->data + sizeof(t);
	ev->tp.len = t.kt_len;
	return 0;
}

/* A format that does not fit is counted; its events print without it. */
static int dec_tpformat(struct kd_decoder *d, struct kd_event *ev)
{
	int err = kd_tp__add(&d->tp, ev->data, ev->len);

	if (err == -EINVAL)
		d->ninvalid++;
	return err == -ENOMEM ? err : 0;
}

/*
 * PROCCTOR, PROCDTOR: the ABI of the process from now on.  Only another
 * system's files show them (ktraceb's kdump never has).
 */
static int dec_procctor(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_proc_ctor pc;
	struct kd_map_ent *e;

	if (d->fmt.sys != KD_SYS_KTRACEB)
		ev->kind = KD_PROCCTOR;
	if (ev->len != sizeof(pc)) {
		d->ninvalid++;
		return invalid(ev);
	}
	memcpy(&pc, ev->data, sizeof(pc));
	e = kd_map__add(&d->abi, ev->h->ktr_pid);
	if (!e)
		return -ENOMEM;
	e->v1 = ev->procctor = pc.sv_flags;
	return 0;
}

static int dec_procdtor(struct kd_decoder *d, struct kd_event *ev)
{
	struct kd_map_ent *e = kd_map__get(&d->abi, ev->h->ktr_pid);

	if (d->fmt.sys != KD_SYS_KTRACEB)
		ev->kind = KD_PROCDTOR;
	if (e)
		e->v1 = 0;
	return ev->len == 0 ? 0 : invalid(ev);
}

/* --- the records only another system's files have (kdump_bsd.h KD_T_*) ------- */

static int dec_bytes(struct kd_decoder *d, struct kd_event *ev)
{
	return 0;
}

static int dec_empty(struct kd_decoder *d, struct kd_event *ev)
{
	return ev->len == 0 ? 0 : invalid(ev);
}

static int dec_fault(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != 12) /* as the reader makes it: u64 vaddr, s32 type */
		return invalid(ev);
	memcpy(&ev->fault.va, ev->data, 8);
	memcpy(&ev->fault.type, ev->data + 8, 4);
	return 0;
}

static int dec_faultend(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != 4)
		return invalid(ev);
	memcpy(&ev->faultend, ev->data, 4);
	return 0;
}

static int dec_mib(struct kd_decoder *d, struct kd_event *ev)
{
	return ev->len % 4 == 0 ? 0 : invalid(ev);
}

static int dec_pledge(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != 16) /* int error, syscall; uint64_t code */
		return invalid(ev);
	memcpy(&ev->pledge.error, ev->data, 4);
	memcpy(&ev->pledge.call, ev->data + 4, 4);
	memcpy(&ev->pledge.code, ev->data + 8, 8);
	return 0;
}

/*
 * Every record type: its kind, and the function that checks its layout
 * and takes its fields.  The only place kdump tells record types apart:
 * a type not here is shown by no output.
 */
/* A string that ends, NUL-terminated, at the payload's end: its length, or -1. */
static long tail_string(const struct kd_event *ev, size_t off)
{
	const char *p = (const char *)ev->data + off;
	size_t n;

	if (ev->len <= off)
		return -1;
	n = strnlen(p, ev->len - off);
	return n + 1 == ev->len - off ? (long)n : -1;
}

static int dec_filter(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_filter f;

	if (ev->len < sizeof(f) || tail_string(ev, sizeof(f)) < 0)
		return invalid(ev);
	memcpy(&f, ev->data, sizeof(f));
	ev->filter.status = f.kf_status;
	ev->filter.flags = f.kf_flags;
	ev->filter.text = (const char *)ev->data + sizeof(f);
	return 0;
}

/* The -k part, made at its first record */
static struct kd_stacks *decoder__stacks(struct kd_decoder *d)
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
	if (decoder__stacks(d))
		kd_stacks__add_object(d->stacks, o, loads, path);
}

void kd_decoder__mapping(struct kd_decoder *d, const struct ktr_header *h,
			 const struct ktr_mapping *m)
{
	if (decoder__stacks(d))
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

static int dec_object(struct kd_decoder *d, struct kd_event *ev)
{
	return decoder__stacks(d) ? kd_stacks__object(d->stacks, ev) : -ENOMEM;
}

static int dec_mapping(struct kd_decoder *d, struct kd_event *ev)
{
	return decoder__stacks(d) ? kd_stacks__mapping(d->stacks, ev) : -ENOMEM;
}

static int dec_ustack(struct kd_decoder *d, struct kd_event *ev)
{
	return decoder__stacks(d) ? kd_stacks__ustack(d->stacks, d, ev) : -ENOMEM;
}

static const struct {
	enum kd_kind kind;
	dec_fn dec;
	bool foreign; /* only another system's files have it */
} types[KTR_TYPE_MAX + 1] = {
	[KTR_SYSCALL] = { KD_CALL, dec_call },
	[KTR_SYSRET] = { KD_RET, dec_ret },
	[KTR_NAMEI] = { KD_NAMEI, dec_namei },
	[KTR_GENIO] = { KD_GENIO, dec_genio },
	[KTR_PSIG] = { KD_PSIG, dec_psig },
	[KTR_CSW] = { KD_CSW, dec_csw },
	[KTR_USER] = { KD_USER, dec_user },
	[KTR_STRUCT] = { KD_STRUCT, dec_struct },
	[KTR_PROCCTOR] = { KD_NONE, dec_procctor },
	[KTR_PROCDTOR] = { KD_NONE, dec_procdtor },
	[KTR_ARGS] = { KD_ARGS, NULL },
	[KTR_ENVS] = { KD_ENVS, NULL },
	[KTR_FILEINFO] = { KD_FILEINFO, dec_fileinfo },
	[KTR_LOST] = { KD_LOST, kd_dec_lost },
	[KTR_EXIT] = { KD_EXIT, kd_dec_exit },
	[KTR_FLIGHT] = { KD_FLIGHT, kd_dec_flight },
	[KTR_TRACEPOINT] = { KD_TRACEPOINT, dec_tracepoint },
	[KTR_TPFORMAT] = { KD_NONE, dec_tpformat },
	[KTR_FILTER] = { KD_FILTER, dec_filter },
	[KTR_USTACK] = { KD_USTACK, dec_ustack },
	[KD_T_SYSCTL] = { KD_SYSCTL, dec_bytes, true },
	[KD_T_CAPFAIL] = { KD_CAPFAIL, dec_bytes, true },
	[KD_T_FAULT] = { KD_FAULT, dec_fault, true },
	[KD_T_FAULTEND] = { KD_FAULTEND, dec_faultend, true },
	[KD_T_STRUCT_ARRAY] = { KD_STRUCT_ARRAY, dec_bytes, true },
	[KD_T_EXTERR] = { KD_EXTERR, dec_bytes, true },
	[KD_T_EMUL] = { KD_EMUL, dec_bytes, true },
	[KD_T_MIB] = { KD_MIB, dec_mib, true },
	[KD_T_PLEDGE] = { KD_PLEDGE, dec_pledge, true },
	[KD_T_START] = { KD_START, dec_empty, true },
	[KD_T_OTHER] = { KD_OTHER, dec_bytes, true },
};

static int dec_type(struct kd_decoder *d, struct kd_event *ev)
{
	int type = ev->h->ktr_type;

	if (type <= 0 || type > KTR_TYPE_MAX) {
		ev->kind = KD_UNKNOWN;
		return 0;
	}
	/*
	 * 21 and 22: ktraceb's KTR_OBJECT and KTR_END, and the numbers kdump
	 * gives OpenBSD's pledges and KTR_START (kdump_bsd.h)
	 */
	if ((type == KTR_OBJECT || type == KTR_END) && d->fmt.sys == KD_SYS_KTRACEB) {
		ev->kind = type == KTR_OBJECT ? KD_OBJECT : KD_END;
		return type == KTR_OBJECT ? dec_object(d, ev) : kd_dec_end(d, ev);
	}
	/* 23: ktraceb's KTR_CGROUP; no BSD has that number */
	if (type == KTR_CGROUP && d->fmt.sys == KD_SYS_KTRACEB) {
		ev->kind = KD_CGROUP;
		return kd_cgroups__decode(d->cgroups, ev);
	}
	/* 19: ktraceb's KTR_FD, and the number kdump gives NetBSD's emulation (kdump_bsd.h) */
	if (type == KTR_FD && d->fmt.sys == KD_SYS_KTRACEB) {
		ev->kind = KD_FD;
		return kd_fdrec__decode(ev);
	}
	/* 20: ktraceb's KTR_MAPPING (not printed), and the number kdump gives NetBSD's MIB (kdump_bsd.h) */
	if (type == KTR_MAPPING && d->fmt.sys == KD_SYS_KTRACEB) {
		ev->kind = KD_NONE;
		return dec_mapping(d, ev);
	}
	if (types[type].foreign && d->fmt.sys == KD_SYS_KTRACEB)
		return 0;
	/* DragonFly writes 1..7 only: another number is not FreeBSD's meaning */
	if (type > KTR_USER && d->fmt.sys == KD_SYS_DRAGONFLY)
		type = KD_T_OTHER;
	ev->kind = types[type].kind;
	return types[type].dec ? types[type].dec(d, ev) : 0;
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
