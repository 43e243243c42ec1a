/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A killed daemon's pins (ktr_pin.h), taken over as the daemon starts:
 * its rings back in the flights map, each recording writing into its file
 * again; its procs map shared (the loader was given it), the entries of
 * recordings kept and the others (their clients are gone) dropped; the
 * probes of the recordings' processes attached again.
 */
#ifndef KTRACEB_KTR_TAKEOVER_H
#define KTRACEB_KTR_TAKEOVER_H

#include <stdbool.h>
#include <linux/types.h>

struct ktr_parts;

/*
 * The dead daemon's rings, then its procs map's entries: the facility
 * bits of the processes kept, together (ktr_attach__facs).  Before
 * the programs are attached.
 */
__u32 ktr_takeover__recordings(const struct ktr_parts *k);
/*
 * The files the dead daemon was writing (ktr_filestate.h), not
 * recordings: each ends with an END that says its daemon was killed.
 */
void ktr_takeover__killed(const struct ktr_parts *k);
/*
 * The USDT probes of the processes kept, whose links died with the daemon
 * that attached them, attached again.
 */
void ktr_takeover__usdt(const struct ktr_parts *k);

#endif /* KTRACEB_KTR_TAKEOVER_H */
