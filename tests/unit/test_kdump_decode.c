// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's decoder (kdump_decode.c): each record decoded once into a typed
 * event carrying the state the sinks need (the process's ABI, a sigreturn's
 * call, what a span record did to its thread), so that no sink asks another.
 */
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "../lib/test.h"
#include "kdump_cgroup.h"
#include "kdump_decode.h"
#include "kdump_fmt.h"
#include "kdump_sink.h"

static struct ktr_header header(int type, int pid, int tid, int len, __u64 mono)
{
	struct ktr_header h;

	memset(&h, 0, sizeof(h));
	h.ktr_type = type;
	h.ktr_pid = pid;
	h.ktr_tid = tid;
	h.ktr_len = len;
	h.ktr_mono_ns = mono;
	return h;
}

TEST(call_typed_and_checked)
{
	struct kd_decoder *kd = kd_decoder__new();
	struct {
		struct ktr_syscall sc;
		__u64 args[2];
	} rec = { { .ktr_code = 257, .ktr_narg = 2 }, { 7, 8 } };
	struct ktr_header h = header(KTR_SYSCALL, 10, 10, sizeof(rec), 1);
	struct kd_event ev;

	ASSERT_EQ(kd_decoder__decode(kd, &h, &rec, &ev), 0, "decode");
	ASSERT_TRUE(ev.kind == KD_CALL && ev.valid, "a whole CALL");
	ASSERT_EQ(ev.call.code, 257, "code");
	ASSERT_EQ(ev.call.narg, 2, "narg");
	ASSERT_EQ(ev.call.args[1], 8, "args");
	h.ktr_len = sizeof(rec) - 1;
	kd_decoder__decode(kd, &h, &rec, &ev);
	ASSERT_TRUE(!ev.valid, "a CALL whose size disagrees with narg");
	kd_decoder__free(kd);
}

TEST(abi_and_sigreturn_from_the_state)
{
	struct kd_decoder *kd = kd_decoder__new();
	struct ktr_proc_ctor pc = { .sv_flags = KTR_SV_LINUX_I386 };
	struct ktr_syscall sc = { .ktr_code = 173, .ktr_narg = 0 }; /* i386 rt_sigreturn */
	struct ktr_sysret sr = { .ktr_code = -1, .ktr_retval = 5 };
	struct ktr_header h;
	struct kd_event ev;
	char name[64];

	h = header(KTR_PROCCTOR, 20, 20, sizeof(pc), 1);
	kd_decoder__decode(kd, &h, &pc, &ev);
	ASSERT_TRUE(ev.kind == KD_NONE, "a PROCCTOR of ktraceb's files is shown by no output");
	h = header(KTR_SYSCALL, 20, 21, sizeof(sc), 2);
	kd_decoder__decode(kd, &h, &sc, &ev);
	ASSERT_EQ(ev.sv_flags, KTR_SV_LINUX_I386, "the process's ABI in its events");
	ASSERT_TRUE(!ev.bsd, "a Linux ABI");
	h = header(KTR_SYSRET, 20, 21, sizeof(sr), 3);
	kd_decoder__decode(kd, &h, &sr, &ev);
	ASSERT_EQ(ev.ret.code, 173, "a sigreturn's RET names its thread's last CALL");
	ASSERT_EQ(ev.ret.raw_code, -1, "the raw code kept");
	ASSERT_EQ(ev.ns, 3, "the time on the trace's clock");
	kd_fmt_scname(name, sizeof(name), ev.sv_flags, ev.ret.code, false);
	ASSERT_STREQ(name, "rt_sigreturn", "named from the i386 table");
	h = header(KTR_SYSCALL, 99, 99, sizeof(sc), 4);
	kd_decoder__decode(kd, &h, &sc, &ev);
	ASSERT_EQ(ev.sv_flags, 0, "another process: native");
	kd_decoder__free(kd);
}

/* A KTRU span record of depth d (enter, or exit when is_exit). */
static size_t span_rec(unsigned char *buf, bool is_exit, int depth)
{
	struct ktr_user_rec u;
	const char names[] = "db\0query\0id=1";

	memset(&u, 0, sizeof(u));
	memcpy(u.ku_sig, "KTRU", sizeof(u.ku_sig));
	u.ku_version = KTR_UREC_VERSION;
	u.ku_kind = is_exit ? KTR_UREC_SPAN_EXIT : KTR_UREC_SPAN_ENTER;
	u.ku_depth = depth;
	u.ku_strlen = sizeof(names);
	memcpy(buf, &u, sizeof(u));
	memcpy(buf + sizeof(u), names, sizeof(names));
	return sizeof(u) + sizeof(names);
}

TEST(span_step_once_for_every_sink)
{
	struct kd_decoder *kd = kd_decoder__new();
	unsigned char buf[256];
	struct ktr_header h;
	struct kd_event ev;
	size_t n;

	n = span_rec(buf, false, 0);
	h = header(KTR_USER, 30, 31, n, 1000);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.ktru && ev.span.spanlike && !ev.span.is_exit, "an enter");
	ASSERT_EQ(ev.span.open_before, 0, "nothing open before it");
	n = span_rec(buf, true, 0);
	h = header(KTR_USER, 30, 31, n, 1750);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.span.is_exit && ev.span.found, "its exit, matched");
	ASSERT_EQ(ev.span.dur, 750, "the duration from the decoder");
	ASSERT_EQ(ev.span.open_before, 1, "one open before the exit");
	ASSERT_EQ(ev.thread->n, 0, "none after");
	/* an exit whose enter is not in the trace */
	h = header(KTR_USER, 30, 32, n, 2000);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.span.is_exit && !ev.span.found, "entered before the trace");
	kd_decoder__free(kd);
}

/* A KTR_CGROUP record: the struct, then path with its NUL; its length. */
static int cgroup_rec(void *buf, __u32 what, __u32 flags, __u64 id, int ns_pid, int ns_tid,
		      const char *path)
{
	struct ktr_cgroup c = { .kc_id = id,
				.kc_what = what,
				.kc_flags = flags,
				.kc_ns_pid = ns_pid,
				.kc_ns_tid = ns_tid,
				.kc_pidns = 4026532551u };

	memcpy(buf, &c, sizeof(c));
	strcpy((char *)buf + sizeof(c), path);
	return sizeof(c) + strlen(path) + 1;
}

TEST(cgroup_records_name_ids_and_paths)
{
	struct kd_decoder *kd = kd_decoder__new();
	char buf[512], box[64];
	struct ktr_header h;
	struct kd_event ev;
	int n;

	n = cgroup_rec(buf, KTR_CGROUP_MEMBER, 0, 77, 1, 1, "/machine.slice/x");
	h = header(KTR_CGROUP, 4000, 4000, n, 1);
	ASSERT_EQ(kd_decoder__decode(kd, &h, buf, &ev), 0, "decode");
	ASSERT_TRUE(ev.kind == KD_CGROUP && ev.valid, "a whole CGRP");
	ASSERT_TRUE(ev.ns_pid == 1 && ev.ns_tid == 1, "its ids in its namespace, from itself");
	/* a thread of it, said later: its own id there, its process's */
	n = cgroup_rec(buf, KTR_CGROUP_THREAD, 0, 0, 1, 7, "");
	h = header(KTR_CGROUP, 4000, 4010, n, 2);
	kd_decoder__decode(kd, &h, buf, &ev);
	h = header(KTR_SYSCALL, 4000, 4010, 0, 3);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.ns_pid == 1 && ev.ns_tid == 7, "any record of the thread has them");
	h = header(KTR_SYSCALL, 4000, 4011, 0, 3);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.ns_pid == 1 && ev.ns_tid == 0,
		    "a thread never said: its process's pid only");
	/* a fork's record names the traced group; its sub-group's path from an earlier record */
	n = cgroup_rec(buf, KTR_CGROUP_FORKED, KTR_CGROUP_F_GROUP_PATH, 77, 2, 2, "/machine.slice");
	h = header(KTR_CGROUP, 4100, 4100, n, 4);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.cgroup.exact && strcmp(ev.cgroup.exact, "/machine.slice/x") == 0,
		    "id 77's path, said before");
	n = cgroup_rec(buf, KTR_CGROUP_FORKED, KTR_CGROUP_F_GROUP_PATH, 78, 3, 3, "/machine.slice");
	h = header(KTR_CGROUP, 4200, 4200, n, 5);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.valid && !ev.cgroup.exact, "an id never named has no path of its own");
	/* malformed: no NUL at its end, an unknown what */
	n = cgroup_rec(buf, KTR_CGROUP_MOVED, 0, 79, 0, 0, "/a");
	h = header(KTR_CGROUP, 4300, 4300, n - 1, 6);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.kind == KD_CGROUP && !ev.valid, "a path without its NUL");
	n = cgroup_rec(buf, 99, 0, 79, 0, 0, "/a");
	h = header(KTR_CGROUP, 4300, 4300, n, 7);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(!ev.valid, "an unknown kind of CGRP record");
	kd_decoder__free(kd);
	ASSERT_TRUE(kd_cgroup_container("/system.slice/docker-0123456789abcdef0123456789abcdef"
					"0123456789abcdef0123456789abcdef.scope",
					box, sizeof(box)) &&
			    strcmp(box, "docker 0123456789ab") == 0,
		    "docker's systemd driver");
	ASSERT_TRUE(kd_cgroup_container("/docker/0123456789abcdef0123456789abcdef0123456789abcdef"
					"0123456789abcdef",
					box, sizeof(box)) &&
			    strcmp(box, "docker 0123456789ab") == 0,
		    "docker's cgroupfs driver");
	ASSERT_TRUE(
		kd_cgroup_container("/machine.slice/systemd-nspawn@deb\\x2dtest.service/payload",
				    box, sizeof(box)) &&
			strcmp(box, "systemd-nspawn deb-test") == 0,
		"nspawn's unit, systemd's escape undone");
	ASSERT_TRUE(kd_cgroup_container("/user.slice/user-1000.slice/user@1000.service/user.slice/"
					"libpod-abcdef0123456789.scope/container",
					box, sizeof(box)) &&
			    strcmp(box, "podman abcdef012345") == 0,
		    "a user's podman");
	ASSERT_TRUE(!kd_cgroup_container("/machine.slice/libpod-conmon-abcdef.scope", box,
					 sizeof(box)),
		    "podman's monitor is no container");
	ASSERT_TRUE(!kd_cgroup_container("/system.slice/nginx.service", box, sizeof(box)),
		    "a service is no container");
}

/* A KTR_FD record: the struct, its addresses, then name (NULL: none); its length. */
static int fd_rec(void *buf, int fd, __u16 kind, __u16 flags, __u64 ino, const void *sa, __u16 llen,
		  const char *name)
{
	struct ktr_fd r = {
		.kf_fd = fd, .kf_kind = kind, .kf_flags = flags, .kf_ino = ino, .kf_llen = llen
	};
	int n = sizeof(r) + llen;

	if (sa) {
		r.kf_family = ((const struct sockaddr *)sa)->sa_family;
		r.kf_type = SOCK_STREAM;
	}
	memcpy(buf, &r, sizeof(r));
	memcpy((char *)buf + sizeof(r), sa, llen);
	if (name) {
		strcpy((char *)buf + n, name);
		n += strlen(name) + 1;
	}
	return n;
}

/* The decoder's name for fd of pid, "" if it has none. */
static const char *fd_name(struct kd_decoder *kd, int pid, int fd, char *buf)
{
	struct ktr_header h = header(KTR_SYSCALL, pid, pid, 8 + 8, 100);
	struct {
		struct ktr_syscall c;
		__u64 arg;
	} call = { { .ktr_code = 3 /* close */, .ktr_narg = 1 }, (__u64)fd };
	struct kd_event ev;
	bool deleted;

	kd_decoder__decode(kd, &h, &call, &ev);
	buf[kd_fdproc__name(ev.fds, fd, true, buf, KD_FDNAME_MAX, &deleted)] = '\0';
	return buf;
}

TEST(fd_records_fill_the_table)
{
	struct kd_decoder *kd = kd_decoder__new();
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(8080),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	static char buf[1024], name[KD_FDNAME_MAX];
	struct ktr_header h;
	struct kd_event ev;
	int n;

	ASSERT_EQ(kd_decoder__track_fds(kd), 0, "-y");
	n = fd_rec(buf, 3, KTR_FD_PATH, KTR_FD_F_CLOEXEC, 0, NULL, 0, "/etc/hostname");
	h = header(KTR_FD, 50, 50, n, 1);
	ASSERT_EQ(kd_decoder__decode(kd, &h, buf, &ev), 0, "decode");
	ASSERT_TRUE(ev.kind == KD_FD && ev.valid, "a whole FD");
	n = fd_rec(buf, 4, KTR_FD_PIPE, 0, 12345, NULL, 0, NULL);
	h = header(KTR_FD, 50, 50, n, 2);
	kd_decoder__decode(kd, &h, buf, &ev);
	n = fd_rec(buf, 5, KTR_FD_SOCKET, 0, 777, &in, sizeof(in), NULL);
	h = header(KTR_FD, 50, 50, n, 3);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.valid, "a socket with its address");
	ASSERT_STREQ(fd_name(kd, 50, 3, name), "/etc/hostname", "a file by its path");
	ASSERT_STREQ(fd_name(kd, 50, 4, name), "pipe:[12345]", "a pipe by its inode");
	ASSERT_STREQ(fd_name(kd, 50, 5, name), "TCP:[127.0.0.1:8080]", "a socket by its address");
	/* hostile: short, an address past its end or too long, no NUL, bad kinds */
	n = fd_rec(buf, 3, KTR_FD_PATH, 0, 0, NULL, 0, "/a");
	h = header(KTR_FD, 51, 51, 31, 4);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.kind == KD_FD && !ev.valid, "shorter than its struct");
	h = header(KTR_FD, 51, 51, n - 1, 5);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(!ev.valid, "a path without its NUL");
	n = fd_rec(buf, 5, KTR_FD_SOCKET, 0, 1, &in, sizeof(in), NULL);
	h = header(KTR_FD, 51, 51, n - 1, 6);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(!ev.valid, "an address past the record's end");
	((struct ktr_fd *)buf)->kf_llen = 200;
	h = header(KTR_FD, 51, 51, sizeof(buf), 7);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(!ev.valid, "an address longer than 128 bytes");
	n = fd_rec(buf, 5, 9, 0, 1, NULL, 0, NULL);
	h = header(KTR_FD, 51, 51, n, 8);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(!ev.valid, "an unknown kind");
	n = fd_rec(buf, -1, KTR_FD_PIPE, 0, 1, NULL, 0, NULL);
	h = header(KTR_FD, 51, 51, n, 9);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(!ev.valid, "a negative descriptor");
	ASSERT_STREQ(fd_name(kd, 51, 3, name), "", "none of them in the table");
	n = fd_rec(buf, -1, KTR_FD_LEFT, 0, 3000, NULL, 0, NULL);
	h = header(KTR_FD, 51, 51, n, 10);
	kd_decoder__decode(kd, &h, buf, &ev);
	ASSERT_TRUE(ev.valid && ev.fd.r.kf_ino == 3000, "descriptors left out");
	kd_decoder__free(kd);
}

TEST(sink_chosen_by_the_options)
{
	struct kdump_opts a = { 0 }, b = { .flags = KD_SUMMARY }, c = { .flags = KD_TREE };
	struct kdump_opts j = { .flags = KD_JSON }, p = { .flags = KD_CHROME };

	ASSERT_TRUE(kd_sink_for(&a) == &kd_sink_text, "text");
	ASSERT_TRUE(kd_sink_for(&b) == &kd_sink_summary, "-Y");
	ASSERT_TRUE(kd_sink_for(&c) == &kd_sink_tree, "-G");
	ASSERT_TRUE(kd_sink_for(&j) == &kd_sink_json, "-J");
	ASSERT_TRUE(kd_sink_for(&p) == &kd_sink_chrome, "-P");
}

TEST_MAIN()
