// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Links by program descriptor (ktr_link.h), as libbpf 1.1 makes them (src/libbpf.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>

#include "ktr_kernel_caps.h"
#include "ktr_link.h"

int ktr_link__tp_btf(int prog_fd)
{
	int fd = bpf_raw_tracepoint_open(NULL, prog_fd);

	return fd < 0 ? -errno : fd;
}

/*
 * The program on perf event pfd, which the link then holds (pfd is closed); as above.
 * A kernel without links on perf events (before 5.15) takes the program
 * by ioctl, and the event's descriptor is the link: closing it detaches.
 */
static int link__perf_event(int prog_fd, int pfd, __u64 cookie)
{
	LIBBPF_OPTS(bpf_link_create_opts, o, .perf_event.bpf_cookie = cookie);
	int fd, err = 0;

	if (pfd < 0)
		return -errno;
	if (ktr_caps__lacks() & KTR_LACKS_PERF_LINK) {
		if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0 ||
		    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
			err = -errno;
			close(pfd);
			return err;
		}
		return pfd;
	}
	fd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, &o);
	if (fd < 0 || ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		err = -errno;
	close(pfd);
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

int ktr_link__tracepoint(int prog_fd, __u32 tp_id, __u64 cookie)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = tp_id,
	};

	/* any CPU's hits: the program is the event's, not the CPU's */
	return link__perf_event(
		prog_fd, syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC),
		cookie);
}

/* A number the uprobe PMU's sysfs file under /sys/bus/event_source/devices/uprobe says. */
static int uprobe__sysfs(const char *file, const char *fmt)
{
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/uprobe/%s", file);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fscanf(f, fmt, &v) != 1)
		v = -EINVAL;
	fclose(f);
	return v;
}

int ktr_link__uprobe(int prog_fd, const char *path, __u64 offset, __u64 ref_ctr_offset, pid_t pid,
		     __u64 cookie)
{
	static int type = -1, ref_ctr_bit = -1;
	struct perf_event_attr attr = { .size = sizeof(attr) };

	if (type < 0)
		type = uprobe__sysfs("type", "%d");
	if (ref_ctr_bit < 0)
		ref_ctr_bit = uprobe__sysfs("format/ref_ctr_offset", "config:%d");
	if (type < 0)
		return type;
	if (ref_ctr_offset && ref_ctr_bit < 0)
		return ref_ctr_bit;
	attr.type = type;
	attr.config = ref_ctr_offset ? ref_ctr_offset << ref_ctr_bit : 0;
	attr.config1 = (__u64)(unsigned long)path;
	attr.config2 = offset;
	return link__perf_event(prog_fd,
				syscall(__NR_perf_event_open, &attr, pid < 0 ? -1 : pid,
					pid == -1 ? 0 : -1, -1, PERF_FLAG_FD_CLOEXEC),
				cookie);
}
