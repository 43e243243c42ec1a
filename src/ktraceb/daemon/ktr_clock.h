/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's clocks.  Every time it keeps (timeouts, a record's time) is
 * CLOCK_MONOTONIC, as the BPF programs' bpf_ktime_get_ns() is; the wall
 * clock comes in only where a record is written, as an offset
 * (ktr_writer__append stamps ktr_time with it).
 */
#ifndef KTRACEB_KTR_CLOCK_H
#define KTRACEB_KTR_CLOCK_H

#include <linux/types.h>

/* CLOCK_MONOTONIC in ms: timeouts and intervals. */
long long ktr_now_ms(void);
/* CLOCK_MONOTONIC in ns: the time of a record the daemon makes. */
__u64 ktr_mono_ns(void);
/* CLOCK_REALTIME - CLOCK_MONOTONIC now, in ns. */
__s64 ktr_wall_offset_ns(void);

#endif /* KTRACEB_KTR_CLOCK_H */
