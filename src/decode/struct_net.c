// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* KTR_STRUCT printers for sockets, I/O vectors and polling. */
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <poll.h>
#include <sys/epoll.h>
#include "struct_int.h"

#ifndef POLLRDHUP
#define POLLRDHUP 0x2000
#endif

static void sa_inet(FILE *out, const unsigned char *p, size_t len)
{
	char buf[INET_ADDRSTRLEN];
	__u16 port;

	memcpy(&port, p + 2, sizeof(port));
	inet_ntop(AF_INET, p + 4, buf, sizeof(buf));
	fprintf(out, " %s:%u", buf, ntohs(port));
}

static void sa_inet6(FILE *out, const unsigned char *p, size_t len)
{
	char buf[INET6_ADDRSTRLEN];
	__u32 scope = 0;
	__u16 port;

	memcpy(&port, p + 2, sizeof(port));
	inet_ntop(AF_INET6, p + 8, buf, sizeof(buf));
	if (len >= 28)
		memcpy(&scope, p + 24, sizeof(scope));
	fprintf(out, " [%s", buf);
	if (scope)
		fprintf(out, "%%%u", scope);
	fprintf(out, "]:%u", ntohs(port));
}

/* sun_path: a path up to its NUL, "@name" for the abstract namespace */
static void sa_unix(FILE *out, const unsigned char *p, size_t len)
{
	const char *path = (const char *)p + 2;

	if (len == 2) {
		fputs(" unnamed", out);
	} else if (path[0] == 0) {
		fputs(" @", out);
		ktr_print_cstr(out, path + 1, len - 3, true);
	} else {
		fputc(' ', out);
		ktr_print_cstr(out, path, len - 2, false);
	}
}

static void sa_netlink(FILE *out, const unsigned char *p, size_t len)
{
	__u32 v[2];

	memcpy(v, p + 4, sizeof(v));
	fprintf(out, " pid=%u, groups=%#x", v[0], v[1]);
}

static void sa_packet(FILE *out, const unsigned char *p, size_t len)
{
	__u16 proto;
	__s32 ifindex;

	memcpy(&proto, p + 2, sizeof(proto));
	memcpy(&ifindex, p + 4, sizeof(ifindex));
	fprintf(out, " proto=%#06x, ifindex=%d", ntohs(proto), ifindex);
}

static void sa_other(FILE *out, const unsigned char *p, size_t len)
{
	fputs(" data=", out);
	for (size_t i = 2; i < len && i < 2 + 64; i++)
		fprintf(out, "%02x", p[i]);
	if (len > 2 + 64)
		fputs("...", out);
}

static void print_sockaddr(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	__u16 family;

	memcpy(&family, p, sizeof(family));
	ktr_field(f, NULL);
	ktr_print_enum(out, &ktr_af_tab, family, flags);
	if (family == AF_INET && len >= 8)
		sa_inet(out, p, len);
	else if (family == AF_INET6 && len >= 24)
		sa_inet6(out, p, len);
	else if (family == AF_UNIX)
		sa_unix(out, p, len);
	else if (family == AF_NETLINK && len >= 12)
		sa_netlink(out, p, len);
	else if (family == AF_PACKET && len >= 8)
		sa_packet(out, p, len);
	else
		sa_other(out, p, len);
}

struct k_msghdr {
	__u64 name;
	__u32 namelen, pad;
	__u64 iov, iovlen, control, controllen;
	__s32 flags, pad2;
};
_Static_assert(sizeof(struct k_msghdr) == 56, "x86_64 struct msghdr");

static void print_msghdr(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	struct k_msghdr m;

	memcpy(&m, p, sizeof(m));
	ktr_field_hex(f, "name", m.name);
	ktr_field_u64(f, "namelen", m.namelen);
	ktr_field_hex(f, "iov", m.iov);
	ktr_field_u64(f, "iovlen", m.iovlen);
	ktr_field_hex(f, "control", m.control);
	ktr_field_u64(f, "controllen", m.controllen);
	ktr_field_mask(f, "flags", &ktr_msg_flags_tab, (__u32)m.flags, flags);
}

static void print_iovec(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__u64 v[2];

	memcpy(v, p, sizeof(v));
	ktr_field_hex(f, "base", v[0]);
	ktr_field_u64(f, "len", v[1]);
}

static const struct ktr_sym poll_sym[] = {
	KTR_SYM(POLLIN),     KTR_SYM(POLLPRI),	  KTR_SYM(POLLOUT),    KTR_SYM(POLLERR),
	KTR_SYM(POLLHUP),    KTR_SYM(POLLNVAL),	  KTR_SYM(POLLRDNORM), KTR_SYM(POLLRDBAND),
	KTR_SYM(POLLWRNORM), KTR_SYM(POLLWRBAND), KTR_SYM(POLLMSG),    { 0x1000, "POLLREMOVE" },
	KTR_SYM(POLLRDHUP),
};
const struct ktr_symtab ktr_poll_events_tab = KTR_SYMTAB(poll_sym);

static void print_pollfd(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s32 fd;
	__u16 ev[2];

	memcpy(&fd, p, sizeof(fd));
	memcpy(ev, p + 4, sizeof(ev));
	ktr_field_s64(f, "fd", fd);
	ktr_field_mask(f, "events", &ktr_poll_events_tab, ev[0], flags);
	ktr_field_mask(f, "revents", &ktr_poll_events_tab, ev[1], flags);
}

static const struct ktr_sym epoll_sym[] = {
	KTR_SYM(EPOLLIN),	 KTR_SYM(EPOLLPRI),	KTR_SYM(EPOLLOUT),     KTR_SYM(EPOLLERR),
	KTR_SYM(EPOLLHUP),	 { 0x20, "EPOLLNVAL" }, KTR_SYM(EPOLLRDNORM),  KTR_SYM(EPOLLRDBAND),
	KTR_SYM(EPOLLWRNORM),	 KTR_SYM(EPOLLWRBAND),	KTR_SYM(EPOLLMSG),     KTR_SYM(EPOLLRDHUP),
	KTR_SYM(EPOLLEXCLUSIVE), KTR_SYM(EPOLLWAKEUP),	KTR_SYM(EPOLLONESHOT), KTR_SYM(EPOLLET),
};
const struct ktr_symtab ktr_epoll_events_tab = KTR_SYMTAB(epoll_sym);

/* x86_64 struct epoll_event is packed: 12 bytes */
static void print_epoll_event(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__u32 ev;
	__u64 data;

	memcpy(&ev, p, sizeof(ev));
	memcpy(&data, p + 4, sizeof(data));
	ktr_field_mask(f, "events", &ktr_epoll_events_tab, ev, flags);
	ktr_field_hex(f, "data", data);
}

static void print_linger(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s32 v[2];

	memcpy(v, p, sizeof(v));
	ktr_field_s64(f, "onoff", v[0]);
	ktr_field_s64(f, "linger", v[1]);
}

static void print_ucred(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s32 pid;
	__u32 id[2];

	memcpy(&pid, p, sizeof(pid));
	memcpy(id, p + 4, sizeof(id));
	ktr_field_s64(f, "pid", pid);
	ktr_field_u64(f, "uid", id[0]);
	ktr_field_u64(f, "gid", id[1]);
}

const struct ktr_structdec ktr_structs_net[] = {
	{ "epoll_event", 12, 12 * 4096, 12, print_epoll_event },
	{ "iovec", 16, 16 * 1024, 16, print_iovec },
	{ "linger", 8, 8, 0, print_linger },
	{ "msghdr", 56, 56, 0, print_msghdr },
	{ "pollfd", 8, 8 * 65536, 8, print_pollfd },
	{ "sockaddr", 2, 128, 0, print_sockaddr },
	{ "ucred", 12, 12, 0, print_ucred },
};
const size_t ktr_nstructs_net = KTR_NELEM(ktr_structs_net);
