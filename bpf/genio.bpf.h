/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Facility 'i' (KTR_GENIO): the bytes a read or write family syscall moved,
 * taken from the user buffers at syscall exit, up to the process's iosize.
 * Called from the sys_exit program (syscall.bpf.c) so that GIO comes before
 * RET in one program, in a fixed order.
 */
#ifndef KTRACEB_GENIO_BPF_H
#define KTRACEB_GENIO_BPF_H

#include "record.bpf.h"
#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"

struct genio_iovec {
	__u64 base;
	__u64 len;
};

/* Copy up to want bytes from an iovec array into data; returns bytes copied. */
static __always_inline __u32 genio__copy_iov(char *data, __u64 uiov, __u64 cnt, __u32 want)
{
	__u32 off = 0;

	for (int i = 0; i < KTR_IOV_MAX; i++) {
		struct genio_iovec v;
		__u32 n;

		if (i >= cnt || off >= want)
			break;
		if (bpf_probe_read_user(&v, sizeof(v), (void *)(uiov + i * sizeof(v))) < 0)
			break;
		n = v.len < want - off ? v.len : want - off;
		/* off < want <= 64k and n <= 64k: masks the verifier can follow */
		off &= 0xffff;
		n &= 0x1ffff;
		if (n && bpf_probe_read_user(data + off, n, (void *)v.base) < 0)
			break;
		off += n;
	}
	return off;
}

/*
 * The most data of one buffer made in place, where a record of a known
 * size is (its CPU's stage, mostly): the rest of a stage's slack.
 */
#define GENIO_SHORT                                                                                \
	(KTR_STAGE_SLACK - sizeof(struct ktr_sample) - sizeof(struct ktr_header) -                 \
	 sizeof(struct ktr_genio))
struct genio_short_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_genio g;
	char data[GENIO_SHORT];
};

/*
 * A read's or write's data of one buffer, want bytes, at most GENIO_SHORT
 * (most are): made in place, not built in the scratch area and copied.
 * The sample may be longer than its record: the drain reads the header's
 * length.
 */
static __always_inline void genio__emit_short(struct ktr_proc_state *ps, __u8 kind,
					      const __u64 *args, __u64 want, __u64 ns)
{
	struct genio_short_sample *rec;
	struct rec_ref r;

	r = rec__reserve_current_at(sizeof(*rec), ps->route, KTR_GENIO, 0, ns);
	if (!r.rec)
		return;
	rec = r.rec;
	rec->g.ktr_fd = args[0];
	rec->g.ktr_rw = kind == KTR_GIO_WRITE_BUF ? KTR_UIO_WRITE : KTR_UIO_READ;
	barrier_var(want); /* the verifier must see this bound, clang may not drop it */
	if (want > GENIO_SHORT)
		want = GENIO_SHORT;
	if (bpf_probe_read_user(rec->data, want, (void *)args[1]) < 0)
		want = 0;
	r.len = sizeof(rec->g) + want;
	rec->h.ktr_len = r.len;
	rec__submit(r);
}

/* args: the syscall's (fd, buf or iov or msg, count or iovcnt, ...); ns: its return's time */
static __always_inline void genio__emit(struct ktr_proc_state *ps, long id, long ret,
					const __u64 *args, __u64 ns)
{
	struct ktr_sample *s;
	struct ktr_header *h;
	struct ktr_genio *g;
	struct user_msghdr msg;
	__u32 want, got = 0;
	__u64 uiov, niov;
	__u8 kind;
	char *data;

	if (ret <= 0 || id < 0 || id >= KTR_MAX_SYSCALLS)
		return;
	kind = ktr_genio64[sys__index(id)];
	if (kind == KTR_GIO_NONE)
		return;
	want = ret < ps->iosize ? ret : ps->iosize;
	if (want > KTR_IOSIZE_MAX)
		want = KTR_IOSIZE_MAX;
	if ((kind == KTR_GIO_READ_BUF || kind == KTR_GIO_WRITE_BUF) && want <= GENIO_SHORT) {
		genio__emit_short(ps, kind, args, want, ns);
		return;
	}
	s = rec__scratch();
	if (!s)
		return;
	h = (void *)(s + 1);
	g = (void *)(h + 1);
	data = (void *)(g + 1);
	/* keep clang from dropping the masks below as redundant: the verifier needs them */
	barrier_var(want);
	/*
	 * One call of the iovec walk for readv/writev and the msghdr calls:
	 * the verifier walks each call's 64 iterations apart.
	 */
	uiov = args[1];
	niov = args[2];
	switch (kind) {
	case KTR_GIO_READ_BUF:
	case KTR_GIO_WRITE_BUF:
		if (want && bpf_probe_read_user(data, want & 0x1ffff, (void *)args[1]) == 0)
			got = want;
		break;
	case KTR_GIO_READ_MSG:
	case KTR_GIO_WRITE_MSG:
		if (bpf_probe_read_user(&msg, sizeof(msg), (void *)args[1]) < 0)
			return;
		uiov = (__u64)msg.msg_iov;
		niov = msg.msg_iovlen;
		/* fall through */
	case KTR_GIO_READ_IOV:
	case KTR_GIO_WRITE_IOV:
		got = genio__copy_iov(data, uiov, niov, want);
		break;
	}
	if (got > KTR_IOSIZE_MAX)
		return;
	g->ktr_fd = args[0];
	g->ktr_rw = (kind == KTR_GIO_WRITE_BUF || kind == KTR_GIO_WRITE_IOV ||
		     kind == KTR_GIO_WRITE_MSG) ? KTR_UIO_WRITE : KTR_UIO_READ;
	rec__send_at(s, ps->route, KTR_GENIO, sizeof(*g) + got, ns);
}

#endif /* KTRACEB_GENIO_BPF_H */
