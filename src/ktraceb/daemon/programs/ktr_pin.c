// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* bpffs pins of what outlives the daemon (ktr_pin.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "build_id.h"
#include "ktr_bpf.h"
#include "ktr_pin.h"
#include "common/ktr_proto.h"

/* which executable a build's root daemon runs: "<st_dev> <st_ino> <path>" */
#define EXE_FMT	    KTR_RUN_DIR "/ktraceb-%s.exe"
#define RING_PREFIX "flight-"
#define CTL_PREFIX  "flctl-"
#define LINK_PREFIX "link-"

static char pin_dir[128]; /* "" when pinning is off */

static bool pin__is_bpffs(const char *path)
{
	struct statfs sf;

	return statfs(path, &sf) == 0 && sf.f_type == BPF_FS_MAGIC;
}

/* Remove every pin in dir and in its directories, then dir; returns how many rings were in it. */
static int pin__remove_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char path[PATH_MAX + 256];
	int rings = 0;

	if (!dp)
		return 0;
	while ((de = readdir(dp))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		rings += strncmp(de->d_name, RING_PREFIX, strlen(RING_PREFIX)) == 0;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR)
			pin__remove_dir(path); /* a cache of programs (ktr_progcache.h) */
		else
			unlink(path);
	}
	closedir(dp);
	rmdir(dir);
	return rings;
}

void ktr_pin__remove_tree(const char *dir)
{
	pin__remove_dir(dir);
}

/*
 * Does the daemon of build id run (its socket answers)?  Builds may run
 * side by side: only a dead one's pins are ours to remove.
 */
static bool pin__build_alive(const char *id)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	bool alive;

	if (sock < 0)
		return true; /* cannot tell: leave it */
	snprintf(sa.sun_path, sizeof(sa.sun_path), KTR_SOCK_SHARED_FMT, id);
	alive = connect(sock, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno == EAGAIN;
	close(sock);
	return alive;
}

/*
 * Say which executable this build's daemon runs, for the daemons of other
 * builds (pin__build_installed), in KTR_RUN_DIR if that is root's alone.
 */
static void pin__say_exe(void)
{
	char exe[PATH_MAX], path[128], tmp[136];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;
	int fd;

	if (n <= 0 || stat("/proc/self/exe", &st) < 0 || !ktr_pin__dir_ok(KTR_RUN_DIR, false))
		return;
	exe[n] = '\0';
	snprintf(path, sizeof(path), EXE_FMT, KTRACEB_BUILD_ID);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	n = dprintf(fd, "%llu %llu %s\n", (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, exe);
	close(fd);
	if (n <= 0 || rename(tmp, path) < 0)
		unlink(tmp);
}

/*
 * Is the executable build id's daemon said it runs (pin__say_exe) still
 * there, the same file?  Then that build may start a daemon again, which
 * takes over what its dead one left: a build side by side with this one
 * (another checkout, another build directory).  One whose executable was
 * replaced (an upgrade, a rebuild) or removed never comes back for it.
 */
static bool pin__build_installed(const char *id)
{
	char path[128], exe[PATH_MAX + 2] = "";
	unsigned long long dev, ino;
	struct stat st;
	bool said;
	FILE *f;

	snprintf(path, sizeof(path), EXE_FMT, id);
	f = fopen(path, "re");
	if (!f)
		return false;
	said = fscanf(f, "%llu %llu ", &dev, &ino) == 2 && fgets(exe, sizeof(exe), f);
	fclose(f);
	exe[strcspn(exe, "\n")] = '\0';
	return said && exe[0] == '/' && stat(exe, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

/*
 * A directory of root's that nobody else may write to: what is pinned in
 * it is believed (a ring's owner and path, ktr_flight__open), so a
 * directory another user could have filled is never used.
 */
bool ktr_pin__dir_ok(const char *path, bool create)
{
	struct stat st;

	if (create && mkdir(path, 0700) < 0 && errno != EEXIST)
		return false;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 &&
	       !(st.st_mode & 022);
}

bool ktr_pin__init(void)
{
	DIR *dp;
	struct dirent *de;
	char path[PATH_MAX];

	pin_dir[0] = 0;
	if (geteuid() != 0)
		return false;
	if (!pin__is_bpffs("/sys/fs/bpf") && mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700") < 0)
		return false;
	if (!ktr_pin__dir_ok(KTR_PIN_DIR, true))
		return false;
	dp = opendir(KTR_PIN_DIR);
	if (!dp)
		return false;
	while ((de = readdir(dp))) {
		int rings;

		if (de->d_name[0] == '.' || strcmp(de->d_name, KTRACEB_BUILD_ID) == 0 ||
		    strlen(de->d_name) > 64 || pin__build_alive(de->d_name) ||
		    pin__build_installed(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", KTR_PIN_DIR, de->d_name);
		rings = pin__remove_dir(path);
		snprintf(path, sizeof(path), EXE_FMT, de->d_name);
		unlink(path);
		if (rings)
			syslog(LOG_WARNING,
			       "%d recording(s) of another ktraceb build (%s) removed: "
			       "this build cannot read them",
			       rings, de->d_name);
	}
	closedir(dp);
	snprintf(path, sizeof(path), "%s/%s", KTR_PIN_DIR, KTRACEB_BUILD_ID);
	/* another build's daemon that could not start may have just removed KTR_PIN_DIR */
	if (!ktr_pin__dir_ok(path, true) &&
	    (errno != ENOENT || !ktr_pin__dir_ok(KTR_PIN_DIR, true) ||
	     !ktr_pin__dir_ok(path, true)))
		return false;
	snprintf(pin_dir, sizeof(pin_dir), "%s/%s", KTR_PIN_DIR, KTRACEB_BUILD_ID);
	pin__say_exe();
	return true;
}

bool ktr_pin__enabled(void)
{
	return pin_dir[0] != 0;
}

const char *ktr_pin__dir(void)
{
	return pin_dir;
}

static void pin__route_path(char *buf, size_t size, const char *prefix, __u32 route)
{
	if (!pin_dir[0]) {
		buf[0] = 0;
		return;
	}
	mkdir(pin_dir, 0700); /* the last recording's end removed it */
	snprintf(buf, size, "%s/%s%u", pin_dir, prefix, route);
}

void ktr_pin__ring_path(char *buf, size_t size, __u32 route)
{
	pin__route_path(buf, size, RING_PREFIX, route);
}

void ktr_pin__ctl_path(char *buf, size_t size, __u32 route)
{
	pin__route_path(buf, size, CTL_PREFIX, route);
}

int ktr_pin__old_procs(void)
{
	char path[PATH_MAX];

	if (!pin_dir[0])
		return -1;
	snprintf(path, sizeof(path), "%s/procs", pin_dir);
	return bpf_obj_get(path);
}

int ktr_pin__old_selects(void)
{
	char path[PATH_MAX];

	if (!pin_dir[0])
		return -1;
	snprintf(path, sizeof(path), "%s/selects", pin_dir);
	return bpf_obj_get(path);
}

/* fn(ctx, name, path) for each pin of this build whose name starts with prefix. */
static void pin__each(const char *prefix, void (*fn)(void *ctx, const char *name, const char *path),
		      void *ctx)
{
	DIR *dp = pin_dir[0] ? opendir(pin_dir) : NULL;
	struct dirent *de;
	char path[PATH_MAX];

	if (!dp)
		return;
	while ((de = readdir(dp))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", pin_dir, de->d_name);
		fn(ctx, de->d_name, path);
	}
	closedir(dp);
}

struct old_rings {
	void (*fn)(void *ctx, __u32 route, int fd, const char *pin);
	void *ctx;
};

static void pin__old_ring(void *ctx, const char *name, const char *path)
{
	struct old_rings *o = ctx;
	unsigned long r;
	char *end;
	int fd;

	r = strtoul(name + strlen(RING_PREFIX), &end, 10);
	fd = *end || r == 0 || r > UINT32_MAX ? -1 : bpf_obj_get(path);
	if (fd < 0)
		unlink(path); /* not a ring of ours */
	else
		o->fn(o->ctx, (__u32)r, fd, path);
}

/* A control map whose ring is gone: dropped, or a daemon killed between the two pins. */
static void pin__stray_ctl(void *ctx, const char *name, const char *path)
{
	char ring[PATH_MAX + 16];
	struct stat st;

	(void)ctx;
	snprintf(ring, sizeof(ring), "%s/" RING_PREFIX "%s", pin_dir, name + strlen(CTL_PREFIX));
	if (stat(ring, &st) < 0)
		unlink(path);
}

void ktr_pin__old_rings(void (*fn)(void *ctx, __u32 route, int fd, const char *pin), void *ctx)
{
	struct old_rings o = { fn, ctx };

	pin__each(RING_PREFIX, pin__old_ring, &o);
	pin__each(CTL_PREFIX, pin__stray_ctl, NULL);
}

void ktr_pin__tidy(void)
{
	if (pin_dir[0])
		rmdir(pin_dir); /* only when empty */
}

void ktr_pin__leave(void)
{
	ktr_pin__tidy();
	if (pin_dir[0])
		rmdir(KTR_PIN_DIR); /* likewise: no other build's either */
	pin_dir[0] = 0;
}

static void pin__unlink(void *ctx, const char *name, const char *path)
{
	(void)ctx;
	(void)name;
	unlink(path);
}

void ktr_pin__drop_old_links(void)
{
	pin__each(LINK_PREFIX, pin__unlink, NULL);
	pin__each("procs", pin__unlink, NULL);
	pin__each("selects", pin__unlink, NULL);
	ktr_pin__tidy();
}

static void pin__link_path(char *buf, size_t size, const struct ktr_bpf *b, size_t i)
{
	snprintf(buf, size, "%s/" LINK_PREFIX "%s", pin_dir, ktr_bpf__prog_name(b, i));
}

void ktr_pin__unpin_link(struct ktr_bpf *b, size_t i)
{
	char path[PATH_MAX];

	if (!b->link_pinned[i])
		return;
	pin__link_path(path, sizeof(path), b, i);
	unlink(path);
	b->link_pinned[i] = false;
}

int ktr_pin__keep(struct ktr_bpf *b, bool keep)
{
	char path[PATH_MAX];
	int err = 0;

	if (!pin_dir[0])
		return keep ? -ENOTSUP : 0;
	if (keep)
		mkdir(pin_dir, 0700);
	for (size_t i = 0; i < KTR_NPROGS; i++) {
		if (b->link_fd[i] < 0 || !keep) {
			ktr_pin__unpin_link(b, i);
			continue;
		}
		if (err || b->link_pinned[i])
			continue; /* links attached since the last call are pinned too */
		pin__link_path(path, sizeof(path), b, i);
		if (bpf_obj_pin(b->link_fd[i], path) < 0)
			err = -errno;
		b->link_pinned[i] = !err;
	}
	snprintf(path, sizeof(path), "%s/procs", pin_dir);
	if (keep && !err && bpf_obj_pin(ktr_bpf__map_fd(b, procs), path) < 0 && errno != EEXIST)
		err = -errno;
	if (!keep || err)
		unlink(path);
	/* the syscall selections the procs map's entries name (ktr_selection.h) */
	snprintf(path, sizeof(path), "%s/selects", pin_dir);
	if (keep && !err && bpf_obj_pin(ktr_bpf__map_fd(b, selects), path) < 0 && errno != EEXIST)
		err = -errno;
	if (!keep || err)
		unlink(path);
	if (err && keep)
		ktr_pin__keep(b, false);
	if (!keep)
		ktr_pin__tidy();
	return err;
}
