// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Which BSD wrote a trace file, and its headers in ktraceb's layout
 * (kdump_bsd.h).  The layouts, from each system's sys/ktrace.h
 * (docs/BSD.md has them byte by byte):
 *
 *   4.4BSD ("v0"): int len; short type; [short pad / NetBSD version];
 *     pid_t pid; char comm[17]; timeval; void *buf (FreeBSD: long tid)
 *     = 32 + 3 words: FreeBSD, Darwin, NetBSD v0 (i386 44, amd64 56)
 *   FreeBSD v1: int len; short type | 0x4000; short version 1; pid_t pid;
 *     char comm[20]; timespec; long tid; int cpu (amd64 64, i386 48)
 *   NetBSD v1, v2: v0's with (int32 sec, long nsec) or a timespec, then
 *     lwpid_t lid; the header is the union's size (i386 44 or 48, amd64 56)
 *   OpenBSD: uint type; pid_t pid, tid; timespec; char comm[24]; size_t len
 *     (amd64 64, i386 52); the first record is KTR_START, "KTR\0"
 *   DragonFly: ktraceb's own 64 bytes, no INFO record, a kernel address at 56
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "kdump_bsd.h"
#include "kdump_bsd_int.h"

enum layout { L_DFLY, L_V0, L_FBSD1, L_NBSD, L_OBSD };

struct cand {
	enum kd_sys sys;
	enum layout l;
	int ws;
	bool be;
	int hdrsize;
};

/* In the order they are tried: the ones with a signature first. */
static const struct cand cands[] = {
	{ KD_SYS_OPENBSD, L_OBSD, 8, false, 64 },
	{ KD_SYS_OPENBSD, L_OBSD, 8, true, 64 },
	{ KD_SYS_OPENBSD, L_OBSD, 4, false, 52 },
	{ KD_SYS_OPENBSD, L_OBSD, 4, true, 52 },
	{ KD_SYS_FREEBSD, L_FBSD1, 8, false, 64 },
	{ KD_SYS_FREEBSD, L_FBSD1, 4, false, 48 },
	{ KD_SYS_FREEBSD, L_FBSD1, 8, true, 64 },
	{ KD_SYS_FREEBSD, L_FBSD1, 4, true, 48 },
	{ KD_SYS_DRAGONFLY, L_DFLY, 8, false, 64 },
	{ KD_SYS_FREEBSD, L_V0, 8, false, 56 },
	{ KD_SYS_FREEBSD, L_V0, 4, false, 44 },
	{ KD_SYS_NETBSD, L_NBSD, 4, false, 44 },
	{ KD_SYS_NETBSD, L_NBSD, 4, false, 48 },
	{ KD_SYS_NETBSD, L_NBSD, 8, false, 56 },
	{ KD_SYS_DARWIN, L_V0, 4, true, 44 },
	{ KD_SYS_DARWIN, L_V0, 4, false, 44 },
	{ KD_SYS_DARWIN, L_V0, 8, false, 56 },
	{ KD_SYS_FREEBSD, L_V0, 4, true, 44 },
	{ KD_SYS_FREEBSD, L_V0, 8, true, 56 },
	{ KD_SYS_NETBSD, L_NBSD, 4, true, 44 },
	{ KD_SYS_NETBSD, L_NBSD, 4, true, 48 },
	{ KD_SYS_NETBSD, L_NBSD, 8, true, 56 },
	/* ktraceb's layout without its INFO: records a tool cut out of a trace */
	{ KD_SYS_KTRACEB, L_DFLY, 8, false, 64 },
};

#define OBSD_KTR_START	   "KTR" /* with its NUL: htobe32(0x4b545200) */
#define FBSD_VERSIONED	   0x4000
#define FBSD_TYPE_MASK	   0x3fff
#define DFLY_KTR_BUF	   56 /* offsetof(struct ktr_header, ktr_buf), little-endian */
#define DFLY_TYPE_MAX	   31 /* DragonFly writes 1..7; its kdump skips the others */
/* a chain this long is evidence enough when a later record is broken */
#define DETECT_MIN_RECORDS 8

/* --- headers ---------------------------------------------------------------- */

struct raw {
	__s64 len;
	int type; /* the system's number; -1 for OpenBSD's KTR_START */
	int version;
	__s32 pid, tid;
	__s64 sec, nsec;
	const unsigned char *comm;
	size_t commlen;
	int cpu;
};

/* A timeval's microseconds in nanoseconds; out of range (a hostile file): 0. */
static __s64 usec_ns(__s64 usec)
{
	return usec >= 0 && usec < 1000000 ? usec * 1000 : 0;
}

static void parse_v0(const struct kd_bsd_fmt *f, const unsigned char *p, struct raw *r)
{
	int w = f->ws;

	r->len = (__s32)rd32(f, p);
	r->type = rd16(f, p + 4);
	r->pid = (__s32)rd32(f, p + 8);
	r->comm = p + 12;
	r->commlen = 17;
	r->sec = rdw(f, p + 32);
	r->nsec = usec_ns(rdw(f, p + 32 + w));
	/* FreeBSD's tid was ktr_buffer, a kernel pointer, in older kernels */
	if (f->sys == KD_SYS_FREEBSD && rdw(f, p + 32 + 2 * w) > 0 &&
	    rdw(f, p + 32 + 2 * w) <= 0x7fffffff)
		r->tid = (__s32)rdw(f, p + 32 + 2 * w);
}

static void parse_netbsd(const struct kd_bsd_fmt *f, const unsigned char *p, struct raw *r)
{
	int w = f->ws;

	r->len = (__s32)rd32(f, p);
	/* a big-endian NetBSD puts ktr_version first */
	r->type = rd16(f, p + (f->be ? 6 : 4));
	r->version = rd16(f, p + (f->be ? 4 : 6));
	r->pid = (__s32)rd32(f, p + 8);
	r->comm = p + 12;
	r->commlen = 17;
	if (r->version == 2) { /* struct timespec, lwpid_t */
		r->sec = (__s64)rd64(f, p + 32);
		r->nsec = rdw(f, p + 40);
		r->tid = (__s32)rd32(f, p + 40 + w);
		return;
	}
	r->sec = (__s32)rd32(f, p + 32); /* int32_t tv_sec, then a long */
	r->nsec = r->version == 1 ? rdw(f, p + 32 + w) : usec_ns(rdw(f, p + 32 + w));
	if (r->version == 1)
		r->tid = (__s32)rd32(f, p + 32 + 2 * w);
}

static void parse_fbsd1(const struct kd_bsd_fmt *f, const unsigned char *p, struct raw *r)
{
	int w = f->ws;

	r->len = (__s32)rd32(f, p);
	r->type = rd16(f, p + 4);
	r->version = rd16(f, p + 6);
	r->pid = (__s32)rd32(f, p + 8);
	r->comm = p + 12;
	r->commlen = 17;
	r->sec = rdw(f, p + 32);
	r->nsec = rdw(f, p + 32 + w);
	r->tid = (__s32)rdw(f, p + 32 + 2 * w);
	r->cpu = (int)rd32(f, p + 32 + 3 * w);
}

static void parse_obsd(const struct kd_bsd_fmt *f, const unsigned char *p, struct raw *r)
{
	int ts = f->ws == 8 ? 16 : 12, comm = f->ws == 8 ? 32 : 24;

	r->type = memcmp(p, OBSD_KTR_START, 4) == 0 ? -1 : (int)rd32(f, p);
	r->pid = (__s32)rd32(f, p + 4);
	r->tid = (__s32)rd32(f, p + 8);
	r->sec = (__s64)rd64(f, p + ts);
	r->nsec = rdw(f, p + ts + 8);
	r->comm = p + comm;
	r->commlen = 24;
	r->len = f->ws == 8 ? (__s64)rd64(f, p + comm + 24) : (__s64)rd32(f, p + comm + 24);
}

static void parse(const struct kd_bsd_fmt *f, enum layout l, const unsigned char *p, struct raw *r)
{
	memset(r, 0, sizeof(*r));
	switch (l) {
	case L_DFLY: {
		struct ktr_header h;

		memcpy(&h, p, sizeof(h));
		r->len = h.ktr_len;
		r->type = h.ktr_type;
		break;
	}
	case L_V0:
		parse_v0(f, p, r);
		break;
	case L_NBSD:
		parse_netbsd(f, p, r);
		break;
	case L_FBSD1:
		parse_fbsd1(f, p, r);
		break;
	case L_OBSD:
		parse_obsd(f, p, r);
		break;
	}
}

enum kd_kind kd_bsd__kind(const struct kd_bsd_fmt *f, int type)
{
	static const enum kd_kind kinds[] = {
		[KTR_SYSCALL] = KD_CALL,
		[KTR_SYSRET] = KD_RET,
		[KTR_NAMEI] = KD_NAMEI,
		[KTR_GENIO] = KD_GENIO,
		[KTR_PSIG] = KD_PSIG,
		[KTR_CSW] = KD_CSW,
		[KTR_USER] = KD_USER,
		[KTR_STRUCT] = KD_STRUCT,
		[KD_T_SYSCTL] = KD_SYSCTL,
		[KTR_PROCCTOR] = KD_PROCCTOR,
		[KTR_PROCDTOR] = KD_PROCDTOR,
		[KD_T_CAPFAIL] = KD_CAPFAIL,
		[KD_T_FAULT] = KD_FAULT,
		[KD_T_FAULTEND] = KD_FAULTEND,
		[KD_T_STRUCT_ARRAY] = KD_STRUCT_ARRAY,
		[KTR_ARGS] = KD_ARGS,
		[KTR_ENVS] = KD_ENVS,
		[KD_T_EXTERR] = KD_EXTERR,
		[KD_T_EMUL] = KD_EMUL,
		[KD_T_MIB] = KD_MIB,
		[KD_T_PLEDGE] = KD_PLEDGE,
		[KD_T_START] = KD_START,
		[KD_T_OTHER] = KD_OTHER,
	};

	if (type <= 0 || type > KTR_TYPE_MAX)
		return KD_UNKNOWN;
	/* DragonFly writes 1..7 only: another number is not FreeBSD's meaning */
	if (type > KTR_USER && f->sys == KD_SYS_DRAGONFLY)
		return KD_OTHER;
	/* none of the systems' readers makes a higher type: ktraceb's meaning */
	return type < (int)(sizeof(kinds) / sizeof(kinds[0])) ? kinds[type] : kd_kind_of_type(type);
}

/* The ktraceb type of a system's record type, or 0 if the system has none. */
static int map_type(const struct kd_bsd_fmt *f, const struct raw *r)
{
	static const signed char freebsd[] = { 0,  1,  2,	    3,	4,	    5,	6,
					       7,  8,  KD_T_SYSCTL, 10, 11,	    12, 13,
					       14, 15, 16,	    17, KD_T_EXTERR };
	static const signed char openbsd[] = { 0,	  1, 2, 3,  4,	5,	     6,
					       KD_T_EMUL, 8, 7, 16, 17, KD_T_PLEDGE, KD_T_OTHER };
	static const signed char netbsd[] = { 0,	  1,	      2,	3,	    4,	5,
					      6,	  KD_T_EMUL,  7,	KD_T_OTHER, 16, 17,
					      KD_T_OTHER, KD_T_OTHER, KD_T_MIB, KD_T_OTHER };
	int t = r->type;

	switch (f->sys) {
	case KD_SYS_KTRACEB:
		return t >= 1 && t <= KTR_TYPE_MAX ? t : 0;
	case KD_SYS_DRAGONFLY:
		/* a type its kdump skips is still a record of the chain */
		if (t >= 8 && t <= DFLY_TYPE_MAX)
			return KD_T_OTHER;
		return t >= 1 && t <= 7 ? t : 0;
	case KD_SYS_DARWIN:
		return t >= 1 && t <= 7 ? t : 0;
	case KD_SYS_FREEBSD:
		if (f->version == 1 && (!(t & FBSD_VERSIONED) || r->version != 1))
			return 0;
		if (f->version == 0 && (t & FBSD_VERSIONED))
			return 0;
		t &= FBSD_TYPE_MASK;
		return t >= 1 && t < (int)sizeof(freebsd) ? freebsd[t] : 0;
	case KD_SYS_OPENBSD:
		if (t == -1)
			return KD_T_START;
		return t >= 1 && t < (int)sizeof(openbsd) ? openbsd[t] : 0;
	case KD_SYS_NETBSD:
		if (r->version < 0 || r->version > 2)
			return 0;
		return t >= 1 && t < (int)sizeof(netbsd) ? netbsd[t] : 0;
	}
	return 0;
}

/* --- detection ------------------------------------------------------------- */

static void fmt_of(const struct cand *c, struct kd_bsd_fmt *f)
{
	static const unsigned int abi[] = {
		[KD_SYS_KTRACEB] = 0,
		[KD_SYS_DRAGONFLY] = KTR_SV_ABI_DRAGONFLY,
		[KD_SYS_FREEBSD] = KTR_SV_ABI_FREEBSD,
		[KD_SYS_OPENBSD] = KTR_SV_ABI_OPENBSD,
		[KD_SYS_NETBSD] = KTR_SV_ABI_NETBSD,
		[KD_SYS_DARWIN] = KTR_SV_ABI_DARWIN,
	};

	memset(f, 0, sizeof(*f));
	f->sys = c->sys;
	f->hdrsize = c->hdrsize;
	f->ws = c->ws;
	f->be = c->be;
	f->version = c->l == L_FBSD1 ? 1 : 0;
	f->sv_flags = abi[c->sys] | (c->ws == 8 ? KTR_SV_LP64 : KTR_SV_ILP32);
}

/* A CALL or RET payload of the size the system gives it. */
static bool payload_fits(const struct kd_bsd_fmt *f, int type, const unsigned char *p, size_t len)
{
	size_t w = f->ws, n;

	if (type == KTR_SYSCALL) {
		switch (f->sys) {
		case KD_SYS_OPENBSD: /* then a sysctl's MIB */
			n = len >= 8 ? (__u32)rd32(f, p + 4) : (size_t)-1;
			return len >= 8 && n <= len - 8 && n % w == 0;
		case KD_SYS_NETBSD:
			n = len >= 8 ? (__u32)rd32(f, p + 4) : (size_t)-1;
			return len >= 8 && n == len - 8 && n % w == 0;
		case KD_SYS_DARWIN:
			n = len >= 4 ? (size_t)rd16(f, p + 2) : (size_t)-1;
			return len >= 4 && (len == 4 + 8 * n || len == 8 + 8 * n);
		default:
			n = len >= 4 ? (size_t)rd16(f, p + 2) : (size_t)-1;
			return len >= 4 && len == (w == 8 ? 8 : 4) + w * n;
		}
	}
	switch (f->sys) {
	case KD_SYS_OPENBSD:
		return len == 8 || len == 8 + w || len == 16;
	case KD_SYS_NETBSD:
		return len == 8 + 2 * w;
	case KD_SYS_DARWIN:
		return len == 12 || len == 16;
	default:
		return len == 8 + w;
	}
}

/*
 * Walk the records c finds in buf: how many are whole and well-formed
 * before the first that is not; *complete when that is the end (or a
 * record the window or the file cuts).
 */
static size_t walk(const struct cand *c, const unsigned char *buf, size_t len, bool at_eof,
		   bool *complete)
{
	struct kd_bsd_fmt f;
	size_t pos = 0, n = 0, plen;
	struct raw r;
	int t;

	fmt_of(c, &f);
	*complete = false;
	while (pos + c->hdrsize <= len) {
		parse(&f, c->l, buf + pos, &r);
		t = map_type(&f, &r);
		if (!t || r.len < 0 || r.len > KTR_READER_MAXLEN)
			return n;
		if (c->sys == KD_SYS_OPENBSD && n == 0 && t != KD_T_START)
			return 0; /* OpenBSD's kdump: "not a dump" */
		plen = (size_t)r.len;
		if (pos + c->hdrsize + plen > len)
			break;
		/*
		 * DragonFly writes ktr_buf, a kernel address (top bit set), where
		 * ktraceb keeps its clock (monotonic nanoseconds, top bit clear):
		 * every record says which of the two wrote it, whatever its type.
		 */
		if (c->sys == KD_SYS_DRAGONFLY && !(buf[pos + DFLY_KTR_BUF + 7] & 0x80))
			return n;
		if (c->sys == KD_SYS_KTRACEB && (buf[pos + DFLY_KTR_BUF + 7] & 0x80))
			return n;
		if ((t == KTR_SYSCALL || t == KTR_SYSRET) && c->l != L_DFLY &&
		    !payload_fits(&f, t, buf + pos + c->hdrsize, plen))
			return n;
		pos += c->hdrsize + plen;
		n++;
	}
	/* a cut file (a trace being written, a truncated copy) still chains */
	*complete = pos == len || !at_eof || n >= (c->sys == KD_SYS_KTRACEB ? 1u : 2u);
	return n;
}

static void settle_version(struct kd_bsd_fmt *f, const unsigned char *buf, size_t len);
/* A ktraceb type first, with a length out of range or past the end of the file. */
static bool first_record_broken(const unsigned char *buf, size_t len, bool at_eof)
{
	struct ktr_header h;

	if (len < sizeof(h))
		return false;
	memcpy(&h, buf, sizeof(h));
	if (h.ktr_type < 1 || h.ktr_type > KTR_TYPE_MAX)
		return false;
	return h.ktr_len < 0 || h.ktr_len > KTR_READER_MAXLEN ||
	       (at_eof && sizeof(h) + (size_t)h.ktr_len > len);
}

int kd_bsd__detect(const unsigned char *buf, size_t len, bool at_eof, struct kd_bsd_fmt *f)
{
	const size_t ncand = sizeof(cands) / sizeof(cands[0]);
	const struct cand *best = NULL;
	size_t i, n, best_n = 0, native_n = 0;
	bool complete;

	for (i = 0; i < ncand; i++) {
		n = walk(&cands[i], buf, len, at_eof, &complete);
		if (n > 0 && complete) {
			fmt_of(&cands[i], f);
			settle_version(f, buf, len);
			return 0;
		}
		if (cands[i].sys == KD_SYS_KTRACEB)
			native_n = n;
		else if (n > best_n) {
			best_n = n;
			best = &cands[i];
		}
	}
	/*
	 * A broken record early on: ktraceb's layout if it reads as far as
	 * any (kdump then reports the break as before), another system's only
	 * on long evidence.
	 */
	if (native_n > 0 && native_n >= best_n) {
		fmt_of(&cands[ncand - 1], f);
		return 0;
	}
	if (best && best_n >= DETECT_MIN_RECORDS) {
		fmt_of(best, f);
		settle_version(f, buf, len);
		return 0;
	}
	/* ktraceb's first record already broken: its reader says how, as before */
	if (first_record_broken(buf, len, at_eof)) {
		fmt_of(&cands[ncand - 1], f);
		return 0;
	}
	return -ENOEXEC;
}

/* NetBSD's header version is the first record's (each record has one). */
static void settle_version(struct kd_bsd_fmt *f, const unsigned char *buf, size_t len)
{
	if (f->sys == KD_SYS_NETBSD && len >= 8)
		f->version = rd16(f, buf + (f->be ? 4 : 6));
}

static enum layout layout_of(const struct kd_bsd_fmt *f)
{
	switch (f->sys) {
	case KD_SYS_OPENBSD:
		return L_OBSD;
	case KD_SYS_NETBSD:
		return L_NBSD;
	case KD_SYS_FREEBSD:
		return f->version == 1 ? L_FBSD1 : L_V0;
	case KD_SYS_DARWIN:
		return L_V0;
	default:
		return L_DFLY;
	}
}

int kd_bsd__header(const struct kd_bsd_fmt *f, const unsigned char *raw, struct ktr_header *h,
		   size_t *paylen)
{
	struct raw r;
	size_t n;
	int t;

	parse(f, layout_of(f), raw, &r);
	memset(h, 0, sizeof(*h));
	h->ktr_len = r.len < 0 || r.len > KTR_READER_MAXLEN ? (__s32)-1 : (__s32)r.len;
	h->ktr_type = (__s16)r.type;
	if (r.len < 0 || r.len > KTR_READER_MAXLEN)
		return -EBADMSG;
	t = map_type(f, &r);
	if (!t)
		return -EPROTO;
	h->ktr_type = (__s16)t;
	h->ktr_pid = r.pid;
	h->ktr_tid = r.tid;
	if (r.cpu >= 0 && r.cpu < 256)
		h->ktr_flags = KTRH_CPUID_ENCODE(r.cpu);
	n = strnlen((const char *)r.comm, r.commlen);
	memcpy(h->ktr_comm, r.comm, n < KTR_MAXCOMLEN ? n : KTR_MAXCOMLEN);
	if (r.nsec < 0 || r.nsec > 999999999)
		r.nsec = 0;
	h->ktr_time_sec = r.sec;
	h->ktr_time_usec = r.nsec / 1000;
	/* the nanoseconds kdump orders by; top bit clear, as a ktraceb clock */
	h->ktr_mono_ns = ((__u64)r.sec * 1000000000ull + (__u64)r.nsec) & ~(1ull << 63);
	*paylen = (size_t)r.len;
	return 0;
}

void kd_bsd__describe(const struct kd_bsd_fmt *f, char *buf, size_t size)
{
	static const char *const names[] = { "ktraceb", "DragonFly BSD", "FreeBSD",
					     "OpenBSD", "NetBSD",	 "Darwin" };
	const char *arch =
		f->ws == 8 ? (f->be ? "64-bit" : "amd64") :
			     (f->be ? (f->sys == KD_SYS_DARWIN ? "powerpc" : "32-bit") : "i386");

	if (f->sys == KD_SYS_DRAGONFLY) {
		snprintf(buf, size, "%s trace, x86_64, ktr_header (64 bytes, little-endian)",
			 names[f->sys]);
		return;
	}
	if (f->sys == KD_SYS_FREEBSD || f->sys == KD_SYS_NETBSD)
		snprintf(buf, size, "%s trace, %s, ktr_header v%d (%d bytes, %s-endian)",
			 names[f->sys], arch, f->version, f->hdrsize, f->be ? "big" : "little");
	else
		snprintf(buf, size, "%s trace, %s, ktr_header (%d bytes, %s-endian)", names[f->sys],
			 arch, f->hdrsize, f->be ? "big" : "little");
}
