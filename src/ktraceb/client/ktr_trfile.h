/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The trace file (-f trfile) as the command opens it, with the caller's
 * own credentials and BSD's rules, before the daemon gets its descriptor.
 */
#ifndef KTRACEB_KTR_TRFILE_H
#define KTRACEB_KTR_TRFILE_H

struct ktr_options;

/*
 * o's trace file, opened as BSD ktrace(1) does (trfile__open_fd); with -a
 * only a file of the kind -z says.  Exits with a message if it cannot be.
 */
int ktr_trfile__open(const struct ktr_options *o);
/*
 * Nothing could be traced: remove the file fd this command created, if
 * the path still names it, rather than leave an empty trace behind.
 */
void ktr_trfile__discard(const struct ktr_options *o, int fd);

#endif /* KTRACEB_KTR_TRFILE_H */
