// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ENVS (KTR_ENVS): an exec's environment, NUL-separated strings, shown as
 * ARGS is (args.c).
 */
#include "kind_file.h"

const struct kd_kind_def kd_kind_envs = {
	.kind = KD_ENVS,
	.tag = "ENVS",
	.type = KTR_ENVS,
	.text = kd_args_text,
	.json = kd_args_json,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
