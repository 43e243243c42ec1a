/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The BPF programs' notes to the daemon (KTR_ROUTE_DAEMON samples in the
 * ring, bpf_sample.h): a traced process ended, a recorder froze, a process
 * traced with 'u' exec'd, mapped a file executable or forked.
 */
#ifndef KTRACEB_KTR_NOTES_H
#define KTRACEB_KTR_NOTES_H

#include <stdbool.h>
#include "ktraceb/bpf_sample.h"

struct ktr_note;
struct ktr_parts;

/*
 * Act on note n: a frozen recorder is dumped, a process's new probes are
 * attached (one stopped for them, KTR_PS_HOLD, is continued once its
 * files are scanned; whatever happens, nothing may leave it stopped).
 * True for a traced process's end: the tick should come now.
 */
bool ktr_notes__take(const struct ktr_parts *k, const struct ktr_note *n);

#endif /* KTRACEB_KTR_NOTES_H */
