// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The USDT notes of a file (ktr_usdt_notes.c): a file with probes, one
 * without, and one that cannot be read.  The last must be an error, not
 * "no probes": the daemon never looks again at a file without probes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sdt.h>

#include "../lib/test.h"
#include "common/ktr_usdt_notes.h"

static volatile int hits;

/* a probe of this test's own, for its own file to have one */
static void __attribute__((noinline)) probe_site(int n)
{
	STAP_PROBE1(notetest, here, n);
	hits += n;
}

/* the notes of path: how many, or -errno; provider:name of the first in first */
static int notes_of(const char *path, int flags, char *first, size_t size)
{
	struct ktr_usdt_note *notes = calloc(KTR_USDT_FILE_NOTES, sizeof(*notes));
	int fd = open(path, flags | O_CLOEXEC), n, seen = 0;

	first[0] = '\0';
	if (fd < 0 || !notes) {
		free(notes);
		return fd < 0 ? -errno : -ENOMEM;
	}
	n = ktr_usdt_notes__read(fd, notes, KTR_USDT_FILE_NOTES, &seen);
	for (int i = 0; i < n; i++)
		if (!strcmp(notes[i].provider, "notetest"))
			snprintf(first, size, "%s:%s", notes[i].provider, notes[i].name);
	close(fd);
	free(notes);
	return n;
}

TEST(own_probe)
{
	char first[128];

	probe_site(1);
	ASSERT_TRUE(notes_of("/proc/self/exe", O_RDONLY, first, sizeof(first)) >= 1, "has notes");
	ASSERT_STREQ(first, "notetest:here", "this test's probe");
}

TEST(no_probes)
{
	char path[] = "/tmp/ktr-notes-XXXXXX", first[128];
	int fd = mkstemp(path);
	static const char script[] = "#!/bin/sh\nexit 0\n";

	ASSERT_TRUE(fd >= 0, "a file made");
	if (fd < 0)
		return;
	ASSERT_EQ(write(fd, script, sizeof(script) - 1), sizeof(script) - 1, "written");
	close(fd);
	ASSERT_EQ(notes_of(path, O_RDONLY, first, sizeof(first)), 0, "not ELF: no probes");
	fd = open(path, O_WRONLY | O_TRUNC);
	close(fd);
	ASSERT_EQ(notes_of(path, O_RDONLY, first, sizeof(first)), 0, "empty: no probes");
	unlink(path);
}

TEST(unreadable)
{
	char first[128];

	/* a descriptor that read(2) refuses (EISDIR): not a file without probes */
	ASSERT_TRUE(notes_of("/tmp", O_RDONLY | O_DIRECTORY, first, sizeof(first)) < 0,
		    "a directory: an error");
}

TEST_MAIN()
