// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include "ktraceb/ktr.h"
#include "ktr_optional.h"

/* a row more or less than KTR_NOPTIONAL conflicts with the header's type */
const struct ktr_optional ktr_optional[] = {
	{ "ktr_csw_switch", KTRFAC_CSW, "-t w: context switches" },
	{ "ktr_usdt_record", KTRFAC_USER, "-t u: USDT probes" },
	{ "ktr_tp_record", KTRFAC_TRACEPOINT, "-e: kernel events" },
};
