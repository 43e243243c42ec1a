// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "gzip_magic.h"
#include "ktr_gzfile.h"

int ktr_gzfile__starts_gzip(int fd)
{
	unsigned char magic[KTR_GZIP_MAGIC_LEN];
	char link[64];
	ssize_t n;
	int rfd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	/* no O_NOFOLLOW: the link is proc's magic one to fd's own file */
	rfd = open(link, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (rfd < 0)
		return -1;
	n = pread(rfd, magic, sizeof(magic), 0);
	close(rfd);
	if (n < 0)
		return -1;
	return ktr_gzip_magic(magic, n);
}
