// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "ktraceb/ktr.h"
#include "ktr_clock.h"
#include "ktr_flight.h"
#include "ktr_recorder.h"
#include "ktr_tracefile.h"
#include "ktr_writer.h"

struct dump_ctx {
	struct ktr_tracefile *f;
	__s64 wall_offset_ns;
	unsigned long long n;
};

static int dump__record(void *ctx, const struct ktr_header *h, size_t len)
{
	struct dump_ctx *dc = ctx;
	int err = ktr_writer__append(dc->f->w, h, len, dc->wall_offset_ns);

	dc->n += !err;
	return err;
}

int ktr_recorder__dump(struct ktr_tracefile *f, __u32 why, unsigned long long *written)
{
	struct dump_ctx dc = { f, ktr_wall_offset_ns(), 0 };
	int err;

	*written = 0;
	if (!f->flight)
		return -EINVAL;
	if (!f->info_written)
		ktr_tracefile__write_info(f);
	for (size_t off = 0; off + sizeof(struct ktr_header) <= f->nheld;) {
		const struct ktr_header *h = (const void *)(f->held + off);
		size_t len = sizeof(*h) + (size_t)h->ktr_len;

		ktr_writer__append(f->w, h, len, dc.wall_offset_ns);
		off += len;
	}
	free(f->held);
	f->held = NULL;
	f->nheld = 0;
	err = ktr_flight__walk(f->flight, why, dump__record, &dc);
	if (!err)
		err = ktr_writer__flush(f->w);
	*written = dc.n;
	return err;
}

bool ktr_recorder__due(const struct ktr_tracefile *f)
{
	return f->flight && ktr_flight__frozen(f->flight);
}

void ktr_recorder__dump_frozen(struct ktr_tracefile *f)
{
	unsigned long long n;
	__s32 pid, status;
	__u32 why;
	int err;

	ktr_flight__trigger(f->flight, &why, &pid, &status);
	err = ktr_recorder__dump(f, why, &n);
	syslog(err ? LOG_WARNING : LOG_NOTICE, "%s: pid %d %s: %llu records written%s%s",
	       ktr_tracefile__path(f), pid, why == KTR_FLIGHT_CRASH ? "crashed" : "exited", n,
	       err ? ": " : "", err ? strerror(-err) : "");
	ktr_flight__reset(f->flight);
}
