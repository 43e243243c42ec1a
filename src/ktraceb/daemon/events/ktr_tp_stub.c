// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* A stub program per kernel event where there are no attach cookies (ktr_tp_stub.h). */
#include <errno.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "daemon/programs/ktr_bpf.h"
#include "daemon/programs/ktr_link.h"
#include "ktr_tp_stub.h"

/*
 * r6 = ctx; *(u32 *)(r10 - 4) = 0;
 * r0 = bpf_map_lookup_elem(&tp_stub_id, r10 - 4);    (this CPU's)
 * if (r0) { *(u32 *)r0 = id; bpf_tail_call(r6, &tp_stub_next, 0); }
 * return 0;
 */
static int stub__load(int id_fd, int next_fd, __u32 id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_6, .src_reg = BPF_REG_1 },
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = BPF_REG_10, .off = -4, .imm = 0 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM,
		  .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = id_fd },
		{ 0 }, /* the second half of the 64-bit load */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2, .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2, .imm = -4 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_0, .off = 6, .imm = 0 },
		{ .code = BPF_ST | BPF_MEM | BPF_W,
		  .dst_reg = BPF_REG_0,
		  .off = 0,
		  .imm = (__s32)id },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_1, .src_reg = BPF_REG_6 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM,
		  .dst_reg = BPF_REG_2,
		  .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = next_fd },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_tail_call },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, "ktr_tp_stub", "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), NULL);

	return fd < 0 ? -errno : fd;
}

int ktr_tp_stub__attach(const struct ktr_bpf *b, __u32 id)
{
	int prog_fd = b->prog_fd[KTR_PROG(ktr_tp_record)],
	    next_fd = ktr_bpf__map_fd(b, tp_stub_next);
	int stub, link;
	__u32 zero = 0;

	/* the program the stubs go on to (again: a map whose last user went was emptied) */
	if (prog_fd < 0)
		return -ENOENT;
	if (bpf_map_update_elem(next_fd, &zero, &prog_fd, BPF_ANY) < 0)
		return -errno;
	stub = stub__load(ktr_bpf__map_fd(b, tp_stub_id), next_fd, id);
	if (stub < 0)
		return stub;
	link = ktr_link__tracepoint(stub, id, 0);
	close(stub); /* the link holds it */
	return link;
}
