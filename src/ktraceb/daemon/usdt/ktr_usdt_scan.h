/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The scans of the files traced processes map (ktr_usdt_state.h): queued,
 * started as far as the limits let them (each a child: ktr_usdt_job.h),
 * and what each found put to use when it arrives (ktr_usdt__poll).
 */
#ifndef KTRACEB_KTR_USDT_SCAN_H
#define KTRACEB_KTR_USDT_SCAN_H

#include "ktr_usdt_state.h"

bool usdt_scan__pending(const struct ktr_usdt *u, pid_t pid, dev_t dev, ino_t ino);
void usdt_scans__run(struct ktr_usdt *u);
bool usdt_scan__queue(struct ktr_usdt *u, const struct usdt_proc *p, const struct map_line *m,
		      bool want_notes, bool want_build_id, unsigned long rodata);
void usdt_scan__unlink(struct ktr_usdt *u, struct usdt_scan *l);
void usdt_scans__cancel(struct ktr_usdt *u, struct usdt_proc *p);

#endif /* KTRACEB_KTR_USDT_SCAN_H */
