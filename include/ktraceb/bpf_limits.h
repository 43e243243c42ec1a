/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The sizes the BPF programs and the daemon agree on: how many syscall
 * numbers the tables cover, the largest record, and how much of a call's
 * data, structures and arguments a record keeps.
 */
#ifndef KTRACEB_BPF_LIMITS_H
#define KTRACEB_BPF_LIMITS_H

#include "ktraceb/ktr.h"

#define KTR_MAX_SYSCALLS   512 /* syscall numbers the tables cover */
#define KTR_SCRATCH_SIZE   (1 << 18) /* largest variable record, sample prefix included */
#define KTR_IOSIZE_DEFAULT 4096 /* GENIO bytes kept per I/O by default */
#define KTR_IOSIZE_MAX	   65536 /* most GENIO bytes kept per I/O */
#define KTR_STRUCT_MAX	   8192 /* most bytes of one captured struct (array) */
#define KTR_IOV_MAX	   64 /* iovecs walked per readv/writev/msghdr */
#define KTR_ARGS_CHUNK	   KTR_STRINGS_CHUNK /* ARGS/ENVS bytes per record */
#define KTR_ARGS_CHUNKS	   16 /* so at most 2 MiB of argv and of envp */

#endif /* KTRACEB_BPF_LIMITS_H */
