// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Facility 'u' (KTR_USER): USDT probes of the programs traced.
 *
 * The daemon (src/ktraceb/daemon/usdt/ktr_usdt.c) attaches ktr_usdt_record to every probe site
 * of every file a traced process maps, once, for every process (one
 * uprobe_multi link per file), with the site's id as BPF cookie; the
 * site's description (kind, names, where each argument is) waits in
 * usdt_sites.  Processes not traced pass the procs lookup and nothing
 * else; semaphores are raised by the daemon in traced processes only.
 *
 * The records (ktr.h, KTR_USER): ktraceb:utrace's bytes as they are; spans
 * and every other probe as a struct ktr_user_rec with its strings.
 */
#include "procs.bpf.h"
#include "record.bpf.h"
#include "arch.bpf.h"
#include "ktraceb/bpf_kernel.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_usdt.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KTR_MAX_USDT_SITES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct ktr_usdt_site);
} usdt_sites SEC(".maps");

/* The room the strings of one record take at most (ktr.h's limits). */
#define USER_STRINGS_MAX  2048
#define USER_STRINGS_MASK (USER_STRINGS_MAX - 1)

/*
 * n, checked to be 1 to 8, bounded so in the register the helper takes it
 * from: clang tests the bound on a copy, and Linux 6.12's verifier does
 * not narrow the original with it.  The asm is the identity on 1 to 8.
 */
static __always_inline __u64 uarg__size(__u64 n)
{
	asm volatile("%0 += -1\n\t%0 &= 7\n\t%0 += 1" : "+r"(n));
	return n;
}

/* One USDT argument, located as the site's note says. */
static __always_inline __u64 uarg__fetch(arch_probe_ctx_t *ctx, const struct ktr_usdt_arg *a)
{
	__u32 size = a->size & 0xf, shift;
	__u64 v = 0, reg = 0;

	if (a->kind == KTR_UARG_CONST)
		return a->val_off;
	if (a->reg_off > sizeof(*ctx) - sizeof(__u64))
		return 0;
	bpf_probe_read_kernel(&reg, sizeof(reg), (void *)ctx + a->reg_off);
	if (a->kind == KTR_UARG_REG)
		v = reg;
	else if (size >= 1 && size <= 8)
		bpf_probe_read_user(&v, uarg__size(size), (void *)(reg + a->val_off));
	if (size >= 8 || size == 0)
		return v;
	shift = 64 - 8 * size;
	v <<= shift;
	return a->is_signed ? (__u64)((__s64)v >> shift) : v >> shift;
}

/*
 * Copy the NUL-terminated string at uptr (user memory, or the site's own
 * names with kernel set) to str + off, at most max bytes; returns the bytes
 * taken, NUL included (an unreadable string counts as "").
 */
static __always_inline __u32 ustr__put(char *str, __u32 off, const void *src, __u32 max,
				       bool kernel)
{
	long n;

	off &= USER_STRINGS_MASK;
	if (!src) {
		n = -1;
	} else if (kernel) {
		n = bpf_probe_read_kernel_str(str + off, max, src);
	} else {
		n = bpf_probe_read_user_str(str + off, max, src);
	}
	if (n <= 0) {
		str[off] = 0;
		return 1;
	}
	return n;
}

/*
 * Does the string just read at str + off (n bytes, NUL included) look like
 * text?  Its first 8 bytes are printable ASCII (a pointer stored there, as
 * libstdc++'s throw probe passes, has bytes of 0x7f and above); a byte
 * loop over all of it, for 12 arguments, is more than the verifier walks.
 */
static __always_inline bool ustr__is_text(const char *str, __u32 off, __u32 n)
{
	__u64 x = 0, mask;

	if (n < 2)
		return false;
	bpf_probe_read_kernel(&x, sizeof(x), str + (off & USER_STRINGS_MASK));
	mask = n - 1 >= 8 ? ~0ULL : (1ULL << (8 * (n - 1))) - 1;
	x &= mask;
	x |= ~mask & 0x2020202020202020ULL; /* the bytes past the string pass */
	if (x & 0x8080808080808080ULL)
		return false; /* a byte of 0x80 or above */
	/* a byte below 0x20, then a byte 0x7f: the classic has-less-than and has-zero tests */
	if ((x - 0x2020202020202020ULL) & ~x & 0x8080808080808080ULL)
		return false;
	x ^= 0x7f7f7f7f7f7f7f7fULL;
	return ((x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL) == 0;
}

/* A user-space address a string could be at (not NULL, not the kernel's half). */
static __always_inline bool uarg__is_pointer(__u64 v)
{
	return v >= 4096 && v < ARCH_USER_ADDR_END;
}

static __always_inline void urec__header(struct ktr_user_rec *u, int kind)
{
	__builtin_memcpy(u->ku_sig, KTR_USER_SIG, 4);
	u->ku_version = KTR_UREC_VERSION;
	u->ku_kind = kind;
	u->ku_flags = 0;
	u->ku_nargs = 0;
	u->ku_depth = 0;
	u->ku_strmask = 0;
	u->ku_strlen = 0;
	u->ku_pad = 0;
}

/* ktraceb:utrace(addr, len): the bytes, as BSD's utrace(2) records them. */
__noinline int usdt__utrace(arch_probe_ctx_t *ctx, struct ktr_proc_state *ps,
			    const struct ktr_usdt_site *site)
{
	struct ktr_sample *s;
	struct ktr_header *h;
	__u64 addr, len;

	if (!ps || !site)
		return 0;
	addr = uarg__fetch(ctx, &site->args[0]);
	len = uarg__fetch(ctx, &site->args[1]);
	if (site->nargs < 2 || len > KTR_USER_MAXLEN)
		return 0; /* utrace.h refuses those itself (EINVAL) */
	s = rec__scratch();
	if (!s)
		return 0;
	h = (void *)(s + 1);
	len &= 2 * KTR_USER_MAXLEN - 1;
	if (len && bpf_probe_read_user(h + 1, len, (void *)addr) < 0) {
		/* a page not present (no faulting in here): the record is lost, and said so */
		rec__count_lost(ps->route, 1);
		return 0;
	}
	rec__send(s, ps->route, KTR_USER, len);
	return 0;
}

/* ktraceb:span_enter(subsys, name, kv, depth) and span_exit(..., err). */
__noinline int usdt__span(arch_probe_ctx_t *ctx, struct ktr_proc_state *ps,
			  const struct ktr_usdt_site *site)
{
	struct ktr_sample *s = rec__scratch();
	struct ktr_user_rec *u;
	struct ktr_header *h;
	__u32 off = 0;
	char *str;

	if (!ps || !site)
		return 0;
	if (!s || site->nargs < 4)
		return 0;
	h = (void *)(s + 1);
	u = (void *)(h + 1);
	str = (char *)(u + 1);
	urec__header(u, site->kind);
	u->ku_depth = uarg__fetch(ctx, &site->args[3]);
	if (site->kind == KTR_UREC_SPAN_EXIT && site->nargs > 4 &&
	    uarg__fetch(ctx, &site->args[4]) != 0)
		u->ku_flags = KTR_UREC_ERR;
	off += ustr__put(str, off, (void *)uarg__fetch(ctx, &site->args[0]), KTR_UREC_NAME_MAX,
			 false);
	off += ustr__put(str, off, (void *)uarg__fetch(ctx, &site->args[1]), KTR_UREC_NAME_MAX,
			 false);
	off += ustr__put(str, off, (void *)uarg__fetch(ctx, &site->args[2]), KTR_UREC_KV_MAX,
			 false);
	off &= USER_STRINGS_MASK;
	u->ku_strlen = off;
	rec__send(s, ps->route, KTR_USER, sizeof(*u) + off);
	return 0;
}

/* What the per-argument step of a PROBE record (bpf_loop) works on. */
struct probe_walk {
	arch_probe_ctx_t *regs;
	const struct ktr_usdt_site *site;
	struct ktr_user_rec *u;
	__u64 *args;
	char *str;
	__u32 off;
};

/*
 * Argument i: its value, and the string it points to if it looks like
 * text.  A bpf_loop callback: verified once, not once per argument.
 */
static long probe__arg(__u32 i, struct probe_walk *w)
{
	__u64 v;
	__u32 n;

	if (i >= KTR_UREC_MAXARGS)
		return 1;
	v = uarg__fetch(w->regs, &w->site->args[i]);
	w->args[i] = v;
	if (!uarg__is_pointer(v) || w->site->args[i].size != 8)
		return 0;
	n = ustr__put(w->str, w->off, (void *)v, KTR_UREC_ARGSTR_MAX, false);
	if (ustr__is_text(w->str, w->off, n)) {
		w->u->ku_strmask |= 1 << i;
		w->off = (w->off + n) & USER_STRINGS_MASK;
	}
	return 0;
}

/* Any other probe: its arguments, and the strings those that point to text hold. */
__noinline int usdt__probe(arch_probe_ctx_t *ctx, struct ktr_proc_state *ps,
			   const struct ktr_usdt_site *site)
{
	struct ktr_sample *s = rec__scratch();
	struct probe_walk w = { .regs = ctx, .site = site };
	struct ktr_user_rec *u;
	struct ktr_header *h;
	__u32 nargs, off;

	if (!ps || !site)
		return 0;
	nargs = site->nargs;
	if (!s)
		return 0;
	if (nargs > KTR_UREC_MAXARGS)
		nargs = KTR_UREC_MAXARGS;
	h = (void *)(s + 1);
	u = (void *)(h + 1);
	w.u = u;
	w.args = (__u64 *)(u + 1);
	w.str = (char *)w.args + 8 * nargs; /* the strings follow the arguments */
	urec__header(u, KTR_UREC_PROBE);
	u->ku_nargs = nargs;
	w.off += ustr__put(w.str, w.off, site->provider, KTR_UREC_NAME_MAX, true);
	w.off += ustr__put(w.str, w.off, site->name, KTR_UREC_NAME_MAX, true);
	bpf_loop(nargs, probe__arg, &w, 0);
	off = w.off & USER_STRINGS_MASK;
	u->ku_strlen = off;
	rec__send(s, ps->route, KTR_USER, sizeof(*u) + 8 * nargs + off);
	return 0;
}

/*
 * usdt__utrace, usdt__span and usdt__probe are global functions: the
 * verifier checks each once on its own, which is most of what loading
 * this program costs (the daemon's start).
 */
SEC("uprobe")
int ktr_usdt_record(arch_probe_ctx_t *ctx)
{
	struct ktr_proc_state *ps = proc__lookup();
	struct ktr_usdt_site *site;
	__u32 id;

	prog__refuse_for_tests(KTR_REFUSE_USDT);
	if (!ps || (ps->flags & KTR_PS_QUIET) || !(ps->facs & KTRFAC_USER))
		return 0;
	id = bpf_get_attach_cookie(ctx);
	site = bpf_map_lookup_elem(&usdt_sites, &id);
	if (!site)
		return 0;
	if (site->kind == KTR_USITE_UTRACE)
		usdt__utrace(ctx, ps, site);
	else if (site->kind == KTR_UREC_SPAN_ENTER || site->kind == KTR_UREC_SPAN_EXIT)
		usdt__span(ctx, ps, site);
	else
		usdt__probe(ctx, ps, site);
	return 0;
}
