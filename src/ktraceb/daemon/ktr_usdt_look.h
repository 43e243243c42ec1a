/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The looks at the files traced processes map (ktr_usdt_state.h): queued,
 * started as far as the limits let them (each a child: ktr_usdt_job.h),
 * and what each found put to use when it arrives (ktr_usdt__poll).
 */
#ifndef KTRACEB_KTR_USDT_LOOK_H
#define KTRACEB_KTR_USDT_LOOK_H

#include "ktr_usdt_state.h"

bool usdt_look__pending(const struct ktr_usdt *u, pid_t pid, dev_t dev, ino_t ino);
void usdt_looks__run(struct ktr_usdt *u);
bool usdt_look__queue(struct ktr_usdt *u, const struct usdt_proc *p, const struct map_line *m,
		      bool want_notes, bool want_build_id, unsigned long rodata);
void usdt_look__unlink(struct ktr_usdt *u, struct usdt_look *l);
void usdt_looks__cancel(struct ktr_usdt *u, struct usdt_proc *p);

#endif /* KTRACEB_KTR_USDT_LOOK_H */
