// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * EMUL: NetBSD's and OpenBSD's emulation, its name (kdump_bsd.h KD_T_EMUL).
 */
#include "kind_file.h"

const struct kd_kind_def kd_kind_emul = {
	.kind = KD_EMUL,
	.tag = "EMUL",
	.text = kd_text_string,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
