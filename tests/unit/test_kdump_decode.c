// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's decoder (kdump_decode.c): each record decoded once into a typed
 * event carrying the state the sinks need (the process's ABI, a sigreturn's
 * call, what a span record did to its thread), so that no sink asks another.
 */
#include <string.h>
#include "../lib/test.h"
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
