/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The programs root's daemons keep between them.  Verifying the programs
 * is almost all of a cold start, and the programs are the same from one
 * daemon to the next, so the first daemon since boot pins them with every
 * map they use under its build's pin directory (ktr_pin.h), in
 * cache-<key>/: map-<name> and prog-<name>, and refused (the kernel's
 * reasons for the optional programs it refused).  The build id is the
 * directory; the key, a hash of the object and of everything baked into
 * the programs at load (.rodata, the possible CPUs, the USDT program's
 * attach type), is the configuration: a program never runs under another
 * build or configuration, and a directory of another configuration goes
 * when one is saved.  The next daemon opens them instead of loading, and
 * believes nothing it opens that does not look as its own object would
 * (each map's type, sizes, flags and name, .rodata's bytes, each
 * program's type, name and maps): a directory that does not is removed,
 * and the daemon loads afresh and saves a new one.  The USDT program,
 * loaded when a trace first needs it, is added then.
 *
 * Nothing big stays: the ring buffer and the scratch area are each
 * daemon's own (map_shapes.bpf.h), and no program is attached while no
 * daemon runs.  A kept program's maps hold what the last daemon left in
 * them: the loader empties them before use (ktr_loader.c).  Only root's
 * daemon pins (ktr_pin__enabled); a user's, and any daemon under
 * KTRACEB_REFUSE_PROG (the tests' refused programs), neither reads nor
 * writes the cache.
 */
#ifndef KTRACEB_KTR_PROGCACHE_H
#define KTRACEB_KTR_PROGCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "ktr_bpf.h"

#define KTR_PROGCACHE_WHY 320 /* a refusal's reason, at most */

/*
 * The cache of b's configuration (b->skel opened and configured, not
 * loaded; ncpus possible CPUs; the USDT program of attach type usdt_type):
 * false if this daemon may not use one.
 */
bool ktr_progcache__init(const struct ktr_bpf *b, int ncpus, __u32 usdt_type);
/*
 * b's maps (reused by b->skel) and programs from the cache: 0, -ENOENT if
 * there is none, or -errno if what is there is not what b would load
 * (then it is removed).  A program the cache lacks keeps descriptor -1:
 * refused[i] says why the kernel refused it, or is "" (the USDT program,
 * not loaded yet).
 */
int ktr_progcache__open(struct ktr_bpf *b, char (*refused)[KTR_PROGCACHE_WHY]);
/*
 * b's maps and programs, just loaded, into the cache with the kernel's
 * reasons for those it refused; 0 or -errno (the daemon runs on without).
 */
int ktr_progcache__save(const struct ktr_bpf *b, char (*refused)[KTR_PROGCACHE_WHY]);
/*
 * b's program of index i, loaded since, added to the cache b came from or
 * went into; or, if it is not loaded, why the kernel refused it.
 */
void ktr_progcache__add(const struct ktr_bpf *b, size_t i, const char *why);
/*
 * What the daemon before left in the maps of b, just opened from the cache,
 * emptied: traced processes and their bits, selections, losses, kernel
 * events, USDT sites.  0 or -errno; -ESTALE if that daemon did not end
 * (killed, crashed): its programs are to be loaded afresh.
 */
int ktr_progcache__reset(struct ktr_bpf *b);
/* The cache removed: it could not be used after all. */
void ktr_progcache__drop(void);
/* The cache let go, for the next daemon: b's maps are emptied and it is not used any more. */
void ktr_progcache__release(void);

#endif /* KTRACEB_KTR_PROGCACHE_H */
