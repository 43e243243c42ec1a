/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * How a trace ends.  First its processes stop tracing into it (a clear, its
 * foreground client gone or interrupted, a write error, its file deleted,
 * the ring failed), saying why; the next tick then finds nobody tracing
 * into it and finishes it: last losses, a frozen recorder's dump, the last
 * flush, and DONE (with the record and loss counts, or why it stopped) to
 * the foreground ktraceb waiting for it.
 */
#ifndef KTRACEB_KTR_STOP_H
#define KTRACEB_KTR_STOP_H

#include <stdbool.h>

struct ktr_conn;
struct ktr_rooms;

/*
 * Every process tracing into route r stops; the next tick finishes the
 * file.  why (NULL: a plain end): its processes named in the log, and in
 * DONE with err.
 */
void ktr_stop__file(const struct ktr_rooms *k, int r, int err, const char *why);
/* A file that cannot take more: its processes stopped, a system-wide trace into it ended. */
void ktr_stop__live(const struct ktr_rooms *k, int r, int err, const char *why);
/* Every trace stops, saying why (the ring failed: no record reaches any file). */
void ktr_stop__all(const struct ktr_rooms *k, int err, const char *why);
/*
 * The traces cn waits for stop (ktraceb interrupted: STOP).  gone: cn is
 * going away, so they wait for nobody any more.
 */
void ktr_stop__waited(const struct ktr_rooms *k, struct ktr_conn *cn, bool gone);
/* Nobody traces into route r any more: its file finished and closed. */
void ktr_stop__finish(const struct ktr_rooms *k, int r);

#endif /* KTRACEB_KTR_STOP_H */
