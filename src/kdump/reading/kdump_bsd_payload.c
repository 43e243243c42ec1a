// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A foreign record's payload in ktraceb's layout (kd_bsd__payload), for
 * the reader.  Each system's payloads, from its sys/ktrace.h; "w" is the
 * machine's word:
 *
 *   CALL  FreeBSD, DragonFly: short code, narg; words (amd64: after 4 pad)
 *         Darwin: short code, narg; 64-bit args
 *         NetBSD, OpenBSD: int code, argsize; words
 *   RET   FreeBSD, Darwin: short code, eosys; int error; word retval
 *         NetBSD: the same, then retval_1; OpenBSD: int code, error; [retval]
 *   PSIG  FreeBSD: int signo; sig_t action; int code; sigset_t mask (16)
 *         NetBSD: int signo; sig_t action; sigset_t mask (16); int code
 *         OpenBSD, Darwin: int signo; sig_t action; int mask; int code
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kdump_bsd.h"
#include "kdump_bsd_int.h"

static size_t conv_call(const struct kd_bsd_fmt *f, const unsigned char *in, size_t len,
			unsigned char *out)
{
	struct ktr_syscall sc = { 0 };
	size_t off, asz = f->ws, narg, i;
	__u64 a;

	if (f->sys == KD_SYS_NETBSD || f->sys == KD_SYS_OPENBSD) {
		/* OpenBSD appends a sysctl's MIB after the arguments */
		if (len < 8 || rd32(f, in + 4) > len - 8 || rd32(f, in + 4) % asz ||
		    (f->sys == KD_SYS_NETBSD && rd32(f, in + 4) != len - 8))
			return 0;
		sc.ktr_code = (__s16)rd32(f, in);
		off = 8;
		narg = rd32(f, in + 4) / asz;
	} else {
		if (len < 4 || rd16(f, in + 2) < 0)
			return 0;
		sc.ktr_code = rd16(f, in);
		narg = (size_t)rd16(f, in + 2);
		if (f->sys == KD_SYS_DARWIN)
			asz = 8;
		off = len - asz * narg;
		if (len < asz * narg || (off != 4 && off != 8))
			return 0;
	}
	if (narg > KD_SYSCALL_MAXARGS)
		return 0;
	sc.ktr_narg = (__s16)narg;
	memcpy(out, &sc, sizeof(sc));
	for (i = 0; i < narg; i++) {
		a = asz == 8 ? rd64(f, in + off + 8 * i) : rd32(f, in + off + 4 * i);
		memcpy(out + sizeof(sc) + 8 * i, &a, 8);
	}
	return sizeof(sc) + 8 * narg;
}

static size_t conv_ret(const struct kd_bsd_fmt *f, const unsigned char *in, size_t len,
		       unsigned char *out)
{
	struct ktr_sysret sr = { 0 };
	size_t w = f->ws;

	if (f->sys == KD_SYS_OPENBSD) {
		if (len != 8 && len != 8 + w && len != 16)
			return 0;
		sr.ktr_code = (__s16)rd32(f, in);
		sr.ktr_error = (__s32)rd32(f, in + 4);
		if (len == 16) /* lseek's off_t */
			sr.ktr_retval = (__s64)rd64(f, in + 8);
		else if (len > 8)
			sr.ktr_retval = rdw(f, in + 8);
	} else {
		if (f->sys == KD_SYS_DARWIN ? len != 12 && len != 16 :
		    f->sys == KD_SYS_NETBSD ? len != 8 + 2 * w :
					      len != 8 + w)
			return 0;
		sr.ktr_code = rd16(f, in);
		sr.ktr_error = (__s32)rd32(f, in + 4);
		sr.ktr_retval = len - 8 == 8 ? (__s64)rd64(f, in + 8) : (__s32)rd32(f, in + 8);
	}
	memcpy(out, &sr, sizeof(sr));
	return sizeof(sr);
}

static size_t conv_psig(const struct kd_bsd_fmt *f, const unsigned char *in, size_t len,
			unsigned char *out)
{
	struct ktr_psig ps = { 0 };
	size_t w = f->ws, a = w == 8 ? 8 : 4, i, mask, code, nmask = 4;

	ps.signo = (__s32)rd32(f, in);
	switch (f->sys) {
	case KD_SYS_FREEBSD: /* signo, action, code, mask[4] */
		code = a + w;
		mask = code + 4;
		if (len != (w == 8 ? 40 : 28))
			return 0;
		break;
	case KD_SYS_NETBSD: /* signo, action, mask[4], code, [siginfo] */
		mask = a + w;
		code = mask + 16;
		if (len < code + 4)
			return 0;
		break;
	default: /* OpenBSD (then siginfo), Darwin: signo, action, int mask, code */
		mask = a + w;
		code = mask + 4;
		nmask = 1;
		if (len < code + 4 || (f->sys == KD_SYS_DARWIN && len != code + 4))
			return 0;
	}
	ps.action = (__u64)rdw(f, in + a);
	if (w == 4)
		ps.action &= 0xffffffffu;
	ps.code = (__s32)rd32(f, in + code);
	for (i = 0; i < nmask; i++)
		ps.mask[i] = rd32(f, in + mask + 4 * i);
	memcpy(out, &ps, sizeof(ps));
	return sizeof(ps);
}

/* Records of 32-bit ints (GIO's fd and rw, CSW, PROCCTOR...): n of them in host order. */
static size_t conv_ints(const struct kd_bsd_fmt *f, const unsigned char *in, size_t len,
			unsigned char *out, size_t n)
{
	size_t i;
	__u32 v;

	if (len < 4 * n)
		return 0;
	memcpy(out, in, len);
	for (i = 0; i < n; i++) {
		v = rd32(f, in + 4 * i);
		memcpy(out + 4 * i, &v, 4);
	}
	return len;
}

/* FreeBSD KTR_FAULT: vm_offset_t vaddr; int type: as { u64 vaddr; s32 type }. */
static size_t conv_fault(const struct kd_bsd_fmt *f, const unsigned char *in, size_t len,
			 unsigned char *out)
{
	__u64 va;
	__s32 type;

	if (len != 2 * (size_t)f->ws)
		return 0;
	va = (__u64)rdw(f, in);
	type = (__s32)rd32(f, in + f->ws);
	memcpy(out, &va, 8);
	memcpy(out + 8, &type, 4);
	return 12;
}

void kd_bsd__payload(const struct kd_bsd_fmt *f, struct ktr_header *h, const unsigned char *in,
		     size_t len, unsigned char *out)
{
	size_t n = 0;

	switch (h->ktr_type) {
	case KTR_SYSCALL:
		n = conv_call(f, in, len, out);
		break;
	case KTR_SYSRET:
		n = conv_ret(f, in, len, out);
		break;
	case KTR_PSIG:
		n = conv_psig(f, in, len, out);
		break;
	case KTR_GENIO:
	case KTR_CSW:
		n = conv_ints(f, in, len, out, 2);
		break;
	case KTR_PROCCTOR:
	case KD_T_FAULTEND:
		n = len == 4 ? conv_ints(f, in, len, out, 1) : 0;
		break;
	case KD_T_MIB:
		n = len % 4 == 0 ? conv_ints(f, in, len, out, len / 4) : 0;
		break;
	case KD_T_PLEDGE: /* int error, syscall; uint64_t code */
		if (len == 16 && conv_ints(f, in, 8, out, 2)) {
			__u64 c = rd64(f, in + 8);

			memcpy(out + 8, &c, 8);
			n = 16;
		}
		break;
	case KD_T_FAULT:
		n = conv_fault(f, in, len, out);
		break;
	}
	if (n == 0 && len > 0) {
		/* strings and bytes as they are; a misfit stays misfit, for "invalid record" */
		memcpy(out, in, len);
		n = len;
	}
	h->ktr_len = (__s32)n;
}
