// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The programs kept in bpffs between root's daemons (ktr_progcache.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktr_pin.h"
#include "ktr_progcache.h"
#include "ktr_progs.h"

#define CACHE_PREFIX "cache-"
#define MAP_PREFIX   "map-"
#define PROG_PREFIX  "prog-"
#define REFUSED	     "refused" /* array: the kernel's reason for each program it refused */
#define MAX_MAP_IDS  64

static char cache_dir[192]; /* "" when no cache may be used */
static int refused_fd = -1; /* the cache's REFUSED map, while this daemon uses the cache */
static int lock_fd = -1; /* the build's pin directory, locked for as long as we live */

/* FNV-1a, 64 bits: a configuration's name, not a defence (the directory is root's alone). */
static __u64 hash__add(__u64 h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* Remove every cache directory of this build but keep (NULL: all). */
static void cache__remove_others(const char *keep)
{
	const char *dir = ktr_pin__dir();
	DIR *dp = opendir(dir);
	struct dirent *de;
	char path[PATH_MAX];

	if (!dp)
		return;
	while ((de = readdir(dp))) {
		if (strncmp(de->d_name, CACHE_PREFIX, strlen(CACHE_PREFIX)) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!keep || strcmp(path, keep) != 0)
			ktr_pin__remove_tree(path);
	}
	closedir(dp);
}

/*
 * The cache is one daemon's at a time: a daemon that has just stopped
 * taking requests may still be emptying the holders (ktr_loader.c) when
 * the next one starts.  Its lock on the build's pin directory goes with
 * it; a daemon that cannot have it within two seconds does without.
 */
static bool cache__lock(void)
{
	if (lock_fd < 0)
		lock_fd = open(ktr_pin__dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (int i = 0; lock_fd >= 0 && i < 200; i++) {
		if (flock(lock_fd, LOCK_EX | LOCK_NB) == 0)
			return true;
		usleep(10000);
	}
	return false;
}

bool ktr_progcache__init(const struct ktr_bpf *b, int ncpus, __u32 usdt_type)
{
	const struct bpf_object_skeleton *s = b->skel->skeleton;
	__u64 h = 0xcbf29ce484222325ULL;
	size_t size;
	const void *rodata = bpf_map__initial_value(b->skel->maps.rodata, &size);

	cache_dir[0] = 0;
	if (!ktr_pin__enabled() || getenv("KTRACEB_REFUSE_PROG") || !rodata)
		return false;
	/* what the programs are made of, and everything the loader gives them */
	h = hash__add(h, s->data, s->data_sz);
	h = hash__add(h, rodata, size);
	h = hash__add(h, &ncpus, sizeof(ncpus));
	h = hash__add(h, &usdt_type, sizeof(usdt_type));
	if (!cache__lock())
		return false;
	snprintf(cache_dir, sizeof(cache_dir), "%s/" CACHE_PREFIX "%016llx", ktr_pin__dir(),
		 (unsigned long long)h);
	/* another configuration's, or what a daemon killed while saving left: never used */
	cache__remove_others(cache_dir);
	return true;
}

static void cache__path(char *buf, size_t size, const char *dir, const char *prefix,
			const char *name)
{
	const char *dot = strrchr(name, '.');

	/* an internal map by its section (ktraceb_.bss: bss): bpffs takes no dot in a name */
	snprintf(buf, size, "%s/%s%s", dir, prefix, dot ? dot + 1 : name);
}

/* Does the map behind fd look as m would be made (ncpus: a perf event array's size)? */
static bool cache__map_ok(int fd, const struct bpf_map *m, int ncpus, __u32 *id)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info), want = bpf_map__max_entries(m);

	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
		return false;
	if (!want && bpf_map__type(m) == BPF_MAP_TYPE_PERF_EVENT_ARRAY)
		want = ncpus;
	*id = info.id;
	return info.type == bpf_map__type(m) && info.key_size == bpf_map__key_size(m) &&
	       info.value_size == bpf_map__value_size(m) && info.max_entries == want &&
	       info.map_flags == bpf_map__map_flags(m) &&
	       strncmp(info.name, bpf_map__name(m), sizeof(info.name) - 1) == 0;
}

/* .rodata as the loader filled it, byte for byte: the configuration itself. */
static bool cache__rodata_ok(int fd, const struct bpf_map *m)
{
	size_t size;
	const void *want = bpf_map__initial_value((struct bpf_map *)m, &size);
	void *got = malloc(size);
	__u32 zero = 0;
	bool ok;

	ok = want && got && bpf_map_lookup_elem(fd, &zero, got) == 0 && !memcmp(got, want, size);
	free(got);
	return ok;
}

/* Does the program behind fd look as prog would be, using only maps of ids? */
static bool cache__prog_ok(int fd, const struct bpf_program *prog, const __u32 *ids, int nids)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info), map_ids[MAX_MAP_IDS];

	info.nr_map_ids = MAX_MAP_IDS;
	info.map_ids = (__u64)(unsigned long)map_ids;
	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0 || info.nr_map_ids > MAX_MAP_IDS ||
	    info.type != bpf_program__type(prog) ||
	    strncmp(info.name, bpf_program__name(prog), sizeof(info.name) - 1) != 0)
		return false;
	for (__u32 i = 0; i < info.nr_map_ids; i++) {
		int j = 0;

		while (j < nids && ids[j] != map_ids[i])
			j++;
		if (j == nids)
			return false;
	}
	return true;
}

/* The cache's maps, checked, as b->skel's; their ids into ids.  0 or -errno. */
static int cache__open_maps(struct ktr_bpf *b, int ncpus, __u32 *ids)
{
	const struct bpf_object_skeleton *s = b->skel->skeleton;
	char path[PATH_MAX];

	for (int i = 0; i < s->map_cnt; i++) {
		struct bpf_map *m = *s->maps[i].map;
		int fd, err = 0;

		cache__path(path, sizeof(path), cache_dir, MAP_PREFIX, s->maps[i].name);
		fd = bpf_obj_get(path);
		if (fd < 0)
			return -errno;
		if (!cache__map_ok(fd, m, ncpus, &ids[i]) ||
		    (m == b->skel->maps.rodata && !cache__rodata_ok(fd, m)))
			err = -EINVAL;
		if (!err)
			err = bpf_map__reuse_fd(m, fd); /* a duplicate: fd is ours to close */
		close(fd);
		if (err)
			return err;
	}
	return 0;
}

/* The refusals: an array of a reason per program, checked, into refused; 0 or -errno. */
static int cache__open_refused(int nprogs, char (*refused)[KTR_PROGCACHE_WHY])
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/" REFUSED, cache_dir);
	refused_fd = bpf_obj_get(path);
	if (refused_fd < 0)
		return -errno;
	if (bpf_obj_get_info_by_fd(refused_fd, &info, &len) < 0 ||
	    info.type != BPF_MAP_TYPE_ARRAY || info.key_size != sizeof(__u32) ||
	    info.value_size != KTR_PROGCACHE_WHY || info.max_entries != (__u32)nprogs)
		return -EINVAL;
	for (__u32 i = 0; i < (__u32)nprogs; i++) {
		if (bpf_map_lookup_elem(refused_fd, &i, refused[i]) < 0)
			return -errno;
		refused[i][KTR_PROGCACHE_WHY - 1] = 0;
	}
	return 0;
}

/* The cache's programs, checked: each one's, or its refusal; 0 or -errno. */
static int cache__open_progs(struct ktr_bpf *b, const __u32 *ids,
			     char (*refused)[KTR_PROGCACHE_WHY])
{
	const struct bpf_object_skeleton *s = b->skel->skeleton;
	char path[PATH_MAX];

	for (int i = 0; i < s->prog_cnt; i++) {
		cache__path(path, sizeof(path), cache_dir, PROG_PREFIX, s->progs[i].name);
		b->prog_fd[i] = bpf_obj_get(path);
		/* refused, or not needed yet: USDT's and -G's are loaded at their first use */
		if (b->prog_fd[i] < 0 && errno == ENOENT &&
		    (refused[i][0] || ktr_prog_role(s->progs[i].name).load == KTR_LOAD_USDT ||
		     ktr_prog_role(s->progs[i].name).load == KTR_LOAD_GROUPS))
			continue;
		if (b->prog_fd[i] < 0)
			return -errno;
		if (refused[i][0] ||
		    !cache__prog_ok(b->prog_fd[i], *s->progs[i].prog, ids, s->map_cnt))
			return -EINVAL;
	}
	return 0;
}

int ktr_progcache__open(struct ktr_bpf *b, char (*refused)[KTR_PROGCACHE_WHY])
{
	const struct bpf_object_skeleton *s = b->skel->skeleton;
	__u32 ids[s->map_cnt];
	int err;

	if (!cache_dir[0] || access(cache_dir, F_OK) < 0)
		return -ENOENT;
	err = ktr_pin__dir_ok(cache_dir, false) ? 0 : -EPERM;
	if (!err)
		err = cache__open_maps(b, libbpf_num_possible_cpus(), ids);
	if (!err)
		err = cache__open_refused(s->prog_cnt, refused);
	if (!err)
		err = cache__open_progs(b, ids, refused);
	if (!err)
		return 0;
	/* what is missing in a directory that exists was removed or never pinned */
	syslog(LOG_WARNING, "%s: not the programs this daemon would load (%s): loaded afresh",
	       cache_dir, strerror(err == -ENOENT ? EINVAL : -err));
	return err == -ENOENT ? -EINVAL : err;
}

/* Every map and loaded program of b, and the refusals, pinned into dir; 0 or -errno. */
static int cache__pin_all(const struct ktr_bpf *b, const char *dir,
			  char (*refused)[KTR_PROGCACHE_WHY])
{
	const struct bpf_object_skeleton *s = b->skel->skeleton;
	char path[PATH_MAX];
	int fd, err = 0;

	for (int i = 0; i < s->map_cnt && !err; i++) {
		cache__path(path, sizeof(path), dir, MAP_PREFIX, s->maps[i].name);
		if (bpf_obj_pin(bpf_map__fd(*s->maps[i].map), path) < 0)
			err = -errno;
	}
	for (int i = 0; i < s->prog_cnt && !err; i++) {
		cache__path(path, sizeof(path), dir, PROG_PREFIX, s->progs[i].name);
		if (b->prog_fd[i] >= 0 && bpf_obj_pin(b->prog_fd[i], path) < 0)
			err = -errno;
	}
	fd = err ? -1 :
		   bpf_map_create(BPF_MAP_TYPE_ARRAY, REFUSED, sizeof(__u32), KTR_PROGCACHE_WHY,
				  s->prog_cnt, NULL);
	if (!err && fd < 0)
		err = -errno;
	for (__u32 i = 0; !err && i < (__u32)s->prog_cnt; i++)
		if (refused[i][0] && bpf_map_update_elem(fd, &i, refused[i], 0) < 0)
			err = -errno;
	snprintf(path, sizeof(path), "%s/" REFUSED, dir);
	if (!err && bpf_obj_pin(fd, path) < 0)
		err = -errno;
	refused_fd = err ? -1 : fd;
	if (err && fd >= 0)
		close(fd);
	return err;
}

int ktr_progcache__save(const struct ktr_bpf *b, char (*refused)[KTR_PROGCACHE_WHY])
{
	char tmp[sizeof(cache_dir) + 8];
	int err;

	if (!cache_dir[0])
		return 0;
	/* built aside and renamed: a daemon killed meanwhile leaves no half of one */
	snprintf(tmp, sizeof(tmp), "%s-new", cache_dir); /* bpffs names have no dot */
	cache__remove_others(NULL);
	err = ktr_pin__dir_ok(tmp, true) ? 0 : -EPERM;
	if (!err)
		err = cache__pin_all(b, tmp, refused);
	if (!err && rename(tmp, cache_dir) < 0)
		err = -errno;
	if (err) {
		syslog(LOG_WARNING, "cannot keep the BPF programs in %s: %s", cache_dir,
		       strerror(-err));
		ktr_pin__remove_tree(tmp);
		cache_dir[0] = 0;
	}
	return err;
}

void ktr_progcache__add(const struct ktr_bpf *b, size_t i, const char *why)
{
	char path[PATH_MAX];
	char reason[KTR_PROGCACHE_WHY] = "";
	__u32 key = i;

	if (!cache_dir[0])
		return;
	if (b->prog_fd[i] >= 0) {
		cache__path(path, sizeof(path), cache_dir, PROG_PREFIX, ktr_bpf__prog_name(b, i));
		bpf_obj_pin(b->prog_fd[i], path);
	} else if (why && refused_fd >= 0) {
		snprintf(reason, sizeof(reason), "%s", why);
		bpf_map_update_elem(refused_fd, &key, reason, 0);
	}
}

void ktr_progcache__release(void)
{
	if (refused_fd >= 0)
		close(refused_fd);
	if (lock_fd >= 0)
		close(lock_fd); /* not at our exit: threads may keep the descriptor a while */
	refused_fd = lock_fd = -1;
	cache_dir[0] = 0;
}

void ktr_progcache__drop(void)
{
	if (refused_fd >= 0)
		close(refused_fd);
	refused_fd = -1;
	if (cache_dir[0])
		ktr_pin__remove_tree(cache_dir);
}
