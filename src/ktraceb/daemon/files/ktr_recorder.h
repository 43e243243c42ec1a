/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A recording's dumps (ktraceb -R; its ring: ktr_flight.h): at a trigger
 * (a traced process crashed, or with -R ...,exit exited non-zero: BPF
 * froze the ring), and on demand (ktraceb -D).  A dump writes the file's
 * INFO first if it has none yet, then the event formats held for it, then
 * the ring; the recording goes on.
 */
#ifndef KTRACEB_KTR_RECORDER_H
#define KTRACEB_KTR_RECORDER_H

#include <stdbool.h>
#include <linux/types.h>

struct ktr_tracefile;

/* -D at most this often per recording: a dump costs the daemon the whole ring. */
#define KTR_DUMP_INTERVAL_MS	250

/* Did a trigger freeze f's ring (a note says so at once, the tick looks too)? */
bool ktr_recorder__due(const struct ktr_tracefile *f);
/* The ring a trigger froze into its file, said in the log; then it records again. */
void ktr_recorder__dump_frozen(struct ktr_tracefile *f);
/*
 * What f's recording wrote, in one line: "FILE: recording (taken over...):
 * N records written in D dumps, the last at pid P killed by SIGSEGV".
 */
void ktr_recorder__describe(const struct ktr_tracefile *f, char *buf, size_t size);
/*
 * f's ring into f now (why: KTR_FLIGHT_*), after its INFO if none is there
 * yet and the formats held for it; *written: records written.  0 or -errno.
 */
int ktr_recorder__dump(struct ktr_tracefile *f, __u32 why, unsigned long long *written);

#endif /* KTRACEB_KTR_RECORDER_H */
