/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What names an object's frames (ktraceb -k): its build id and its PT_LOAD
 * headers, as the scans read them (ktr_usdt_elf.c) and the trace file
 * describes them (KTR_OBJECT, ktr_tracefile.c), and where a process maps
 * them (KTR_MAPPING, ktr_mappings.c).
 */
#ifndef KTRACEB_KTR_OBJECT_ID_H
#define KTRACEB_KTR_OBJECT_ID_H

#include <linux/types.h>
#include "ktraceb/ktr.h"

struct ktr_object_id {
	__u8 build_id[20];
	int build_id_len; /* 0: none */
	int nloads;
	struct ktr_object_load loads[KTR_OBJECT_MAXLOADS];
};

/* Where a process maps it: one executable mapping, as /proc/PID/maps says (KTR_MAPPING). */
struct ktr_object_map {
	unsigned long start, end, pgoff;
};

#endif /* KTRACEB_KTR_OBJECT_ID_H */
