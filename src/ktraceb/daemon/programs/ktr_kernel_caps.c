// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* What this kernel, and the daemon's privileges, let it do (ktr_kernel_caps.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_kernel.h"
#include "ktr_kernel_caps.h"

/* Capability cap in our effective set? */
bool ktr_caps__has(int cap)
{
	unsigned long long eff = 0;
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff >> cap) & 1;
}

/* CAP_BPF (39) and CAP_PERFMON (38)? */
bool ktr_caps__bpf(void)
{
	return ktr_caps__has(39) && ktr_caps__has(38);
}

static int caps__perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/*
 * BPF_TRACE_UPROBE_MULTI links (Linux 6.6) attach every site of a file at
 * once and need only CAP_BPF and CAP_PERFMON; a uprobe perf event, the way
 * before them, needs CAP_SYS_ADMIN on current kernels.  Loading a program
 * of that attach type proves nothing (6.1 takes the attach type of any
 * kprobe program), so the probe creates a link, as libbpf's does: for the
 * directory "/" a kernel that has them answers EBADF (not a regular file).
 * A second try with pid -1 tells the kernels whose pid filter is the
 * process's (EINVAL, checked first) from the first ones, which filtered
 * by thread: those are used as if they had none.  libbpf 1.1's bpf.h has
 * none of these names.
 */
struct uprobe_multi_probe_attr {
	__u32 prog_fd, target_fd, attach_type, flags;
	__u64 path, offsets, ref_ctr_offsets, cookies;
	__u32 cnt, um_flags, pid, pad;
};

static int caps__uprobe_multi_link(int prog_fd, __s32 pid)
{
	union bpf_attr attr;
	struct uprobe_multi_probe_attr *a = (void *)&attr.link_create;
	__u64 offset = 0;
	int fd;

	_Static_assert(sizeof(*a) <= sizeof(attr.link_create) + 16, "fits bpf_attr");
	memset(&attr, 0, sizeof(attr));
	a->prog_fd = prog_fd;
	a->target_fd = -1;
	a->attach_type = ATTACH_UPROBE_MULTI;
	a->path = (__u64)(unsigned long)"/";
	a->offsets = (__u64)(unsigned long)&offset;
	a->cnt = 1;
	a->pid = pid;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return -errno;
}

static bool caps__has_uprobe_multi(void)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = ATTACH_UPROBE_MULTI);
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", ret0, 2, &o);
	bool has;

	if (fd < 0)
		return false;
	has = caps__uprobe_multi_link(fd, 0) == -EBADF &&
	      caps__uprobe_multi_link(fd, -1) == -EINVAL;
	close(fd);
	return has;
}

enum ktr_usdt_mode ktr_caps__usdt_mode(char *why, size_t size)
{
	/* bpf_loop() (5.17) and attach cookies (5.15) are what the program needs */
	static const __u32 needs[] = { KTR_LACKS_LOOP, KTR_LACKS_ATTACH_COOKIE };

	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if (ktr_caps__lacks() & needs[i]) {
			snprintf(why, size, "the kernel has no %s (Linux %s)",
				 ktr_caps__what(needs[i]), ktr_caps__since(needs[i]));
			return KTR_USDT_NONE;
		}
	if (caps__has_uprobe_multi())
		return KTR_USDT_MULTI;
	/*
	 * perf-event uprobes: CAP_PERFMON opens them, but Debian's and
	 * Ubuntu's kernels (perf_event_paranoid 3, their default) want
	 * CAP_SYS_ADMIN for any perf event: a user's own daemon has not.
	 */
	if (!ktr_caps__has(21 /* CAP_SYS_ADMIN */) && caps__perf_paranoid() > 2) {
		snprintf(why, size,
			 "no uprobe_multi links with a process filter (Linux 6.10), and perf-event "
			 "uprobes need "
			 "CAP_SYS_ADMIN with kernel.perf_event_paranoid %d",
			 caps__perf_paranoid());
		return KTR_USDT_NONE;
	}
	return KTR_USDT_PERF_EVENT;
}
