// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What this kernel lacks of what ktraceb uses (ktr_kernel_caps.h,
 * ktr_caps__lacks): each asked of the kernel once, the way libbpf's own
 * probes ask, and named with the first Linux that has it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_kernel.h"
#include "ktr_kernel_caps.h"

static bool lacks__atomics(void);
static bool lacks__cookie(void);
static bool lacks__perf_link(void);
static bool lacks__task_pt_regs(void);
static bool lacks__switch_state(void);
static bool lacks__loop(void);
static bool lacks__memcg(void);
static bool lacks__inner_map(void);

static const struct {
	__u32 bit;
	const char *what;
	int major, minor; /* the first Linux that has it */
	bool (*lacks)(void);
} features[] = {
	{ KTR_LACKS_INNER_MAP, "inner maps of any size (BPF_F_INNER_MAP)", 5, 10,
	  lacks__inner_map },
	{ KTR_LACKS_MEMCG, "BPF memory counted by the memory cgroup", 5, 11, lacks__memcg },
	{ KTR_LACKS_ATOMICS, "BPF atomics other than add", 5, 12, lacks__atomics },
	{ KTR_LACKS_ATTACH_COOKIE, "BPF attach cookies", 5, 15, lacks__cookie },
	{ KTR_LACKS_PERF_LINK, "BPF links on perf events", 5, 15, lacks__perf_link },
	{ KTR_LACKS_TASK_PT_REGS, "bpf_task_pt_regs()", 5, 15, lacks__task_pt_regs },
	{ KTR_LACKS_LOOP, "bpf_loop()", 5, 17, lacks__loop },
	{ KTR_LACKS_SWITCH_STATE, "sched_switch's prev_state", 5, 18, lacks__switch_state },
};
#define N_FEATURES (sizeof(features) / sizeof(features[0]))

/* A program of type with insns loads (a verifier's refusal: errno set, false)? */
static bool lacks__load(enum bpf_prog_type type, const struct bpf_insn *insns, size_t n)
{
	int fd = bpf_prog_load(type, NULL, "GPL", insns, n, NULL);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* An atomic add that fetches, on the stack: a 5.10 kernel refuses it ("reserved fields"). */
static bool lacks__atomics(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .off = -8, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW,
		  .dst_reg = BPF_REG_10,
		  .src_reg = BPF_REG_1,
		  .off = -8,
		  .imm = BPF_ADD | BPF_FETCH },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	/* another refusal (no privilege) is said by the load itself */
	return !lacks__load(BPF_PROG_TYPE_SOCKET_FILTER, insns, 5) && errno == EINVAL;
}

static bool lacks__helper(enum bpf_prog_type type, enum bpf_func_id id)
{
	return libbpf_probe_bpf_helper(type, id, NULL) == 0;
}

static bool lacks__cookie(void)
{
	return lacks__helper(BPF_PROG_TYPE_TRACEPOINT, BPF_FUNC_get_attach_cookie);
}

static bool lacks__task_pt_regs(void)
{
	return lacks__helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_task_pt_regs);
}

static bool lacks__loop(void)
{
	return lacks__helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_loop);
}

/* An array that may go into an array of maps whatever its size (the recorders' rings). */
static bool lacks__inner_map(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = BPF_F_INNER_MAP);
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, &o);

	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EINVAL;
}

/* The memory cgroup took over from RLIMIT_MEMLOCK with this helper (libbpf's probe). */
static bool lacks__memcg(void)
{
	return lacks__helper(BPF_PROG_TYPE_SOCKET_FILTER, BPF_FUNC_ktime_get_coarse_ns);
}

/* A link on perf event -1: a kernel that has them says EBADF (libbpf's probe). */
static bool lacks__perf_link(void)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, NULL, "GPL", ret0, 2, NULL), link;
	bool lacks;

	if (fd < 0)
		return false;
	link = bpf_link_create(fd, -1, BPF_PERF_EVENT, NULL);
	lacks = link < 0 && errno != EBADF;
	if (link >= 0)
		close(link);
	close(fd);
	return lacks;
}

/* sched_switch's arguments in the kernel's BTF: prev_state is the fourth (after __data). */
static bool lacks__switch_state(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	bool lacks = false;
	int id;

	if (!btf)
		return false; /* no BTF: nothing loads, and the loader says why */
	id = btf__find_by_name_kind(btf, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (t)
		t = btf__type_by_id(btf, t->type); /* the pointer */
	if (t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_func_proto(t))
		lacks = btf_vlen(t) < 5;
	btf__free(btf);
	return lacks;
}

/* KTRACEB_KERNEL=X.Y: every feature after X.Y counts as lacking (the tests' knob). */
static bool lacks__pretended(size_t i)
{
	const char *v = getenv("KTRACEB_KERNEL");
	int major, minor;

	if (!v || sscanf(v, "%d.%d", &major, &minor) != 2)
		return false;
	return features[i].major > major ||
	       (features[i].major == major && features[i].minor > minor);
}

__u32 ktr_caps__lacks(void)
{
	static __u32 lacks;
	static bool probed;

	if (probed)
		return lacks;
	for (size_t i = 0; i < N_FEATURES; i++)
		if (lacks__pretended(i) || features[i].lacks())
			lacks |= features[i].bit;
	probed = true;
	return lacks;
}

const char *ktr_caps__what(__u32 bit)
{
	for (size_t i = 0; i < N_FEATURES; i++)
		if (features[i].bit == bit)
			return features[i].what;
	return "?";
}

const char *ktr_caps__since(__u32 bit)
{
	static char buf[N_FEATURES][16];

	for (size_t i = 0; i < N_FEATURES; i++)
		if (features[i].bit == bit) {
			snprintf(buf[i], sizeof(buf[i]), "%d.%d", features[i].major,
				 features[i].minor);
			return buf[i];
		}
	return "?";
}
