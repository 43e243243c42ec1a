/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The processes traced with 'u' (ktr_usdt_state.h): what each maps, and
 * its probes in each file, those its trace file's patterns arm, attached
 * for it alone and charged to its trace's owner.
 */
#ifndef KTRACEB_KTR_USDT_PROC_H
#define KTRACEB_KTR_USDT_PROC_H

#include "ktr_usdt_state.h"

unsigned long usdt_maps__rodata(const struct map_line *m, int n, dev_t dev, ino_t ino);
struct usdt_proc **usdt_proc__slot(struct ktr_usdt *u, pid_t pid);
struct usdt_proc *usdt_proc__find(struct ktr_usdt *u, pid_t pid);
struct usdt_proc *usdt_proc__get(struct ktr_usdt *u, pid_t pid, uid_t owner, gid_t gid);
struct usdt_use *usdt_proc__use(const struct usdt_proc *p, const struct usdt_file *f);
/* What p arms (NULL: the ktraceb provider's probes alone). */
const struct ktr_usdt_sel *usdt_proc__sel(const struct usdt_proc *p);
/* p arms sel from now on (what it armed for other patterns taken out). */
void usdt_proc__select(struct ktr_usdt *u, struct usdt_proc *p, const struct ktr_usdt_sel *sel);
/* p is forgotten: its patterns are let go. */
void usdt_proc__unselect(struct ktr_usdt *u, struct usdt_proc *p);
int usdt_proc__attach(struct ktr_usdt *u, struct usdt_proc *p, struct usdt_file *f);
void usdt_proc__release(struct ktr_usdt *u, struct usdt_proc *p);
void usdt_proc__look_done(struct ktr_usdt *u, pid_t pid);

#endif /* KTRACEB_KTR_USDT_PROC_H */
