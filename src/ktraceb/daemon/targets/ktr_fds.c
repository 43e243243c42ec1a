// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* A process's descriptors when its trace began, as KTR_FD records (ktr_fds.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ktraceb/ktr.h"
#include "daemon/files/ktr_tracefile.h"
#include "daemon/ktr_clock.h"
#include "ktr_fds.h"
#include "daemon/ktr_record.h"

#define LINK_TEXT_MAX 4096 /* the most of a link's text kept: KTR_PATH_MAX */

/* One descriptor, as its link says, with what net/ adds for a socket. */
struct fd_ent {
	struct ktr_fd r;
	char *name; /* PATH, ANON: the link's text */
	unsigned char local[KTR_FD_SA_MAX], remote[KTR_FD_SA_MAX];
};

static int ent_by_fd(const void *a, const void *b)
{
	const struct fd_ent *x = a, *y = b;

	return (x->r.kf_fd > y->r.kf_fd) - (x->r.kf_fd < y->r.kf_fd);
}

/* "pipe:[123]" and the like: the inode after prefix, or 0. */
static __u64 link_ino(const char *link, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	unsigned long long v;

	if (strncmp(link, prefix, n) != 0)
		return 0;
	v = strtoull(link + n, &end, 10);
	return strcmp(end, "]") == 0 ? v : 0;
}

/* What the link says the descriptor is; 0, or -ENOMEM. */
static int ent_from_link(struct fd_ent *e, const char *link)
{
	size_t n = strlen(link);

	if ((e->r.kf_ino = link_ino(link, "socket:[")) != 0) {
		e->r.kf_kind = KTR_FD_SOCKET;
		return 0;
	}
	if ((e->r.kf_ino = link_ino(link, "pipe:[")) != 0) {
		e->r.kf_kind = KTR_FD_PIPE;
		return 0;
	}
	e->r.kf_kind = strncmp(link, "anon_inode:", 11) == 0 ? KTR_FD_ANON : KTR_FD_PATH;
	if (e->r.kf_kind == KTR_FD_PATH && n > 10 && link[0] == '/' &&
	    strcmp(link + n - 10, " (deleted)") == 0) {
		e->r.kf_flags |= KTR_FD_F_DELETED;
		n -= 10;
	}
	e->name = strndup(link, n);
	return e->name ? 0 : -ENOMEM;
}

/* A file below the process's /proc directory, to read by lines; NULL if it cannot be read. */
static FILE *open_below(int dir, const char *path)
{
	int d = openat(dir, path, O_RDONLY | O_CLOEXEC);
	FILE *f = d >= 0 ? fdopen(d, "re") : NULL;

	if (!f && d >= 0)
		close(d);
	return f;
}

/* fdinfo's "flags:" (octal) has O_CLOEXEC. */
static bool fd_cloexec(int dir, int fd)
{
	char path[48], line[128];
	bool on = false;
	FILE *f;

	snprintf(path, sizeof(path), "fdinfo/%d", fd);
	f = open_below(dir, path);
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "flags:", 6) == 0)
			on = strtoul(line + 6, NULL, 8) & O_CLOEXEC;
	fclose(f);
	return on;
}

/* The descriptors in /proc/PID/fd, sorted; their count, or -errno; *left: past the bound. */
static int fds_read(int dir, struct fd_ent **out, __u64 *left)
{
	struct fd_ent *v = calloc(KTR_FD_MAX, sizeof(*v));
	char link[LINK_TEXT_MAX + 1];
	struct dirent *de;
	int n = 0, d;
	DIR *fds;

	*left = 0;
	d = openat(dir, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fds = d >= 0 ? fdopendir(d) : NULL;
	if (!v || !fds) {
		if (d >= 0 && !fds)
			close(d);
		free(v);
		return v ? -ESRCH : -ENOMEM;
	}
	while ((de = readdir(fds))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);
		ssize_t len;

		if (de->d_name[0] == '.' || *end || fd < 0 || fd > INT_MAX)
			continue;
		if (n == KTR_FD_MAX) {
			(*left)++;
			continue;
		}
		len = readlinkat(dirfd(fds), de->d_name, link, LINK_TEXT_MAX);
		if (len <= 0)
			continue; /* closed meanwhile */
		link[len] = '\0';
		v[n].r.kf_fd = (__s32)fd;
		if (ent_from_link(&v[n], link) < 0)
			break;
		if (fd_cloexec(dir, (int)fd))
			v[n].r.kf_flags |= KTR_FD_F_CLOEXEC;
		n++;
	}
	closedir(fds);
	qsort(v, n, sizeof(*v), ent_by_fd);
	*out = v;
	return n;
}

static struct fd_ent *socket_by_ino(struct fd_ent *v, int n, __u64 ino)
{
	for (int i = 0; i < n; i++)
		if (v[i].r.kf_kind == KTR_FD_SOCKET && v[i].r.kf_ino == ino)
			return &v[i];
	return NULL;
}

static bool has_socket(const struct fd_ent *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i].r.kf_kind == KTR_FD_SOCKET)
			return true;
	return false;
}

/* "0100007F:1F90" (net/tcp) or its 32-digit IPv6 form into sa; its length, 0 if bad. */
static unsigned int inet_addr_parse(const char *s, bool v6, unsigned char *sa)
{
	unsigned int port;
	char hex[33];

	if (sscanf(s, "%32[0-9A-Fa-f]:%x", hex, &port) != 2 || strlen(hex) != (v6 ? 32u : 8u))
		return 0;
	if (!v6) {
		struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(port) };

		/* the kernel prints the address's 32 bits as it holds them (%08X) */
		in.sin_addr.s_addr = (__u32)strtoul(hex, NULL, 16);
		memcpy(sa, &in, sizeof(in));
		return sizeof(in);
	}
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(port) };

	for (int i = 3; i >= 0; i--) {
		__u32 w = (__u32)strtoul(hex + 8 * i, NULL, 16);

		memcpy(&in6.sin6_addr.s6_addr[4 * i], &w, sizeof(w));
		hex[8 * i] = '\0';
	}
	memcpy(sa, &in6, sizeof(in6));
	return sizeof(in6);
}

/* Is sa (len bytes) a zero address and port (a socket with no peer)? */
static bool inet_unset(const unsigned char *sa, unsigned int len)
{
	for (unsigned int i = sizeof(sa_family_t); i < len; i++)
		if (sa[i])
			return false;
	return true;
}

/* net/tcp, tcp6, udp, udp6: the sockets of v they list. */
static void net_inet(int dir, const char *file, int type, bool v6, struct fd_ent *v, int n)
{
	char path[32], line[512], local[64], remote[64];
	unsigned long long ino;
	FILE *f;

	snprintf(path, sizeof(path), "net/%s", file);
	f = open_below(dir, path);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct fd_ent *e;

		/* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, " %*s %63s %63s %*s %*s %*s %*s %*s %*s %llu", local, remote,
			   &ino) != 3 ||
		    !(e = socket_by_ino(v, n, ino)))
			continue;
		e->r.kf_family = v6 ? AF_INET6 : AF_INET;
		e->r.kf_type = (__u16)type;
		e->r.kf_llen = (__u16)inet_addr_parse(local, v6, e->local);
		e->r.kf_rlen = (__u16)inet_addr_parse(remote, v6, e->remote);
		if (inet_unset(e->remote, e->r.kf_rlen))
			e->r.kf_rlen = 0;
	}
	fclose(f);
}

/* net/unix: its type and its bound path, if it has one. */
static void net_unix(int dir, struct fd_ent *v, int n)
{
	char line[512 + 108], path[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	unsigned long long ino;
	unsigned int type;
	FILE *f = open_below(dir, "net/unix");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		struct fd_ent *e;
		int k;

		/* Num RefCount Protocol Flags Type St Inode [Path] */
		path[0] = '\0';
		k = sscanf(line, "%*s %*s %*s %*s %x %*s %llu %108s", &type, &ino, path);
		if (k < 2 || !(e = socket_by_ino(v, n, ino)))
			continue;
		e->r.kf_family = AF_UNIX;
		e->r.kf_type = (__u16)type;
		if (k == 3 && path[0] == '/') { /* "@name" is abstract: not shown */
			memcpy(un.sun_path, path, strlen(path));
			e->r.kf_llen = (__u16)(sizeof(sa_family_t) + strlen(path) + 1);
			memcpy(e->local, &un, e->r.kf_llen);
		}
	}
	fclose(f);
}

static void fds_write(struct ktr_tracefile *f, const struct fd_ent *e, pid_t pid, const char *comm)
{
	unsigned char buf[sizeof(e->r) + 2 * KTR_FD_SA_MAX + LINK_TEXT_MAX + 1];
	size_t len = sizeof(e->r), n = e->name ? strlen(e->name) + 1 : 0;
	struct ktr_header h;

	memcpy(buf, &e->r, sizeof(e->r));
	memcpy(buf + len, e->local, e->r.kf_llen);
	len += e->r.kf_llen;
	memcpy(buf + len, e->remote, e->r.kf_rlen);
	len += e->r.kf_rlen;
	memcpy(buf + len, e->name ? e->name : "", n);
	len += n;
	ktr_record__header(&h, KTR_FD, len, 0, pid, pid, comm, ktr_mono_ns());
	ktr_tracefile__append_made(f, &h, buf, ktr_wall_offset_ns());
}

void ktr_fds__write(struct ktr_tracefile *f, int dir, pid_t pid, const char *comm)
{
	struct fd_ent *v = NULL;
	__u64 left;
	int n = fds_read(dir, &v, &left);

	if (n < 0)
		return;
	if (has_socket(v, n)) {
		net_inet(dir, "tcp", SOCK_STREAM, false, v, n);
		net_inet(dir, "tcp6", SOCK_STREAM, true, v, n);
		net_inet(dir, "udp", SOCK_DGRAM, false, v, n);
		net_inet(dir, "udp6", SOCK_DGRAM, true, v, n);
		net_unix(dir, v, n);
	}
	for (int i = 0; i < n; i++)
		fds_write(f, &v[i], pid, comm);
	if (left) {
		struct fd_ent e = { .r = { .kf_fd = -1, .kf_kind = KTR_FD_LEFT, .kf_ino = left } };

		fds_write(f, &e, pid, comm);
	}
	for (int i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}
