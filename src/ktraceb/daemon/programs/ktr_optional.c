// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include "ktraceb/ktr.h"
#include "ktr_optional.h"

/* a row more or less than KTR_NOPTIONAL conflicts with the header's type */
const struct ktr_optional ktr_optional[] = {
	{ KTRFAC_CSW, "-t w: context switches" },
	{ KTRFAC_USER, "-t u: USDT probes" },
	{ KTRFAC_TRACEPOINT, "-e: kernel events" },
};
