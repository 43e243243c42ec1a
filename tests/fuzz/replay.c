// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Runs the libFuzzer target (reader_fuzz.c) once on each file named, or on
 * each file of each directory named, without libFuzzer: the corpus replay
 * of `make check`, built with the address and undefined-behaviour
 * sanitizers.  Prints "replayed N inputs"; a crash is a sanitizer report
 * and a non-zero exit.
 */
#include <dirent.h>
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT_MAX (1 << 20)

static unsigned long replayed;

static void replay_file(const char *path)
{
	static uint8_t buf[INPUT_MAX];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		err(1, "%s", path);
	n = fread(buf, 1, sizeof(buf), f);
	if (ferror(f))
		err(1, "%s", path);
	fclose(f);
	/* a copy of exactly n bytes, so the sanitizer sees a read past the end */
	uint8_t *copy = malloc(n ? n : 1);
	if (!copy)
		err(1, "malloc");
	for (size_t i = 0; i < n; i++)
		copy[i] = buf[i];
	LLVMFuzzerTestOneInput(copy, n);
	free(copy);
	replayed++;
}

static void replay(const char *path)
{
	struct stat st;
	struct dirent **ents;
	int n;

	if (stat(path, &st) < 0)
		err(1, "%s", path);
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		err(1, "%s", path);
	for (int i = 0; i < n; i++) {
		char sub[4096];

		if (ents[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, ents[i]->d_name);
			replay(sub);
		}
		free(ents[i]);
	}
	free(ents);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		errx(2, "usage: reader_replay FILE|DIR...");
	for (int i = 1; i < argc; i++)
		replay(argv[i]);
	printf("replayed %lu inputs\n", replayed);
	return 0;
}
