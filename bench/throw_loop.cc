// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * throw_loop MS: throws and catches a C++ exception in a loop for MS
 * milliseconds, then prints "throws N" (how many it made).  libstdc++ has
 * USDT probes at every throw and catch (libstdcxx:throw, libstdcxx:catch),
 * without semaphores: a probe attached for every process would trap in
 * this loop whoever traces another copy of it (bench/run.sh, the USDT tax).
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

int main(int argc, char **argv)
{
	auto end = std::chrono::steady_clock::now() +
		   std::chrono::milliseconds(argc > 1 ? std::atoi(argv[1]) : 1000);
	unsigned long throws = 0;

	while (std::chrono::steady_clock::now() < end) {
		for (int i = 0; i < 100; i++, throws++) {
			try {
				throw std::runtime_error("bench");
			} catch (const std::exception &) {
			}
		}
	}
	std::printf("throws %lu\n", throws);
	return 0;
}
