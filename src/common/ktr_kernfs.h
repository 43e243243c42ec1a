/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The kernel's own file systems: files there look regular but are the
 * kernel's interfaces (/proc/kmsg: a read takes the kernel's log from its
 * reader; /proc/PID/mem: a process's memory), so neither the daemon
 * (trace files, ktr_files.c) nor kdump (the objects a trace names,
 * kdump_files.c) reads or writes one as a file.
 */
#ifndef KTRACEB_KTR_KERNFS_H
#define KTRACEB_KTR_KERNFS_H

#include <stdbool.h>

/* Is f_type (statfs) one of the kernel's interface file systems (proc, sysfs, ...)? */
bool ktr_kernfs__is(long f_type);
/* Is path /proc, /sys or /dev, or under one of them (as written: no link followed)? */
bool ktr_kernfs__path(const char *path);

#endif /* KTRACEB_KTR_KERNFS_H */
