/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Links of a program known by its descriptor alone (ktr_bpf.h): what
 * libbpf's bpf_program__attach_*() do, without a struct bpf_program.
 * Each returns the link's descriptor (closing it detaches the program;
 * bpf_obj_pin() keeps it), or -errno.
 */
#ifndef KTRACEB_KTR_LINK_H
#define KTRACEB_KTR_LINK_H

#include <sys/types.h>
#include <linux/types.h>

/* A tp_btf program, on the tracepoint it was loaded for. */
int ktr_link__tp_btf(int prog_fd);
/*
 * A tracepoint program on the kernel event of id tp_id (tracefs'
 * events/SUBSYS/EVENT/id), which finds cookie with bpf_get_attach_cookie().
 */
int ktr_link__tracepoint(int prog_fd, __u32 tp_id, __u64 cookie);
/*
 * A uprobe program at offset in the file at path, for process pid alone, as
 * a perf-event uprobe (kernels without uprobe_multi links); the kernel
 * raises the semaphore at ref_ctr_offset (0: none) in that process while it
 * is attached.
 */
int ktr_link__uprobe(int prog_fd, const char *path, __u64 offset, __u64 ref_ctr_offset, pid_t pid,
		     __u64 cookie);

#endif /* KTRACEB_KTR_LINK_H */
