/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The one record writer of the tests' trace files (tests/progs/ktrgen.c,
 * tests/unit/kdump_tfile.h): a header as include/ktraceb/ktr.h lays it out,
 * then the payload; and the INFO record ktraceb starts a file with.  The
 * callers choose the times, so each keeps its own clock.  Header-only, as
 * kdump_tfile.h is: nothing to link, the same in a cross build.
 */
#ifndef KTRACEB_TRACEGEN_H
#define KTRACEB_TRACEGEN_H

#include <stdio.h>
#include <string.h>

#include "ktraceb/ktr.h"

/* Who wrote a record, on which CPU, and when. */
struct tg_who {
	int pid, tid;
	const char *comm; /* cut to KTR_MAXCOMLEN */
	int cpu;
	__s64 sec, usec; /* wall time */
	__u64 mono; /* ns */
};

/*
 * A header, then len bytes of payload.  payload NULL (or len <= 0) writes
 * the header alone, for bogus and truncated records.  0, or -1 when the
 * stream fails.
 */
static inline int tg_write(FILE *f, int type, int len, const struct tg_who *w, const void *payload)
{
	struct ktr_header h;

	memset(&h, 0, sizeof(h));
	h.ktr_len = len;
	h.ktr_type = (__s16)type;
	h.ktr_flags = KTRH_CPUID_ENCODE(w->cpu);
	h.ktr_pid = w->pid;
	h.ktr_tid = w->tid;
	for (int i = 0; i < KTR_MAXCOMLEN && w->comm[i]; i++)
		h.ktr_comm[i] = w->comm[i];
	h.ktr_time_sec = w->sec;
	h.ktr_time_usec = w->usec;
	h.ktr_mono_ns = w->mono;
	if (fwrite(&h, sizeof(h), 1, f) != 1)
		return -1;
	if (payload && len > 0 && fwrite(payload, 1, (size_t)len, f) != (size_t)len)
		return -1;
	return 0;
}

/* The INFO record, as ktraceb writes it first: the file's format, machine and clocks. */
static inline int tg_info(FILE *f, const struct tg_who *w, const char *machine, const char *release,
			  const char *tool, __s64 wall_offset_ns)
{
	struct ktr_fileinfo fi;

	memset(&fi, 0, sizeof(fi));
	memcpy(fi.fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC));
	fi.fi_version = KTR_FORMAT_VERSION;
	fi.fi_hdrsize = sizeof(struct ktr_header);
	fi.fi_byteorder = KTR_BYTEORDER_MARK;
	snprintf(fi.fi_machine, sizeof(fi.fi_machine), "%s", machine);
	snprintf(fi.fi_release, sizeof(fi.fi_release), "%s", release);
	fi.fi_clock = 1; /* CLOCK_MONOTONIC */
	fi.fi_wall_offset_ns = wall_offset_ns;
	snprintf(fi.fi_tool, sizeof(fi.fi_tool), "%s", tool);
	return tg_write(f, KTR_FILEINFO, sizeof(fi), w, &fi);
}

#endif /* KTRACEB_TRACEGEN_H */
