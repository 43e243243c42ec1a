// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * map_exec FILE MS: maps FILE executable (as a loader maps a library),
 * prints "mapped", and stays MS milliseconds: a traced process that maps
 * a file makes the daemon look at its USDT notes, whatever the file holds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	struct stat st;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: map_exec FILE MS\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 ||
	    mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED) {
		perror(argv[1]);
		return 1;
	}
	printf("mapped\n");
	usleep(atoi(argv[2]) * 1000);
	return 0;
}
