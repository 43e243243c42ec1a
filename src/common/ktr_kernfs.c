// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The kernel's own file systems (ktr_kernfs.h). */
#include <string.h>
#include <linux/magic.h>

#include "ktr_kernfs.h"

bool ktr_kernfs__is(long f_type)
{
	static const long kernfs[] = {
		PROC_SUPER_MAGIC,
		SYSFS_MAGIC,
		CGROUP_SUPER_MAGIC,
		CGROUP2_SUPER_MAGIC,
		DEBUGFS_MAGIC,
		TRACEFS_MAGIC,
		SECURITYFS_MAGIC,
		BPF_FS_MAGIC,
		0x62656570 /* configfs */,
		EFIVARFS_MAGIC,
		PSTOREFS_MAGIC,
		SELINUX_MAGIC,
		SMACK_MAGIC,
		0x65735543 /* fusectl */,
		BINFMTFS_MAGIC,
		DEVPTS_SUPER_MAGIC,
		NSFS_MAGIC,
		ANON_INODE_FS_MAGIC,
	};

	for (size_t i = 0; i < sizeof(kernfs) / sizeof(kernfs[0]); i++)
		if (f_type == kernfs[i])
			return true;
	return false;
}

bool ktr_kernfs__path(const char *path)
{
	static const char *const dirs[] = { "/proc", "/sys", "/dev" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = strlen(dirs[i]);

		if (strncmp(path, dirs[i], n) == 0 && (path[n] == '\0' || path[n] == '/'))
			return true;
	}
	return false;
}
