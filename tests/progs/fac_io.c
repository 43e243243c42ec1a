// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_io DIR: data through a pipe, a regular file and a UNIX socket pair,
 * with read/write, pread/pwrite, readv/writev, send/recv and sendmsg/recvmsg.
 * Every transfer is reported on stdout as
 *	KEY fd FD ret RET hex HEX
 * where HEX is the bytes the call moved (RET of them), so that t_genio.sh can
 * hold the GIO records against what the program itself did.  The data carry
 * the pid, so no two runs move the same bytes.  The report is buffered and
 * written at exit, after all the transfers.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static char report[1 << 16];
static int pid;

static void put(const char *key, int fd, long ret, const void *buf)
{
	const unsigned char *p = buf;

	printf("%s fd %d ret %ld hex ", key, fd, ret);
	for (long i = 0; i < ret; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* n bytes of binary data, every byte value included, starting at seed */
static void binary(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 97);
}

static void pipe_io(void)
{
	char text[128], buf[256];
	int p[2];
	long r;

	if (pipe(p) < 0)
		return;
	snprintf(text, sizeof(text), "fac_io pipe text pid=%d <ok> ~!@#$%%^&*()_+", pid);
	r = syscall(SYS_write, p[1], text, strlen(text));
	put("pipe_write", p[1], r, text);
	r = syscall(SYS_read, p[0], buf, sizeof(buf));
	put("pipe_read", p[0], r, buf);

	/* writev of three iovecs, readv into three of other sizes */
	char a[32], b[16], c[40], r1[5], r2[7], r3[200], all[256];
	unsigned char bin[8];

	snprintf(a, sizeof(a), "IOV-ONE-%d-", pid);
	binary(bin, sizeof(bin), (unsigned int)pid);
	memcpy(b, "two:", 4);
	memcpy(b + 4, bin, sizeof(bin));
	snprintf(c, sizeof(c), "-IOV-THREE-%d-end", pid);
	struct iovec wv[3] = { { a, strlen(a) }, { b, 12 }, { c, strlen(c) } };
	struct iovec rv[3] = { { r1, sizeof(r1) }, { r2, sizeof(r2) }, { r3, sizeof(r3) } };

	r = syscall(SYS_writev, p[1], wv, 3);
	memcpy(all, a, strlen(a));
	memcpy(all + strlen(a), b, 12);
	memcpy(all + strlen(a) + 12, c, strlen(c));
	put("writev", p[1], r, all);
	r = syscall(SYS_readv, p[0], rv, 3);
	memcpy(all, r1, 5);
	memcpy(all + 5, r2, 7);
	if (r > 12)
		memcpy(all + 12, r3, (size_t)r - 12);
	put("readv", p[0], r, all);
	close(p[0]);
	close(p[1]);
}

static void file_io(const char *dir)
{
	unsigned char bin[80], back[200], clip[100];
	char path[4096], text[400];
	long fd, r;

	snprintf(path, sizeof(path), "%s/fac_io.dat", dir);
	fd = syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return;
	binary(bin, sizeof(bin), (unsigned int)pid * 7);
	r = syscall(SYS_write, fd, bin, sizeof(bin));
	put("file_write", (int)fd, r, bin);
	r = syscall(SYS_pread64, fd, back, 50, 0);
	put("file_pread", (int)fd, r, back);
	lseek((int)fd, 0, SEEK_SET);
	r = syscall(SYS_read, fd, back, sizeof(back));
	put("file_read", (int)fd, r, back);

	/* text with newlines, tabs, quotes, backslashes and long lines */
	snprintf(text, sizeof(text),
		 "first line pid %d\n\tindented \"quoted\" back\\slash\r\n"
		 "a long line that goes past the eighty columns of kdump's text layout, "
		 "so that it has to be folded, pid %d, and then some more words\n",
		 pid, pid);
	r = syscall(SYS_pwrite64, fd, text, strlen(text), 1000);
	put("file_pwrite_text", (int)fd, r, text);

	/* 100 bytes in one write: -s 16 keeps 16 of them */
	for (size_t i = 0; i < sizeof(clip); i++)
		clip[i] = (unsigned char)('A' + (i + (size_t)pid) % 26);
	r = syscall(SYS_write, fd, clip, sizeof(clip));
	put("file_write100", (int)fd, r, clip);
	close((int)fd);
}

static void socket_io(void)
{
	char text[128], buf[256], h1[24], h2[24], t1[16], t2[16], all[256];
	unsigned char bin[20];
	int sv[2];
	long r;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return;
	snprintf(text, sizeof(text), "socket send text %d", pid);
	r = syscall(SYS_sendto, sv[0], text, strlen(text), 0, NULL, 0);
	put("sock_send", sv[0], r, text);
	r = syscall(SYS_recvfrom, sv[1], buf, sizeof(buf), 0, NULL, NULL);
	put("sock_recv", sv[1], r, buf);

	binary(bin, sizeof(bin), (unsigned int)pid * 13);
	r = syscall(SYS_write, sv[1], bin, sizeof(bin));
	put("sock_write", sv[1], r, bin);
	r = syscall(SYS_read, sv[0], buf, sizeof(buf));
	put("sock_read", sv[0], r, buf);

	/* sendmsg of three iovecs, recvmsg into two */
	snprintf(h1, sizeof(h1), "MSG-A-%d|", pid);
	snprintf(h2, sizeof(h2), "msg-b-%d|", pid);
	struct iovec wv[3] = { { h1, strlen(h1) }, { bin, 6 }, { h2, strlen(h2) } };
	struct iovec rv[2] = { { t1, sizeof(t1) }, { t2, sizeof(t2) } };
	struct msghdr mw = { .msg_iov = wv, .msg_iovlen = 3 };
	struct msghdr mr = { .msg_iov = rv, .msg_iovlen = 2 };

	r = syscall(SYS_sendmsg, sv[0], &mw, 0);
	memcpy(all, h1, strlen(h1));
	memcpy(all + strlen(h1), bin, 6);
	memcpy(all + strlen(h1) + 6, h2, strlen(h2));
	put("sendmsg", sv[0], r, all);
	r = syscall(SYS_recvmsg, sv[1], &mr, 0);
	memcpy(all, t1, sizeof(t1));
	memcpy(all + sizeof(t1), t2, sizeof(t2));
	put("recvmsg", sv[1], r, all);
	close(sv[0]);
	close(sv[1]);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, report, _IOFBF, sizeof(report));
	pid = getpid();
	printf("pid %d\n", pid);
	pipe_io();
	file_io(argc > 1 ? argv[1] : "/tmp");
	socket_io();
	return 0;
}
