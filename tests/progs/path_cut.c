// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * path_cut: chdir(2) to paths of PATH_MAX bytes and more, for t_path_cut.sh:
 * one of 8191 bytes in a whole buffer, and one of 4096 bytes that ends
 * where its page does, the next one unreadable (the kernel reads no
 * further than PATH_MAX: ENAMETOOLONG both).  Their NAMI is cut at 4096
 * bytes, never left out.  Prints the errno of each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	char *big = malloc(8192), *page;

	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!big || page == MAP_FAILED || mprotect(page + 4096, 4096, PROT_NONE) < 0)
		return 1;
	memset(big, 'a', 8191);
	big[0] = '/';
	big[8191] = '\0';
	memset(page, 'b', 4096);
	page[0] = '/';
	printf("chdir %d\n", chdir(big) < 0 ? errno : 0);
	printf("chdir %d\n", chdir(page) < 0 ? errno : 0);
	return 0;
}
