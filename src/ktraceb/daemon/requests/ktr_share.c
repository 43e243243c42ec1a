// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdio.h>

#include "ktraceb/bpf_groups.h"
#include "ktraceb/bpf_select.h"
#include "ktraceb/bpf_tp.h"
#include "ktraceb/bpf_usdt.h"
#include "ktr_share.h"
#include "daemon/usdt/ktr_usdt_state.h"

/* Each pool: how much it holds, and what it is called in a refusal (its unit: 1 << shift). */
static const struct {
	unsigned long long size;
	const char *what;
	unsigned int shift;
} pools[KTR_POOLS] = {
	[KTR_POOL_CONNS] = { 1024, "connections" },
	[KTR_POOL_FILES] = { 4096, "traces" },
	/* slot 0 of the selects map is "every call" */
	[KTR_POOL_SELECTS] = { KTR_MAX_SELECTS - 1, "traces with a syscall selection" },
	[KTR_POOL_RECORDER_BYTES] = { 1ull << 30, "MiB of recorder rings", 20 },
	[KTR_POOL_EVENTS] = { KTR_TP_MAX_EVENTS, "kernel events attached" },
	[KTR_POOL_EVENT_USES] = { KTR_TP_MAX_WANTED, "kernel events of trace files" },
	[KTR_POOL_USDT_PROBES] = { KTR_MAX_USDT_SITES, "USDT probes attached" },
	[KTR_POOL_USDT_READS] = { SCANS_MAX, "files being read for USDT probes" },
	[KTR_POOL_USDT_WAITING] = { SCANS_QUEUED, "files waiting to be read for USDT probes" },
	/* slot 0 of the groups map is "no group" */
	[KTR_POOL_GROUPS] = { KTR_MAX_GROUPS - 1, "traced cgroups" },
};

unsigned long long ktr_share__size(enum ktr_pool p)
{
	return pools[p].size;
}

unsigned long long ktr_share__user_max(enum ktr_pool p)
{
	return pools[p].size / 4;
}

unsigned long long ktr_share__users_max(enum ktr_pool p)
{
	return pools[p].size - pools[p].size / 8;
}

int ktr_share__may(enum ktr_pool p, uid_t uid, unsigned long long mine, unsigned long long all,
		   unsigned long long n, char *why, size_t size)
{
	if (uid == 0)
		return 0;
	unsigned int shift = pools[p].shift;

	if (mine + n > ktr_share__user_max(p)) {
		if (why)
			snprintf(why, size, "too many %s for uid %u (a user may have %llu at once)",
				 pools[p].what, (unsigned int)uid, ktr_share__user_max(p) >> shift);
		return -EDQUOT;
	}
	if (all + n > ktr_share__users_max(p)) {
		if (why)
			snprintf(why, size,
				 "too many %s for users together (they may have %llu at once; "
				 "the last %llu are root's)",
				 pools[p].what, ktr_share__users_max(p) >> shift,
				 (pools[p].size - ktr_share__users_max(p)) >> shift);
		return -EUSERS;
	}
	return 0;
}
