/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The flight recorders' global functions (flight.bpf.c), as the programs
 * call them: a route with a ring in the flights map records there, never
 * into the ring buffer (record.bpf.h decides).
 */
#ifndef KTRACEB_FLIGHT_BPF_H
#define KTRACEB_FLIGHT_BPF_H

#include "map_shapes.bpf.h"

/* The scratch area holding a struct ktr_sample (the route), then the record, into its ring. */
int flight__send(struct ktr_scratch *sc);
/* A fatal signal that dumps core reached a recorded process: each CPU's last record noted. */
int flight__crash_begins(__u32 route);
/* A recorded process ended: 1 if that froze the ring (a trigger), for the daemon to be woken. */
int flight__exit(__u32 route, __s32 pid, __s32 status);

#endif /* KTRACEB_FLIGHT_BPF_H */
