/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* Is a trace file compressed (ktraceb -z)?  The client's -a and the daemon ask. */
#ifndef KTRACEB_KTR_GZFILE_H
#define KTRACEB_KTR_GZFILE_H

/*
 * Does the file at fd (open for writing only, as trace files are) start
 * with gzip's magic?  It is read through a descriptor of its own, opened
 * without blocking.  1 yes, 0 no, -1 (errno set) if it cannot be read.
 */
int ktr_gzfile__starts_gzip(int fd);

#endif /* KTRACEB_KTR_GZFILE_H */
