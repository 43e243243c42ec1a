/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The USDT probes of an ELF file: its .note.stapsdt notes (the SystemTap
 * SDT format, which sys/sdt.h writes), with each probe's place and its
 * semaphore's as file offsets (what a uprobe and its reference counter
 * take) and its arguments located (ktr_usdt_arg).  Only x86_64's and
 * arm64's operand forms are understood; a probe with an argument in
 * another form keeps the arguments before it.
 */
#ifndef KTRACEB_KTR_USDT_ELF_H
#define KTRACEB_KTR_USDT_ELF_H

#include <stdbool.h>
#include <linux/types.h>

#include "ktraceb/bpf_shared.h"
#include "common/ktr_usdt_notes.h"
#include "daemon/ktr_object_id.h"

/*
 * The GNU build id of the ELF file open at fd (its NT_GNU_BUILD_ID note,
 * found through the first program headers' PT_NOTE segments, each read
 * up to 64 KiB) and its first KTR_OBJECT_MAXLOADS PT_LOAD headers, into
 * id; its build id's length, 0 if none.
 */
int ktr_usdt_elf__object_id(int fd, struct ktr_object_id *id);

/*
 * An argument string ("-4@%eax 8@-16(%rbp) 4@$7", on arm64 "-4@x0
 * 8@[sp, 16] 4@7") into args; returns the arguments understood, from the
 * first, up to max.
 */
int ktr_usdt_elf__args(const char *spec, struct ktr_usdt_arg *args, int max);

#endif /* KTRACEB_KTR_USDT_ELF_H */
