/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
#ifndef KTRACEB_NOTE_BPF_H
#define KTRACEB_NOTE_BPF_H

#include "old_kernel.bpf.h"
#include "ktraceb/bpf_procs.h"

/*
 * A note that the process mapped a file (EXEC, MMAP; file a struct file *
 * as a number); a process with KTR_PS_HOLD stops until the daemon has
 * attached the file's probes, unless the file is known quiet
 * (usdt_quiet).  Only sent notes stop: the daemon continues every process
 * it is told about.  A function of its own (note.bpf.c), verified once
 * rather than in every path of its callers.
 */
#ifndef KTR_OLD_KERNEL
int note__file(struct ktr_proc_state *ps, __u32 kind, __u32 pid, __u64 file);
#else
/* before 5.12 a global function takes no pointer: ps is process pid's, found there */
int note__file_of(__u32 kind, __u32 pid, __u64 file);
#define note__file(ps, kind, pid, file) note__file_of(kind, pid, file)
#endif

#endif /* KTRACEB_NOTE_BPF_H */
