/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What every ktraceb BPF program shares: the maps (defined once in
 * maps.bpf.c, extern here; the libbpf linker resolves them), the
 * configuration the loader writes into .rodata before load, and the inline
 * helpers that build on-disk records in the ring buffer.
 *
 * Every program starts with proc__lookup(): a process that is not traced
 * costs one load of its bit in ktr_traced and nothing else; the syscall
 * programs read a traced one's state from a copy (proc__lookup_syscall).
 */
#ifndef KTRACEB_BPF_H
#define KTRACEB_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "ktraceb/bpf_shared.h"

/*
 * Map shapes, spelled once: maps.bpf.c defines them, the other objects
 * declare them extern, and the libbpf linker requires both to match exactly.
 */
#define KTR_MAP_RB                                                                        \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_RINGBUF);                                       \
		__uint(max_entries, 1 << 24);                                             \
	}
#define KTR_MAP_PROCS                                                                     \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_HASH);                                          \
		__uint(max_entries, KTR_MAX_PROCS);                                       \
		__type(key, __u32);                                                       \
		__type(value, struct ktr_proc_state);                                     \
	}
#define KTR_MAP_LOST                                                                      \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY);                                         \
		__uint(max_entries, KTR_MAX_ROUTES);                                      \
		__type(key, __u32);                                                       \
		__type(value, __u64);                                                     \
	}
#define KTR_MAP_QUIET                                                                     \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_LRU_HASH);                                      \
		__uint(max_entries, KTR_MAX_QUIET_FILES);                                 \
		__type(key, struct ktr_file_key);                                         \
		__type(value, __u8);                                                      \
	}
#define KTR_MAP_SCRATCH                                                                   \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY);                                         \
		__uint(max_entries, 1);                                                   \
		__type(key, __u32);                                                       \
		__type(value, struct ktr_scratch);                                        \
	}

/* One CPU's room for a record whose size is known only at run time. */
struct ktr_scratch {
	char bytes[KTR_SCRATCH_SIZE];
};

/*
 * The signals whose default action dumps core (signal(7)): SIGQUIT 3,
 * SIGILL 4, SIGTRAP 5, SIGABRT 6, SIGBUS 7, SIGFPE 8, SIGSEGV 11, SIGXCPU
 * 24, SIGXFSZ 25, SIGSYS 31 (the same on x86_64 and arm64).
 */
#define FLIGHT_CORE_SIGNALS                                                                 \
	((1ull << 3) | (1ull << 4) | (1ull << 5) | (1ull << 6) | (1ull << 7) | (1ull << 8) |  \
	 (1ull << 11) | (1ull << 24) | (1ull << 25) | (1ull << 31))

static __always_inline bool flight__dumps_core(int sig)
{
	return sig > 0 && sig < 64 && ((FLIGHT_CORE_SIGNALS >> sig) & 1);
}

#ifndef KTR_DEFINE_MAPS
extern KTR_MAP_RB rb SEC(".maps");
extern KTR_MAP_PROCS procs SEC(".maps");
extern KTR_MAP_LOST lost SEC(".maps");
extern KTR_MAP_SCRATCH scratch SEC(".maps");
extern KTR_MAP_QUIET usdt_quiet SEC(".maps");

/* Set by the loader between open and load (maps.bpf.c). */
extern const volatile __u8 ktr_nargs64[KTR_MAX_SYSCALLS];
extern const volatile __u8 ktr_pathmask64[KTR_MAX_SYSCALLS];
extern const volatile __u8 ktr_nargs32[KTR_MAX_SYSCALLS];
extern const volatile __u8 ktr_pathmask32[KTR_MAX_SYSCALLS];
extern const volatile __u64 ktr_wakeup_bytes;
extern const volatile __u32 ktr_ncpus;
extern const volatile __u8 ktr_genio64[KTR_MAX_SYSCALLS];
extern const volatile struct ktr_capture ktr_captures64[KTR_MAX_SYSCALLS][KTR_CAPTURES];
extern const volatile __u8 ktr_capwhen64[KTR_MAX_SYSCALLS];
extern const volatile __u32 ktr_refuse_prog;

/* The tests' fault injection (bpf_shared.h, KTR_REFUSE_*): dead code unless asked. */
static __always_inline void prog__refuse_for_tests(__u32 which)
{
	if (ktr_refuse_prog == which)
		asm volatile("r0 = *(u64 *)(r10 + 8)" ::: "r0");
}

extern __u64 ktr_traced[KTR_TRACED_WORDS];
extern struct ktr_proc_copy ktr_proc_copies[KTR_PROC_COPIES];
extern __u64 ktr_procs_gen;

/*
 * A syscall number already checked to be in the loader's tables (0 <= id <
 * KTR_MAX_SYSCALLS), as an index into them: masked again in the register
 * the index is used from.  Linux 6.1's verifier does not carry a bound
 * checked on one load of a spilled value over to another load of it, and
 * clang reloads at will; the asm keeps clang from dropping the mask as
 * redundant after the check.
 */
static __always_inline __u32 sys__index(long id)
{
	__u64 i = id;

	asm volatile("%0 &= %1" : "+r"(i) : "i"(KTR_MAX_SYSCALLS - 1));
	return i;
}

/* The tracing state of process tgid, NULL if it is not traced. */
static __always_inline struct ktr_proc_state *proc__lookup_tgid(__u32 tgid)
{
	/* most processes are not traced: one load says so (bpf_shared.h) */
	if (!(ktr_traced[KTR_TRACED_WORD(tgid)] & KTR_TRACED_BIT(tgid)))
		return NULL;
	return bpf_map_lookup_elem(&procs, &tgid);
}

/* A process about to enter the procs map: its bit first. */
static __always_inline void proc__mark_traced(__u32 tgid)
{
	__sync_fetch_and_or(&ktr_traced[KTR_TRACED_WORD(tgid)], KTR_TRACED_BIT(tgid));
}

/* The tracing state of the current process, NULL if it is not traced. */
static __always_inline struct ktr_proc_state *proc__lookup(void)
{
	/* a plain load: bpf_get_current_pid_tgid() costs a namespace walk */
	return proc__lookup_tgid(bpf_get_current_task_btf()->tgid);
}

/*
 * A procs entry changed (bpf_shared.h): every copy is stale.  After the
 * change, so that a copy taken before it cannot pass for a new one.
 */
static __always_inline void proc__changed(void)
{
	__sync_fetch_and_add(&ktr_procs_gen, 1);
}

/*
 * A copy's seq, read in order with the loads around it: a plain load is
 * enough on x86 (loads are not reordered with loads), an atomic is the
 * barrier elsewhere.
 */
static __always_inline __u64 proc__copy_seq(struct ktr_proc_copy *cp)
{
#if defined(__TARGET_ARCH_x86)
	__u64 seq;

	barrier();
	seq = *(volatile __u64 *)&cp->seq;
	barrier();
	return seq;
#else
	return __sync_fetch_and_add(&cp->seq, 0);
#endif
}

/*
 * The tracing state of task's process for the syscall programs: its copy
 * (bpf_shared.h) when it is good, read into *copy, else the procs entry,
 * copied for the next time.  NULL if it is not traced.  The copy is only
 * read: a caller that changes the state gets the entry (QUIET, HOLD).
 */
static __always_inline struct ktr_proc_state *proc__lookup_syscall(struct task_struct *task,
								  struct ktr_proc_state *copy)
{
	__u32 tgid = task->tgid;
	struct ktr_proc_copy *cp = &ktr_proc_copies[tgid % KTR_PROC_COPIES];
	struct ktr_proc_state *ps;
	__u64 gen, seq;

	if (!(ktr_traced[KTR_TRACED_WORD(tgid)] & KTR_TRACED_BIT(tgid)))
		return NULL;
	gen = *(volatile __u64 *)&ktr_procs_gen;
	seq = proc__copy_seq(cp);
	if (seq && !(seq & 1) && cp->tgid == tgid && cp->gen == gen) {
		*copy = cp->ps;
		if (proc__copy_seq(cp) == seq)
			return copy;
	}
	ps = bpf_map_lookup_elem(&procs, &tgid);
	if (!ps || (ps->flags & (KTR_PS_QUIET | KTR_PS_HOLD | KTR_PS_HELD)))
		return ps;
	/* one writer at a time: seq odd is taken; a writer that loses skips */
	if ((seq & 1) || __sync_val_compare_and_swap(&cp->seq, seq, seq + 1) != seq)
		return ps;
	cp->gen = gen;
	cp->tgid = tgid;
	cp->ps = *ps;
	barrier();
	seq = __sync_fetch_and_add(&cp->seq, 1); /* a fetch: a barrier on every arch */
	barrier_var(seq);
	return ps;
}

/*
 * One array for every file, shared by all CPUs: losses happen only when the
 * ring is full, so the atomic adds cost nothing on the normal path.  Slot 0
 * counts every loss, so the drainer looks further only when it moved.
 */
int rec__count_lost(__u32 route); /* maps.bpf.c: one function, not inlined in every path */
__u32 rec__flags(__u32 tid);	   /* maps.bpf.c: ktr_flags of a record about thread tid */

/*
 * Wake the drainer only when a quarter of the ring is waiting: a wakeup per
 * record would cost more than the record.  The drainer also polls on a
 * timer, so nothing waits longer than its poll interval.  Each CPU asks
 * the ring only at every KTR_WAKEUP_EVERY-th record: the query reads the
 * consumer's position, a cache line the drainer writes on another CPU,
 * and asking at each record cost a traced syscall more than anything but
 * the clock.  A few records more waiting change nothing at a quarter of
 * the ring.
 */
extern struct ktr_wakeup_tick ktr_wakeup_ticks[KTR_WAKEUP_CPUS];

static __always_inline __u64 rec__wakeup_flag(void)
{
	__u32 cpu = bpf_get_smp_processor_id() & (KTR_WAKEUP_CPUS - 1);

	if (++ktr_wakeup_ticks[cpu].n % KTR_WAKEUP_EVERY)
		return BPF_RB_NO_WAKEUP;
	return bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= ktr_wakeup_bytes ?
		       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * Fill every header byte: ring memory is not zeroed.  task is a trusted BTF
 * pointer, so its comm is read with plain (CO-RE relocated) loads rather
 * than bpf_probe_read_kernel() calls: this runs twice per syscall.
 */
static __always_inline void rec__header(struct ktr_header *h, int type, int len, __u32 pid,
					__u32 tid, struct task_struct *task)
{
	const __u64 *comm = (const __u64 *)task->comm;

	h->ktr_len = len;
	h->ktr_type = type;
	h->ktr_flags = rec__flags(tid);
	h->ktr_pid = pid;
	h->ktr_tid = tid;
	/* comm is 16 bytes, NUL-terminated by the kernel; byte 16 and the pad are ours */
	((__u64 *)h->ktr_comm)[0] = comm[0];
	((__u64 *)h->ktr_comm)[1] = comm[1];
	h->ktr_comm[16] = 0;
	__builtin_memset(h->ktr_pad, 0, sizeof(h->ktr_pad));
	h->ktr_time_sec = 0;
	h->ktr_time_usec = 0;
	h->ktr_mono_ns = bpf_ktime_get_ns();
}

/* Header for a record about the current thread. */
static __always_inline void rec__header_current(struct ktr_header *h, int type, int len)
{
	struct task_struct *task = bpf_get_current_task_btf();

	rec__header(h, type, len, task->tgid, task->pid, task);
}

/*
 * The one way a fixed-size record enters the ring: reserve room for a
 * struct { struct ktr_sample s; struct ktr_header h; payload } of size
 * bytes, fill the sample (the file it goes to) and the header, and return it
 * for the caller to fill the payload and rec__submit(); when the ring is
 * full, count the record lost for its file and return NULL.
 */
static __always_inline void *rec__reserve(__u64 size, __u32 route, int type, int len, __u32 pid,
					  __u32 tid, struct task_struct *task)
{
	struct ktr_sample *s = bpf_ringbuf_reserve(&rb, size, 0);

	if (!s) {
		rec__count_lost(route);
		return NULL;
	}
	s->route = route;
	s->reserved = 0;
	rec__header((struct ktr_header *)(s + 1), type, len, pid, tid, task);
	return s;
}

/* rec__reserve() for a record about the current thread. */
static __always_inline void *rec__reserve_current(__u64 size, __u32 route, int type, int len)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return rec__reserve(size, route, type, len, task->tgid, task->pid, task);
}

static __always_inline void rec__submit(void *rec)
{
	bpf_ringbuf_submit(rec, rec__wakeup_flag());
}

/* The per-CPU scratch area for records whose size is known only at run time. */
static __always_inline struct ktr_sample *rec__scratch(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&scratch, &cpu);
}

/*
 * Recorders (ktraceb -R; maps.bpf.c): a route with a ring in the flights
 * map records there, never into the ring buffer.  flight__send() takes the
 * scratch area holding a struct ktr_sample (the route) and the record.
 */
int flight__active(__u32 route);
int flight__send(struct ktr_scratch *sc);
int flight__crash_begins(__u32 route);
int flight__exit(__u32 route, __s32 pid, __s32 status);

/*
 * rec__reserve() for a recorder's route: the record is built in the
 * scratch area, and rec__flight_submit() puts it into the ring.  Callers
 * take this path or the ring buffer's by flight__active(route).
 */
static __always_inline void *rec__flight_reserve(__u32 route, int type, int len, __u32 pid,
						 __u32 tid, struct task_struct *task)
{
	struct ktr_sample *s = rec__scratch();

	if (!s)
		return NULL;
	s->route = route;
	s->reserved = 0;
	rec__header((struct ktr_header *)(s + 1), type, len, pid, tid, task);
	return s;
}

static __always_inline void *rec__flight_reserve_current(__u32 route, int type, int len)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return rec__flight_reserve(route, type, len, task->tgid, task->pid, task);
}

static __always_inline void rec__flight_submit(void *rec)
{
	flight__send(rec);
}

/*
 * The one way a record built in scratch (s, its header right after it, len
 * bytes of payload after that) enters the ring, or its recorder's: copied,
 * or counted lost for its file.  rec__send() fills the header for the
 * current thread first.
 */
static __always_inline void rec__output(struct ktr_sample *s, __u32 route, __u64 len)
{
	__u64 size = sizeof(*s) + sizeof(struct ktr_header) + len;

	s->route = route;
	s->reserved = 0;
	if (flight__active(route)) {
		flight__send((struct ktr_scratch *)s);
		return;
	}
	barrier_var(size); /* the verifier must see this bound, clang may not drop it */
	if (size > KTR_SCRATCH_SIZE)
		size = KTR_SCRATCH_SIZE;
	if (bpf_ringbuf_output(&rb, s, size, rec__wakeup_flag()) < 0)
		rec__count_lost(route);
}

static __always_inline void rec__send(struct ktr_sample *s, __u32 route, int type, __u64 len)
{
	rec__header_current((struct ktr_header *)(s + 1), type, len);
	rec__output(s, route, len);
}

/*
 * Tell the daemon a process traced with 'u' changed what it maps (exec,
 * an executable mapping) or forked: its USDT probes need a look.  Woken at
 * once: probes of a new image are armed as soon as the daemon can.  A note
 * the ring has no room for is counted lost for the process's file, since
 * probe records of that image may go missing; an EXIT or FLIGHT note only
 * hurries the daemon (its tick finds the same), so losing one loses no
 * record.  Returns whether it was sent.
 */
static __always_inline bool note__emit(__u32 route, __u32 kind, __u32 pid, __u32 child,
				       __u32 flags)
{
	struct {
		struct ktr_sample s;
		struct ktr_note n;
	} *rec = bpf_ringbuf_reserve(&rb, sizeof(*rec), 0);

	if (!rec) {
		if (kind != KTR_NOTE_EXIT && kind != KTR_NOTE_FLIGHT)
			rec__count_lost(route);
		return false;
	}
	rec->s.route = KTR_ROUTE_DAEMON;
	rec->s.reserved = 0;
	rec->n.kind = kind;
	rec->n.pid = pid;
	rec->n.child = child;
	rec->n.flags = flags;
	bpf_ringbuf_submit(rec, BPF_RB_FORCE_WAKEUP);
	return true;
}

#define SIGSTOP 19

/*
 * A note that the process mapped a file (EXEC, MMAP; file a struct file *
 * as a number); a process with KTR_PS_HOLD stops until the daemon has armed
 * the file's probes, unless the file is known quiet (usdt_quiet).  Only
 * sent notes stop: the daemon continues every process it is told about.
 * A function of its own (proc.bpf.c), verified once rather than in every
 * path of its callers.
 */
int note__file(struct ktr_proc_state *ps, __u32 kind, __u32 pid, __u64 file);

#endif /* !KTR_DEFINE_MAPS */
#endif /* KTRACEB_BPF_H */
