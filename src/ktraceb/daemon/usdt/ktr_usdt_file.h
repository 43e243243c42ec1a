/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The files with probes that traced processes map (ktr_usdt_state.h), their
 * sites described to BPF, and the files a scan found no probe in.
 */
#ifndef KTRACEB_KTR_USDT_FILE_H
#define KTRACEB_KTR_USDT_FILE_H

#include "ktr_usdt_state.h"

/*
 * Did a scan find p's mapping m without probes, the file unchanged
 * since?  check: its ctime is looked at here (a file BPF has not just
 * checked: an attached process's), once per file since p's exec; a
 * changed one's entry goes.
 */
bool usdt_quiet__known(struct ktr_usdt *u, struct usdt_proc *p, const struct map_line *m,
		       bool check);
/* The object (dev, ino) whose build id a scan read, NULL if none is kept. */
const struct usdt_object *usdt_object__find(const struct ktr_usdt *u, dev_t dev, ino_t ino);
/* Keep it, in place of the oldest kept. */
const struct usdt_object *usdt_object__add(struct ktr_usdt *u, dev_t dev, ino_t ino,
					   const struct ktr_object_id *id, const char *path);
void usdt_objects__free(struct ktr_usdt *u);
/* Found without probes, at that ctime (ns): usdt_quiet (bpf_usdt.h). */
void usdt_quiet__add(struct ktr_usdt *u, dev_t dev, ino_t ino, __u64 ctime_ns);
struct usdt_file *usdt_file__find(struct ktr_usdt *u, dev_t dev, ino_t ino);
struct usdt_file *usdt_file__new(struct ktr_usdt *u, const struct ktr_usdt_job_spec *spec,
				 struct ktr_usdt_job_result *res);
void usdt_file__drop(struct ktr_usdt *u, struct usdt_file *f);

#endif /* KTRACEB_KTR_USDT_FILE_H */
