// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ktr_proto.h"

int ktr_proto__send(int sock, const void *msg, size_t len, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EMSGSIZE;
}

#ifndef SCM_PIDFD
#define SCM_PIDFD 0x04 /* Linux 6.5, with SO_PASSPIDFD: a descriptor too */
#endif

/*
 * The descriptors of one control message, the first kept in fds->fd
 * (when fds wants it and has none yet), the others closed; a header
 * whose length runs past what was received is taken as far as it goes.
 */
static void proto__take_fds(const struct cmsghdr *c, const char *end, struct ktr_proto_fds *fds,
			    bool keep)
{
	const unsigned char *p = CMSG_DATA(c);
	size_t len = c->cmsg_len > CMSG_LEN(0) ? c->cmsg_len - CMSG_LEN(0) : 0;

	if ((const char *)p + len > end)
		len = (const char *)p < end ? (size_t)(end - (const char *)p) : 0;
	for (size_t off = 0; off + sizeof(int) <= len; off += sizeof(int)) {
		int got;

		memcpy(&got, p + off, sizeof(int));
		fds->n++;
		if (got < 0)
			continue;
		if (keep && fds->fd < 0)
			fds->fd = got;
		else
			close(got);
	}
}

int ktr_proto__recv(int sock, void *msg, size_t len, struct ktr_proto_fds *fds)
{
	union {
		char buf[CMSG_SPACE(KTR_PROTO_FDS_ROOM * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct ktr_proto_fds none;
	struct cmsghdr *c;
	ssize_t n;

	if (!fds)
		fds = &none;
	*fds = (struct ktr_proto_fds){ .fd = -1 };
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	/* every descriptor installed is counted, and closed unless it is the one kept */
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    (c->cmsg_type == SCM_RIGHTS || c->cmsg_type == SCM_PIDFD))
			proto__take_fds(c, ctl.buf + mh.msg_controllen, fds,
					fds != &none && c->cmsg_type == SCM_RIGHTS);
	fds->cut = mh.msg_flags & MSG_CTRUNC;
	if (n == 0 || (size_t)n != len || (mh.msg_flags & MSG_TRUNC)) {
		if (fds->fd >= 0)
			close(fds->fd);
		fds->fd = -1;
		return n == 0 ? -ECONNRESET : -EBADMSG;
	}
	return 0;
}

void ktr_proto__msg_add(char *msg, const char *fmt, ...)
{
	size_t used = strlen(msg);
	va_list ap;

	if (used >= KTR_REPLY_MSG_MAX - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(msg + used, KTR_REPLY_MSG_MAX - used, fmt, ap);
	va_end(ap);
}

socklen_t ktr_proto__addr(struct sockaddr_un *addr, const char *name)
{
	size_t n = strlen(name);

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if (n > sizeof(addr->sun_path) - 1)
		n = sizeof(addr->sun_path) - 1;
	if (name[0] == '/') {
		memcpy(addr->sun_path, name, n);
		return offsetof(struct sockaddr_un, sun_path) + n + 1;
	}
	memcpy(addr->sun_path + 1, name, n); /* sun_path[0] == 0: abstract */
	return offsetof(struct sockaddr_un, sun_path) + 1 + n;
}
