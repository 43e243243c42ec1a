// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <string.h>
#include <unistd.h>

#include "ktraceb/ktr.h"
#include "ktr_clock.h"
#include "ktr_record.h"

void ktr_record__header(struct ktr_header *h, int type, size_t len, __u16 flags, pid_t pid,
			pid_t tid, const char *comm, __u64 mono_ns)
{
	memset(h, 0, sizeof(*h));
	h->ktr_len = (__s32)len;
	h->ktr_type = (__s16)type;
	h->ktr_flags = flags;
	h->ktr_pid = pid;
	h->ktr_tid = tid;
	/* the rest zero: a comm of KTR_MAXCOMLEN bytes stays terminated */
	memcpy(h->ktr_comm, comm, strnlen(comm, KTR_MAXCOMLEN));
	h->ktr_mono_ns = mono_ns;
}

void ktr_record__own(struct ktr_header *h, int type, size_t len, __u16 flags)
{
	pid_t self = getpid();

	ktr_record__header(h, type, len, flags, self, self, "ktraceb", ktr_mono_ns());
}
