// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * libstackhost.so: host_open(PATH) opens PATH, for t_debuglink: a library
 * whose frame is in a -k stack, so kdump looks for its debug file (and its
 * .gnu_debuglink, which the test rewrites to point where it must not go).
 */
#include <fcntl.h>
#include <unistd.h>

__attribute__((noinline)) int host_open(const char *path)
{
	int fd = open(path, O_RDONLY);

	__asm__ volatile("" : "+r"(fd));
	if (fd >= 0)
		close(fd);
	return fd;
}
