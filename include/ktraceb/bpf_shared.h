/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Types shared by the BPF programs and the loader that never reach a trace
 * file: the ring-buffer sample prefix, the per-process tracing state and the
 * limits both sides agree on.  The on-disk records are in ktr.h.
 *
 * A ring sample is struct ktr_sample followed by one whole on-disk record
 * (struct ktr_header + ktr_len bytes).  The drainer writes the record bytes
 * as they are, after filling in ktr_time; the sample may be longer than the
 * record (fixed-size reservations), never shorter.
 */
#ifndef KTRACEB_BPF_SHARED_H
#define KTRACEB_BPF_SHARED_H

#include "ktraceb/ktr.h"

/*
 * Trace files one daemon can feed at once (route ids; 0 is never a file:
 * its loss counter is the sum of all, so the drainer reads one counter per
 * poll to know whether any file lost records).
 */
#define KTR_MAX_ROUTES	   16384
#define KTR_MAX_SYSCALLS   512 /* syscall numbers the tables cover */
#define KTR_MAX_PROCS	   32768 /* traced processes at once */
#define KTR_SCRATCH_SIZE   (1 << 18) /* largest variable record, sample prefix included */
#define KTR_IOSIZE_DEFAULT 4096 /* GENIO bytes kept per I/O by default */
#define KTR_IOSIZE_MAX	   65536 /* most GENIO bytes kept per I/O */
#define KTR_STRUCT_MAX	   8192 /* most bytes of one captured struct (array) */
#define KTR_IOV_MAX	   64 /* iovecs walked per readv/writev/msghdr */
/*
 * -k's copy of the top of the user stack per call (ktraceb -K, in KiB):
 * by default 8 KiB, as perf's --call-graph dwarf; at most 64 KiB.  Read in
 * pieces of KTR_USTACK_PIECE bytes, so a stack whose mapping ends sooner
 * still gives what it has.
 */
#define KTR_USTACK_KIB_DEFAULT 8
#define KTR_USTACK_KIB_MAX     64
#define KTR_USTACK_PIECE       4096
/*
 * What -k's copies of one trace may put into the ring buffer: a burst of
 * KTR_USTACK_BURST bytes, then KTR_USTACK_RATE bytes a second; a copy past
 * it is shed (the kernel's walk instead), as one that would fill the ring
 * past half.  The daemon then writes at most this much more a second for
 * a -k trace, whatever its loop does, and keeps draining the others.
 * ktr_ustack_budgets (.bss), by route: each trace's bucket.
 */
#define KTR_USTACK_RATE	 (64ull << 20)
#define KTR_USTACK_BURST (4ull << 20)
struct ktr_ustack_budget {
	__u64 ns; /* when it was last filled */
	__u64 bytes; /* what may be copied now */
};
#define KTR_ARGS_CHUNK	   KTR_STRINGS_CHUNK /* ARGS/ENVS bytes per record */
#define KTR_ARGS_CHUNKS	   16 /* so at most 2 MiB of argv and of envp */

/*
 * Kernel tracepoints (ktraceb -e, bpf/tp.bpf.c).  tp_wanted holds a
 * struct ktr_tp_key for every event a file wants; tp_events, per event id,
 * how many bytes of its entry to copy: tp_fixed, and the entry's
 * __data_loc data up to the furthest end its locators (at tp_loc[]) name,
 * within KTR_TP_MAX_BYTES.
 */
#define KTR_TP_MAX_WANTED 8192 /* (file, event) pairs at once */
#define KTR_TP_MAX_EVENTS 2048 /* events attached at once */
#define KTR_TP_MAXLOC	  6 /* __data_loc fields looked at per event */
struct ktr_tp_key {
	__u32 route;
	__u32 id;
};
struct ktr_tp_event {
	__u16 tp_fixed; /* the entry's fixed part, common fields included */
	__u16 tp_nloc;
	__u16 tp_loc[KTR_TP_MAXLOC]; /* offsets of its __data_loc locators */
	/*
	 * sched: and signal: events: the offset of the 4-byte pid of the task
	 * the event is about (its subject: next_pid, child_pid or pid), and
	 * of that task's 16-byte comm; 0 if none (ktr_tp.c).
	 */
	__u16 tp_subject;
	__u16 tp_subject_comm;
};

struct ktr_sample {
	__u32 route; /* which trace file: its index in the daemon's table (ktr_files.h) */
	__u32 reserved;
};

/*
 * A sample for the daemon itself rather than a file (route 0): a process
 * traced with 'u' exec'd, mapped a file executable (dlopen) or forked, so
 * its files must be scanned for USDT probes (ktr_usdt.c); a recorder froze
 * (KTR_NOTE_FLIGHT); a traced process ended (KTR_NOTE_EXIT).  struct ktr_sample, then
 * this; the ring wakes the daemon at once for it.
 */
#define KTR_ROUTE_DAEMON      0
#define KTR_NOTE_EXEC	      1
#define KTR_NOTE_MMAP	      2
#define KTR_NOTE_FORK	      3
#define KTR_NOTE_EXIT	      5 /* a traced process ended: its file may be done */
#define KTR_NOTE_ENTER	      6 /* a process entered a traced cgroup: its probes need a scan */
#define KTR_NOTE_CHILD_TRACED 0x1 /* FORK: the child inherited the tracing */
#define KTR_NOTE_HELD	      0x2 /* the process waits for SIGCONT (KTR_PS_HOLD) */
struct ktr_note {
	__u32 kind; /* KTR_NOTE_* */
	__u32 pid; /* the process (FORK: the parent) */
	__u32 child; /* FORK: the child */
	__u32 flags; /* KTR_NOTE_CHILD_TRACED, KTR_NOTE_HELD */
};

/*
 * usdt_quiet: files whose mapping needs no stop (KTR_PS_HOLD): no probe
 * guarded by a semaphore, and any other probe already attached.  The key
 * is the inode as the kernel names it (dev_t as MAJOR << 20 | MINOR).
 */
struct ktr_file_key {
	__u64 dev;
	__u64 ino;
};
#define KTR_MAX_QUIET_FILES 4096

/*
 * USDT: one probe site of one file, as the uprobe at that site finds it by
 * its BPF cookie (the site's id) in the usdt_sites map.  Arguments are
 * located as the site's stapsdt note says (x86_64 operand forms: a
 * register, a constant, or memory at a register plus an offset).
 */
#define KTR_UARG_CONST	   0
#define KTR_UARG_REG	   1 /* the value is in a register */
#define KTR_UARG_REG_DEREF 2 /* at register + val_off in user memory */
struct ktr_usdt_arg {
	__u64 val_off; /* the constant, or the offset from the register */
	__u16 reg_off; /* offsetof(struct pt_regs, register) */
	__u8 kind; /* KTR_UARG_* */
	__u8 size; /* 1, 2, 4 or 8 bytes */
	__u8 is_signed;
	__u8 pad[3];
};

#define KTR_USITE_UTRACE   4 /* ktraceb:utrace: the raw bytes (kinds 1-3: KTR_UREC_*) */
#define KTR_MAX_USDT_SITES 65536 /* probe sites attached at once */
struct ktr_usdt_site {
	__u8 kind; /* KTR_UREC_PROBE, _SPAN_ENTER, _SPAN_EXIT, KTR_USITE_UTRACE */
	__u8 nargs;
	__u8 pad[6];
	struct ktr_usdt_arg args[KTR_UREC_MAXARGS];
	char provider[KTR_UREC_NAME_MAX];
	char name[KTR_UREC_NAME_MAX];
};

/*
 * ktr_traced: one bit per tgid modulo KTR_TRACED_BITS, set before a
 * process enters the procs map (by the daemon, or by BPF at an inherited
 * fork) and cleared only when no trace is left.  Every program looks here
 * first: a process whose bit is clear is not traced, found with one load
 * instead of a hash lookup (the cost every process on the machine pays for
 * the syscall tracepoints while anything is traced).
 */
#define KTR_TRACED_BITS	 65536
#define KTR_TRACED_WORDS (KTR_TRACED_BITS / 64)
#define KTR_TRACED_WORD(tgid) (((tgid) / 64) % KTR_TRACED_WORDS)
#define KTR_TRACED_BIT(tgid)  (1ull << ((tgid) % 64))

/*
 * ktr_wakeup_ticks (.bss): each CPU's count of records put into the ring
 * buffer, so that it asks whether to wake the drainer only at every
 * KTR_WAKEUP_EVERY-th (ktraceb.bpf.h, rec__wakeup_flag).
 */
#define KTR_WAKEUP_EVERY 64
#define KTR_WAKEUP_CPUS	 256 /* counters; CPUs beyond share them */
struct ktr_wakeup_tick {
	__u32 n;
	__u32 pad[15]; /* a cache line each: no CPU writes another's */
};

/*
 * The stage (stages map, one element per possible CPU): the records a CPU
 * makes gathered in place, then copied into the ring buffer together as
 * one sample whose route is KTR_ROUTE_BATCH: a reservation and a commit of
 * the ring cost a traced syscall more than building its two records.  The
 * batch sample's reserved field is the bytes that follow it: records, each
 * a struct ktr_sample (route; reserved: its stride, a multiple of 8), its
 * header and payload.  A stage holds one file's records at a time.
 *
 * What keeps a thread's records in order: a thread leaves its CPU only
 * through a context switch, and the switch program (csw.bpf.c) sends that
 * CPU's stage on first, while the thread is still current; a record that
 * bypasses the stage (too long, a recorder's, a note to the daemon) sends
 * the stage on first too.  Staging is on only while the switch program is
 * attached (ktr_stage_on, .bss).  The daemon sends on what a CPU busy in
 * user space has kept at each tick, by running ktr_stage_flush there
 * (BPF_PROG_TEST_RUN on that CPU).
 *
 * A syscall whose return brings no record but the RET (no path, data or
 * structure) keeps its CALL in call at entry, no record made: at its
 * return it becomes a CALL record with its entry time right before the
 * RET, both into the stage.  A call that blocks has its CALL made at the
 * switch that takes its thread off the CPU, so a hung call is in the file
 * as in BSD.  busy is set while a program changes the stage: a program
 * that interrupts it there (a kernel event in an interrupt, the daemon's
 * flush) leaves the stage alone and goes to the ring directly.
 */
/*
 * ktr_between64 (.rodata, by native syscall number, the loader's): the
 * facilities whose records come between a call's CALL and its RET
 * (KTRFAC_NAMEI, _STRUCT, _GENIO), and KTR_CALL_AT_ENTRY for a call whose
 * CALL is made at its entry whatever the trace: one that does not return
 * (exit), makes a new image (execve) or a child (clone), returns through
 * another path (rt_sigreturn) or renames its thread (prctl), and any
 * number the tables do not know.  A call of a trace with none of them
 * keeps its CALL in the stage until its return.  mmap has KTRFAC_USER and
 * KTRFAC_USTACK: its return may have the daemon scan the file it mapped
 * (a note, and a stop), which only the return's full path makes.
 */
#define KTR_CALL_AT_ENTRY 0x20000000
/*
 * A kept CALL and its RET as one staged record (syscall.bpf.c,
 * syscall__pair_out): the CALL's header with ktr_type KTR_STAGED_PAIR and
 * ktr_len its payload's, that payload (struct ktr_syscall and its
 * arguments), then struct ktr_pair_ret.  The drain writes the two records
 * BSD has: the CALL, and the RET with the CALL's header, its own type,
 * length and time.  A stage counts it as two records (nrec).  Never in a
 * file.
 */
#define KTR_STAGED_PAIR	 0x7e01
struct ktr_pair_ret {
	__u64 mono_ns; /* the return's */
	struct ktr_sysret r;
};
#define KTR_STAGE_BYTES	 4096 /* gathered before one copy into the ring */
#define KTR_STAGE_SLACK	 512 /* the longest staged record, or a CALL and its RET */
#define KTR_ROUTE_BATCH	 0xffffffffu
struct ktr_stage_call {
	__u32 tid; /* the thread in that syscall, 0 for none */
	__u32 route;
	__u64 mono_ns; /* when it entered */
	__s16 code;
	__s16 narg;
	__u32 facs; /* the trace's facilities at entry: its return needs no other look */
	__u64 args[KTR_MAXARGS];
};
struct ktr_stage {
	__u32 busy;
	__u32 nrec; /* records in buf */
	__u32 route; /* their file */
	__u32 len; /* their bytes */
	struct ktr_stage_call call;
	__u64 pad2[3];
	struct ktr_sample head; /* route KTR_ROUTE_BATCH, reserved: len */
	unsigned char buf[KTR_STAGE_BYTES + KTR_STAGE_SLACK];
};

/* procs map: tgid -> tracing state of one process (BSD p_traceflag + node) */
struct ktr_proc_state {
	__u32 facs; /* KTRFAC_* including INHERIT and ROOT */
	__u32 route;
	__u32 flags; /* KTR_PS_* */
	__u32 sv_flags; /* ABI, as in KTR_PROCCTOR */
	__u32 iosize; /* GENIO bytes kept per I/O */
	__u16 select; /* its trace's syscall selection (selects), 0 for every call */
	__u16 group; /* KTR_PS_GROUP: its group's slot (groups) */
	__u16 ustack_kib; /* -k: KiB of user stack copied per call (-K); 0: frame pointers only */
	__u16 pad;
};
#define KTR_PS_AWAIT_EXEC 0x1 /* ignore everything before the first execve */
/*
 * Set by the daemon between a non-root caller's permission check and its
 * second check (ktr_policy.c): nothing is recorded, but a set-id exec
 * already ends the tracing, so no exec can slip between check and start.
 */
#define KTR_PS_PENDING	  0x2
#define KTR_PS_QUIET	  (KTR_PS_AWAIT_EXEC | KTR_PS_PENDING)
/*
 * ktraceb's own command (traced with 'u'), whose parent is ktraceb and no
 * shell: stopped (SIGSTOP) at its execs and executable mappings of files
 * not known to be quiet, until the daemon has armed their USDT probes and
 * continues it, so no probe fires unseen.  Not inherited.
 */
#define KTR_PS_HOLD	  0x4
#define KTR_PS_HELD	  0x8 /* stopped for that now: its SIGSTOP is no PSIG */
/*
 * Traced because it is in a traced cgroup (ktraceb -G), the one whose slot
 * is in group: it stays traced while it is in that group or below it, and
 * its tracing ends when it moves out (cgroup.bpf.c).
 */
#define KTR_PS_GROUP	  0x10

/*
 * ktr_proc_copies (.bss): the syscall programs' copies of procs entries,
 * one 64-byte line per tgid modulo KTR_PROC_COPIES, read with plain loads
 * where a hash lookup is a call (the most a traced syscall pays, twice).
 * A copy is good while its gen is ktr_procs_gen: whoever changes the procs
 * map (the daemon, or a BPF program) bumps ktr_procs_gen after the change,
 * and every copy is stale.  seq is odd while a copy is written, 0 before
 * the first.  Entries a program changes in place (QUIET, HELD) are never
 * copied; a HOLD one is, and what may set its HELD takes the entry itself
 * (syscall__note_mmap, proc.bpf.c at exec).
 */
#define KTR_PROC_COPIES 4096
struct ktr_proc_copy {
	__u64 seq;
	__u64 gen;
	__u32 tgid;
	__u32 pad;
	struct ktr_proc_state ps;
	__u64 pad2[2];
};

/*
 * GENIO: what a syscall's data transfer looks like, per syscall number
 * (the loader fills the table by syscall name).
 */
#define KTR_GIO_NONE	  0
#define KTR_GIO_READ_BUF  1 /* fd, buf, count: read, pread64, recvfrom */
#define KTR_GIO_WRITE_BUF 2 /* write, pwrite64, sendto */
#define KTR_GIO_READ_IOV  3 /* fd, iov, iovcnt: readv, preadv, preadv2 */
#define KTR_GIO_WRITE_IOV 4 /* writev, pwritev, pwritev2 */
#define KTR_GIO_READ_MSG  5 /* fd, msghdr: recvmsg */
#define KTR_GIO_WRITE_MSG 6 /* sendmsg */

/*
 * KTR_STRUCT captures: up to KTR_CAPTURES structures a syscall reads or
 * fills, per syscall number.  Input structs are read at entry, output
 * structs at a successful return.
 */
#define KTR_CAPTURES	  2
#define KTR_CAP_NONE	  0
#define KTR_CAP_FIXED	  1 /* size bytes at args[arg] */
#define KTR_CAP_LEN_ARG	  2 /* args[lenarg] bytes (capped at size): bind, connect */
#define KTR_CAP_LEN_PTR	  3 /* *(u32 *)args[lenarg] bytes (capped): accept, recvfrom */
#define KTR_CAP_COUNT_ARG 4 /* args[lenarg] elements of size: poll */
#define KTR_CAP_COUNT_RET 5 /* return value elements of size: epoll_wait */
#define KTR_CAP_BYTES_RET 6 /* return value bytes (capped): getdents64 */
#define KTR_CAP_AT_ENTRY  0x1
#define KTR_CAP_AT_EXIT	  0x2
#define KTR_CAP_NAME_MAX  16

struct ktr_capture {
	__u8 kind; /* KTR_CAP_* */
	__u8 arg; /* which argument points at the struct */
	__u8 lenarg; /* which argument gives its length or count */
	__u8 when; /* KTR_CAP_AT_ENTRY and/or KTR_CAP_AT_EXIT */
	__u16 size; /* struct size, or the cap for variable lengths */
	__u8 namelen; /* strlen(name) + 1 */
	__u8 pad;
	char name[KTR_CAP_NAME_MAX]; /* KTR_STRUCT name, NUL-padded */
};

/*
 * A flight recorder's ring (ktraceb -R) lives in two BPF arrays the daemon
 * creates per recording (BPF_F_MMAPABLE, so it reads them in place, and
 * pinned in bpffs, so they outlive the daemon), put into the flights and
 * flight_ctls maps at the recording's route.  The programs write its
 * records there instead of into the ring buffer: no daemon wake-up, no
 * copy, no file I/O per record.  Their elements are 64-byte slots, one
 * index space over both:
 *   [0]                          struct ktr_flight_ctl         control map
 *   [1, 1 + ncpu)                struct ktr_flight_head, one per CPU
 *   [1 + ncpu, base)             struct ktr_flight_meta (the daemon's only)
 *   [base + c * per_cpu, +per_cpu)  CPU c's records, oldest   ring
 *                                   overwritten
 * The control map has KTR_FLIGHT_CTL_SLOTS slots whatever the machine, so
 * its lookups are inlined; the ring's first base slots are not used.
 * A record takes consecutive slots of its CPU's region (modulo per_cpu),
 * each slot carrying the position it was written for, so a reader tells
 * an overwritten or half-written slot from a good one.  Each CPU writes
 * only its own region and head: no lock, no shared cache line, no wait.
 */
#define KTR_FLIGHT_SLOT		 64
#define KTR_FLIGHT_SLOT_DATA	 (KTR_FLIGHT_SLOT - 8)
#define KTR_FLIGHT_MAX_SLOTS	 148 /* a record of up to 8,288 bytes; longer ones are cut */
#define KTR_FLIGHT_COMPACT_ENTRY 0x8000 /* slot idx: a compact entry (struct ktr_flight_compact) */
#define KTR_FLIGHT_MAX_CPUS	 256 /* KTRH_CPUID holds 8 bits */
#define KTR_FLIGHT_META_SLOTS	 72 /* room for struct ktr_flight_meta (ktr_flight.h) */
#define KTR_FLIGHT_CTL_SLOTS	 (1 + KTR_FLIGHT_MAX_CPUS + KTR_FLIGHT_META_SLOTS)

struct ktr_flight_slot {
	__u32 pos; /* the low 32 bits of the position it holds, ~0 while written */
	__u16 idx; /* which slot of its record, or KTR_FLIGHT_COMPACT_ENTRY */
	__u16 nslots; /* how many its record takes */
	unsigned char data[KTR_FLIGHT_SLOT_DATA];
};

#define KTR_FLIGHT_LIVE	  1
#define KTR_FLIGHT_FROZEN 2
#define KTR_FLIGHT_F_COMPACT 0x1 /* -R size,compact */
#define KTR_FLIGHT_F_ON_EXIT 0x2 /* -R size,exit: a non-zero exit triggers too */
struct ktr_flight_ctl {
	__u32 state; /* KTR_FLIGHT_LIVE, _FROZEN; 0 while the daemon sets it up */
	__u32 why; /* KTR_FLIGHT_CRASH, _EXIT (ktr.h) */
	__s32 pid;
	__s32 status;
	__u32 flags; /* KTR_FLIGHT_F_* */
	__u32 per_cpu; /* slots in each CPU's region */
	__u32 base; /* the first region's first slot */
	__u32 ncpu; /* regions (possible CPUs) */
	__u64 claim; /* the first trigger takes it (0 -> 1), then fills why..status */
	__u64 frozen_ns;
	/*
	 * When the daemon last made it live: kernels before 5.12 have no
	 * compare-and-exchange for the claim, and their programs claim by
	 * adding (route, armed_ns) to a hash (flight.bpf.c).
	 */
	__u64 armed_ns;
};

struct ktr_flight_head {
	__u64 head; /* the next position of this CPU's region */
	__u64 records; /* records written into it, ever */
	__u64 kept_out; /* records a freeze kept out */
	__u64 floor; /* positions below are from before the last dump's reset */
	__u64 crash; /* head + 1 when the crash began (the first fatal signal) */
	/*
	 * Where a lap of this CPU's region began (a multiple of per_cpu),
	 * kept by the writers so that a position's slot is found without a
	 * 64-bit division; a hint only, never trusted past one lap.
	 */
	__u64 lap;
	/*
	 * Set while a program writes into the region, by the programs for
	 * kernels before 5.12 (bpf/old_kernel.bpf.h), whose heads move without
	 * an atomic fetch: another program on the same CPU keeps out.
	 */
	__u64 busy;
	__u64 pad;
};

/* A compact entry: a RET, PSIG or EXIT in one slot (-R size,compact). */
struct ktr_flight_compact {
	__u64 mono;
	__s32 pid, tid;
	__s64 value; /* RET: retval; PSIG: handler; EXIT: status */
	char comm[KTR_MAXCOMLEN];
	__s16 code; /* RET: syscall; PSIG: signal */
	__s16 error; /* RET: errno; PSIG: si_code */
	__u8 type;
	__u8 cpu;
	__u16 flags; /* RET: its header's KTRH_ABI_* */
};

/*
 * The records a compact entry holds, and where their fields go, for both
 * sides: flight.bpf.c packs a record into an entry, ktr_flight_walk.c makes
 * the entry a record again (flight_ring.bpf.h writes a syscall's RET into
 * an entry straight, as a packed KTR_SYSRET would be).  A new type takes a
 * branch in each function below and a test in KTR_FLIGHT_COMPACT_KEEPS.
 */
#define KTR_FLIGHT_COMPACT_KEEPS(type) \
	((type) == KTR_SYSRET || (type) == KTR_PSIG || (type) == KTR_EXIT)

/* The record h (its payload right after it) into c; 0 for a type c does not hold. */
static inline __attribute__((always_inline)) int
ktr_flight_compact__pack(struct ktr_flight_compact *c, const struct ktr_header *h)
{
	const void *p = h + 1;

	if (h->ktr_type == KTR_SYSRET) {
		const struct ktr_sysret *r = (const struct ktr_sysret *)p;

		c->code = r->ktr_code;
		c->error = r->ktr_error;
		c->value = r->ktr_retval;
	} else if (h->ktr_type == KTR_PSIG) {
		const struct ktr_psig *g = (const struct ktr_psig *)p;

		c->code = g->signo;
		c->error = g->code;
		c->value = g->action;
	} else if (h->ktr_type == KTR_EXIT) {
		const struct ktr_exit *e = (const struct ktr_exit *)p;

		c->code = 0;
		c->error = 0;
		c->value = e->status;
	} else {
		return 0;
	}
	c->mono = h->ktr_mono_ns;
	c->pid = h->ktr_pid;
	c->tid = h->ktr_tid;
	__builtin_memcpy(c->comm, h->ktr_comm, sizeof(c->comm));
	c->type = h->ktr_type;
	c->cpu = KTRH_CPUID_DECODE(h->ktr_flags);
	c->flags = h->ktr_flags & (KTRH_ABI_NATIVE | KTRH_ABI_COMPAT);
	return 1;
}

/*
 * c's payload into p (room for a struct ktr_psig, the largest): its
 * length.  Any type but KTR_SYSRET and KTR_PSIG is a KTR_EXIT.
 */
static inline __attribute__((always_inline)) unsigned int
ktr_flight_compact__unpack(const struct ktr_flight_compact *c, void *p)
{
	if (c->type == KTR_SYSRET) {
		struct ktr_sysret r = { .ktr_code = c->code,
					.ktr_error = c->error,
					.ktr_retval = c->value };

		__builtin_memcpy(p, &r, sizeof(r));
		return sizeof(r);
	} else if (c->type == KTR_PSIG) {
		struct ktr_psig s = { .signo = c->code, .code = c->error, .action = c->value };

		__builtin_memcpy(p, &s, sizeof(s));
		return sizeof(s);
	} else {
		struct ktr_exit e = { .status = (__s32)c->value };

		__builtin_memcpy(p, &e, sizeof(e));
		return sizeof(e);
	}
}

/* The ktr_flags of c's record: its CPU, and a RET's ABI. */
static inline __attribute__((always_inline)) __u16
ktr_flight_compact__hflags(const struct ktr_flight_compact *c)
{
	return KTRH_CPUID_ENCODE(c->cpu) |
	       (c->type == KTR_SYSRET ? c->flags & (KTRH_ABI_NATIVE | KTRH_ABI_COMPAT) : 0);
}

/* A recorder froze (route: the recording's): the daemon writes it. */
#define KTR_NOTE_FLIGHT 4

/*
 * Syscall selection (ktraceb -e trace=, -e status=; src/common/ktr_select.h):
 * a trace with one has a slot in the selects array (its processes' state
 * names it, 0 for none), which the syscall programs look up inline: a
 * call not selected costs that look and a bit test, and makes no record.
 * With a status filter, a call's CALL is written at its return, when the
 * return is known to pass, right before its NAMI, STRU, GIO and RET.
 */
#define KTR_SELECT_WORDS	(KTR_MAX_SYSCALLS / 64)
#define KTR_MAX_SELECTS		256	/* traces with a selection at once (slot 0: none) */
#define KTR_SELECT_SUCCESSFUL	0x1
#define KTR_SELECT_FAILED	0x2
struct ktr_select_map {
	__u64 native[KTR_SELECT_WORDS];	/* bit nr: syscall nr selected */
	__u64 compat[KTR_SELECT_WORDS];	/* the same for 32-bit (compat) syscalls */
	__u32 status;			/* KTR_SELECT_* wanted, 0 for any */
	__u32 pad;
};

/*
 * Traced cgroups (ktraceb -G; bpf/cgroup.bpf.c, the daemon's ktr_groups.h).
 * A traced group has a slot in the groups array (1 .. KTR_MAX_GROUPS - 1):
 * the procs entry its processes get (KTR_PS_GROUP, its slot in group),
 * whose processes a user's group may take, and how many it left out.
 * group_ids names a traced group's slot by its cgroup id; a process is a
 * member when its cgroup or an ancestor has one, looked up at the levels
 * (depths below the root) whose bit ktr_group_levels (.bss) has set: 0
 * while no group is traced, and every program passes by.  group_paths
 * names the slot by the group's path too, so that the group removed and
 * made again (systemctl restart) is traced again from its mkdir.
 * Membership is decided by a process's main thread, where the kernel moves
 * it: at fork, at a move (cgroup_attach_task) and at mkdir.
 */
#define KTR_MAX_GROUPS	    256
#define KTR_MAX_GROUP_IDS   4096 /* traced cgroups, made again ones included */
#define KTR_GROUP_LEVELS    32 /* a traced group is at most this deep below the root */
struct ktr_group {
	struct ktr_proc_state ps; /* what its processes get */
	__u32 uid; /* a user's group (no KTRFAC_ROOT in ps.facs): only his processes */
	__u32 gid;
	__u32 live; /* set last by the daemon, cleared first */
	__u32 level; /* its depth below the root */
	__u64 skipped[KTR_CGROUP_SKIPS]; /* processes left out by BPF, by why */
	char path[KTR_CGROUP_PATH_MAX]; /* below the cgroup2 root, "/system.slice/x.service" */
};
struct ktr_group_path {
	char path[KTR_CGROUP_PATH_MAX]; /* NUL-padded */
};

/*
 * Fault injection for the tests (tests/e2e/t_kernel.sh): the loader sets
 * ktr_refuse_prog (.rodata) from KTRACEB_REFUSE_PROG=NAME, and the program
 * so named reads past its stack, which every verifier refuses in its own
 * words; what a kernel refusing that program looks like to a user is then
 * tested on any kernel.  Unset (0), the verifier drops the check as dead
 * code: it costs nothing.
 */
#define KTR_REFUSE_CSW		1	/* ktr_csw_switch */
#define KTR_REFUSE_TP		2	/* ktr_tp_record */
#define KTR_REFUSE_USDT		3	/* ktr_usdt_record */
#define KTR_REFUSE_SYS_ENTER	4	/* ktr_syscall_enter */
/*
 * stage_send: no program refused, but neither the daemon's flush nor a
 * context switch sends a stage on (ktr_stage_flush says it is held), as
 * when a virtual CPU stops in the middle of a program: what a file whose
 * records a stage keeps at its end looks like (t_stage.sh).
 */
#define KTR_REFUSE_STAGE_SEND	5

/*
 * What the kernel lacks of what the programs would use (ktr_kernel_lacks,
 * in .rodata, set by the loader: ktr_kernel_caps.c): each has a way
 * without, and the verifier drops the way not taken.  The first kernel
 * that has each is in ktr_kernel_caps.c.
 */
#define KTR_LACKS_ATTACH_COOKIE	0x1	/* bpf_get_attach_cookie(): stubs name the event (tp.bpf.c) */
#define KTR_LACKS_TASK_PT_REGS	0x2	/* bpf_task_pt_regs(): found from the stack (csw.bpf.c) */
#define KTR_LACKS_SWITCH_STATE	0x4	/* sched_switch's prev_state: read from the task */

#endif /* KTRACEB_BPF_SHARED_H */
