/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the scans read of an ELF file besides its USDT probes (those are
 * common/ktr_usdt_notes.h's): its build id and its PT_LOAD headers, the
 * object a trace's stacks name.
 */
#ifndef KTRACEB_KTR_USDT_ELF_H
#define KTRACEB_KTR_USDT_ELF_H

#include <stdbool.h>
#include <linux/types.h>

#include "common/ktr_usdt_notes.h"
#include "daemon/ktr_object_id.h"

/*
 * The GNU build id of the ELF file open at fd (its NT_GNU_BUILD_ID note,
 * found through the first program headers' PT_NOTE segments, each read
 * up to 64 KiB) and its first KTR_OBJECT_MAXLOADS PT_LOAD headers, into
 * id; its build id's length, 0 if none.
 */
int ktr_usdt_elf__object_id(int fd, struct ktr_object_id *id);

#endif /* KTRACEB_KTR_USDT_ELF_H */
