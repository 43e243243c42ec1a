/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Decoders used by kdump: syscall arguments, return values, errno and signal
 * names, and captured structures.  Printers write text to a FILE; a
 * structure, a syscall's arguments and its return also come as fields
 * (below) for the outputs that are not text.  None reads past the lengths
 * it is given: the input comes from a trace file and is untrusted.
 */
#ifndef KTRACEB_DECODE_H
#define KTRACEB_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

/* Decoding options (kdump -d, -n). */
#define KTR_DEC_DECIMAL	0x1	/* -d: plain numbers in decimal, not hex */
#define KTR_DEC_RAW	0x2	/* -n: no symbolic decoding at all */

/*
 * The ABI of a process, as FreeBSD's PROCCTOR sv_flags gives it: the low
 * byte is the ELF OSABI (Linux 3, NetBSD 2, FreeBSD 9, OpenBSD 12); kdump
 * gives the processes of a Darwin or DragonFly trace, which have no
 * PROCCTOR, private values.  0 is a ktraceb trace's x86_64.
 */
#define KTR_SV_ABI_MASK		0xff
#define KTR_SV_ABI_NETBSD	2
#define KTR_SV_ABI_FREEBSD	9
#define KTR_SV_ABI_OPENBSD	12
#define KTR_SV_ABI_DARWIN	0xf1	/* kdump's own: no ELF OSABI */
#define KTR_SV_ABI_DRAGONFLY	0xf2	/* kdump's own: DragonFly brands as FreeBSD */

/* Syscall name for nr in the ABI given by PROCCTOR sv_flags (0 = x86_64), or NULL. */
const char *ktr_syscall_name(unsigned int sv_flags, long nr);

/*
 * The machine whose syscall tables names and arguments come from, as a
 * trace file's INFO record says ("x86_64", "aarch64"); x86_64 until set.
 */
void ktr_decode_set_machine(const char *machine);
/*
 * A machine's syscall tables ("x86_64", "aarch64"; NULL: the trace's, as
 * last set): the native one, and the compat one (NULL, 0 if none).
 */
struct ktr_sysent;
void ktr_decode_tables(const char *machine, const struct ktr_sysent **native, unsigned int *nnative,
		       const struct ktr_sysent **compat, unsigned int *ncompat);

/*
 * The most arguments a KTR_SYSCALL has: 6 in a Linux ABI, up to 8 in a
 * BSD trace's (DragonFly's ktr_args[8]).
 */
#define KTR_DEC_MAXARGS 8

/*
 * The arguments of a KTR_SYSCALL, BSD style: "(a,b,c)" with nothing at all
 * when narg == 0.  Known syscalls get symbolic decoding unless KTR_DEC_RAW.
 * Only the arguments the call takes, as strace shows them: openat's mode
 * only with O_CREAT or O_TMPFILE, and so on; all narg under KTR_DEC_RAW
 * and in a BSD's ABI.  The text of the fields below (call_text.c).
 */
void ktr_print_syscall_args(FILE *out, unsigned int sv_flags, int code, int narg,
			    const __u64 *args, int flags);

/*
 * The same arguments as fields (below), one each, no group: named as the
 * kernel names them ("dfd"; "arg3" when unknown), raw the register, text
 * the argument as the list shows it.  0, or -ENOMEM.
 */
struct ktr_field_sink;
int ktr_decode_syscall_args(const struct ktr_field_sink *s, unsigned int sv_flags, int code,
			    int narg, const __u64 *args, int flags);

/*
 * kdump -y: which arguments of a call (bit i: argument i) are descriptors,
 * as strace -y shows them with their file: by the kernel's names for them
 * ("fd", "dfd", "oldfd", "out_fd", ...); 0 in a BSD's ABI.
 */
unsigned int ktr_syscall_fd_args(unsigned int sv_flags, int code);

/*
 * The body of a KTR_SYSRET after the syscall name: "3", "12/0xc", "0x7f..."
 * (mmap, brk, mremap), "-1 errno 2 No such file or directory (ENOENT)",
 * "-1 errno 512 ERESTARTSYS (To be restarted if SA_RESTART is set)";
 * under KTR_DEC_RAW "-1 errno 2" and the plain number.  No newline.  The
 * text of the field below (call_text.c).
 */
void ktr_print_sysret(FILE *out, unsigned int sv_flags, int code, int error, __s64 retval,
		      int flags);
/*
 * The same as one field "retval", no group: raw the return value (signed),
 * text as above.  0, or -ENOMEM.
 */
int ktr_decode_sysret(const struct ktr_field_sink *s, unsigned int sv_flags, int code, int error,
		      __s64 retval, int flags);

/* "ENOENT" for 2, NULL if unknown.  Linux errno values, also 512..530. */
const char *ktr_errno_name(int err);
/* "SIGINT" for 2, "SIGRT_5" for 37 (strace's names), NULL if out of range. */
const char *ktr_signal_name(int sig);
/* si_code name for a signal ("SI_USER", "SEGV_MAPERR", ...), NULL if unknown. */
const char *ktr_sigcode_name(int sig, int code);

/* sv_flags is a BSD's own ABI: names, errnos and signals are that system's. */
bool ktr_bsd_abi(unsigned int sv_flags);
const char *ktr_bsd_errno_name(unsigned int sv_flags, int err);
/* "SIGSEGV" for 11: 4.4BSD numbers, NULL if out of range. */
const char *ktr_bsd_signal_name(unsigned int sv_flags, int sig);

/*
 * A wait(2) status as strace shows it, for KTR_EXIT and struct wstatus:
 * "WIFEXITED(s) && WEXITSTATUS(s) == 0", "WIFSIGNALED(s) && WTERMSIG(s) ==
 * SIGKILL && WCOREDUMP(s)", "WIFSTOPPED(s) && WSTOPSIG(s) == SIGSTOP",
 * "WIFCONTINUED(s)"; the number in hex under KTR_DEC_RAW.
 */
void ktr_print_wstatus(FILE *out, int status, int flags);

/*
 * Escaping a byte string for output, the one way every decoder and kdump
 * output does it: printable ASCII as it is, \" and \\ for the quote and
 * the backslash, \n and \t, and the rest in the style of how:
 *   KTR_ESC_C     \ooo (so \r as \015: the decoders' C strings)
 *   KTR_ESC_CR    the same, but \r (kdump's text)
 *   KTR_ESC_JSON  \r, and \u00XX for every other byte, so that any byte
 *                 string is a JSON string whose code points are its bytes
 */
#define KTR_ESC_C	0
#define KTR_ESC_CR	0x1
#define KTR_ESC_JSON	0x2

/* len bytes of p, escaped, without quotes. */
void ktr_put_escaped(FILE *out, const void *p, size_t len, int how);
/* One byte escaped into buf (room for 8); its length, which is its width. */
int ktr_escape_byte(char *buf, unsigned char c, int how);
/* A string of at most max bytes, KTR_ESC_C, stopping at NUL unless keep_nul. */
void ktr_print_cstr(FILE *out, const char *s, size_t max, bool keep_nul);
/*
 * The bytes a KTR_ESC_C or KTR_ESC_CR text of len bytes (no quotes) stands
 * for, at most size of them into dst; their count.
 */
size_t ktr_unescape_c(unsigned char *dst, size_t size, const char *s, size_t len);

/*
 * Fields.  A KTR_STRUCT decoder gives what it finds to a sink, one call a
 * field, in the order kdump's text shows them: the text (below) and the
 * JSON lines (kdump -J) both format from them.  A field has a name (none
 * for a value the text shows alone: an address, a set of signals), a
 * kind, its raw value when it is a number, and its decoded value as the
 * text shows it ("-rw-r--r--", "8:1", "O_RDONLY|O_CLOEXEC").
 */
enum ktr_field_kind {
	KTR_FIELD_NUM,	/* a decimal number: raw, an __s64 if is_signed; also a number
			   the text shows by its name when it has none (a signal, a
			   flag set of 0: struct_int.h ktr_field_mask) */
	KTR_FIELD_HEX,	/* a number the text shows in hex: raw */
	KTR_FIELD_TEXT,	/* any other decoded value: a name, a set of names, a time ... */
	KTR_FIELD_STR,	/* a byte string: text and len are its bytes, the text quotes them */
	KTR_FIELD_NOTE,	/* what the decoder left out: "<3 bytes more>", "... 5 more" */
};

struct ktr_field {
	const char *name; /* NULL: a value shown alone */
	enum ktr_field_kind kind;
	bool is_signed;
	__u64 raw;
	const char *text; /* the decoded value, len bytes, not NUL-terminated */
	size_t len;
};

/* Groups of fields: a structure, or an array of them. */
enum ktr_field_group { KTR_GROUP_STRUCT, KTR_GROUP_ARRAY };

/*
 * Where fields go; ctx is the sink's own.  A sink with direct set (kdump's
 * text) gets each TEXT field with no text and before its value: the
 * decoder then writes the value straight to direct, with no copy.
 */
struct ktr_field_sink {
	void (*begin)(void *ctx, enum ktr_field_group g);
	void (*field)(void *ctx, const struct ktr_field *f);
	void (*end)(void *ctx, enum ktr_field_group g);
	void *ctx;
	FILE *direct;
};

/* What ktr_decode_struct() made of a structure. */
enum ktr_struct_found {
	KTR_STRUCT_DECODED, /* its fields given */
	KTR_STRUCT_UNKNOWN, /* a name it does not know: nothing given */
	KTR_STRUCT_BAD_SIZE, /* a size that type cannot have: nothing given */
	KTR_STRUCT_NOMEM, /* no memory for the decoded values */
};

/*
 * A KTR_STRUCT payload (name already split off) as fields: a structure
 * (begin, its members, end); an array of structures, or of values (the
 * pair of times utimensat takes), in an array group; "string" (what
 * readlink or getcwd returned) as one STR field and no group.
 */
enum ktr_struct_found ktr_decode_struct(const struct ktr_field_sink *s, const char *name,
					const void *data, size_t len, int flags);

/*
 * The same as kdump's text: "struct stat { dev=8:1, ino=..., ... }",
 * "struct pollfd [ { fd=3, ... }, ... ]", "string \"...\"".  Unknown names
 * or sizes that do not match print a hexdump or "invalid record"; never a
 * crash.
 */
void ktr_print_struct(FILE *out, const char *name, const void *data, size_t len, int flags);
/*
 * The same text, from the one pass that also gives the fields to also (kdump
 * -J's members): what ktr_decode_struct() found.
 */
enum ktr_struct_found ktr_print_struct_also(FILE *out, const char *name, const void *data,
					    size_t len, int flags, const struct ktr_field_sink *also);

#endif /* KTRACEB_DECODE_H */
