/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The shapes of the maps every ktraceb program shares, spelled once:
 * maps.bpf.c defines the maps with them, maps.bpf.h declares them extern
 * for the other objects, and the libbpf linker requires both to match
 * exactly.  The bottom of bpf/: it includes nothing of ours but the types
 * the BPF side and the tracer share.
 */
#ifndef KTRACEB_MAP_SHAPES_BPF_H
#define KTRACEB_MAP_SHAPES_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "ktraceb/bpf_flight.h"
#include "ktraceb/bpf_groups.h"
#include "ktraceb/bpf_select.h"
#include "ktraceb/bpf_stage.h"
#include "ktraceb/bpf_usdt.h"

#define KTR_MAP_PROCS                                                                     \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_HASH);                                          \
		__uint(max_entries, KTR_MAX_PROCS);                                       \
		__type(key, __u32);                                                       \
		__type(value, struct ktr_proc_state);                                     \
	}
#define KTR_MAP_LOST                                                                      \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY);                                         \
		__uint(max_entries, KTR_MAX_ROUTES);                                      \
		__type(key, __u32);                                                       \
		__type(value, __u64);                                                     \
	}
#define KTR_MAP_QUIET                                                                     \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_LRU_HASH);                                      \
		__uint(max_entries, KTR_MAX_QUIET_FILES);                                 \
		__type(key, struct ktr_file_key);                                         \
		__type(value, __u64);                                                     \
	}
/*
 * The processes a hold's SIGSTOP is on its way to, by tgid (note.bpf.c):
 * that stop is ktraceb's, no PSIG.  psig.bpf.c takes the entry when the
 * stop is delivered, or when a SIGCONT throws the pending stop away.
 */
#define KTR_MAP_HOLD_STOPS                                                                \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_LRU_HASH);                                      \
		__uint(max_entries, 1024);                                                \
		__type(key, __u32);                                                       \
		__type(value, __u8);                                                      \
	}
/* each CPU's stage (bpf_stage.h); the loader sets one element per possible CPU */
#define KTR_MAP_STAGES                                                                    \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY);                                         \
		__uint(map_flags, BPF_F_MMAPABLE);                                        \
		__uint(max_entries, 1);                                                   \
		__type(key, __u32);                                                       \
		__type(value, struct ktr_stage);                                          \
	}

#define KTR_MAP_SELECTS                                                                   \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY);                                         \
		__uint(max_entries, KTR_MAX_SELECTS);                                     \
		__type(key, __u32);                                                       \
		__type(value, struct ktr_select_map);                                     \
	}

/* The traced cgroups (bpf_groups.h, ktraceb -G): slots, and slots by cgroup id and by path. */
#define KTR_MAP_GROUPS                                                                    \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY);                                         \
		__uint(max_entries, KTR_MAX_GROUPS);                                      \
		__type(key, __u32);                                                       \
		__type(value, struct ktr_group);                                          \
	}
#define KTR_MAP_GROUP_IDS                                                                 \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_HASH);                                          \
		__uint(max_entries, KTR_MAX_GROUP_IDS);                                   \
		__type(key, __u64);                                                       \
		__type(value, __u32);                                                     \
	}
#define KTR_MAP_GROUP_PATHS                                                               \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_HASH);                                          \
		__uint(max_entries, KTR_MAX_GROUPS);                                      \
		__type(key, struct ktr_group_path);                                       \
		__type(value, __u32);                                                     \
	}

/* One CPU's room for a record whose size is known only at run time. */
struct ktr_scratch {
	char bytes[KTR_SCRATCH_SIZE];
};

/*
 * The ring buffers and the scratch area (a slot per possible CPU) are the
 * daemon's own: it makes them as it starts and takes them out as it ends,
 * and the programs reach them through holders, arrays of maps (the rings',
 * an entry per ring, bpf_sample.h; the scratch area's, one entry;
 * ring.bpf.h, rec__ring_of(), and record.bpf.h, rec__scratch()).  So
 * programs kept loaded between daemons (ktr_progcache.h) hold neither the
 * rings (16 MiB each by default, sized by -b) nor 256 KiB per CPU while
 * nothing traces, and a new daemon never reads a record a dead one's ring
 * still held.  The
 * kernel compares a ring buffer put into the holder with this template by
 * type alone, whatever its size (bpf_map_meta_equal; inner ring buffers
 * since Linux 5.10); the scratch area's slots the loader sets to the
 * possible CPUs, which an inner array must match.
 */
struct ktr_rb_map {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 16); /* a page on every arm64 page size */
};

struct ktr_scratch_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct ktr_scratch));
};

#define KTR_MAP_RB_HOLDER                                                                 \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);                                 \
		__uint(max_entries, KTR_RINGS_MAX);                                       \
		__type(key, __u32);                                                       \
		__array(values, struct ktr_rb_map);                                       \
	}
#define KTR_MAP_SCRATCH_HOLDER                                                            \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);                                 \
		__uint(max_entries, 1);                                                   \
		__type(key, __u32);                                                       \
		__array(values, struct ktr_scratch_map);                                  \
	}

/*
 * The flight recorders (ktraceb -R; bpf_flight.h gives the layout): each
 * recording has two arrays, found by its route.  Its ring, whose size is
 * the user's (so an inner map of BPF_F_INNER_MAP, whose lookups are helper
 * calls), and its control map, of one fixed size for every recording,
 * whose lookups the verifier inlines: the control record and the CPUs'
 * heads are read and moved without a call.
 */
struct ktr_flight_ring {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct ktr_flight_slot));
};

struct ktr_flight_ctl_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, KTR_FLIGHT_CTL_SLOTS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct ktr_flight_slot));
};

#define KTR_MAP_FLIGHTS                                                                   \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);                                 \
		__uint(max_entries, KTR_MAX_ROUTES);                                      \
		__type(key, __u32);                                                       \
		__array(values, struct ktr_flight_ring);                                  \
	}
#define KTR_MAP_FLIGHT_CTLS                                                               \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);                                 \
		__uint(max_entries, KTR_MAX_ROUTES);                                      \
		__type(key, __u32);                                                       \
		__array(values, struct ktr_flight_ctl_map);                               \
	}

#endif /* KTRACEB_MAP_SHAPES_BPF_H */
