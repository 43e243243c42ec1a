/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's tick, every KTR_TICK_MS (and early after a traced process
 * ends): it looks at the procs map, ends the trace files nobody traces into
 * any more and those that cannot take more, attaches or detaches the
 * programs as the traces left need them, and closes the connections that
 * idle.
 */
#ifndef KTRACEB_KTR_TICK_H
#define KTRACEB_KTR_TICK_H

#include <stdbool.h>

struct ktr_conn;
struct ktr_parts;

/* The tick; is anything under way (a trace file, a live connection)? */
bool ktr_tick__run(const struct ktr_parts *k);
/*
 * What the ring and the system-wide trace's buffers hold now, into the
 * files (and recorders); a ring failure ends every trace.
 */
void ktr_tick__drain(const struct ktr_parts *k);
/* A connection going away that a trace waits on (ktr_conns__sweep's gone). */
void ktr_tick__conn_gone(void *parts, struct ktr_conn *cn);

#endif /* KTRACEB_KTR_TICK_H */
