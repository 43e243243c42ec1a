// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * OTHR: a record type the system has that kdump does not decode, its bytes
 * (kdump_bsd.h KD_T_OTHER).
 */
#include "kind_file.h"

const struct kd_kind_def kd_kind_other = {
	.kind = KD_OTHER,
	.tag = "OTHR",
	.text = kd_text_bytes,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
