/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktraceb/utrace.h: user records and spans for ktraceb(1) -t u.
 *
 * Header-only, for C (C99 and later) and C++ (C++11 and later), with gcc
 * or clang; it needs <sys/sdt.h> (Debian: systemtap-sdt-dev) and nothing
 * to link.
 *
 *   int utrace(const void *addr, size_t len);
 *	BSD's utrace(2): one USER record holding those bytes (at most 2048,
 *	more is -1 with errno EINVAL); 0 whether or not anyone traces.
 *	Define KTRACEB_NO_UTRACE before including to get only the same
 *	function named ktraceb_utrace().
 *
 *   KTR_SPAN_ENTER(subsys, name);
 *   KTR_SPAN_ENTER(subsys, name, fmt, ...);	key=value text, printf style
 *   KTR_SPAN_EXIT(subsys, name);		the span ended well
 *   KTR_SPAN_EXIT_ERR(subsys, name);		it ended in an error
 *   KTR_SPAN_EXIT_ERR(subsys, name, fmt, ...);	... with key=value text
 *   KTR_SPAN(subsys, name[, fmt, ...]);	enter now, exit (ok) when the
 *						enclosing scope ends, however
 *						it ends (C: a cleanup
 *						attribute, which a longjmp out
 *						of the scope skips; C++: a
 *						guard, which an exception
 *						runs)
 *
 * kdump prints spans nested by depth, with their durations:
 *	USER  > fw load_firmware dev=0000:03:00.0
 *	USER    > fw load_patch
 *	USER    < fw load_patch 15ms ok
 *	USER  < fw load_firmware 234ms err err=timeout
 *
 * Each is a USDT probe (provider "ktraceb": utrace, span_enter, span_exit;
 * their arguments are in ktr.h) guarded by its own semaphore, which ktraceb
 * raises in traced processes only.  Untraced, a span costs a thread-local
 * increment, a load and a branch, and never formats its key=value text.
 *
 * Depth is per thread, shared by the program and all its libraries (one
 * thread-local counter of default visibility, the first definition wins),
 * kept whether or not anyone traces, so a trace attached in the middle of
 * a run sees the right depths.  An exit with no enter leaves it at 0.
 *
 * The semaphores are weak, hidden definitions in the section ".probes":
 * each ELF object (the program, each shared library) has one per probe,
 * the one its own probe notes name, however many of its files include
 * this header.  The probes are written here rather than with sys/sdt.h's
 * STAP_PROBEn, whose semaphore use is one switch for a whole translation
 * unit (_SDT_HAS_SEMAPHORES): a program's own semaphore-less probes keep
 * working next to these.
 */
#ifndef KTRACEB_UTRACE_H
#define KTRACEB_UTRACE_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/sdt.h>

/* as include/ktraceb/ktr.h's KTR_USER_MAXLEN and KTR_UREC_KV_MAX */
#define KTRACEB_UTRACE_MAXLEN 2048
#define KTRACEB_SPAN_KV_MAX 512

#define KTR__SEMA(name) ktraceb_##name##_semaphore
#define KTR__WEAK_HIDDEN __attribute__((weak, visibility("hidden")))

KTR__WEAK_HIDDEN __attribute__((section(".probes"))) volatile unsigned short KTR__SEMA(utrace) = 0;
KTR__WEAK_HIDDEN __attribute__((section(".probes"))) volatile unsigned short KTR__SEMA(span_enter) = 0;
KTR__WEAK_HIDDEN __attribute__((section(".probes"))) volatile unsigned short KTR__SEMA(span_exit) = 0;

/* initial-exec: one addition to the thread pointer, no __tls_get_addr call */
__attribute__((weak, tls_model("initial-exec"))) __thread unsigned int ktraceb_span_depth = 0;

#define KTR__ON(name) __builtin_expect(KTR__SEMA(name) != 0, 0)

/*
 * A probe as sys/sdt.h's _SDT_PROBE makes it, with this header's own
 * semaphore in its note (see the top of the file).
 */
#define KTR__ASM_BODY(name, args)						      \
  _SDT_DEF_MACROS							      \
  _SDT_ASM_1(990:	_SDT_NOP)					      \
  _SDT_ASM_3(		.pushsection .note.stapsdt,_SDT_ASM_AUTOGROUP,"note") \
  _SDT_ASM_1(		.balign 4)					      \
  _SDT_ASM_3(		.4byte 992f-991f, 994f-993f, _SDT_NOTE_TYPE)	      \
  _SDT_ASM_1(991:	.asciz _SDT_NOTE_NAME)				      \
  _SDT_ASM_1(992:	.balign 4)					      \
  _SDT_ASM_1(993:	_SDT_ASM_ADDR 990b)				      \
  _SDT_ASM_1(		_SDT_ASM_ADDR _.stapsdt.base)			      \
  _SDT_ASM_1(		_SDT_ASM_ADDR ktraceb_##name##_semaphore)	      \
  _SDT_ASM_STRING(ktraceb)						      \
  _SDT_ASM_STRING(name)							      \
  _SDT_ASM_ARGS args							      \
  _SDT_ASM_SUBSTR(\x00)							      \
  _SDT_UNDEF_MACROS							      \
  _SDT_ASM_1(994:	.balign 4)					      \
  _SDT_ASM_1(		.popsection)

#define KTR__PROBE(name, n, arglist)                                                       \
	do {                                                                               \
		__asm__ __volatile__("" ::"m"(KTR__SEMA(name)));                           \
		__asm__ __volatile__(KTR__ASM_BODY(name, (n))::_SDT_ASM_OPERANDS_##n arglist); \
		__asm__ __volatile__(_SDT_ASM_BASE);                                       \
	} while (0)

/*
 * The probe's BPF program cannot fault pages in: while traced, touch what
 * it will copy (a string never read yet, a buffer's untouched pages), so
 * that it finds them present.
 */
static inline void ktr__touch(const void *p, size_t len)
{
	const volatile char *c = (const volatile char *)p;

	if (!p)
		return;
	for (size_t off = 0; off < len; off += 4096)
		(void)c[off];
	if (len)
		(void)c[len - 1];
}

static inline int ktraceb_utrace(const void *addr, size_t len)
{
	if (len > KTRACEB_UTRACE_MAXLEN) {
		errno = EINVAL;
		return -1;
	}
	if (KTR__ON(utrace)) {
		ktr__touch(addr, len);
		KTR__PROBE(utrace, 2, (addr, len));
	}
	return 0;
}

#ifndef KTRACEB_NO_UTRACE
static inline int utrace(const void *addr, size_t len)
{
	return ktraceb_utrace(addr, len);
}
#endif

/* The depth an enter records (before it), and the one an exit does (after it). */
static inline unsigned int ktr__depth_enter(void)
{
	return ktraceb_span_depth++;
}

static inline unsigned int ktr__depth_exit(void)
{
	return ktraceb_span_depth ? --ktraceb_span_depth : 0;
}

static inline void ktr__enter_probe(const char *subsys, const char *name, const char *kv,
				    unsigned int depth)
{
	ktr__touch(subsys, 1);
	ktr__touch(name, 1);
	KTR__PROBE(span_enter, 4, (subsys, name, kv, depth));
}

static inline void ktr__exit_probe(const char *subsys, const char *name, const char *kv,
				   unsigned int depth, int err)
{
	ktr__touch(subsys, 1);
	ktr__touch(name, 1);
	KTR__PROBE(span_exit, 5, (subsys, name, kv, depth, err));
}

static inline void ktr__enter(const char *subsys, const char *name)
{
	unsigned int depth = ktr__depth_enter();

	if (KTR__ON(span_enter))
		ktr__enter_probe(subsys, name, (const char *)0, depth);
}

static inline void ktr__exit(const char *subsys, const char *name, int err)
{
	unsigned int depth = ktr__depth_exit();

	if (KTR__ON(span_exit))
		ktr__exit_probe(subsys, name, (const char *)0, depth, err);
}

/* Only called while traced: the key=value text is formatted then, not otherwise. */
static inline __attribute__((format(printf, 4, 5))) void
ktr__enterf(unsigned int depth, const char *subsys, const char *name, const char *fmt, ...)
{
	char kv[KTRACEB_SPAN_KV_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kv, sizeof(kv), fmt, ap);
	va_end(ap);
	ktr__enter_probe(subsys, name, kv, depth);
}

static inline __attribute__((format(printf, 5, 6))) void
ktr__exitf(unsigned int depth, int err, const char *subsys, const char *name, const char *fmt,
	   ...)
{
	char kv[KTRACEB_SPAN_KV_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kv, sizeof(kv), fmt, ap);
	va_end(ap);
	ktr__exit_probe(subsys, name, kv, depth, err);
}

/*
 * KTR__PICK(ENTER, a, b, ...) is ENTER2(a, b) for two arguments and
 * ENTERF(a, b, ...) for three to sixteen: strict C99 has no empty
 * __VA_ARGS__, so the two forms are told apart by counting.
 */
#define KTR__SEL(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, X, ...) X
#define KTR__PICK(base, ...)                                                               \
	KTR__SEL(__VA_ARGS__, base##F, base##F, base##F, base##F, base##F, base##F, base##F,  \
		 base##F, base##F, base##F, base##F, base##F, base##F, base##F, base##2,   \
		 base##1)                                                                  \
	(__VA_ARGS__)

#define KTR__ENTER2(subsys, name) ktr__enter((subsys), (name))
#define KTR__ENTERF(subsys, name, ...)                                                     \
	(KTR__ON(span_enter) ? ktr__enterf(ktr__depth_enter(), (subsys), (name), __VA_ARGS__) \
			     : (void)ktr__depth_enter())
#define KTR__EXIT2(subsys, name) ktr__exit((subsys), (name), 0)
#define KTR__ERR2(subsys, name) ktr__exit((subsys), (name), 1)
#define KTR__ERRF(subsys, name, ...)                                                       \
	(KTR__ON(span_exit) ? ktr__exitf(ktr__depth_exit(), 1, (subsys), (name), __VA_ARGS__) \
			    : (void)ktr__depth_exit())

#define KTR_SPAN_ENTER(...) KTR__PICK(KTR__ENTER, __VA_ARGS__)
#define KTR_SPAN_EXIT(subsys, name) KTR__EXIT2(subsys, name)
#define KTR_SPAN_EXIT_ERR(...) KTR__PICK(KTR__ERR, __VA_ARGS__)

/* KTR_SPAN: a variable per use, named after its line (and counter, where there is one). */
#define KTR__CAT2(a, b) a##b
#define KTR__CAT(a, b) KTR__CAT2(a, b)
#ifdef __COUNTER__
#define KTR__UNIQUE(prefix) KTR__CAT(KTR__CAT(prefix, __LINE__), KTR__CAT(_, __COUNTER__))
#else
#define KTR__UNIQUE(prefix) KTR__CAT(prefix, __LINE__)
#endif
#define KTR__NAME_OF(name, ...) (name)

#ifdef __cplusplus
struct ktr__span_guard {
	const char *subsys, *name;
	~ktr__span_guard()
	{
		ktr__exit(subsys, name, 0);
	}
};
#define KTR_SPAN(subsys, ...)                                                              \
	ktr__span_guard KTR__UNIQUE(ktr__span_) = { (KTR_SPAN_ENTER(subsys, __VA_ARGS__),  \
						     (subsys)),                            \
						    KTR__NAME_OF(__VA_ARGS__, 0) }
#else
struct ktr__span {
	const char *subsys, *name;
};

static inline void ktr__span_end(struct ktr__span *span)
{
	ktr__exit(span->subsys, span->name, 0);
}
#define KTR_SPAN(subsys, ...)                                                              \
	__attribute__((cleanup(ktr__span_end), unused)) struct ktr__span KTR__UNIQUE(ktr__span_) = { \
		(KTR_SPAN_ENTER(subsys, __VA_ARGS__), (subsys)), KTR__NAME_OF(__VA_ARGS__, 0) \
	}
#endif

#endif /* KTRACEB_UTRACE_H */
