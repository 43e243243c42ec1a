// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* kdump -y: the processes' descriptor tables and their open files (kdump_fdtab.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "kdump_fdtab.h"

/* --- files -------------------------------------------------------------------- */

struct kd_file *kd_file__new(unsigned int kind)
{
	struct kd_file *f = calloc(1, sizeof(*f));

	if (f) {
		f->refs = 1;
		f->kind = kind;
	}
	return f;
}

void kd_file__put(struct kd_file *f)
{
	if (!f || --f->refs)
		return;
	free(f->path);
	free(f);
}

static struct kd_file *ent_file(const struct kd_map_ent *e)
{
	return e ? (struct kd_file *)(uintptr_t)e->v1 : NULL;
}

/* --- tables ---------------------------------------------------------------------- */

static struct kd_fdtab *tab__new(void)
{
	struct kd_fdtab *t = calloc(1, sizeof(*t));

	if (t)
		t->refs = 1;
	return t;
}

static void tab__put(struct kd_fdtab *t)
{
	if (!t || --t->refs)
		return;
	for (size_t i = 0; i < t->fds.cap; i++)
		if (t->fds.ents[i].used)
			kd_file__put(ent_file(&t->fds.ents[i]));
	kd_map__free(&t->fds);
	free(t);
}

static void proc__free(struct kd_fdproc *p)
{
	if (!p)
		return;
	tab__put(p->tab);
	free(p->cwd);
	free(p);
}

struct kd_fdproc *kd_fdtabs__proc(struct kd_fdtabs *fs, __s32 pid)
{
	struct kd_map_ent *e = kd_map__add(&fs->procs, pid);
	struct kd_fdproc *p;

	if (!e)
		return NULL;
	if (e->v1)
		return (struct kd_fdproc *)(uintptr_t)e->v1;
	p = calloc(1, sizeof(*p));
	if (p && !(p->tab = tab__new())) {
		free(p);
		p = NULL;
	}
	if (p)
		e->v1 = (__u64)(uintptr_t)p;
	return p;
}

void kd_fdtabs__drop(struct kd_fdtabs *fs, __s32 pid)
{
	struct kd_map_ent *e = kd_map__get(&fs->procs, pid);

	if (!e)
		return;
	proc__free((struct kd_fdproc *)(uintptr_t)e->v1);
	e->v1 = 0;
}

void kd_fdtabs__free(struct kd_fdtabs *fs)
{
	for (size_t i = 0; i < fs->procs.cap; i++)
		if (fs->procs.ents[i].used)
			proc__free((struct kd_fdproc *)(uintptr_t)fs->procs.ents[i].v1);
	kd_map__free(&fs->procs);
	for (size_t i = 0; i < fs->calls.cap; i++)
		if (fs->calls.ents[i].used)
			kd_fdcall__free((struct kd_fdcall *)(uintptr_t)fs->calls.ents[i].v1);
	kd_map__free(&fs->calls);
	kd_fdpeer__free(fs);
}

struct kd_file *kd_fdproc__file(const struct kd_fdproc *p, int fd)
{
	return p && fd >= 0 ? ent_file(kd_map__get(&p->tab->fds, fd)) : NULL;
}

int kd_fdproc__set(struct kd_fdproc *p, int fd, struct kd_file *f, bool cloexec)
{
	struct kd_map_ent *e;

	if (fd < 0)
		return 0;
	e = kd_map__add(&p->tab->fds, fd);
	if (!e)
		return -ENOMEM;
	f->refs++;
	kd_file__put(ent_file(e));
	e->v1 = (__u64)(uintptr_t)f;
	e->v2 = cloexec;
	return 0;
}

void kd_fdproc__close(struct kd_fdproc *p, int fd)
{
	struct kd_map_ent *e = fd >= 0 ? kd_map__get(&p->tab->fds, fd) : NULL;

	if (!e)
		return;
	kd_file__put(ent_file(e));
	e->v1 = 0;
	e->v2 = 0;
}

void kd_fdproc__cloexec(struct kd_fdproc *p, int fd, bool on)
{
	struct kd_map_ent *e = fd >= 0 ? kd_map__get(&p->tab->fds, fd) : NULL;

	if (e && e->v1)
		e->v2 = on;
}

void kd_fdproc__close_range(struct kd_fdproc *p, __u32 first, __u32 last, bool cloexec)
{
	struct kd_map *m = &p->tab->fds;

	for (size_t i = 0; i < m->cap; i++) {
		struct kd_map_ent *e = &m->ents[i];

		if (!e->used || !e->v1 || (__u32)e->key < first || (__u32)e->key > last)
			continue;
		if (cloexec) {
			e->v2 = 1;
			continue;
		}
		kd_file__put(ent_file(e));
		e->v1 = 0;
		e->v2 = 0;
	}
}

void kd_fdproc__exec(struct kd_fdproc *p)
{
	struct kd_map *m = &p->tab->fds;

	for (size_t i = 0; i < m->cap; i++) {
		struct kd_map_ent *e = &m->ents[i];

		if (e->used && e->v1 && e->v2) {
			kd_file__put(ent_file(e));
			e->v1 = 0;
			e->v2 = 0;
		}
	}
}

/* Every descriptor of from that to does not have, copied into to. */
static int tab__merge(struct kd_fdtab *to, const struct kd_fdtab *from)
{
	for (size_t i = 0; i < from->fds.cap; i++) {
		const struct kd_map_ent *e = &from->fds.ents[i];
		struct kd_map_ent *n;

		if (!e->used || !e->v1)
			continue;
		n = kd_map__add(&to->fds, e->key);
		if (!n)
			return -ENOMEM;
		if (n->v1)
			continue;
		ent_file(e)->refs++;
		n->v1 = e->v1;
		n->v2 = e->v2;
	}
	return 0;
}

int kd_fdproc__inherit(struct kd_fdtabs *fs, const struct kd_fdproc *parent, __s32 child,
		       bool share)
{
	struct kd_fdproc *c = kd_fdtabs__proc(fs, child);
	int err;

	if (!c)
		return -ENOMEM;
	if (c == parent)
		return 0;
	if (!c->cwd && parent->cwd && !(c->cwd = strdup(parent->cwd)))
		return -ENOMEM;
	if (c->tab == parent->tab)
		return 0;
	if (!share)
		return tab__merge(c->tab, parent->tab);
	/* one table from now on: what the child already made goes into it */
	err = tab__merge(parent->tab, c->tab);
	if (err)
		return err;
	tab__put(c->tab);
	c->tab = parent->tab;
	c->tab->refs++;
	return 0;
}

/* --- paths ------------------------------------------------------------------------ */

char *kd_path_join(const char *base, const char *path, size_t len)
{
	size_t blen = base && (len == 0 || path[0] != '/') ? strlen(base) : 0;
	char *in, *out;
	size_t n = 0, k = 0, i;

	if (!blen && (len == 0 || path[0] != '/'))
		return strndup(path, len); /* relative to what the trace does not know */
	in = malloc(blen + 1 + len + 1);
	out = malloc(blen + 1 + len + 2);
	if (!in || !out) {
		free(in);
		free(out);
		return NULL;
	}
	if (blen)
		memcpy(in, base, blen);
	n = blen;
	in[n++] = '/';
	memcpy(in + n, path, len);
	n += len;
	/* each component: none for "" and ".", one less for "..", else one more */
	for (i = 0; i < n;) {
		size_t j = i, c;

		while (j < n && in[j] != '/')
			j++;
		c = j - i;
		if (c == 2 && in[i] == '.' && in[i + 1] == '.') {
			while (k > 0 && out[k - 1] != '/')
				k--;
			if (k > 0)
				k--; /* its slash */
		} else if (c && !(c == 1 && in[i] == '.')) {
			out[k++] = '/';
			memcpy(out + k, in + i, c);
			k += c;
		}
		i = j + 1;
	}
	if (k == 0)
		out[k++] = '/';
	out[k] = '\0';
	free(in);
	return out;
}

/* --- names ----------------------------------------------------------------------- */

struct namebuf {
	char *s;
	size_t size, n;
};

static void put_bytes(struct namebuf *b, const char *p, size_t len)
{
	for (size_t i = 0; i < len && b->n + 1 < b->size; i++)
		b->s[b->n++] = p[i];
	b->s[b->n] = '\0';
}

static void put_str(struct namebuf *b, const char *s)
{
	put_bytes(b, s, strlen(s));
}

/* A path as strace escapes it in -y: octal for what is not printable, and for <, > and \ */
static void put_path(struct namebuf *b, const char *s)
{
	char oct[8];

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c < 0x7f && c != '<' && c != '>' && c != '\\') {
			put_bytes(b, (const char *)&c, 1);
		} else {
			snprintf(oct, sizeof(oct), "\\%o", c);
			put_str(b, oct);
		}
	}
}

static void put_serial(struct namebuf *b, unsigned long serial)
{
	char num[24];

	snprintf(num, sizeof(num), "#%lu", serial);
	put_str(b, num);
}

/* f's number: its inode when a KTR_FD said it, as strace shows it; else kdump's "#n" */
static void put_id(struct namebuf *b, const struct kd_file *f)
{
	char num[24];

	if (!f->ino) {
		put_serial(b, f->serial);
		return;
	}
	snprintf(num, sizeof(num), "%llu", (unsigned long long)f->ino);
	put_str(b, num);
}

/* "127.0.0.1:8080", "[::1]:8080", "\"/path\"": false if there is nothing to say */
static bool put_addr(struct namebuf *b, const unsigned char *sa, unsigned int len)
{
	char text[INET6_ADDRSTRLEN + 16], host[INET6_ADDRSTRLEN];
	sa_family_t family;

	if (len < sizeof(family))
		return false;
	memcpy(&family, sa, sizeof(family));
	if (family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in in;

		memcpy(&in, sa, sizeof(in));
		inet_ntop(AF_INET, &in.sin_addr, host, sizeof(host));
		snprintf(text, sizeof(text), "%s:%u", host, ntohs(in.sin_port));
	} else if (family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 in6;

		memcpy(&in6, sa, sizeof(in6));
		inet_ntop(AF_INET6, &in6.sin6_addr, host, sizeof(host));
		snprintf(text, sizeof(text), "[%s]:%u", host, ntohs(in6.sin6_port));
	} else if (family == AF_UNIX && len > sizeof(family)) {
		const char *p = (const char *)sa + sizeof(family);
		size_t n = strnlen(p, len - sizeof(family));

		if (n == 0) /* abstract: a NUL, then the name */
			return false;
		put_str(b, "\"");
		put_bytes(b, p, n);
		put_str(b, "\"");
		return true;
	} else {
		return false;
	}
	put_str(b, text);
	return true;
}

/* -yy's protocol, as strace's sock_diag names it: "TCP", "UDPv6", "UNIX-STREAM" */
static const char *sock_proto(const struct kd_file *f)
{
	int type = f->type & 0xf; /* SOCK_TYPE_MASK */
	bool v6 = f->family == AF_INET6;

	switch (f->family) {
	case AF_INET:
	case AF_INET6:
		if (type == SOCK_STREAM)
			return v6 ? "TCPv6" : "TCP";
		if (type == SOCK_DGRAM)
			return v6 ? "UDPv6" : "UDP";
		return v6 ? "RAWv6" : "RAW";
	case AF_UNIX:
		return type == SOCK_STREAM    ? "UNIX-STREAM" :
		       type == SOCK_DGRAM     ? "UNIX-DGRAM" :
		       type == SOCK_SEQPACKET ? "UNIX-SEQPACKET" :
						"UNIX";
	case AF_NETLINK:
		return "NETLINK";
	}
	return NULL;
}

/*
 * -yy: "PROTO:[local->remote]", what of it is known: "[local]" alone, "[#n]"
 * (kdump's number) when no address is, "?" for a side not known; a socket
 * pair's "[#n->#m]".
 */
static void put_socket(struct namebuf *b, const struct kd_file *f)
{
	const char *proto = sock_proto(f);
	size_t mark;

	if (!proto) {
		put_str(b, "socket:[");
		put_id(b, f);
		put_str(b, "]");
		return;
	}
	put_str(b, proto);
	put_str(b, ":[");
	if (f->peer) {
		put_id(b, f);
		put_str(b, "->");
		put_serial(b, f->peer);
		put_str(b, "]");
		return;
	}
	mark = b->n;
	if (!put_addr(b, f->local, f->llen)) {
		if (f->rlen)
			put_str(b, "?");
		else
			put_id(b, f);
	}
	if (b->n > mark && f->rlen) {
		mark = b->n;
		put_str(b, "->");
		if (!put_addr(b, f->remote, f->rlen)) {
			b->n = mark;
			b->s[b->n] = '\0';
		}
	}
	put_str(b, "]");
}

size_t kd_file__name(const struct kd_file *f, bool sockets, char *buf, size_t size, bool *deleted)
{
	struct namebuf b = { buf, size, 0 };

	*deleted = false;
	if (size == 0)
		return 0;
	buf[0] = '\0';
	switch (f->kind) {
	case KD_FILE_PATH:
		put_path(&b, f->path ? f->path : "?");
		if (f->cut)
			put_str(&b, "...");
		*deleted = f->deleted;
		break;
	case KD_FILE_ANON:
		put_str(&b, f->path ? f->path : "anon_inode:?");
		break;
	case KD_FILE_PIPE:
		put_str(&b, "pipe:[");
		put_id(&b, f);
		put_str(&b, "]");
		break;
	case KD_FILE_SOCKET:
		if (sockets) {
			put_socket(&b, f);
		} else {
			put_str(&b, "socket:[");
			put_id(&b, f);
			put_str(&b, "]");
		}
		break;
	}
	return b.n;
}

size_t kd_fdproc__name(const struct kd_fdproc *p, int fd, bool sockets, char *buf, size_t size,
		       bool *deleted)
{
	struct namebuf b = { buf, size, 0 };
	const struct kd_file *f;

	*deleted = false;
	if (!p || size == 0)
		return 0;
	buf[0] = '\0';
	if (fd == AT_FDCWD) {
		if (p->cwd)
			put_path(&b, p->cwd);
		return b.n;
	}
	f = kd_fdproc__file(p, fd);
	return f ? kd_file__name(f, sockets, buf, size, deleted) : 0;
}
