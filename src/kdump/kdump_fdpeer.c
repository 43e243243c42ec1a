// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -yy: a connected TCP socket's own address, which the kernel picks
 * and the trace holds only if the program asks (getsockname), learned from
 * the other end when the trace has it too: the accept whose listening
 * socket has the address the socket connected to gives the peer's address
 * it saw, which is the connecting socket's own.  Only when one socket of
 * the trace waits on that address, so that the guess cannot pick the wrong
 * one (kdump_fdtab.h).
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "kdump_fdtab.h"

/* The bytes of an IPv4 or IPv6 address and port: family, port, and address */
static bool addr_key(const unsigned char *sa, unsigned int len, unsigned char key[20], size_t *klen)
{
	sa_family_t family;

	if (len < sizeof(family))
		return false;
	memcpy(&family, sa, sizeof(family));
	if (family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		memcpy(key, sa, 8); /* family, port, address */
		*klen = 8;
		return true;
	}
	if (family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		memcpy(key, sa, 4); /* family, port */
		memcpy(key + 4, sa + offsetof(struct sockaddr_in6, sin6_addr), 16);
		*klen = 20;
		return true;
	}
	return false;
}

static __s32 key_hash(const unsigned char *key, size_t klen)
{
	__u32 h = 2166136261u;

	for (size_t i = 0; i < klen; i++)
		h = (h ^ key[i]) * 16777619u;
	return (__s32)h;
}

static bool same_addr(const unsigned char *a, unsigned int alen, const unsigned char *b,
		      unsigned int blen)
{
	unsigned char ka[20], kb[20];
	size_t na, nb;

	return addr_key(a, alen, ka, &na) && addr_key(b, blen, kb, &nb) && na == nb &&
	       memcmp(ka, kb, na) == 0;
}

int kd_fdpeer__connected(struct kd_fdtabs *fs, struct kd_file *f)
{
	unsigned char key[20];
	struct kd_map_ent *e;
	struct kd_file *g;
	size_t klen;

	if (f->kind != KD_FILE_SOCKET || (f->type & 0xf) != SOCK_STREAM || f->llen ||
	    !addr_key(f->remote, f->rlen, key, &klen))
		return 0;
	e = kd_map__add(&fs->waiting, key_hash(key, klen));
	if (!e)
		return -ENOMEM;
	g = (struct kd_file *)(uintptr_t)e->v1;
	/* one that has its address now, or that only this list still holds, waits no more */
	if (g && (g->llen || g->refs == 1)) {
		kd_file__put(g);
		g = NULL;
		e->v1 = 0;
		e->v2 = 0;
	}
	if (g && g != f) {
		e->v2 = 1; /* two wait on the same address: neither is guessed */
		return 0;
	}
	if (!g) {
		f->refs++;
		e->v1 = (__u64)(uintptr_t)f;
	}
	return 0;
}

void kd_fdpeer__accepted(struct kd_fdtabs *fs, const struct kd_file *a)
{
	unsigned char key[20];
	struct kd_map_ent *e;
	struct kd_file *g;
	size_t klen;

	if (!a->rlen || !addr_key(a->local, a->llen, key, &klen))
		return;
	e = kd_map__get(&fs->waiting, key_hash(key, klen));
	g = e ? (struct kd_file *)(uintptr_t)e->v1 : NULL;
	if (!g)
		return;
	if (!e->v2 && !g->llen && same_addr(g->remote, g->rlen, a->local, a->llen) &&
	    a->rlen <= KD_SA_MAX) {
		memcpy(g->local, a->remote, a->rlen);
		g->llen = a->rlen;
	}
	kd_file__put(g);
	e->v1 = 0;
	e->v2 = 0;
}

void kd_fdpeer__free(struct kd_fdtabs *fs)
{
	for (size_t i = 0; i < fs->waiting.cap; i++)
		if (fs->waiting.ents[i].used)
			kd_file__put((struct kd_file *)(uintptr_t)fs->waiting.ents[i].v1);
	kd_map__free(&fs->waiting);
}
