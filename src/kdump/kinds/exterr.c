// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * EERR: FreeBSD's extended error, its bytes (kdump_bsd.h KD_T_EXTERR).
 */
#include "kind_file.h"

const struct kd_kind_def kd_kind_exterr = {
	.kind = KD_EXTERR,
	.tag = "EERR",
	.text = kd_text_bytes,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
