// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_records FILE TYPE PID: the raw payloads of the records of type TYPE of
 * process PID in a trace file, one line each: "SEQ LEN HEX", SEQ being the
 * record's index among PID's records (consecutive records have consecutive
 * numbers).  Lets the facility tests see what the tracer wrote, apart from
 * how kdump shows it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ktraceb/ktr.h"

int main(int argc, char **argv)
{
	struct ktr_header h;
	unsigned long seq = 0;
	unsigned char *buf;
	int type, pid;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: fac_records FILE TYPE PID\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	type = atoi(argv[2]);
	pid = atoi(argv[3]);
	while (fread(&h, sizeof(h), 1, f) == 1) {
		if (h.ktr_len < 0 || h.ktr_len > (64 << 20)) {
			fprintf(stderr, "bogus length %d\n", h.ktr_len);
			return 1;
		}
		buf = malloc((size_t)h.ktr_len + 1);
		if (!buf || fread(buf, 1, (size_t)h.ktr_len, f) != (size_t)h.ktr_len) {
			fprintf(stderr, "data too short\n");
			return 1;
		}
		if (h.ktr_pid == pid) {
			if (h.ktr_type == type) {
				printf("%lu %d ", seq, h.ktr_len);
				for (int i = 0; i < h.ktr_len; i++)
					printf("%02x", buf[i]);
				printf("\n");
			}
			seq++;
		}
		free(buf);
	}
	return 0;
}
