/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The records the daemon makes itself, not the BPF programs: FILEINFO,
 * LOST (the ring's and each CPU's of a system-wide trace), PROCCTOR,
 * TPFORMAT, FLIGHT, and a compact recorder entry made a whole record again.
 * Their header is built here alone, so they all agree with the BPF
 * programs' records on what each field holds (ktr.h).  ktr_time is left
 * zero: the writer stamps every record's, BPF's too, as it appends it
 * (ktr_writer.h).
 */
#ifndef KTRACEB_KTR_RECORD_H
#define KTRACEB_KTR_RECORD_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

struct ktr_header;

/*
 * h, for a record of type with len bytes of payload after it, about thread
 * tid of process pid, whose command is comm (at most KTR_MAXCOMLEN bytes,
 * NUL-terminated or not), at mono_ns (CLOCK_MONOTONIC); flags: KTRH_*.
 */
void ktr_record__header(struct ktr_header *h, int type, size_t len, __u16 flags, pid_t pid,
			pid_t tid, const char *comm, __u64 mono_ns);

/* h, for a record the daemon makes of its own, now: its pid, "ktraceb". */
void ktr_record__own(struct ktr_header *h, int type, size_t len, __u16 flags);

#endif /* KTRACEB_KTR_RECORD_H */
