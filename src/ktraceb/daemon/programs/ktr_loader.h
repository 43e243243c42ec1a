/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* Opening, configuring, loading and attaching the BPF programs. */
#ifndef KTRACEB_KTR_LOADER_H
#define KTRACEB_KTR_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "common/ktr_daemon_opts.h"
#include "ktr_kernel_caps.h"

struct ktr_bpf;

/*
 * The loaded and attached (unless defer_attach) programs (ktr_bpf.h), or NULL
 * with errno set and *why a short reason ("kernel has no BTF", "needs root or
 * CAP_BPF and CAP_PERFMON").
 */
struct ktr_bpf *ktr_loader__load(const struct ktr_loader_opts *opts, const char **why);

/* How the loaded programs attach USDT probes (facility 'u'; ktr_kernel_caps.h). */
enum ktr_usdt_mode ktr_loader__usdt_mode(void);
/*
 * Why the facilities in fac cannot be recorded on this kernel (a program
 * the kernel refused, or a feature it lacks), or NULL: each facility whose
 * row (trstr.c) has a lacks line can be missing alone.
 */
const char *ktr_loader__missing(__u32 fac);
/* Likewise, for the facility whose program prog is (NULL for a program of none). */
const char *ktr_loader__prog_missing(const char *prog);
/*
 * The USDT program, loaded when a trace first needs it (its verification
 * is a third of a cold start): 0, or -errno (-ENOTSUP: mode NONE).
 */
int ktr_loader__load_usdt(struct ktr_bpf *b);
void ktr_loader__destroy(struct ktr_bpf *b);
/*
 * Detach the always-on programs (the syscall, process and signal
 * tracepoints), keeping them loaded and verified; attach them again.
 * Detached, they cost untraced processes nothing.  0 or -errno.
 */
void ktr_loader__detach(struct ktr_bpf *b);
int ktr_loader__attach(struct ktr_bpf *b);
/*
 * The sys_enter program, attached apart (want) or detached: every syscall
 * on the machine pays for it, and only CALL records and argument captures
 * need it.  0 or -errno.
 */
int ktr_loader__attach_enter(struct ktr_bpf *b, bool want);
/*
 * The tracepoint program so named, attached apart (want) or detached, as
 * sched_switch (facility w): every context switch on the machine pays for
 * it.  Its link is pinned with the others while a recording exists, so
 * that it goes on while no daemon runs.  0 or -errno.
 */
int ktr_loader__attach_prog(struct ktr_bpf *b, const char *name, bool want);
/*
 * The cgroup programs (ktraceb -G), loaded now if they are not yet (a
 * daemon loads them at the first -G); 0, or -errno with *why (the
 * verifier's reason, said each time after the first).
 */
int ktr_loader__load_groups(struct ktr_bpf *b, const char **why);
/* The cgroup programs (ktraceb -G) attached (want) or detached; 0 or -errno. */
int ktr_loader__attach_groups(struct ktr_bpf *b, bool want);

#endif /* KTRACEB_KTR_LOADER_H */
