// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Not a test binary: compiled by `make test` with -std=c99 -pedantic
 * -Werror (Makefile), so that include/ktraceb/utrace.h stays strict C99 in
 * every macro form, the format checking of its key=value text included.
 */
#include "ktraceb/utrace.h"

int ktraceb_strict_c99(const char *dev, int n);

int ktraceb_strict_c99(const char *dev, int n)
{
	char buf[4] = "abc";

	KTR_SPAN("fw", "scoped");
	KTR_SPAN("fw", "scoped_kv", "dev=%s n=%d", dev, n);
	KTR_SPAN_ENTER("fw", "load");
	KTR_SPAN_ENTER("fw", "load_kv", "dev=%s", dev);
	KTR_SPAN_EXIT("fw", "load_kv");
	if (n < 0) {
		KTR_SPAN_EXIT_ERR("fw", "load", "err=%s code=%d", "timeout", n);
		return -1;
	}
	KTR_SPAN_EXIT_ERR("fw", "load");
	return utrace(buf, sizeof(buf)) + ktraceb_utrace(buf, 1);
}
