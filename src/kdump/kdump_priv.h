/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump internals shared by src/kdump_*.c: the printer state, a small
 * int-keyed hash map, the escaping and data dumpers, the -Y summary.
 */
#ifndef KTRACEB_KDUMP_PRIV_H
#define KTRACEB_KDUMP_PRIV_H

#include <stddef.h>
#include <stdio.h>
#include "kdump.h"
#include "kdump_bsd.h"

/*
 * An open-addressing map from a 32-bit key to two values.  Entries are
 * never removed (a trace names a bounded set of pids and tids), so lookups
 * need no tombstones.
 */
struct kd_map_ent {
	__s32 key;
	__u32 used;
	__u64 v1;
	__s64 v2;
};

struct kd_map {
	struct kd_map_ent *ents;
	size_t cap; /* a power of two, or 0 */
	size_t count;
};

/* Entries looked at past the first by every lookup so far (the tests' measure). */
extern unsigned long long kd_map_probes;
/* A random number for keyed hashing, never 0. */
__u64 kd_random_seed(void);

struct kd_map_ent *kd_map__get(const struct kd_map *m, __s32 key);
/* The entry for key, added zeroed if absent; NULL when out of memory. */
struct kd_map_ent *kd_map__add(struct kd_map *m, __s32 key);
void kd_map__free(struct kd_map *m);

struct kd_summary;
struct kd_tp;
struct kd_thread;
struct kd_jsonout;
struct kd_chrome;
struct kd_sink;

struct kdump {
	struct kdump_opts o;
	FILE *out;
	const struct kd_sink *sink; /* the output (kdump_event.h) */
	struct kd_map abi; /* pid -> PROCCTOR sv_flags */
	struct kd_bsd_fmt fmt; /* the file's system (kdump_bsd.h), once known */
	int have_fmt;
	unsigned int sv_default; /* the ABI of a pid without PROCCTOR: 0, or the BSD's */
	int have_fileinfo;
	__s64 wall_offset_ns; /* KTR_FILEINFO: CLOCK_REALTIME - CLOCK_MONOTONIC */
	int time_base; /* 0 = unset, 1 = ktr_mono_ns, 2 = ktr_time (no mono) */
	int have_first;
	__s64 first_ns; /* -E: the first record shown */
	__s64 prev_ns; /* -R: the previous record shown */
	unsigned long ninvalid;
	struct kd_summary *sum;
	struct kd_tp *tp; /* kernel event formats (kdump_tp.h) */
	struct kd_jsonout *jo; /* -J, -P: the decoders' text caught (kdump_jsonout.c) */
	struct kd_chrome *chrome; /* -P: the timeline's threads (kdump_chrome.c) */
	int sink_started; /* -J, -P: the output's head written */
	struct kd_map calls; /* tid -> code of its last CALL (names sigreturn's RET) */
	struct kd_map threads; /* tid -> v1 = its struct kd_thread (kdump_user.h) */
	struct kd_thread *thread_list;
	struct {
		struct ktr_header hdr; /* first record of an ARGS/ENVS being joined */
		unsigned char *buf;
		size_t len;
	} join;
};

unsigned int kd_abi(const struct kdump *kd, int pid);
/* The syscall name or "[nr]", plus "[nr]" under -S. */
void kd_print_scname(struct kdump *kd, unsigned int sv_flags, int code);

/* Escaping: printable ASCII as is, \n \t \r \\ \" and \ooo for the rest. */
void kd_putesc(FILE *out, const unsigned char *p, size_t len);
void kd_putquoted(FILE *out, const unsigned char *p, size_t len);
/* GIO data, already clipped: quoted text lines or a hexdump. */
void kd_dump_data(FILE *out, const unsigned char *p, size_t len);

void kd_summary__free(struct kd_summary *s);
void kd_jsonout__free(struct kdump *kd);
void kd_chrome__free(struct kdump *kd);

#endif /* KTRACEB_KDUMP_PRIV_H */
