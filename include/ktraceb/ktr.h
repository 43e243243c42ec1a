/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The ktraceb on-disk format, shared by the BPF programs (bpf/), the loader
 * and writer, and the kdump reader (src/).  docs/FORMAT.md describes it byte
 * by byte.
 *
 * Invariants:
 *  - A trace file is a plain concatenation of records: a 64-byte
 *    struct ktr_header followed by ktr_len payload bytes, in host byte order.
 *    There is no file header, so a DragonFly kdump walks our files.
 *  - The header is the DragonFly x86_64 struct ktr_header; the 8 bytes at
 *    offset 56 (a kernel pointer there, ignored by its kdump) hold the
 *    CLOCK_MONOTONIC nanoseconds of the event.
 *  - Types 1..7 have the DragonFly payloads.  Anything else is an extension
 *    record numbered 8..31 (DragonFly's kdump skips those), with FreeBSD's
 *    number where the meaning is the same.
 *  - Only fixed-width types: this header is compiled by clang -target bpf
 *    against vmlinux.h and by the host compiler against <linux/types.h>.
 *  - The format evolves by new record types or sizes, never by giving an
 *    existing field a new meaning.
 */
#ifndef KTRACEB_KTR_H
#define KTRACEB_KTR_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define KTR_FORMAT_VERSION	1
#define KTR_MAXCOMLEN		16

/* ktr_type values: DragonFly 1..7, FreeBSD numbers, then ktraceb's own. */
#define KTR_SYSCALL		1
#define KTR_SYSRET		2
#define KTR_NAMEI		3
#define KTR_GENIO		4
#define KTR_PSIG		5
#define KTR_CSW			6
#define KTR_USER		7
#define KTR_STRUCT		8	/* FreeBSD: NUL-terminated name, then bytes */
#define KTR_PROCCTOR		10	/* FreeBSD: struct ktr_proc_ctor */
#define KTR_PROCDTOR		11	/* FreeBSD: empty */
#define KTR_ARGS		16	/* FreeBSD: argv, NUL-separated */
#define KTR_ENVS		17	/* FreeBSD: envp, NUL-separated */
#define KTR_FD			19	/* ktraceb: struct ktr_fd, a descriptor a process had when attached */
/*
 * An argv or envp longer than this is split over consecutive ARGS (ENVS)
 * records of exactly this size from the same thread, cut anywhere, the last
 * one shorter; a reader joins them.
 */
#define KTR_STRINGS_CHUNK	131072
#define KTR_MAPPING		20	/* ktraceb: struct ktr_mapping, where a process maps an object */
#define KTR_OBJECT		21	/* ktraceb: struct ktr_object, an object a traced process maps */
#define KTR_END			22	/* ktraceb: struct ktr_end, why the trace ended */
#define KTR_CGROUP		23	/* ktraceb: struct ktr_cgroup, where a process of a traced cgroup was */
#define KTR_FILEINFO		24	/* ktraceb: struct ktr_fileinfo */
#define KTR_LOST		25	/* ktraceb: struct ktr_lost */
#define KTR_EXIT		26	/* ktraceb: struct ktr_exit */
#define KTR_FLIGHT		27	/* ktraceb: struct ktr_flight_info, a recorder's dump */
#define KTR_TRACEPOINT		28	/* ktraceb: struct ktr_tracepoint, a kernel event's entry */
#define KTR_TPFORMAT		29	/* ktraceb: struct ktr_tpformat, that event's fields */
#define KTR_FILTER		30	/* ktraceb: struct ktr_filter, the trace's syscall selection */
#define KTR_USTACK		31	/* ktraceb: struct ktr_ustack, the user stack of a call (-k) */
#define KTR_TYPE_MAX		31

/* ktr_flags (DragonFly KTRH_*) */
#define KTRH_THREADED		0x0001
#define KTRH_OUT_OF_ORDER	0x0002	/* ktraceb recorder dumps: earlier than the
					   record before it (a lockless ring's order) */
#define KTRH_SYSWIDE		0x0004	/* ktraceb -S: a system-wide record (a TRACE, or
					   a LOST of the CPU in KTRH_CPUID) */
/*
 * CALL and RET: the table the call's number is from, as the kernel took
 * the call (one process can make both kinds: int 0x80 in a 64-bit
 * program).  A record with neither (an older file's) is of its process's
 * ABI, as its KTR_PROCCTOR says.
 */
#define KTRH_ABI_NATIVE		0x0008	/* the machine's own table (x86_64, arm64) */
#define KTRH_ABI_COMPAT		0x0010	/* the 32-bit compat table (i386 on x86_64) */
#define KTRH_CPUID_ENCODE(c)	((((__u16)(c)) & 0xFF) << 8)
#define KTRH_CPUID_DECODE(f)	(((f) >> 8) & 0xFF)

struct ktr_header {
	__s32 ktr_len;			/* payload bytes, header excluded */
	__s16 ktr_type;
	__u16 ktr_flags;
	__s32 ktr_pid;			/* Linux process id (tgid) */
	__s32 ktr_tid;			/* Linux thread id */
	char ktr_comm[KTR_MAXCOMLEN + 1];
	__u8 ktr_pad[7];
	__s64 ktr_time_sec;		/* struct timeval, wall clock */
	__s64 ktr_time_usec;
	__u64 ktr_mono_ns;		/* CLOCK_MONOTONIC ns of the event */
};

/* KTR_SYSCALL: ktr_len = 8 + 8 * ktr_narg */
struct ktr_syscall {
	__s16 ktr_code;			/* Linux syscall number */
	__s16 ktr_narg;
	__u32 ktr_pad;
	__u64 ktr_args[];
};
#define KTR_MAXARGS		6

/* KTR_SYSRET */
struct ktr_sysret {
	__s16 ktr_code;
	__s16 ktr_eosys;		/* always 0 here */
	__s32 ktr_error;		/* errno, 0 on success */
	__s64 ktr_retval;		/* full 64-bit return; -1 on error */
};

/*
 * KTR_NAMEI: the path bytes, no NUL.  Up to KTR_PATH_MAX - 1 bytes; 0 for
 * an empty path ("", AT_EMPTY_PATH); exactly KTR_PATH_MAX bytes for a path
 * of KTR_PATH_MAX bytes or more, cut there (the kernel refuses those).
 */
#define KTR_PATH_MAX		4096

/* KTR_GENIO: struct ktr_genio, then the bytes transferred */
struct ktr_genio {
	__s32 ktr_fd;
	__u32 ktr_rw;			/* KTR_UIO_READ or KTR_UIO_WRITE */
};
#define KTR_UIO_READ		0
#define KTR_UIO_WRITE		1

/*
 * KTR_USER.  A utrace(2) record is the caller's bytes and nothing else, at
 * most KTR_USER_MAXLEN, as on BSD.  The USER records ktraceb makes itself
 * from USDT probes start with a struct ktr_user_rec whose signature "KTRU"
 * identifies them, the way FreeBSD's kdump recognises rtld's "RTLD" records:
 *
 *   struct ktr_user_rec		16 bytes
 *   __u64 args[ku_nargs]		PROBE: the probe's arguments, as USDT gives them
 *   strings, each NUL-terminated	ku_strlen bytes in all:
 *     PROBE:  provider, probe name, then for each bit i set in ku_strmask
 *             (in argument order) the string argument i pointed to
 *     SPAN_*: subsystem, span name, key=value text ("" if none)
 *
 * ktr_len = 16 + 8 * ku_nargs + ku_strlen.  Each string is cut to its
 * KTR_UREC_*_MAX bytes (NUL included).
 */
#define KTR_USER_MAXLEN		2048	/* BSD: the most bytes utrace(2) takes */
#define KTR_USER_SIG		"KTRU"
#define KTR_UREC_VERSION	1
#define KTR_UREC_PROBE		1	/* a USDT probe fired */
#define KTR_UREC_SPAN_ENTER	2	/* ktraceb:span_enter (utrace.h) */
#define KTR_UREC_SPAN_EXIT	3	/* ktraceb:span_exit */
#define KTR_UREC_ERR		0x01	/* ku_flags: the span ended in an error */
#define KTR_UREC_MAXARGS	12	/* USDT allows 12 arguments */
#define KTR_UREC_NAME_MAX	64	/* provider, subsystem, probe or span name */
#define KTR_UREC_ARGSTR_MAX	128	/* a probe argument's string */
#define KTR_UREC_KV_MAX		512	/* a span's key=value text */

struct ktr_user_rec {
	char ku_sig[4];			/* "KTRU", no NUL */
	__u8 ku_version;		/* KTR_UREC_VERSION */
	__u8 ku_kind;			/* KTR_UREC_PROBE, _SPAN_ENTER, _SPAN_EXIT */
	__u8 ku_flags;			/* KTR_UREC_ERR */
	__u8 ku_nargs;			/* PROBE: arguments that follow; spans: 0 */
	__u16 ku_depth;			/* SPAN: the thread's span depth, 0 outermost */
	__u16 ku_strmask;		/* PROBE: bit i: argument i's string follows */
	__u16 ku_strlen;		/* bytes of strings after the arguments */
	__u16 ku_pad;
};

/*
 * The USDT probes of include/ktraceb/utrace.h (provider "ktraceb"), which
 * ktraceb's BPF side turns into the records above:
 *   ktraceb:utrace(const void *addr, size_t len)        -> the raw bytes
 *   ktraceb:span_enter(const char *subsys, const char *name,
 *                      const char *kv, unsigned depth)  -> SPAN_ENTER
 *   ktraceb:span_exit(const char *subsys, const char *name,
 *                     const char *kv, unsigned depth, int err) -> SPAN_EXIT
 * kv may be NULL (no key=value text); depth is the thread's depth before
 * the enter and after the exit (the outermost span has depth 0).
 */
#define KTR_USDT_PROVIDER	"ktraceb"

/* KTR_PSIG */
struct ktr_psig {
	__s32 signo;
	__u32 pad0;
	__u64 action;			/* handler address; 0 = SIG_DFL, 1 = SIG_IGN */
	__s32 code;			/* si_code */
	__u32 mask[4];			/* blocked mask: Linux sigset in mask[0..1] */
	__u32 pad1;
};

/* KTR_CSW: the FreeBSD layout (16 bytes); the DragonFly one is 8 */
struct ktr_csw {
	__s32 out;			/* 1 = switched out, 0 = switched in */
	__s32 user;			/* 1 = in user mode */
	char wmesg[8];			/* why it switched, NUL-padded */
};

/* KTR_PROCCTOR: FreeBSD sysentvec sv_flags of the process ABI */
struct ktr_proc_ctor {
	__u32 sv_flags;
};
#define KTR_SV_ABI_LINUX	3
#define KTR_SV_ILP32		0x000100
#define KTR_SV_LP64		0x000200
#define KTR_SV_LINUX_AMD64	0x00650203	/* FreeBSD amd64 linux_sysvec */
#define KTR_SV_LINUX_I386	0x00650103	/* the same with ILP32, not LP64 */

/* KTR_FILEINFO: first record a ktraceb session writes into a file */
#define KTR_FILEINFO_MAGIC	"ktraceb"
struct ktr_fileinfo {
	char fi_magic[8];		/* "ktraceb\0" */
	__u32 fi_version;		/* KTR_FORMAT_VERSION */
	__u16 fi_hdrsize;		/* sizeof(struct ktr_header) */
	__u16 fi_byteorder;		/* 0x0102 written in host order */
	char fi_machine[16];		/* uname -m, e.g. "x86_64" */
	char fi_release[65];		/* uname -r */
	__u8 fi_flags;			/* KTR_FI_*; 0 in files before them */
	__u8 fi_pad[2];
	__u32 fi_clock;			/* clock of ktr_mono_ns: 1 = CLOCK_MONOTONIC */
	__s64 fi_wall_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC at start */
	char fi_tool[16];		/* ktraceb version string */
};
#define KTR_BYTEORDER_MARK	0x0102
/* fi_flags: which build of the BPF programs recorded the trace (ktraceb's Makefile) */
#define KTR_FI_BPF_KNOWN	0x1	/* the bit below says it (0: a file before it) */
#define KTR_FI_BPF_OLD		0x2	/* the build for kernels before 5.12 */

/* KTR_LOST: records lost since the previous KTR_LOST for this file */
struct ktr_lost {
	__u64 lost;
	__u64 lost_total;		/* since the session began */
};

/*
 * KTR_END: the last record of a session in its file: why its tracing ended
 * there, and what was written and lost.  A session without one is cut
 * short (its daemon killed) or still being written.  Written in place of
 * the records a full disk cut off (room is kept for it), and rewritten
 * there, same size, with the final counts when the trace ends.
 */
struct ktr_end {
	__u32 ke_why;			/* KTR_END_* */
	__s32 ke_errno;			/* WRITE_ERROR: the write's errno (ENOSPC...); else 0 */
	__u64 ke_records;		/* records of the session before this one, in the file */
	__u64 ke_lost;			/* records of the session lost in all (the last LOST's
					   lost_total, and those below since) */
	__u64 ke_unwritten;		/* of ke_lost, those the file did not take: a write
					   error, a file that fell behind its records */
	__s32 ke_pid;			/* CLEARED: the ktraceb that cleared it; else 0 */
	__u32 ke_uid;			/* CLEARED: its uid */
};
#define KTR_END_EXITED		1	/* every traced process ended */
#define KTR_END_CLEARED		2	/* ktraceb -c or -C */
#define KTR_END_STOPPED		3	/* its foreground ktraceb stopped it (interrupted, gone) */
#define KTR_END_WRITE_ERROR	4	/* the file took no more records (ke_errno) */
#define KTR_END_REMOVED		5	/* the file's last name was removed */
#define KTR_END_DAEMON		6	/* the daemon was stopped (SIGTERM) */
#define KTR_END_RING		7	/* the ring buffer failed: no record reached any file */
#define KTR_END_KILLED		8	/* written by the next daemon: the one writing the
					   session was killed; the counts are unknown (0) */
#define KTR_END_MAX		8

/* KTR_EXIT: a traced process has ended (its last thread exited) */
struct ktr_exit {
	__s32 status;			/* wait(2) status: exit code or signal */
	__u32 pad;
};

/*
 * KTR_FLIGHT: a flight recorder's ring written out (ktraceb -R).  A dump is
 * this record with kf_part KTR_FLIGHT_RING, then the kf_kept records the
 * ring held, each CPU's in the order it wrote them, the CPUs merged by time
 * (a record earlier than the one before it carries KTRH_OUT_OF_ORDER); then
 * this record again with KTR_FLIGHT_LAST_PER_CPU and each CPU's last record
 * before the crash began (JTRACE's "last recorded per-CPU events"), usually
 * also in the ring.  Records the ring overwrote are not lost:
 * kf_produced - kf_kept of them.
 */
struct ktr_flight_info {
	__u64 kf_kept;			/* records that follow */
	__u64 kf_produced;		/* recorded since the ring began: kept, overwritten,
					   or kept out by a trigger's freeze */
	__u64 kf_out_of_order;		/* of the kept, how many are KTRH_OUT_OF_ORDER */
	__u32 kf_part;			/* KTR_FLIGHT_RING, KTR_FLIGHT_LAST_PER_CPU */
	__u32 kf_why;			/* KTR_FLIGHT_CRASH, _EXIT, _DEMAND */
	__s32 kf_pid;			/* crash, exit: the process */
	__s32 kf_status;		/* crash, exit: its wait(2) status */
	__u32 kf_compact;		/* 1: compact entries (only RET, PSIG, EXIT) */
	__u32 kf_pad;
};
#define KTR_FLIGHT_RING		1
#define KTR_FLIGHT_LAST_PER_CPU	2
#define KTR_FLIGHT_CRASH	1	/* killed by a signal that dumps core */
#define KTR_FLIGHT_EXIT		2	/* exited with a non-zero status (-R ...,exit) */
#define KTR_FLIGHT_DEMAND	3	/* ktraceb -D */

/*
 * KTR_TRACEPOINT: a kernel tracepoint hit in the context of a traced
 * process (ktraceb -e subsys:event): struct ktr_tracepoint, then kt_len
 * bytes of the entry exactly as the kernel's trace event wrote it
 * (common_type first), its __data_loc data included.  ktr_len = 8 + kt_len.
 */
struct ktr_tracepoint {
	__u32 kt_id;			/* the event id, as its KTR_TPFORMAT says */
	__u32 kt_len;			/* raw entry bytes that follow */
};
#define KTR_TP_MAX_BYTES	4096	/* most raw bytes kept of one entry */

/*
 * KTR_TPFORMAT: an event's format, from tracefs events/<subsys>/<event>/format,
 * written once per event per file before its first KTR_TRACEPOINT: struct
 * ktr_tpformat, then tf_nfields struct ktr_tpfield (the event's own
 * fields; the common_* ones are left out).  ktr_len = 72 + 88 * tf_nfields.
 * Strings are NUL-terminated within their arrays.
 */
#define KTR_TP_NAME_MAX		64	/* "subsys:event", NUL included */
#define KTR_TP_MAXFIELDS	64
struct ktr_tpformat {
	__u32 tf_id;			/* the kernel's event id (common_type) */
	__u16 tf_nfields;
	__u16 tf_pad;
	char tf_name[KTR_TP_NAME_MAX];	/* "sched:sched_waking" */
};
struct ktr_tpfield {
	char tp_name[32];		/* "target_cpu" */
	char tp_type[48];		/* "int", "char[16]", "__data_loc char[]" */
	__u16 tp_offset;		/* from the start of the entry */
	__u16 tp_size;			/* bytes; a __data_loc field is its 4-byte locator */
	__u8 tp_flags;			/* KTR_TPF_* */
	__u8 tp_pad[3];
};
#define KTR_TPF_SIGNED		0x01
#define KTR_TPF_DATA_LOC	0x02	/* u32 locator: offset (low 16 bits), length (high) */
#define KTR_TPF_ARRAY		0x04	/* "type name[n]": tp_size bytes of elements */
#define KTR_TPF_STRING		0x08	/* elements are char: printed as a string */

/*
 * KTR_FILTER: the syscall selection the trace was made with (ktraceb -e
 * trace=SET, -e status=SET; src/common/ktr_select.h), written once before
 * the trace's first record.  Calls it left out made no record at all.
 * With KTR_FILTER_USDT, the USDT probes armed beside the ktraceb
 * provider's (ktraceb -e usdt:PROVIDER:NAME), written at the first request
 * with 'u' that names some: a probe they leave out made no record at all
 * (a trace with USER records and no such record armed the ktraceb
 * provider's alone); with KTR_FILTER_USDT_HOT, the probes known to fire at
 * high rates those patterns take in.
 */
struct ktr_filter {
	__u32 kf_status;		/* KTR_FILTER_SUCCESSFUL | _FAILED wanted, 0 any */
	__u32 kf_flags;			/* KTR_FILTER_* */
	/*
	 * then the selection as given, NUL-terminated: "trace=openat status=failed";
	 * USDT: "python:function__entry node:*"; USDT_HOT: "python:line ..."
	 */
};
#define KTR_FILTER_SUCCESSFUL	0x1
#define KTR_FILTER_FAILED	0x2
#define KTR_FILTER_CALLS_AT_RETURN 0x1	/* a CALL (but an exec's) written at its return, just
					   before its RET: only then is its status known */
#define KTR_FILTER_USDT		0x2	/* the text is the USDT patterns, not a syscall
					   selection (kf_status 0) */
#define KTR_FILTER_USDT_HOT	0x4	/* the text is the probes of those patterns known to
					   fire at high rates */

/*
 * KTR_USTACK: the user stack of the thread's call before it (ktraceb -k).
 * Two parts, either of which may be empty: the kernel's frame-pointer walk
 * (us_nframes frames, innermost first, each named by the build id of its
 * object and its offset in that file), and, with KTR_USTACK_F_REGS, the
 * user registers at the call and a copy of the top of the user stack, which
 * kdump unwinds with the objects' DWARF call frame information (the
 * mappings come from KTR_MAPPING records).  ktr_len = 8 + 32 * us_nframes,
 * + sizeof(struct ktr_uregs) + 8 * ur_nregs + ur_stack_len with F_REGS (a
 * flight recorder may cut the stack bytes short: ktr_len says).
 */
struct ktr_ustack_frame {
	__s32 status;			/* KTR_USTACK_* */
	__u8 build_id[20];
	__u64 offset;			/* file offset in the object (BUILD_ID), or the address (IP) */
};
struct ktr_ustack {
	__u32 us_nframes;
	__u32 us_flags;			/* KTR_USTACK_F_* */
	/* then us_nframes struct ktr_ustack_frame; then, with F_REGS, struct ktr_uregs */
};
#define KTR_USTACK_EMPTY	0	/* no frame (bpf_stack_build_id's status values) */
#define KTR_USTACK_BUILD_ID	1	/* build_id and offset */
#define KTR_USTACK_IP		2	/* the address alone: no build id could be read */
#define KTR_USTACK_MAXFRAMES	32
#define KTR_USTACK_F_REGS	0x1	/* struct ktr_uregs, registers and stack bytes follow */
#define KTR_USTACK_F_SHED	0x2	/* no stack copy: past its trace's budget, or the ring
					   buffer half full (the frames are the walk's) */
/*
 * The registers at the call, by their DWARF numbers from 0 (x86_64: rax
 * rdx rcx rbx rsi rdi rbp rsp r8-r15 rip, 17; arm64: x0-x30 sp, 32), then
 * ur_stack_len bytes of the stack from ur_sp up.
 */
struct ktr_uregs {
	__u16 ur_machine;		/* ELF e_machine: EM_X86_64 62, EM_AARCH64 183 */
	__u16 ur_nregs;			/* __u64 registers that follow */
	__u32 ur_stack_len;		/* stack bytes that follow the registers */
	__u32 ur_stack_want;		/* bytes asked for (ktraceb -K) */
	__u32 ur_end;			/* why the copy is no longer: KTR_UREGS_END_* */
	__u64 ur_sp;			/* the stack pointer: the address of the first byte */
	__u64 ur_pc;			/* the instruction after the call's */
	/* then ur_nregs __u64, then ur_stack_len bytes */
};
#define KTR_UREGS_END_WANT	0	/* as many bytes as asked for */
#define KTR_UREGS_END_TOP	1	/* the stack's top: the main thread's start */
#define KTR_UREGS_END_FAULT	2	/* the next page could not be read */
#define KTR_UREGS_END_RECORD	3	/* the most a record may hold (a flight recorder's) */
#define KTR_UREGS_MAXREGS	32

/*
 * KTR_MAPPING: where a traced process (ktr_pid) maps an object (-k), as
 * its /proc/PID/maps said when the daemon read it: at each exec and each
 * executable mapping of a -k command, which waits for it, and when a
 * process starts being traced.  The object is the KTR_OBJECT of that build
 * id.  KTR_MAPPING_EXEC (km_start, km_end 0): the process exec'd, what it
 * mapped before is gone; KTR_MAPPING_FORK: a new process (ktr_pid) maps
 * what its parent (km_start) mapped then.
 */
struct ktr_mapping {
	__u64 km_start;			/* its first address, or the parent's pid (FORK) */
	__u64 km_end;			/* past its last */
	__u64 km_pgoff;			/* the file offset mapped at km_start */
	__u8 km_build_id[20];		/* zero-padded */
	__u8 km_build_id_len;		/* 0 with EXEC and FORK */
	__u8 km_flags;			/* KTR_MAPPING_* */
	__u8 km_pad[2];
};
#define KTR_MAPPING_EXEC	0x1
#define KTR_MAPPING_FORK	0x2

/*
 * KTR_OBJECT: an object file traced processes map (ktraceb -k), once per
 * trace file: its build id, where its file's bytes go in its addresses
 * (its PT_LOAD headers, so that a frame's file offset turns into an
 * address even where only its debug file is, whose headers say nothing of
 * the file), and the path it had.
 */
struct ktr_object_load {
	__u64 kl_offset;		/* p_offset */
	__u64 kl_vaddr;			/* p_vaddr */
	__u64 kl_filesz;		/* p_filesz */
	__u32 kl_flags;			/* p_flags: PF_X 1, PF_W 2, PF_R 4 */
	__u32 kl_pad;
};
#define KTR_OBJECT_MAXLOADS	8
struct ktr_object {
	__u8 ko_build_id[20];
	__u8 ko_build_id_len;		/* 20 for SHA-1 (GNU's default), else fewer */
	__u8 ko_nloads;			/* struct ktr_object_load that follow, at most 8 */
	__u8 ko_pad[2];
	/* then ko_nloads struct ktr_object_load, then the path, NUL-terminated */
};

/*
 * KTR_CGROUP: a process of a traced cgroup (ktraceb -G) and where it was,
 * written when it is first seen (a member when the trace began, forked
 * in, moved in), when it makes a thread, and when it leaves; a sub-group
 * made or a group removed (the header's pid: who did it); and, from the
 * daemon (its pid, "ktraceb"), how many of the group's processes were
 * left out, by why.  Then a path below the cgroup2 root, NUL-terminated
 * ("" for THREAD, SKIPPED: the traced group's).  ktr_len = 64 + the path.
 */
struct ktr_cgroup {
	__u64 kc_id;			/* the cgroup's id: its cgroup2 directory's inode number */
	__u32 kc_what;			/* KTR_CGROUP_* */
	__u32 kc_flags;			/* KTR_CGROUP_F_* */
	__s32 kc_ns_pid;		/* the process's pid as its pid namespace sees it */
	__s32 kc_ns_tid;		/* the thread's id there */
	__u32 kc_pidns;			/* that namespace's inode number (/proc/PID/ns/pid) */
	__u32 kc_pad;
	__u64 kc_skipped[4];		/* SKIPPED: processes left out, by KTR_CGROUP_SKIP_* */
};
#define KTR_CGROUP_MEMBER	1	/* in the group when its trace began */
#define KTR_CGROUP_FORKED	2	/* forked in the group (or into it: CLONE_INTO_CGROUP) */
#define KTR_CGROUP_MOVED	3	/* moved into it (written to its cgroup.procs) */
#define KTR_CGROUP_THREAD	4	/* a new thread of a traced process: its ids */
#define KTR_CGROUP_LEFT		5	/* moved out, to the path given: its tracing ends */
#define KTR_CGROUP_MADE		6	/* a sub-group made, or the group made again */
#define KTR_CGROUP_REMOVED	7	/* a sub-group or the group removed */
#define KTR_CGROUP_SKIPPED	8	/* the group's processes left out so far (kc_skipped) */
#define KTR_CGROUP_CONTAINER	9	/* the traced group is a container its runtime names
					   (-G RUNTIME:NAME): the string is "RUNTIME NAME ID",
					   kc_id the group's (0: not made yet) */
#define KTR_CGROUP_EXEC		10	/* a process of the group, left out when it came in
					   (not dumpable then), traced from its exec */
#define KTR_CGROUP_F_HOSTNS	0x1	/* the process is in the initial pid namespace */
#define KTR_CGROUP_F_GROUP_PATH	0x2	/* the path is the traced group's: kc_id is it or a
					   sub-group of it */
#define KTR_CGROUP_SKIP_NOT_YOURS  0	/* another user's process */
#define KTR_CGROUP_SKIP_PRIVILEGED 1	/* set-id, with capabilities, or not dumpable */
#define KTR_CGROUP_SKIP_ROOT	   2	/* root set tracing on it */
#define KTR_CGROUP_SKIP_TRACED	   3	/* traced already, by -p or a command */
#define KTR_CGROUP_SKIPS	   4
#define KTR_CGROUP_PATH_MAX	   256	/* a longer path is not followed */

/*
 * KTR_FD: a descriptor a process had when its trace began (ktraceb -p, -g,
 * a -G group's members), from the daemon, which read it in /proc/PID/fd,
 * fdinfo and net/: one record per descriptor, in the order of their
 * numbers, after the process's PROCCTOR and before any of its own
 * records.  Then kf_llen bytes of the socket's own address and kf_rlen of
 * its peer's (a struct sockaddr_in, sockaddr_in6 or sockaddr_un), then, for
 * PATH and ANON, the path or name, NUL-terminated.  ktr_len = 32 + kf_llen
 * + kf_rlen + the name.  After KTR_FD_MAX descriptors, one record of kind
 * LEFT says how many more there were (kf_ino), and none of them is written.
 */
struct ktr_fd {
	__s32 kf_fd;			/* the descriptor (-1 in LEFT) */
	__u16 kf_kind;			/* KTR_FD_* */
	__u16 kf_flags;			/* KTR_FD_F_* */
	__u64 kf_ino;			/* PIPE, SOCKET: the inode number; LEFT: the count */
	__u16 kf_family;		/* SOCKET: AF_INET, AF_INET6, AF_UNIX; 0 if not known */
	__u16 kf_type;			/* SOCKET: SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET */
	__u16 kf_llen;			/* bytes of the own address that follow, at most 128 */
	__u16 kf_rlen;			/* bytes of the peer's address after it, at most 128 */
	__u32 kf_pad[2];
};
#define KTR_FD_PATH		1	/* a file by its path (/proc/PID/fd's link) */
#define KTR_FD_PIPE		2	/* a pipe or FIFO without a path: pipe:[ino] */
#define KTR_FD_SOCKET		3	/* a socket: socket:[ino], its addresses if found */
#define KTR_FD_ANON		4	/* an anonymous inode, by its name: anon_inode:[eventfd] */
#define KTR_FD_LEFT		5	/* descriptors past KTR_FD_MAX, not written */
#define KTR_FD_F_CLOEXEC	0x1	/* close-on-exec (fdinfo's flags have O_CLOEXEC) */
#define KTR_FD_F_DELETED	0x2	/* PATH: the file was removed (" (deleted)") */
#define KTR_FD_MAX		1024	/* descriptors written per process */
#define KTR_FD_SA_MAX		128	/* bytes of one address */

/* ktrace(2) facility bits, as in BSD <sys/ktrace.h> */
#define KTRFAC_MASK		0x00ffffff
#define KTRFAC_SYSCALL		(1 << KTR_SYSCALL)
#define KTRFAC_SYSRET		(1 << KTR_SYSRET)
#define KTRFAC_NAMEI		(1 << KTR_NAMEI)
#define KTRFAC_GENIO		(1 << KTR_GENIO)
#define KTRFAC_PSIG		(1 << KTR_PSIG)
#define KTRFAC_CSW		(1 << KTR_CSW)
#define KTRFAC_USER		(1 << KTR_USER)
#define KTRFAC_STRUCT		(1 << KTR_STRUCT)
#define KTRFAC_ARGS		(1 << KTR_ARGS)
#define KTRFAC_ENVS		(1 << KTR_ENVS)
/* not 1 << KTR_TRACEPOINT: the facility bits stop at KTRFAC_MASK */
#define KTRFAC_TRACEPOINT	(1 << 22)
#define KTRFAC_USTACK		(1 << 23)	/* -k: KTR_USTACK with each selected call */
#define KTRFAC_ROOT		0x80000000
#define KTRFAC_INHERIT		0x40000000

/* 'c' brings STRUCT, ARGS and ENVS with it (FreeBSD has letters for them) */
#define KTR_DEF_POINTS	(KTRFAC_SYSCALL | KTRFAC_SYSRET | KTRFAC_STRUCT | KTRFAC_ARGS | \
			 KTRFAC_ENVS | KTRFAC_NAMEI | KTRFAC_GENIO | KTRFAC_PSIG | KTRFAC_USER)
#define KTR_ALL_POINTS	(KTR_DEF_POINTS | KTRFAC_CSW)
/* ktraceb's facilities beyond BSD's, each a row of src/common/trstr.c */
#define KTR_EXT_POINTS	(KTRFAC_TRACEPOINT | KTRFAC_USTACK)

#ifndef __VMLINUX_H__
_Static_assert(sizeof(struct ktr_header) == 64, "ktr_header is 64 bytes");
_Static_assert(__builtin_offsetof(struct ktr_header, ktr_flags) == 6, "ktr_flags at 6");
_Static_assert(__builtin_offsetof(struct ktr_header, ktr_pid) == 8, "ktr_pid at 8");
_Static_assert(__builtin_offsetof(struct ktr_header, ktr_tid) == 12, "ktr_tid at 12");
_Static_assert(__builtin_offsetof(struct ktr_header, ktr_comm) == 16, "ktr_comm at 16");
_Static_assert(__builtin_offsetof(struct ktr_header, ktr_time_sec) == 40, "ktr_time at 40");
_Static_assert(__builtin_offsetof(struct ktr_header, ktr_mono_ns) == 56, "mono ns at 56");
_Static_assert(sizeof(struct ktr_syscall) == 8, "ktr_syscall is 8 + 8n bytes");
_Static_assert(sizeof(struct ktr_sysret) == 16, "ktr_sysret is 16 bytes");
_Static_assert(sizeof(struct ktr_genio) == 8, "ktr_genio is 8 bytes");
_Static_assert(sizeof(struct ktr_psig) == 40, "ktr_psig is 40 bytes");
_Static_assert(__builtin_offsetof(struct ktr_psig, mask) == 20, "psig mask at 20");
_Static_assert(sizeof(struct ktr_csw) == 16, "ktr_csw is 16 bytes");
_Static_assert(sizeof(struct ktr_fileinfo) == 128, "ktr_fileinfo is 128 bytes");
_Static_assert(sizeof(struct ktr_fd) == 32, "ktr_fd is 32 bytes");
_Static_assert(sizeof(struct ktr_lost) == 16, "ktr_lost is 16 bytes");
_Static_assert(sizeof(struct ktr_flight_info) == 48, "ktr_flight_info is 48 bytes");
_Static_assert(sizeof(struct ktr_end) == 40, "ktr_end is 40 bytes");
_Static_assert(sizeof(struct ktr_user_rec) == 16, "ktr_user_rec is 16 bytes");
_Static_assert(sizeof(struct ktr_tracepoint) == 8, "ktr_tracepoint is 8 bytes");
_Static_assert(sizeof(struct ktr_tpformat) == 72, "ktr_tpformat is 72 bytes");
_Static_assert(sizeof(struct ktr_tpfield) == 88, "ktr_tpfield is 88 bytes");
_Static_assert(sizeof(struct ktr_filter) == 8, "ktr_filter is 8 bytes and a string");
_Static_assert(sizeof(struct ktr_ustack_frame) == 32, "a ktr_ustack frame is 32 bytes");
_Static_assert(sizeof(struct ktr_ustack) == 8, "ktr_ustack is 8 bytes and its frames");
_Static_assert(sizeof(struct ktr_object) == 24, "ktr_object is 24 bytes, loads and a path");
_Static_assert(sizeof(struct ktr_object_load) == 32, "a ktr_object load is 32 bytes");
_Static_assert(sizeof(struct ktr_cgroup) == 64, "ktr_cgroup is 64 bytes and a path");
_Static_assert(sizeof(struct ktr_uregs) == 32, "ktr_uregs is 32 bytes, registers and stack");
_Static_assert(sizeof(struct ktr_mapping) == 48, "ktr_mapping is 48 bytes");
#endif

#endif /* KTRACEB_KTR_H */
