/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Kernel tracepoints (ktraceb -e, bpf/tp.bpf.c).  tp_wanted holds a
 * struct ktr_tp_key for every event a file wants; tp_events, per event id,
 * how many bytes of its entry to copy: tp_fixed, and the entry's
 * __data_loc data up to the furthest end its locators (at tp_loc[]) name,
 * within KTR_TP_MAX_BYTES (ktr.h).
 */
#ifndef KTRACEB_BPF_TP_H
#define KTRACEB_BPF_TP_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

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

#endif /* KTRACEB_BPF_TP_H */
