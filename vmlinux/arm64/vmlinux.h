/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A minimal CO-RE header for building the BPF programs for arm64 where no
 * arm64 kernel BTF is at hand to make a full vmlinux.h from (vmlinux/gen.sh
 * makes one from an arm64 machine's /sys/kernel/btf/vmlinux, and that one
 * is preferred: drop it here in place of this file).
 *
 * Only the types and fields bpf/ names.  Every struct is
 * preserve_access_index: field offsets are relocated against the running
 * kernel's BTF at load time, so only the names and types below matter, not
 * the layout.  Two exceptions, read whole rather than field by field:
 * struct user_msghdr (user memory, the LP64 ABI) and the BPF UAPI enums.
 */
#ifndef __VMLINUX_H__
#define __VMLINUX_H__

typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef _Bool bool;
enum { false = 0, true = 1 };
typedef int pid_t;
typedef unsigned int dev_t;
typedef unsigned long size_t;
typedef long ssize_t;
typedef unsigned long __kernel_size_t;
typedef unsigned long long __kernel_ulong_t;

/* BPF UAPI (include/uapi/linux/bpf.h): values, not relocated */
enum bpf_map_type {
	BPF_MAP_TYPE_UNSPEC = 0,
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PROG_ARRAY = 3,
	BPF_MAP_TYPE_PERF_EVENT_ARRAY = 4,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_ARRAY_OF_MAPS = 12,
	BPF_MAP_TYPE_RINGBUF = 27,
	BPF_MAP_TYPE_TASK_STORAGE = 29,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
	BPF_EXIST = 2,
	BPF_F_LOCK = 4,
};

enum {
	BPF_F_NO_PREALLOC = 1,
	BPF_F_MMAPABLE = 1024,
	BPF_F_INNER_MAP = 4096,
};

/* bpf_perf_event_output() flags: the current CPU's buffer */
#define BPF_F_CURRENT_CPU 0xffffffffULL

enum {
	BPF_RB_NO_WAKEUP = 1,
	BPF_RB_FORCE_WAKEUP = 2,
};

enum {
	BPF_RB_AVAIL_DATA = 0,
	BPF_RB_RING_SIZE = 1,
	BPF_RB_CONS_POS = 2,
	BPF_RB_PROD_POS = 3,
};

enum {
	BPF_LOCAL_STORAGE_GET_F_CREATE = 1,
};

/* bpf_get_stack() flags */
enum {
	BPF_F_SKIP_FIELD_MASK = 255,
	BPF_F_USER_STACK = 256,
	BPF_F_FAST_STACK_CMP = 512,
	BPF_F_REUSE_STACKID = 1024,
	BPF_F_USER_BUILD_ID = 2048,
};

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)
#endif

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	unsigned long sig[1];
} sigset_t;

/* arch/arm64/include/uapi/asm/ptrace.h, arch/arm64/include/asm/ptrace.h */
struct user_pt_regs {
	__u64 regs[31];
	__u64 sp;
	__u64 pc;
	__u64 pstate;
};

struct pt_regs {
	union {
		struct user_pt_regs user_regs;
		struct {
			u64 regs[31];
			u64 sp;
			u64 pc;
			u64 pstate;
		};
	};
	u64 orig_x0;
	s32 syscallno;
	u32 pmr;
	u64 sdei_ttbr1;
	u64 stackframe[2];
	u64 lockup_flags;
	u64 exit_rcu;
};

struct super_block {
	dev_t s_dev;
};

struct inode {
	unsigned long i_ino;
	struct super_block *i_sb;
	s64 i_ctime_sec; /* Linux 6.11 and later; note.bpf.c reads the older layouts */
	u32 i_ctime_nsec;
};

struct file {
	struct inode *f_inode;
};

struct fdtable {
	unsigned int max_fds;
	struct file **fd;
};

struct files_struct {
	struct fdtable *fdt;
};

/* mm->flags as 6.18 has it (a bitmap of one word): cgroup.bpf.c reads older kernels' apart */
typedef struct {
	unsigned long __mm_flags[1];
} mm_flags_t;

struct mm_struct {
	mm_flags_t flags;
	unsigned long start_stack;
	unsigned long arg_start;
	unsigned long arg_end;
	unsigned long env_start;
	unsigned long env_end;
};

struct signal_struct {
	atomic_t live;
	int nr_threads;
	int group_exit_code;
};

struct thread_info {
	unsigned long flags;
};

/* cgroups and credentials (cgroup.bpf.c: ktraceb -G) */
typedef struct {
	u32 val;
} kuid_t;

typedef struct {
	u32 val;
} kgid_t;

typedef struct {
	u64 val;
} kernel_cap_t;

struct cred {
	kuid_t uid;
	kgid_t gid;
	kuid_t suid;
	kgid_t sgid;
	kuid_t euid;
	kgid_t egid;
	kernel_cap_t cap_permitted;
};

struct kernfs_iattrs {
	kuid_t ia_uid;
};

struct kernfs_node {
	const char *name;
	u64 id;
	struct kernfs_iattrs *iattr;
};

struct cgroup;

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct cgroup_subsys_state *parent;
};

struct cgroup_root {
	int hierarchy_id;
};

struct cgroup {
	struct cgroup_subsys_state self;
	int level;
	struct kernfs_node *kn;
	struct cgroup_root *root;
	struct cgroup *ancestors[];
};

struct css_set {
	struct cgroup *dfl_cgrp;
};

struct ns_common {
	unsigned int inum;
};

struct pid_namespace {
	struct ns_common ns;
};

struct upid {
	int nr;
	struct pid_namespace *ns;
};

struct pid {
	unsigned int level;
	struct upid numbers[];
};

struct task_struct {
	struct thread_info thread_info;
	unsigned int flags;
	pid_t pid;
	pid_t tgid;
	int exit_code;
	struct mm_struct *mm;
	char comm[16];
	struct files_struct *files;
	struct signal_struct *signal;
	sigset_t blocked;
	struct task_struct *group_leader;
	struct pid *thread_pid;
	const struct cred *real_cred;
	struct css_set *cgroups;
};

struct linux_binprm {
	unsigned int have_execfd : 1;
	unsigned int execfd_creds : 1;
	unsigned int secureexec : 1;
	unsigned int point_of_no_return : 1;
	char buf[256];
	struct file *file;
	const char *filename;
};

struct kernel_siginfo {
	struct {
		int si_signo;
		int si_errno;
		int si_code;
	};
};

typedef void __signalfn_t(int);
typedef __signalfn_t *__sighandler_t;

struct sigaction {
	__sighandler_t sa_handler;
	unsigned long sa_flags;
	sigset_t sa_mask;
};

struct k_sigaction {
	struct sigaction sa;
};

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute pop
#endif

/* user memory, read whole: the LP64 layout (include/linux/socket.h) */
struct iovec;
struct user_msghdr {
	void *msg_name;
	int msg_namelen;
	struct iovec *msg_iov;
	__kernel_size_t msg_iovlen;
	void *msg_control;
	__kernel_size_t msg_controllen;
	unsigned int msg_flags;
};

#endif /* __VMLINUX_H__ */
