// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Whether a dead daemon left recordings pinned (ktr_pin_dir.h). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>

#include "build_id.h"
#include "ktr_pin_dir.h"

bool ktr_pin__left(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool left = false;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/%s", KTR_PIN_DIR, KTRACEB_BUILD_ID);
	dp = opendir(path);
	if (!dp)
		return false;
	/* a recording's pins; the programs kept for the next daemon wait for nothing */
	while (!left && (de = readdir(dp)))
		left = de->d_type != DT_DIR;
	closedir(dp);
	return left;
}
