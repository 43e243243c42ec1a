/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What outlives the daemon: a root daemon pins its recorders' rings, the
 * procs map and the tracepoint links in bpffs, under a directory of its
 * build (KTR_PIN_DIR/<build id>), so that a kill -9 of the daemon leaves
 * the recordings recording.  A crash meanwhile freezes its ring in BPF;
 * the next daemon adopts what is pinned (ktr_takeover.c), writes the frozen
 * rings and keeps recording the others.  A recording's pins exist only
 * while it does: the last one's end removes them.  The directory also
 * holds, in a directory of its own, the programs kept for the next daemon
 * (ktr_progcache.h).  A daemon of another build removes (and logs) what a
 * dead one of an older build left, its kept programs too.  A build whose
 * daemon still answers keeps its own, and so does one whose executable is
 * still there, the same file (a second checkout or build directory, whose
 * next daemon takes over what its killed one left): each daemon says
 * which executable it runs in KTR_RUN_DIR/ktraceb-<build id>.exe.
 */
#ifndef KTRACEB_KTR_PIN_H
#define KTRACEB_KTR_PIN_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "common/ktr_pin_dir.h"

struct ktr_bpf;

/*
 * Set up the pin directory of this build (bpffs mounted if it is not),
 * removing those of other builds that cannot come back for them (above).
 * false when pinning is not possible here
 * (not root, no bpffs): recordings then live only as long as the daemon.
 */
bool ktr_pin__init(void);
bool ktr_pin__enabled(void);
/* This build's pin directory ("" when pinning is off). */
const char *ktr_pin__dir(void);
/*
 * Is path (made first if create) a directory of root's that nobody else
 * may write to?  What is pinned elsewhere is never believed.
 */
bool ktr_pin__dir_ok(const char *path, bool create);
/* Every pin under dir removed, and dir. */
void ktr_pin__remove_tree(const char *dir);

/* The paths of a recording's ring and of its control map ("" if pinning is off). */
void ktr_pin__ring_path(char *buf, size_t size, __u32 route);
void ktr_pin__ctl_path(char *buf, size_t size, __u32 route);

/* The procs map a dead daemon pinned, or -1. */
int ktr_pin__old_procs(void);
/* The dead daemon's selects map, pinned with its procs map; -1 if none. */
int ktr_pin__old_selects(void);

/*
 * Each ring a dead daemon pinned: fn(ctx, route, fd of its map, its pin);
 * the fd is fn's to keep or close.  Then control maps whose ring is no
 * longer pinned (fn dropped it, or it never was) are unpinned.
 */
void ktr_pin__old_rings(void (*fn)(void *ctx, __u32 route, int fd, const char *pin), void *ctx);

/* Remove this build's pin directory if nothing is pinned in it any more. */
void ktr_pin__tidy(void);
/*
 * A daemon that could not start: this build's pin directory removed if
 * empty, and KTR_PIN_DIR if no build has one; pinning is off from now on.
 */
void ktr_pin__leave(void);

/* Drop a dead daemon's links: its programs stop (ours are attached by then). */
void ktr_pin__drop_old_links(void);

/*
 * Pin (keep true) or unpin the procs map and every attached link of b;
 * pinning again pins the links attached since.
 */
int ktr_pin__keep(struct ktr_bpf *b, bool keep);
/* The link of b's program of index i unpinned, if it is (it is being detached). */
void ktr_pin__unpin_link(struct ktr_bpf *b, size_t i);

#endif /* KTRACEB_KTR_PIN_H */
