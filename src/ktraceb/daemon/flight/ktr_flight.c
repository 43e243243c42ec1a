// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The flight recorder's ring (ktr_flight.h): two BPF arrays of 64-byte
 * slots, its control map and the ring proper (bpf_flight.h gives their
 * layout), that the BPF programs fill and the daemon reads in place
 * through shared mappings.  The daemon sets the ring up (here), reads it
 * at a dump (ktr_flight_walk.c), and starts it again after one; it never
 * sees a record before that.
 */
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_flight.h"
#include "daemon/ktr_clock.h"
#include "ktr_flight.h"
#include "ktr_flight_priv.h"
#include "daemon/programs/ktr_pin.h"

_Static_assert(sizeof(struct ktr_flight_slot) == KTR_FLIGHT_SLOT, "a slot is 64 bytes");
_Static_assert(sizeof(struct ktr_flight_ctl) <= KTR_FLIGHT_SLOT, "ctl fits a slot");
_Static_assert(sizeof(struct ktr_flight_head) == KTR_FLIGHT_SLOT, "a head is a slot");
_Static_assert(sizeof(struct ktr_flight_compact) <= KTR_FLIGHT_SLOT_DATA, "compact fits");

#define META_SLOTS ((sizeof(struct ktr_flight_meta) + KTR_FLIGHT_SLOT - 1) / KTR_FLIGHT_SLOT)
_Static_assert(META_SLOTS <= KTR_FLIGHT_META_SLOTS, "the control map holds the meta");

#define CTL_BYTES ((size_t)KTR_FLIGHT_CTL_SLOTS * KTR_FLIGHT_SLOT)

static struct ktr_flight *flight__alloc(void)
{
	struct ktr_flight *fl = calloc(1, sizeof(*fl));

	if (!fl)
		return NULL;
	fl->fd = fl->ctl_fd = -1;
	fl->maps.rings_fd = fl->maps.ctls_fd = -1;
	return fl;
}

/* The ring fd (bytes) and control map ctl_fd, mapped; both fds are fl's after. */
static struct ktr_flight *flight__map(int fd, int ctl_fd, __u64 bytes)
{
	struct ktr_flight *fl = flight__alloc();
	void *ctl_mem;

	if (!fl)
		return NULL;
	fl->bytes = bytes;
	fl->mem_bytes = bytes;
	fl->mem = mmap(NULL, fl->mem_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fl->mem == MAP_FAILED) {
		free(fl);
		return NULL;
	}
	ctl_mem = mmap(NULL, CTL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, ctl_fd, 0);
	if (ctl_mem == MAP_FAILED) {
		munmap(fl->mem, fl->mem_bytes);
		free(fl);
		return NULL;
	}
	fl->fd = fd;
	fl->ctl_fd = ctl_fd;
	fl->ctl_mem = ctl_mem;
	fl->ctl = (void *)fl->ctl_mem;
	fl->heads = (void *)(fl->ctl_mem + KTR_FLIGHT_SLOT);
	return fl;
}

static void flight__layout(struct ktr_flight *fl)
{
	fl->meta = (void *)(fl->ctl_mem + (1 + (size_t)fl->ctl->ncpu) * KTR_FLIGHT_SLOT);
	fl->slots = (void *)(fl->mem + (size_t)fl->ctl->base * KTR_FLIGHT_SLOT);
}

/*
 * Into the maps at its route: the ring first, then the control map, by
 * which the programs tell a recorder's route (flight__active).
 */
static int flight__insert(struct ktr_flight *fl, const struct ktr_flight_maps *maps)
{
	if (bpf_map_update_elem(maps->rings_fd, &fl->route, &fl->fd, BPF_ANY) < 0)
		return -errno;
	if (bpf_map_update_elem(maps->ctls_fd, &fl->route, &fl->ctl_fd, BPF_ANY) < 0) {
		int err = -errno;

		bpf_map_delete_elem(maps->rings_fd, &fl->route);
		return err;
	}
	fl->maps = *maps;
	return 0;
}

/* Both pinned (at the route's paths), or neither. */
static void flight__pin(struct ktr_flight *fl)
{
	ktr_pin__ring_path(fl->pin, sizeof(fl->pin), fl->route);
	ktr_pin__ctl_path(fl->ctl_pin, sizeof(fl->ctl_pin), fl->route);
	if (!fl->pin[0] || !fl->ctl_pin[0]) {
		fl->pin[0] = fl->ctl_pin[0] = 0;
		return;
	}
	unlink(fl->pin);
	unlink(fl->ctl_pin);
	if (bpf_obj_pin(fl->ctl_fd, fl->ctl_pin) < 0) {
		fl->pin[0] = fl->ctl_pin[0] = 0;
		return;
	}
	if (bpf_obj_pin(fl->fd, fl->pin) < 0) {
		unlink(fl->ctl_pin);
		fl->pin[0] = fl->ctl_pin[0] = 0;
	}
}

__u64 ktr_flight__min_bytes(void)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 slots;

	if (ncpu < 1)
		ncpu = 1;
	slots = 1 + ncpu + META_SLOTS + (__u64)ncpu * 2 * KTR_FLIGHT_MAX_SLOTS;
	slots *= KTR_FLIGHT_SLOT;
	return slots < KTR_FLIGHT_MIN_BYTES ? KTR_FLIGHT_MIN_BYTES : slots;
}

/* Lay a ring of nslots slots out at fl (zeroed) for ncpu CPUs. */
static int flight__init(struct ktr_flight *fl, __u64 nslots, int ncpu, unsigned int flags,
			const struct ktr_flight_meta *meta)
{
	__u32 base = 1 + ncpu + META_SLOTS;

	if (ncpu < 1 || ncpu > KTR_FLIGHT_MAX_CPUS)
		return -ENOTSUP;
	if (nslots > UINT_MAX || nslots < base + (__u64)ncpu * KTR_FLIGHT_MAX_SLOTS)
		return -EINVAL;
	fl->ctl->flags = flags & KTR_FLIGHT_FLAGS;
	fl->ctl->ncpu = ncpu;
	fl->ctl->base = base;
	fl->ctl->per_cpu = (nslots - base) / ncpu;
	flight__layout(fl);
	*fl->meta = *meta;
	fl->meta->magic = KTR_FLIGHT_META_MAGIC;
	fl->meta->bytes = fl->bytes;
	fl->meta->flags = fl->ctl->flags;
	fl->ctl->armed_ns = ktr_mono_ns();
	__atomic_store_n(&fl->ctl->state, KTR_FLIGHT_LIVE, __ATOMIC_RELEASE);
	return 0;
}

struct ktr_flight *ktr_flight__of_memory(void *mem, __u64 bytes, int ncpu, unsigned int flags)
{
	struct ktr_flight *fl = flight__alloc();
	struct ktr_flight_meta *meta = calloc(1, sizeof(*meta));
	int err;

	if (!fl || !meta) {
		free(fl);
		free(meta);
		errno = ENOMEM;
		return NULL;
	}
	fl->mem = fl->ctl_mem = mem; /* one index space: control slots, then regions */
	fl->bytes = bytes - bytes % KTR_FLIGHT_SLOT;
	fl->ctl = mem;
	fl->heads = (void *)(fl->mem + KTR_FLIGHT_SLOT);
	memset(mem, 0, fl->bytes);
	err = flight__init(fl, fl->bytes / KTR_FLIGHT_SLOT, ncpu, flags, meta);
	free(meta);
	if (err) {
		free(fl);
		errno = -err;
		return NULL;
	}
	return fl;
}

/* A ring map of nslots slots and a control map, mapped; NULL with errno. */
static struct ktr_flight *flight__create(__u64 nslots)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	LIBBPF_OPTS(bpf_map_create_opts, co, .map_flags = BPF_F_MMAPABLE);
	struct ktr_flight *fl = NULL;
	int fd, ctl_fd = -1, err;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "ktr_flight", sizeof(__u32), KTR_FLIGHT_SLOT,
			    nslots, &o);
	if (fd >= 0)
		ctl_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "ktr_flight_ctl", sizeof(__u32),
					KTR_FLIGHT_SLOT, KTR_FLIGHT_CTL_SLOTS, &co);
	if (ctl_fd >= 0)
		fl = flight__map(fd, ctl_fd, nslots * KTR_FLIGHT_SLOT);
	if (!fl) {
		err = errno;
		if (fd >= 0)
			close(fd);
		if (ctl_fd >= 0)
			close(ctl_fd);
		errno = err;
	}
	return fl;
}

struct ktr_flight *ktr_flight__new(const struct ktr_flight_maps *maps, __u32 route, __u64 bytes,
				   unsigned int flags, const struct ktr_flight_meta *meta)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 nslots = bytes / KTR_FLIGHT_SLOT;
	struct ktr_flight *fl;
	int err;

	if (ncpu < 1 || ncpu > KTR_FLIGHT_MAX_CPUS) {
		errno = ENOTSUP;
		return NULL;
	}
	if (nslots > UINT_MAX ||
	    nslots < 1 + ncpu + META_SLOTS + (__u64)ncpu * KTR_FLIGHT_MAX_SLOTS) {
		errno = EINVAL;
		return NULL;
	}
	fl = flight__create(nslots);
	if (!fl)
		return NULL;
	fl->route = route;
	/* the maps are zeroed: no position is valid, every head is 0 */
	err = flight__init(fl, nslots, ncpu, flags, meta);
	if (!err) {
		fl->meta->route = route;
		err = flight__insert(fl, maps);
	}
	if (err) {
		ktr_flight__free(fl);
		errno = -err;
		return NULL;
	}
	/* pinned, it outlives a daemon killed -9 (ktr_pin.h); without, it lives as long as we do */
	flight__pin(fl);
	return fl;
}

/* Is fd a mappable array of 64-byte slots?  How many, in *entries. */
static bool flight__is_slots(int fd, __u32 *entries)
{
	struct bpf_map_info info = {};
	__u32 info_len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &info_len) < 0 || info.type != BPF_MAP_TYPE_ARRAY ||
	    info.value_size != KTR_FLIGHT_SLOT || !(info.map_flags & BPF_F_MMAPABLE))
		return false;
	*entries = info.max_entries;
	return true;
}

struct ktr_flight *ktr_flight__open(int fd, const struct ktr_flight_maps *maps, __u32 route,
				    const char *pin)
{
	int ncpu = libbpf_num_possible_cpus(), ctl_fd = -1, err;
	char ctl_pin[PATH_MAX];
	struct ktr_flight *fl = NULL;
	const struct ktr_flight_ctl *ctl;
	__u32 entries, ctl_entries;

	ktr_pin__ctl_path(ctl_pin, sizeof(ctl_pin), route);
	if (ctl_pin[0])
		ctl_fd = bpf_obj_get(ctl_pin);
	if (ctl_fd >= 0 && flight__is_slots(fd, &entries) &&
	    flight__is_slots(ctl_fd, &ctl_entries) && ctl_entries == KTR_FLIGHT_CTL_SLOTS)
		fl = flight__map(fd, ctl_fd, (__u64)entries * KTR_FLIGHT_SLOT);
	if (!fl) {
		close(fd);
		if (ctl_fd >= 0)
			close(ctl_fd);
		errno = EINVAL;
		return NULL;
	}
	ctl = fl->ctl;
	/* a killed daemon's ring: believed only as far as it is consistent */
	if ((int)ctl->ncpu != ncpu || ctl->ncpu > KTR_FLIGHT_MAX_CPUS ||
	    ctl->base != 1 + ctl->ncpu + META_SLOTS || !ctl->per_cpu ||
	    (__u64)ctl->base + (__u64)ctl->per_cpu * ctl->ncpu > entries ||
	    (ctl->state != KTR_FLIGHT_LIVE && ctl->state != KTR_FLIGHT_FROZEN)) {
		ktr_flight__free(fl); /* its pins stay: not ours to remove */
		errno = EINVAL;
		return NULL;
	}
	flight__layout(fl);
	fl->meta->path[sizeof(fl->meta->path) - 1] = 0;
	if (fl->meta->magic != KTR_FLIGHT_META_MAGIC || fl->meta->route != route) {
		ktr_flight__free(fl); /* its pins stay: not ours to remove */
		errno = EINVAL;
		return NULL;
	}
	/* ours: the writers' hint made a multiple of per_cpu, whoever left it */
	for (__u32 c = 0; c < ctl->ncpu; c++)
		fl->heads[c].lap = 0;
	fl->route = route;
	err = flight__insert(fl, maps);
	if (err) {
		ktr_flight__free(fl); /* its pins stay: not ours to remove yet */
		errno = -err;
		return NULL;
	}
	snprintf(fl->pin, sizeof(fl->pin), "%s", pin);
	snprintf(fl->ctl_pin, sizeof(fl->ctl_pin), "%s", ctl_pin);
	return fl;
}

void ktr_flight__free(struct ktr_flight *fl)
{
	if (!fl)
		return;
	/* the control map first: the programs stop taking the route for a recorder's */
	if (fl->maps.ctls_fd >= 0)
		bpf_map_delete_elem(fl->maps.ctls_fd, &fl->route);
	if (fl->maps.rings_fd >= 0)
		bpf_map_delete_elem(fl->maps.rings_fd, &fl->route);
	if (fl->pin[0] || fl->ctl_pin[0]) {
		if (fl->pin[0])
			unlink(fl->pin);
		if (fl->ctl_pin[0])
			unlink(fl->ctl_pin);
		ktr_pin__tidy();
	}
	if (fl->fd >= 0) {
		munmap(fl->mem, fl->mem_bytes);
		munmap(fl->ctl_mem, CTL_BYTES);
		close(fl->fd);
		close(fl->ctl_fd);
	}
	free(fl);
}

__u64 ktr_flight__bytes(const struct ktr_flight *fl)
{
	return fl->bytes;
}

const struct ktr_flight_meta *ktr_flight__meta(const struct ktr_flight *fl)
{
	return fl->meta;
}

void ktr_flight__set_usdt(struct ktr_flight *fl, const char *text)
{
	snprintf(fl->meta->usdt, sizeof(fl->meta->usdt), "%s", text);
}

bool ktr_flight__frozen(const struct ktr_flight *fl)
{
	return __atomic_load_n(&fl->ctl->state, __ATOMIC_ACQUIRE) == KTR_FLIGHT_FROZEN;
}

void ktr_flight__trigger(const struct ktr_flight *fl, __u32 *why, __s32 *pid, __s32 *status)
{
	bool frozen = ktr_flight__frozen(fl);

	*why = frozen ? fl->ctl->why : 0;
	*pid = frozen ? fl->ctl->pid : 0;
	*status = frozen ? fl->ctl->status : 0;
}

void ktr_flight__reset(struct ktr_flight *fl)
{
	for (__u32 c = 0; c < fl->ctl->ncpu; c++) {
		struct ktr_flight_head *hd = &fl->heads[c];

		hd->floor = __atomic_load_n(&hd->head, __ATOMIC_ACQUIRE);
		hd->crash = 0;
	}
	fl->ctl->why = 0;
	fl->ctl->pid = fl->ctl->status = 0;
	fl->ctl->claim = 0;
	fl->ctl->armed_ns = ktr_mono_ns(); /* a new claim for kernels before 5.12 (flight.bpf.c) */
	__atomic_store_n(&fl->ctl->state, KTR_FLIGHT_LIVE, __ATOMIC_RELEASE);
}
