// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/wait.h>

#include "ktraceb/ktr.h"
#include "daemon/ktr_clock.h"
#include "daemon/flight/ktr_flight.h"
#include "daemon/ktr_log.h"
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
	/* one the file does not take is counted lost by its writer: the walk goes on */
	dc->n += ktr_tracefile__append_dump(dc->f, h, len, dc->wall_offset_ns) == 0;
	return 0;
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

		ktr_tracefile__append_dump(f, h, len, dc.wall_offset_ns);
		off += len;
	}
	free(f->held);
	f->held = NULL;
	f->nheld = 0;
	err = ktr_flight__walk(f->flight, why, dump__record, &dc);
	ktr_tracefile__flush(f, dc.wall_offset_ns);
	/* written, before anyone is told so (a file that fell behind: counted lost) */
	ktr_writer__settle(f->w);
	f->ndumps++;
	f->dumped += dc.n;
	*written = dc.n;
	return err ? err : -ktr_tracefile__error(f);
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
	f->trigger_why = why;
	f->trigger_pid = pid;
	f->trigger_status = status;
	ktr_log(err ? LOG_WARNING : LOG_NOTICE, "%s: pid %d %s: %llu records written%s%s%s",
		ktr_tracefile__path(f), pid, why == KTR_FLIGHT_CRASH ? "crashed" : "exited", n,
		f->taken_over ? " (recording taken over from a daemon that was killed)" : "",
		err ? ": " : "", err ? strerror(-err) : "");
	ktr_flight__reset(f->flight);
}

void ktr_recorder__describe(const struct ktr_tracefile *f, char *buf, size_t size)
{
	char trig[96] = "";

	if (f->trigger_why == KTR_FLIGHT_CRASH && WIFSIGNALED(f->trigger_status))
		snprintf(trig, sizeof(trig), ", the last at pid %d killed by SIG%s", f->trigger_pid,
			 sigabbrev_np(WTERMSIG(f->trigger_status)) ?: "?");
	else if (f->trigger_why)
		snprintf(trig, sizeof(trig), ", the last at pid %d's %s", f->trigger_pid,
			 f->trigger_why == KTR_FLIGHT_CRASH ? "crash" : "exit");
	snprintf(buf, size, "%s: recording%s: %llu records written in %u dump%s%s",
		 ktr_tracefile__path(f),
		 f->taken_over ? " taken over from a ktraceb daemon that was killed" : "",
		 f->dumped, f->ndumps, f->ndumps == 1 ? "" : "s", trig);
}
