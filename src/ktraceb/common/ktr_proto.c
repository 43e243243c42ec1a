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

int ktr_proto__recv(int sock, void *msg, size_t len, int *fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t n;

	if (fd)
		*fd = -1;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		int got;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		memcpy(&got, CMSG_DATA(c), sizeof(int));
		if (fd && *fd < 0)
			*fd = got;
		else
			close(got);
	}
	if (n == 0)
		return -ECONNRESET;
	if ((size_t)n != len || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		if (fd && *fd >= 0) {
			close(*fd);
			*fd = -1;
		}
		return -EBADMSG;
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
