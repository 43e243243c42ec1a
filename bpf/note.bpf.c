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

static __always_inline int note__file_now(struct ktr_proc_state *ps, __u32 kind, __u32 pid,
					  __u64 file)
{
	struct ktr_file_key key;
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	bool hold = false;
	__u8 one = 1;

	if (!ps)
		return 0;
	/*
	 * A file known to have no probes needs no scan for them; one a -k
	 * process maps is described in its trace file before it runs on
	 * (the daemon reads its build id, or knows it), whatever its probes.
	 */
	if ((ps->flags & KTR_PS_HOLD) && file) {
		struct file *f = (struct file *)file;

		key.dev = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
		key.ino = BPF_CORE_READ(f, f_inode, i_ino);
		hold = (ps->facs & KTRFAC_USTACK) || bpf_map_lookup_elem(&usdt_quiet, &key) == NULL;
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
