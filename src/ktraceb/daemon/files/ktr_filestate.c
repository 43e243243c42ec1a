// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* What a killed daemon leaves of its trace files (ktr_filestate.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "build_id.h"
#include "ktraceb/bpf_sample.h"
#include "common/ktr_proto.h"
#include "ktr_filestate.h"

#define STATE_BYTES ((size_t)KTR_MAX_ROUTES * sizeof(struct ktr_filestate_slot))

static struct ktr_filestate_slot *state; /* ours, mapped */
static struct ktr_filestate_slot *old; /* what the last daemon left, a copy; NULL if nothing */
static char state_path[128];

_Static_assert(sizeof(struct ktr_filestate_slot) == 4096, "a slot is a page");

/* The slots the file holds now copied out (it was left by a daemon that was killed). */
static void filestate__keep_old(int fd, const struct stat *st)
{
	size_t n = st->st_size < (off_t)STATE_BYTES ? (size_t)st->st_size : STATE_BYTES;
	void *m;

	if (n < sizeof(*old))
		return;
	m = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return;
	old = calloc(1, STATE_BYTES);
	if (old)
		memcpy(old, m, n - n % sizeof(*old));
	munmap(m, n);
}

bool ktr_filestate__open(bool shared)
{
	struct stat st;
	int fd;

	if (!shared || geteuid() != 0)
		return false;
	snprintf(state_path, sizeof(state_path), KTR_RUN_DIR "/ktraceb-%s.files", KTRACEB_BUILD_ID);
	fd = open(state_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & 077)) {
		close(fd);
		return false;
	}
	filestate__keep_old(fd, &st);
	/* ours from now on: empty, as big as every route (pages only where files are) */
	if (ftruncate(fd, 0) < 0 || ftruncate(fd, STATE_BYTES) < 0) {
		close(fd);
		return false;
	}
	state = mmap(NULL, STATE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (state == MAP_FAILED)
		state = NULL;
	return state != NULL;
}

void ktr_filestate__close(bool remove)
{
	/* left mapped: a writer stuck in its file may still store into its slot */
	state = NULL;
	free(old);
	old = NULL;
	if (remove && state_path[0])
		unlink(state_path);
}

void ktr_filestate__left(void (*fn)(void *ctx, __u32 route, const struct ktr_filestate_slot *s),
			 void *ctx)
{
	for (__u32 r = 1; old && r < KTR_MAX_ROUTES; r++) {
		struct ktr_filestate_slot *s = &old[r];

		if (s->magic != KTR_FILESTATE_MAGIC)
			continue;
		s->path[sizeof(s->path) - 1] = '\0';
		fn(ctx, r, s);
		s->magic = 0;
	}
}

const struct ktr_filestate_slot *ktr_filestate__old(__u32 route, dev_t dev, ino_t ino)
{
	const struct ktr_filestate_slot *s = old && route < KTR_MAX_ROUTES ? &old[route] : NULL;

	return s && s->magic == KTR_FILESTATE_MAGIC && s->dev == dev && s->ino == ino ? s : NULL;
}

__u64 *ktr_filestate__set(__u32 r, uid_t uid, gid_t gid, dev_t dev, ino_t ino, unsigned int flags,
			  const char *path, __u64 committed)
{
	struct ktr_filestate_slot *s;

	if (!state || r == 0 || r >= KTR_MAX_ROUTES || strlen(path) >= sizeof(s->path))
		return NULL;
	s = &state[r];
	memset(s, 0, sizeof(*s));
	s->flags = flags;
	s->uid = uid;
	s->gid = gid;
	s->dev = dev;
	s->ino = ino;
	s->committed = committed;
	strcpy(s->path, path);
	__atomic_store_n(&s->magic, KTR_FILESTATE_MAGIC, __ATOMIC_RELEASE);
	return &s->committed;
}

void ktr_filestate__clear(__u32 r)
{
	if (state && r > 0 && r < KTR_MAX_ROUTES)
		memset(&state[r], 0, sizeof(state[r]));
}
