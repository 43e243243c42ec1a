// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * libuevdl.so, dlopen'ed by uev_dlopen: probes that exist only once the
 * library is loaded.  A plain sys/sdt.h probe without a semaphore
 * (uevdl:tick) and a utrace.h span (its semaphore is this library's own).
 * uevdl_work() prints what it fired, as the other test programs do.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <sys/sdt.h>

#include "ktraceb/utrace.h"

int uevdl_work(int i)
{
	STAP_PROBE2(uevdl, tick, i, "from the library");
	printf("probe %d tick %d \"from the library\"\n", gettid(), i);
	printf("enter %d %u dl call i=%d\n", gettid(), ktraceb_span_depth, i);
	KTR_SPAN_ENTER("dl", "call", "i=%d", i);
	getppid();
	KTR_SPAN_EXIT("dl", "call");
	printf("exit %d %u dl call ok -\n", gettid(), ktraceb_span_depth);
	return i + 1;
}
