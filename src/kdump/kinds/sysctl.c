// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * SCTL: FreeBSD's sysctl, the MIB's name (kdump_bsd.h KD_T_SYSCTL).
 */
#include "kind_file.h"

const struct kd_kind_def kd_kind_sysctl = {
	.kind = KD_SYSCTL,
	.tag = "SCTL",
	.text = kd_text_string,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
