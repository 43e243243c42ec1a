// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -J's STRU members from the decoder's fields (kdump_jsonfield.c,
 * docs/JSON.md): objects, arrays, a value alone, what was left out, and
 * the bytes of what the decoder does not know.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include "decode.h"
#include "kdump_jsonout.h"
#include "../lib/test.h"

static char out_[65536];

/* The members kd_json_struct() writes for NAME's LEN bytes at P. */
static const char *stru(const char *name, const void *p, size_t len, int flags)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	kd_json_struct(f, name, p, len, flags);
	fclose(f);
	snprintf(out_, sizeof(out_), "%s", buf ? buf : "");
	free(buf);
	return out_;
}

TEST(named_members_object)
{
	__u64 rl[2] = { 1024, ~0ULL };

	ASSERT_STREQ(stru("rlimit", rl, sizeof(rl), 0),
		     ",\"fields\":{\"cur\":1024,\"max\":\"RLIM_INFINITY\"}", "rlimit");
	ASSERT_STREQ(stru("rlimit", rl, sizeof(rl), KTR_DEC_RAW),
		     ",\"fields\":{\"cur\":1024,\"max\":18446744073709551615}", "rlimit -n");
}

TEST(arrays)
{
	struct pollfd pfd[2] = { { 3, POLLIN, 0 }, { 4, POLLOUT, POLLOUT } };
	__s32 fds[2] = { 5, 6 };

	ASSERT_STREQ(stru("pollfd", pfd, sizeof(pfd), 0),
		     ",\"fields\":[{\"fd\":3,\"events\":\"POLLIN\",\"revents\":0},"
		     "{\"fd\":4,\"events\":\"POLLOUT\",\"revents\":\"POLLOUT\"}]",
		     "pollfd");
	ASSERT_STREQ(stru("fd_pair", fds, sizeof(fds), 0), ",\"fields\":[5,6]", "fd_pair");
}

TEST(value_alone)
{
	__s32 v = -7;
	__u64 set = 1ULL << 9; /* SIGUSR1 */

	ASSERT_STREQ(stru("int", &v, sizeof(v), 0), ",\"value\":-7", "int");
	ASSERT_STREQ(stru("sigset", &set, sizeof(set), 0), ",\"value\":\"SIGUSR1\"", "sigset");
	ASSERT_STREQ(stru("string", "a\"b", 3, 0), ",\"value\":\"a\\\"b\"", "string");
}

TEST(more_items)
{
	static struct pollfd pfd[300];
	const char *s = stru("pollfd", pfd, sizeof(pfd), 0);
	const char *end = strstr(s, "}],");

	/* 256 shown, the text's "... 44 more" */
	ASSERT_STREQ(end, "}],\"more_items\":44", "300 pollfds");
}

TEST(more_bytes)
{
	__u64 how[3] = { 0, 0644, 0 };

	ASSERT_STREQ(stru("open_how", how, 20, 0),
		     ",\"fields\":{\"flags\":\"O_RDONLY\",\"mode\":\"0644\",\"more_bytes\":4}",
		     "open_how");
}

TEST(not_decoded)
{
	unsigned char b[3] = { 0x01, 0xab, 0xff };

	ASSERT_STREQ(stru("no_such_struct", b, sizeof(b), 0), ",\"data\":\"01abff\"", "unknown");
	ASSERT_STREQ(stru("stat", b, sizeof(b), 0), ",\"bad_size\":true,\"data\":\"01abff\"",
		     "bad size");
}

TEST_MAIN()
