/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The flight recorders' global functions (flight.bpf.c), as the programs
 * call them: a route with a ring in the flights map records there, never
 * into the ring buffer (record.bpf.h decides).
 */
#ifndef KTRACEB_FLIGHT_BPF_H
#define KTRACEB_FLIGHT_BPF_H

#include "old_kernel.bpf.h"

/* The scratch area holding a struct ktr_sample (the route), then the record, into its ring. */
#ifndef KTR_OLD_KERNEL
int flight__send(struct ktr_scratch *sc);
#else
/* before 5.12 a global function takes no pointer (old_kernel.bpf.h): sc is this CPU's, found there */
int flight__send_scratch(void);
#define flight__send(sc) flight__send_scratch()
#endif
/* A fatal signal that dumps core reached a recorded process: each CPU's last record noted. */
int flight__crash_begins(__u32 route);
/* A recorded process ended: 1 if that froze the ring (a trigger), for the daemon to be woken. */
int flight__exit(__u32 route, __s32 pid, __s32 status);

#endif /* KTRACEB_FLIGHT_BPF_H */
