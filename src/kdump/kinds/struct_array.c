// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * STRU: FreeBSD's array of structures, its bytes (kdump_bsd.h KD_T_STRUCT_ARRAY).
 */
#include "kind_file.h"

const struct kd_kind_def kd_kind_struct_array = {
	.kind = KD_STRUCT_ARRAY,
	.tag = "STRU",
	.text = kd_text_bytes,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
