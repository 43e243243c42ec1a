/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump is a pipeline: reader -> decoder -> sink.
 *
 *  - The reader (kdump_reader.h) yields records, another system's made
 *    into ktraceb's layout.
 *  - The decoder (kdump_decode.h) turns each record, visible or not, into
 *    a struct kd_event, once: its kind, whether its payload fits that
 *    kind, its fields, its time, its process's ABI and the file's system.
 *    It alone keeps what records leave behind (each process's ABI, each
 *    thread's last call and open spans, the machine and the clock, the
 *    kernel events' formats); each kind's decode function (kdump_kind.h)
 *    checks its payload.
 *  - One sink (kdump_sink.h) writes the output from the events the
 *    options let through: the text, the -Y summary, the -G span tree, -J
 *    JSON lines or the -P timeline.  A sink has state of its own, reads
 *    only events, and never calls another sink.
 *
 * A new record type is a kind: one file of kinds/ and its row in the table
 * of kinds (kdump_kind.h).
 */
#ifndef KTRACEB_KDUMP_EVENT_H
#define KTRACEB_KDUMP_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include "ktraceb/ktr.h"
#include "kdump_bsd.h"
#include "kdump_fdtab.h"
#include "kdump_kind.h"
#include "kdump_span.h"
#include "kdump_syms.h"

struct kd_tpfmt;

struct kd_event {
	enum kd_kind kind;
	/* the payload fits the kind; else the outputs say "invalid record" */
	bool valid;
	/* USER: a KTRU record (user, span); else the bytes of a utrace(2) */
	bool ktru;
	/* the process runs a BSD's ABI: its syscall, errno and signal names are that system's */
	bool bsd;
	/*
	 * a record a recorder's dump shows again (kdump_replay.h): the text and
	 * JSON mark it, the summary, tree and timeline leave it out
	 */
	bool replayed;
	enum kd_sys sys; /* the file's system */
	unsigned int
		sv_flags; /* the ABI of the record's call, else of its process (decode.h KTR_SV_*) */
	const struct ktr_header *h;
	/* the ids the record's process and thread have in their pid namespace; 0: unknown */
	int ns_pid, ns_tid;
	const unsigned char *data; /* the payload, h->ktr_len bytes */
	size_t len;
	unsigned long recno; /* 1 for the file's first record */
	__s64 ns; /* on the trace's clock: ktr_mono_ns, or a BSD's ktr_time */
	__s64 wall_ns; /* wall clock, ns since the epoch */
	/*
	 * CALL, RET, USER: its thread (open spans, last call) as the decoder left
	 * it, never NULL; it lives as long as the decoder, so that an output
	 * keeping its own per-thread state (the tree) can look at it at the end
	 */
	const struct kd_thread *thread;
	/*
	 * -y (kdump_fdtab.h): CALL, RET, STRU: what the record's process's
	 * descriptors are as the decoder left them (a CALL's before the call, a
	 * RET's after it); NULL without -y, or for a process the trace has shown
	 * nothing of
	 */
	const struct kd_fdproc *fds;
	union {
		struct {
			int code, narg;
			__u64 args[KD_SYSCALL_MAXARGS];
			unsigned int fdmask; /* -y: bit i, argument i is a descriptor */
		} call;
		struct {
			int code; /* a sigreturn's (-1) is its thread's last CALL's */
			int raw_code;
			int error;
			__s64 retval;
			/*
			 * A successful exec by a thread other than its process's
			 * leader: the id it has from now on, its process's (strace's
			 * "<pid changed to N ...>"); 0 for any other RET
			 */
			int new_tid;
			/*
			 * The call's time, strace -T's: from its thread's CALL to
			 * this RET, on the trace's clock (the decoder's); false
			 * when the trace has no CALL for it (a fork child's first
			 * return, a trace begun inside the call)
			 */
			bool has_dur;
			__u64 dur_ns;
			/* -y: the value is a descriptor the call made (open, dup, socket ...) */
			bool fd_new;
		} ret;
		struct {
			bool has_call;
			int call; /* its thread's last CALL, whose argument the path is */
			bool cut; /* KTR_PATH_MAX bytes: the path was cut there (ktr.h) */
		} namei;
		struct {
			int fd;
			bool read;
			const unsigned char *data;
			size_t n;
		} genio;
		struct ktr_psig psig;
		struct {
			bool out, user;
			const char *wmesg; /* NULL if none */
			size_t wlen;
		} csw;
		struct {
			const char *name;
			size_t nlen;
			const unsigned char *data;
			size_t len;
		} strct;
		struct ktr_fileinfo fileinfo;
		struct {
			__u64 lost, total;
		} lost;
		int exit_status;
		struct ktr_end end;
		struct ktr_flight_info flight;
		struct {
			__u32 status, flags; /* KTR_FILTER_* */
			const char *text; /* NUL-terminated in the payload */
		} filter;
		struct {
			unsigned int n;
			const struct ktr_ustack_frame *frames; /* aligned copies, the decoder's */
			const struct kdump_frame_name *names; /* each frame named (kdump_syms.h) */
			unsigned int how; /* KD_STACK_* */
			unsigned int stack_bytes; /* DWARF: the stack bytes the record holds */
			const char *stop; /* why the frames end before the outermost; NULL */
		} ustack;
		struct {
			const __u8 *build_id;
			unsigned int id_len; /* 1..20 */
			const char *path; /* NUL-terminated in the payload */
		} object;
		struct {
			bool has_id; /* the payload holds an id (what -Y counts by) */
			__u32 id;
			const struct kd_tpfmt *fmt; /* its format, NULL if the file has none */
			const unsigned char *raw;
			size_t len;
		} tp;
		struct {
			__u64 va;
			__s32 type;
		} fault;
		__s32 faultend;
		struct {
			__s32 error, call;
			__u64 code;
		} pledge;
		__u32 procctor;
		struct {
			struct ktr_cgroup c; /* an aligned copy */
			const char *path; /* NUL-terminated in the payload */
			const char *exact; /* kc_id's path as the trace named it, NULL if never */
			const char *name; /* its container's name, if a CONTAINER record said it */
		} cgroup;
		struct {
			struct ktr_fd r; /* an aligned copy */
			const unsigned char *local, *remote; /* r.kf_llen, kf_rlen bytes */
			const char *name; /* PATH, ANON: NUL-terminated in the payload; else NULL */
		} fd;
	};
	struct kd_urec user; /* USER with ktru */
	struct kd_span_step span; /* USER with ktru: what it did to its thread's spans */
};

/* How a stack's frames were found (ev->ustack.how) */
#define KD_STACK_WALK  0 /* the kernel's frame-pointer walk (-K 0, a 32-bit process) */
#define KD_STACK_DWARF 1 /* unwound here from the registers and the stack copy */
#define KD_STACK_SHED  2 /* the walk: the stack copy was shed (budget, ring half full) */

#endif /* KTRACEB_KDUMP_EVENT_H */
