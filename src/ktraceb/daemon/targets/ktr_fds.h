/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The descriptors a process had when its trace began, as KTR_FD records
 * (ktr.h): read in /proc/PID/fd (what each is), fdinfo (close-on-exec) and
 * net/ (a socket's protocol and addresses, by its inode), so that kdump -y
 * can name them.  Only for a process the caller was allowed to trace, and
 * read through a directory opened before the check that it is still that
 * process: a /proc/PID opened before its process ended reads nothing of the
 * next process given that pid.
 */
#ifndef KTRACEB_KTR_FDS_H
#define KTRACEB_KTR_FDS_H

#include <sys/types.h>

struct ktr_tracefile;

/*
 * Process pid's descriptors into f, dir an open /proc/pid, comm its
 * command: at most KTR_FD_MAX records, then a LEFT one.  Nothing is
 * written of what cannot be read (the process ended meanwhile).
 */
void ktr_fds__write(struct ktr_tracefile *f, int dir, pid_t pid, const char *comm);

#endif /* KTRACEB_KTR_FDS_H */
