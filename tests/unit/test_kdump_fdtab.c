// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* kdump -y: the descriptor tables (kdump_fdtab.h), from made-up traces. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "../lib/test.h"
#include "kdump_fdtab.h"
#include "kdump_tfile.h"

#define P " 1234:1234  cat      "

TEST(path_join)
{
	static const struct {
		const char *base, *path, *want;
	} cases[] = {
		{ "/tmp", "a.txt", "/tmp/a.txt" },
		{ "/tmp/x", "sub/../b.txt", "/tmp/x/b.txt" },
		{ "/tmp", "./d//e/.", "/tmp/d/e" },
		{ "/", "..", "/" },
		{ "/a/b", "../../../c", "/c" },
		{ NULL, "rel/../x", "rel/../x" }, /* the directory not known: as recorded */
		{ NULL, "/etc//hostname", "/etc/hostname" },
		{ "/tmp", "/etc/./hostname", "/etc/hostname" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = kd_path_join(cases[i].base, cases[i].path, strlen(cases[i].path));

		ASSERT_STREQ(s, cases[i].want, cases[i].path);
		free(s);
	}
}

static void nami(struct tfile *t, const char *path)
{
	tf_rec(t, KTR_NAMEI, path, (int)strlen(path));
}

static void stru(struct tfile *t, const char *name, const void *data, size_t len)
{
	unsigned char buf[256];
	size_t n = strlen(name) + 1;

	memcpy(buf, name, n);
	memcpy(buf + n, data, len);
	tf_rec(t, KTR_STRUCT, buf, (int)(n + len));
}

static char *print_y(struct tfile *t, unsigned int flags)
{
	struct kdump_opts o = kd_defaults();

	o.flags = flags;
	return kd_print(&o, t);
}

/* The lines of s that contain what, one after the other (at most 4 KiB) */
static char *grep(const char *s, const char *what)
{
	static char out[4096];
	size_t n = 0;

	out[0] = '\0';
	for (const char *l = s; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l + 1) : strlen(l);

		if (memmem(l, len, what, strlen(what)) && n + len < sizeof(out)) {
			memcpy(out + n, l, len);
			n += len;
			out[n] = '\0';
		}
		l += len;
	}
	return out;
}

/* Opens relative to chdir's directory, dup2 over a descriptor, close: each line as strace -y. */
TEST(open_dup_close)
{
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_call(&t, __NR_chdir, 1, 0x1000ull);
	nami(&t, "/tmp/w");
	tf_ret(&t, __NR_chdir, 0, 0);
	tf_call(&t, __NR_openat, 3, (__u64)AT_FDCWD, 0x1000ull, (__u64)O_RDONLY);
	nami(&t, "x/../a");
	tf_ret(&t, __NR_openat, 0, 3);
	tf_call(&t, __NR_openat, 3, (__u64)AT_FDCWD, 0x1000ull, (__u64)O_RDONLY);
	nami(&t, "/etc/hostname");
	tf_ret(&t, __NR_openat, 0, 4);
	tf_call(&t, __NR_dup2, 2, 4ull, 3ull);
	tf_ret(&t, __NR_dup2, 0, 3);
	tf_call(&t, __NR_close, 1, 4ull);
	tf_ret(&t, __NR_close, 0, 0);
	tf_call(&t, __NR_read, 3, 3ull, 0x1000ull, 64ull);
	tf_ret(&t, __NR_read, 0, 3);
	tf_call(&t, __NR_read, 3, 4ull, 0x1000ull, 64ull);
	tf_ret(&t, __NR_read, 9, -1);
	s = print_y(&t, KD_FDS);
	ASSERT_STREQ(grep(s, "openat"),
		     P "CALL  openat(AT_FDCWD</tmp/w>,0x1000,O_RDONLY)\n" P
		       "RET   openat 3</tmp/w/a>\n" P
		       "CALL  openat(AT_FDCWD</tmp/w>,0x1000,O_RDONLY)\n" P
		       "RET   openat 4</etc/hostname>\n",
		     "opens");
	ASSERT_STREQ(grep(s, "dup2"),
		     P "CALL  dup2(4</etc/hostname>,3</tmp/w/a>)\n" P
		       "RET   dup2 3</etc/hostname>\n",
		     "dup2");
	ASSERT_STREQ(grep(s, "CALL  read"),
		     P "CALL  read(3</etc/hostname>,0x1000,0x40)\n" P "CALL  read(4,0x1000,0x40)\n",
		     "after close");
	free(s);
	/* without -y, nothing of it */
	s = print_y(&t, 0);
	ASSERT_STREQ(grep(s, "dup2"), P "CALL  dup2(4,3)\n" P "RET   dup2 3\n", "no -y");
	free(s);
	tf_close(&t);
}

/* A fork's child has its parent's descriptors; an exec closes the close-on-exec ones. */
TEST(fork_and_exec)
{
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_call(&t, __NR_openat, 3, (__u64)AT_FDCWD, 0x1000ull, (__u64)(O_RDONLY | O_CLOEXEC));
	nami(&t, "/etc/a");
	tf_ret(&t, __NR_openat, 0, 3);
	tf_call(&t, __NR_open, 2, 0x1000ull, (__u64)O_RDONLY);
	nami(&t, "/etc/b");
	tf_ret(&t, __NR_open, 0, 4);
	tf_call(&t, __NR_fork, 0);
	tf_ret(&t, __NR_fork, 0, 77);
	tf_rec_full(&t, KTR_SYSCALL, 77, 77, "cat",
		    &(struct ktr_syscall){ .ktr_code = __NR_getpid }, sizeof(struct ktr_syscall));
	{
		unsigned char buf[sizeof(struct ktr_syscall) + 24];
		struct ktr_syscall sc = { .ktr_code = __NR_write, .ktr_narg = 3 };
		__u64 a[3] = { 3, 0x1000, 1 };
		struct ktr_sysret ok = { .ktr_code = __NR_execve };

		memcpy(buf, &sc, sizeof(sc));
		memcpy(buf + sizeof(sc), a, sizeof(a));
		tf_rec_full(&t, KTR_SYSCALL, 77, 77, "cat", buf, sizeof(buf));
		sc.ktr_code = __NR_execve;
		memcpy(buf, &sc, sizeof(sc));
		tf_rec_full(&t, KTR_SYSCALL, 77, 77, "cat", buf, sizeof(buf));
		tf_rec_full(&t, KTR_SYSRET, 77, 77, "cat", &ok, sizeof(ok));
		sc.ktr_code = __NR_write;
		memcpy(buf, &sc, sizeof(sc));
		tf_rec_full(&t, KTR_SYSCALL, 77, 77, "cat", buf, sizeof(buf));
		a[0] = 4;
		memcpy(buf + sizeof(sc), a, sizeof(a));
		tf_rec_full(&t, KTR_SYSCALL, 77, 77, "cat", buf, sizeof(buf));
	}
	s = print_y(&t, KD_FDS);
	ASSERT_STREQ(grep(s, "CALL  write"),
		     "   77:77    cat      CALL  write(3</etc/a>,0x1000,0x1)\n"
		     "   77:77    cat      CALL  write(3,0x1000,0x1)\n"
		     "   77:77    cat      CALL  write(4</etc/b>,0x1000,0x1)\n",
		     "inherited, then exec");
	free(s);
	tf_close(&t);
}

/* A pipe's ends share a number; -yy names sockets by protocol and addresses. */
TEST(pipes_and_sockets)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(8080),
				  .sin_addr.s_addr = htonl(0x7f000001) };
	__s32 pair[2] = { 5, 6 };
	struct tfile t;
	char *s;

	tf_open(&t);
	tf_call(&t, __NR_pipe2, 2, 0x1000ull, 0ull);
	stru(&t, "fd_pair", pair, sizeof(pair));
	tf_ret(&t, __NR_pipe2, 0, 0);
	tf_call(&t, __NR_socket, 3, (__u64)AF_INET, (__u64)SOCK_STREAM, 0ull);
	tf_ret(&t, __NR_socket, 0, 3);
	tf_call(&t, __NR_connect, 3, 3ull, 0x1000ull, 16ull);
	stru(&t, "sockaddr", &in, sizeof(in));
	tf_ret(&t, __NR_connect, 115 /* EINPROGRESS */, -1);
	tf_call(&t, __NR_close, 1, 3ull);
	tf_ret(&t, __NR_close, 0, 0);
	s = print_y(&t, KD_FDS | KD_FDS_SOCK);
	ASSERT_STREQ(grep(s, "fd_pair"), P "STRU  struct fd_pair { 5<pipe:[#1]>, 6<pipe:[#1]> }\n",
		     "pipe");
	ASSERT_STREQ(grep(s, "socket"),
		     P "CALL  socket(AF_INET,SOCK_STREAM,IPPROTO_IP)\n" P
		       "RET   socket 3<TCP:[#2]>\n",
		     "socket");
	ASSERT_STREQ(grep(s, "close"),
		     P "CALL  close(3<TCP:[?->127.0.0.1:8080]>)\n" P "RET   close 0\n",
		     "connected");
	free(s);
	s = print_y(&t, KD_FDS);
	ASSERT_STREQ(grep(s, "CALL  close"), P "CALL  close(3<socket:[#2]>)\n", "-y alone");
	free(s);
	tf_close(&t);
}

/*
 * A connected socket's own address, which only the kernel picked: from the
 * accept at the other end, when the trace has it.
 */
TEST(peer_from_accept)
{
	struct sockaddr_in srv = { .sin_family = AF_INET,
				   .sin_port = htons(8080),
				   .sin_addr.s_addr = htonl(0x7f000001) };
	struct sockaddr_in cli = srv;
	struct tfile t;
	char *s;

	cli.sin_port = htons(40000);
	tf_open(&t);
	tf_call(&t, __NR_socket, 3, (__u64)AF_INET, (__u64)SOCK_STREAM, 0ull);
	tf_ret(&t, __NR_socket, 0, 3);
	tf_call(&t, __NR_bind, 3, 3ull, 0x1000ull, 16ull);
	stru(&t, "sockaddr", &srv, sizeof(srv));
	tf_ret(&t, __NR_bind, 0, 0);
	tf_call(&t, __NR_socket, 3, (__u64)AF_INET, (__u64)SOCK_STREAM, 0ull);
	tf_ret(&t, __NR_socket, 0, 4);
	tf_call(&t, __NR_connect, 3, 4ull, 0x1000ull, 16ull);
	stru(&t, "sockaddr", &srv, sizeof(srv));
	tf_ret(&t, __NR_connect, 0, 0);
	tf_call(&t, __NR_close, 1, 4ull);
	tf_ret(&t, __NR_close, 0, 0);
	tf_call(&t, __NR_accept, 3, 3ull, 0x1000ull, 0x2000ull);
	stru(&t, "sockaddr", &cli, sizeof(cli));
	tf_ret(&t, __NR_accept, 0, 5);
	s = print_y(&t, KD_FDS | KD_FDS_SOCK);
	ASSERT_STREQ(grep(s, "close"),
		     P "CALL  close(4<TCP:[?->127.0.0.1:8080]>)\n" P "RET   close 0\n",
		     "before the accept");
	free(s);
	tf_call(&t, __NR_socket, 3, (__u64)AF_INET, (__u64)SOCK_STREAM, 0ull);
	tf_ret(&t, __NR_socket, 0, 4);
	tf_call(&t, __NR_connect, 3, 4ull, 0x1000ull, 16ull);
	stru(&t, "sockaddr", &srv, sizeof(srv));
	tf_ret(&t, __NR_connect, 0, 0);
	tf_call(&t, __NR_accept, 3, 3ull, 0x1000ull, 0x2000ull);
	stru(&t, "sockaddr", &cli, sizeof(cli));
	tf_ret(&t, __NR_accept, 0, 6);
	tf_call(&t, __NR_write, 3, 4ull, 0x1000ull, 1ull);
	s = print_y(&t, KD_FDS | KD_FDS_SOCK);
	ASSERT_STREQ(grep(s, "CALL  write"),
		     P "CALL  write(4<TCP:[127.0.0.1:40000->127.0.0.1:8080]>,0x1000,0x1)\n",
		     "after the accept");
	ASSERT_STREQ(grep(s, "RET   accept 6"),
		     P "RET   accept 6<TCP:[127.0.0.1:8080->127.0.0.1:40000]>\n", "the other end");
	free(s);
	tf_close(&t);
}

TEST_MAIN()
