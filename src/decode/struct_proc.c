// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* KTR_STRUCT printers for signals, processes, resources and the system. */
#include <string.h>
#include <signal.h>
#include "struct_int.h"

/* x86_64 kernel struct sigaction (not glibc's): handler, flags, restorer, mask */
struct k_sigaction {
	__u64 handler, flags, restorer, mask;
};

static void print_sigaction(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	struct k_sigaction sa;

	memcpy(&sa, p, sizeof(sa));
	ktr_field(f, "handler");
	if (sa.handler <= 1 && !(flags & KTR_DEC_RAW))
		fputs(sa.handler ? "SIG_IGN" : "SIG_DFL", out);
	else
		fprintf(out, "%#llx", (unsigned long long)sa.handler);
	ktr_field_mask(f, "flags", &ktr_sa_flags_tab, sa.flags, flags);
	if (sa.flags & 0x04000000) /* SA_RESTORER */
		ktr_field_hex(f, "restorer", sa.restorer);
	ktr_field_sigset(f, "mask", sa.mask, flags);
}

static void print_sigset(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	__u64 set;

	memcpy(&set, p, sizeof(set));
	ktr_field(f, NULL);
	ktr_print_sigset(out, set, flags);
}

/* The siginfo fields that the si_code says are valid (asm-generic/siginfo.h). */
static void print_siginfo(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	__s32 hdr[4], u[4] = { 0 };
	const char *code;
	__u64 addr;

	memcpy(hdr, p, 12);
	memcpy(u, p + 16, len - 16 < sizeof(u) ? len - 16 : sizeof(u));
	memcpy(&addr, u, sizeof(addr));
	ktr_field_signal(f, "signo", hdr[0], flags);
	ktr_field_s64(f, "errno", hdr[1]);
	code = (flags & KTR_DEC_RAW) ? NULL : ktr_sigcode_name(hdr[0], hdr[2]);
	if (code) {
		ktr_field(f, "code");
		fputs(code, out);
	} else {
		ktr_field_s64(f, "code", hdr[2]);
	}
	if (len < 24)
		return;
	if (hdr[2] == SI_USER || hdr[2] == SI_TKILL || hdr[2] == SI_QUEUE ||
	    (hdr[0] == SIGCHLD && hdr[2] > 0)) {
		ktr_field_s64(f, "pid", u[0]);
		ktr_field_u64(f, "uid", (__u32)u[1]);
		if (hdr[0] == SIGCHLD && hdr[2] > 0)
			ktr_field_s64(f, "status", u[2]);
		else if (hdr[2] == SI_QUEUE)
			ktr_field_hex(f, "value", (__u32)u[2]);
	} else if (hdr[2] == SI_TIMER) {
		ktr_field_s64(f, "timerid", u[0]);
		ktr_field_s64(f, "overrun", u[1]);
	} else if (hdr[2] > 0 && (hdr[0] == SIGSEGV || hdr[0] == SIGBUS || hdr[0] == SIGILL ||
				  hdr[0] == SIGFPE || hdr[0] == SIGTRAP)) {
		ktr_field_hex(f, "addr", addr);
	} else if (hdr[0] == SIGSYS && hdr[2] > 0 && len >= 32) {
		ktr_field_hex(f, "call_addr", addr);
		ktr_field_s64(f, "syscall", u[2]);
		ktr_field_hex(f, "arch", (__u32)u[3]);
	} else if (hdr[0] == SIGIO && hdr[2] > 0) {
		ktr_field_s64(f, "band", (__s64)addr);
		ktr_field_s64(f, "fd", u[2]);
	}
}

static void field_tv(struct ktr_fields *f, const char *name, const __s64 *tv)
{
	ktr_field(f, name);
	ktr_print_time(f->out, tv[0], tv[1], 6);
}

static void print_rusage(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	static const char *const names[14] = {
		"maxrss",  "ixrss",   "idrss",	"isrss",  "minflt",   "majflt", "nswap",
		"inblock", "oublock", "msgsnd", "msgrcv", "nsignals", "nvcsw",	"nivcsw",
	};
	__s64 r[18];

	memcpy(r, p, sizeof(r));
	field_tv(f, "utime", r);
	field_tv(f, "stime", r + 2);
	for (int i = 0; i < 14; i++)
		/* Linux leaves ixrss, idrss, isrss, nswap, msgsnd, msgrcv, nsignals at 0 */
		if (r[4 + i] || i == 0 || i == 4 || i == 5 || i == 12 || i == 13)
			ktr_field_s64(f, names[i], r[4 + i]);
}

static void rlim_value(struct ktr_fields *f, const char *name, __u64 v, int flags)
{
	if (v == ~0ULL && !(flags & KTR_DEC_RAW)) {
		ktr_field(f, name);
		fputs("RLIM_INFINITY", f->out);
	} else {
		ktr_field_u64(f, name, v);
	}
}

static void print_rlimit(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__u64 r[2];

	memcpy(r, p, sizeof(r));
	rlim_value(f, "cur", r[0], flags);
	rlim_value(f, "max", r[1], flags);
}

static void print_wstatus_struct(struct ktr_fields *f, const unsigned char *p, size_t len,
				 int flags)
{
	FILE *out = f->out;
	__s32 s;

	memcpy(&s, p, sizeof(s));
	ktr_field(f, NULL);
	ktr_print_wstatus(out, s, flags);
}

struct k_sysinfo {
	__s64 uptime;
	__u64 loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	__u16 procs, pad;
	__u32 pad2;
	__u64 totalhigh, freehigh;
	__u32 mem_unit, pad3;
};
_Static_assert(sizeof(struct k_sysinfo) == 112, "x86_64 struct sysinfo");

static void print_sysinfo(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	struct k_sysinfo s;

	memcpy(&s, p, sizeof(s));
	ktr_field_s64(f, "uptime", s.uptime);
	ktr_field(f, "loads");
	fprintf(out, "{ %llu, %llu, %llu }", (unsigned long long)s.loads[0],
		(unsigned long long)s.loads[1], (unsigned long long)s.loads[2]);
	ktr_field_u64(f, "totalram", s.totalram);
	ktr_field_u64(f, "freeram", s.freeram);
	ktr_field_u64(f, "sharedram", s.sharedram);
	ktr_field_u64(f, "bufferram", s.bufferram);
	ktr_field_u64(f, "totalswap", s.totalswap);
	ktr_field_u64(f, "freeswap", s.freeswap);
	ktr_field_u64(f, "procs", s.procs);
	ktr_field_u64(f, "totalhigh", s.totalhigh);
	ktr_field_u64(f, "freehigh", s.freehigh);
	ktr_field_u64(f, "mem_unit", s.mem_unit);
}

static void print_tms(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s64 t[4];

	memcpy(t, p, sizeof(t));
	ktr_field_s64(f, "utime", t[0]);
	ktr_field_s64(f, "stime", t[1]);
	ktr_field_s64(f, "cutime", t[2]);
	ktr_field_s64(f, "cstime", t[3]);
}

/*
 * struct clone_args by its size, as clone3 reads it: 64 bytes (v0), 80 (v1:
 * set_tid), 88 (v2: cgroup).  A shorter record (the kernel refuses it, but a
 * program may pass it) shows the whole fields it holds, then the rest.
 */
static void print_clone_args(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__u64 a[11] = { 0 };
	size_t n = len / 8;

	memcpy(a, p, len < sizeof(a) ? len : sizeof(a));
	if (n > 0)
		ktr_field_mask(f, "flags", &ktr_clone_flags_tab, a[0], flags);
	if (n > 1)
		ktr_field_hex(f, "pidfd", a[1]);
	if (n > 2)
		ktr_field_hex(f, "child_tid", a[2]);
	if (n > 3)
		ktr_field_hex(f, "parent_tid", a[3]);
	if (n > 4) {
		if (a[4])
			ktr_field_signal(f, "exit_signal", (__s64)a[4], flags);
		else
			ktr_field_u64(f, "exit_signal", 0);
	}
	if (n > 5)
		ktr_field_hex(f, "stack", a[5]);
	if (n > 6)
		ktr_field_u64(f, "stack_size", a[6]);
	if (n > 7)
		ktr_field_hex(f, "tls", a[7]);
	if (n > 9) { /* v1: the pair comes together */
		ktr_field_hex(f, "set_tid", a[8]);
		ktr_field_u64(f, "set_tid_size", a[9]);
	}
	if (n > 10)
		ktr_field_u64(f, "cgroup", a[10]);
	ktr_field_rest(f, len, n > 10 ? 88 : n > 9 ? 80 : n > 8 ? 64 : n * 8);
}

static void print_sched_param(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s32 prio;

	memcpy(&prio, p, sizeof(prio));
	ktr_field_s64(f, "priority", prio);
}

static void print_utsname(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	static const char *const names[6] = {
		"sysname", "nodename", "release", "version", "machine", "domainname",
	};

	for (int i = 0; i < 6; i++) {
		const char *s = (const char *)p + 65 * i;

		ktr_field_str(f, names[i], s, strnlen(s, 65));
	}
}

/* struct __kernel_timex: the commonly set fields only */
static void print_timex(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__u32 modes;
	__s32 status;
	__s64 v[6], tv[2], tick;

	memcpy(&modes, p, sizeof(modes));
	memcpy(v, p + 8, sizeof(v[0]) * 4); /* offset freq maxerror esterror */
	memcpy(&status, p + 40, sizeof(status));
	memcpy(v + 4, p + 48, sizeof(v[0]) * 2); /* constant precision */
	memcpy(tv, p + 72, sizeof(tv));
	memcpy(&tick, p + 88, sizeof(tick));
	ktr_field_hex(f, "modes", modes);
	ktr_field_s64(f, "offset", v[0]);
	ktr_field_s64(f, "freq", v[1]);
	ktr_field_s64(f, "maxerror", v[2]);
	ktr_field_s64(f, "esterror", v[3]);
	ktr_field_hex(f, "status", (__u32)status);
	ktr_field_s64(f, "constant", v[4]);
	ktr_field_s64(f, "precision", v[5]);
	field_tv(f, "time", tv);
	ktr_field_s64(f, "tick", tick);
}

struct k_stack {
	__u64 sp;
	__s32 flags, pad;
	__u64 size;
};

static void print_stack(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	struct k_stack s;

	memcpy(&s, p, sizeof(s));
	ktr_field_hex(f, "sp", s.sp);
	if (s.flags == SS_ONSTACK && !(flags & KTR_DEC_RAW)) {
		ktr_field(f, "flags");
		fputs("SS_ONSTACK", out);
	} else if (s.flags == SS_DISABLE && !(flags & KTR_DEC_RAW)) {
		ktr_field(f, "flags");
		fputs("SS_DISABLE", out);
	} else {
		ktr_field_hex(f, "flags", (unsigned int)s.flags);
	}
	ktr_field_u64(f, "size", s.size);
}

const struct ktr_structdec ktr_structs_proc[] = {
	{ "clone_args", 1, 88, 0, print_clone_args },
	{ "rlimit", 16, 16, 0, print_rlimit },
	{ "rusage", 144, 144, 0, print_rusage },
	{ "sched_param", 4, 4, 0, print_sched_param },
	{ "sigaction", 32, 32, 0, print_sigaction },
	{ "siginfo", 16, 128, 0, print_siginfo },
	{ "sigset", 8, 8, 0, print_sigset },
	{ "stack_t", 24, 24, 0, print_stack },
	{ "sysinfo", 112, 112, 0, print_sysinfo },
	{ "timex", 208, 208, 0, print_timex },
	{ "tms", 32, 32, 0, print_tms },
	{ "utsname", 390, 390, 0, print_utsname },
	{ "wstatus", 4, 4, 0, print_wstatus_struct },
};
const size_t ktr_nstructs_proc = KTR_NELEM(ktr_structs_proc);
