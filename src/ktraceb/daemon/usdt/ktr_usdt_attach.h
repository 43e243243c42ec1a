/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A process's probes in one file, those its patterns arm attached and
 * taken out (by a thread of their own), and what each user holds of what every trace shares
 * (ktr_usdt_state.h's limits).
 */
#ifndef KTRACEB_KTR_USDT_ATTACH_H
#define KTRACEB_KTR_USDT_ATTACH_H

#include "ktr_usdt_state.h"

unsigned int *usdt_uid__charge(struct ktr_usdt *u, uid_t uid, bool scans);
unsigned int usdt_uid__total(const struct ktr_usdt *u, bool scans);
/* How many of f's probes sel arms (NULL: the ktraceb provider's). */
unsigned int usdt_file__armed(const struct usdt_file *f, const struct ktr_usdt_sel *sel);
/* The probes of use's file sel arms, for pid alone; 0 or -errno. */
int usdt_use__attach(struct ktr_usdt *u, struct usdt_use *use, pid_t pid,
		     const struct ktr_usdt_sel *sel);
void usdt_use__detach(struct ktr_usdt *u, struct usdt_use *use, uid_t owner);
void usdt_closer__finish(void);

#endif /* KTRACEB_KTR_USDT_ATTACH_H */
