// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A traced process mapped a file (exec, an executable mapping): the note
 * that has the daemon scan it for USDT probes, and the stop that makes
 * ktraceb's own command wait for them (note.bpf.h).
 */
#include "procs.bpf.h"
#include "record.bpf.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_usdt.h"

#define SIGSTOP 19
#define SIGCONT 18

/* struct inode's change time before Linux 6.11, for CO-RE */
struct timespec64___old {
	__s64 tv_sec;
	long tv_nsec;
} __attribute__((preserve_access_index));
struct inode___ctime_65 { /* up to Linux 6.5 */
	struct timespec64___old i_ctime;
} __attribute__((preserve_access_index));
struct inode___ctime_66 { /* Linux 6.6 to 6.10 */
	struct timespec64___old __i_ctime;
} __attribute__((preserve_access_index));

/*
 * The file's change time in ns, as stat(2) tells it (usdt_quiet's value).
 * Bit 31 of the nanoseconds is a flag of the kernel's on some releases
 * (I_CTIME_QUERIED), not part of the time.
 */
static __always_inline __u64 inode__ctime_ns(struct inode *inode)
{
	__s64 sec;
	__u32 nsec;

	if (bpf_core_field_exists(inode->i_ctime_sec)) {
		sec = BPF_CORE_READ(inode, i_ctime_sec);
		nsec = BPF_CORE_READ(inode, i_ctime_nsec);
	} else if (bpf_core_field_exists(struct inode___ctime_66, __i_ctime)) {
		struct inode___ctime_66 *i = (void *)inode;

		sec = BPF_CORE_READ(i, __i_ctime.tv_sec);
		nsec = BPF_CORE_READ(i, __i_ctime.tv_nsec);
	} else {
		struct inode___ctime_65 *i = (void *)inode;

		sec = BPF_CORE_READ(i, i_ctime.tv_sec);
		nsec = BPF_CORE_READ(i, i_ctime.tv_nsec);
	}
	return (__u64)sec * 1000000000ull + (nsec & ~(1u << 31));
}

static __always_inline int note__file_now(struct ktr_proc_state *ps, __u32 kind, __u32 pid,
					  __u64 file)
{
	struct ktr_file_key key;
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	bool hold = false;
	__u8 one = 1;
	__u64 *quiet;

	if (!ps)
		return 0;
	/*
	 * A file known to have no probes needs no scan for them; one a -k
	 * process maps is described in its trace file before it runs on
	 * (the daemon reads its build id, or knows it), whatever its probes.
	 * Known only while its ctime is the one scanned: a new file with a
	 * gone one's inode number, or one rewritten, loses the entry here,
	 * before the daemon looks it up (ktr_usdt.c).
	 */
	if ((ps->flags & KTR_PS_HOLD) && file) {
		struct inode *inode = BPF_CORE_READ((struct file *)file, f_inode);

		key.dev = BPF_CORE_READ(inode, i_sb, s_dev);
		key.ino = BPF_CORE_READ(inode, i_ino);
		quiet = bpf_map_lookup_elem(&usdt_quiet, &key);
		if (quiet && *quiet != inode__ctime_ns(inode)) {
			bpf_map_delete_elem(&usdt_quiet, &key);
			quiet = NULL;
		}
		hold = (ps->facs & KTRFAC_USTACK) || !quiet;
	}
	/*
	 * Stopped before the note goes: the daemon, woken by it at once on
	 * another CPU, may continue the process before this program goes on
	 * (a virtual CPU can pause here for long), and a stop after that
	 * continue would last for ever.
	 */
	if (hold) {
		ps->flags |= KTR_PS_HELD;
		proc__changed();
		/*
		 * The stop is ours, no PSIG (psig.bpf.c).  Not told by
		 * KTR_PS_HELD: the daemon clears that just before its SIGCONT,
		 * and the stop may be delivered in between.
		 */
		if (ps->facs & KTRFAC_PSIG)
			bpf_map_update_elem(&hold_stops, &tgid, &one, BPF_ANY);
		bpf_send_signal(SIGSTOP);
	}
	if (note__emit(ps->route, kind, pid, 0, hold ? KTR_NOTE_HELD : 0) || !hold)
		return 0;
	/* no note (the ring is full): nobody would continue it */
	ps->flags &= ~KTR_PS_HELD;
	proc__changed();
	bpf_send_signal(SIGCONT);
	bpf_map_delete_elem(&hold_stops, &tgid);
	return 0;
}

#ifndef KTR_OLD_KERNEL
__noinline int note__file(struct ktr_proc_state *ps, __u32 kind, __u32 pid, __u64 file)
{
	return note__file_now(ps, kind, pid, file);
}
#else
__noinline int note__file_of(__u32 kind, __u32 pid, __u64 file)
{
	return note__file_now(proc__lookup_tgid(pid), kind, pid, file);
}
#endif
