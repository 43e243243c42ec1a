// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * uev_cxx: include/ktraceb/utrace.h from C++ (built -std=c++11 -pedantic
 * -Werror): a KTR_SPAN guard whose scope an exception leaves, and one left
 * normally.  Prints "caught" and "done"; t_user.sh checks both spans end.
 */
#include <cstdio>
#include <stdexcept>

#include "ktraceb/utrace.h"

static void thrower(int n)
{
	KTR_SPAN("cxx", "thrower", "n=%d", n);

	throw std::runtime_error("leaving the scope by an exception");
}

int main()
{
	try {
		thrower(1);
	} catch (const std::exception &) {
		std::printf("caught\n");
	}
	{
		KTR_SPAN("cxx", "normal");
	}
	std::printf("done %u\n", ktraceb_span_depth);
	return 0;
}
