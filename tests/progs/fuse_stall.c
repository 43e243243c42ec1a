// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fuse_stall MNT FILE UID GID: a write into FILE that holds FILE's inode
 * lock until told to let go, as a hostile user makes one (issue 31): the
 * source of the write is a mapping of a file on a FUSE file system whose
 * server does not answer.  For tests/e2e/t_stall.sh, as root.
 *
 * It mounts a FUSE file system at MNT (the protocol spoken over /dev/fuse
 * directly: no libfuse) holding one file, "data", whose reads are not
 * answered.  A child, as UID/GID, opens FILE for appending, maps MNT/data
 * and write(2)s the mapping into FILE: the kernel takes FILE's inode lock,
 * then faults the mapping in, which waits for the server.  The server
 * prints "held" when that read arrives (the lock is held from then on).
 * On SIGUSR1 (or after an hour) it answers every read it holds with EIO:
 * the write fails with EFAULT having written nothing, the lock is let go,
 * and FILE is as it was.  Then it unmounts MNT, prints "released" and
 * "write: RESULT" (the child's), and exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fuse.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define DATA_INO  2
#define DATA_SIZE (1 << 20)
#define MAX_HELD  64

static volatile sig_atomic_t let_go;

static void on_usr1(int sig)
{
	let_go = sig;
}

static int reply(int dev, __u64 unique, int error, const void *arg, size_t len)
{
	struct fuse_out_header h = { .len = sizeof(h) + len, .error = -error, .unique = unique };
	char buf[sizeof(h) + 256];

	memcpy(buf, &h, sizeof(h));
	if (len)
		memcpy(buf + sizeof(h), arg, len);
	return write(dev, buf, sizeof(h) + len) < 0 ? -errno : 0;
}

static void attr_of(__u64 ino, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->nlink = 1;
	a->blksize = 4096;
	if (ino == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0444;
		a->size = DATA_SIZE;
		a->blocks = DATA_SIZE / 512;
	}
}

/* One request: answered, held (a read: its unique kept), or needing no answer. */
static void serve(int dev, const struct fuse_in_header *in, const void *arg, __u64 *held,
		  int *nheld)
{
	union {
		struct fuse_init_out init;
		struct fuse_entry_out entry;
		struct fuse_attr_out attr;
		struct fuse_open_out open;
	} out;

	memset(&out, 0, sizeof(out));
	switch (in->opcode) {
	case FUSE_INIT:
		out.init.major = FUSE_KERNEL_VERSION;
		out.init.minor = FUSE_KERNEL_MINOR_VERSION;
		out.init.max_readahead = ((const struct fuse_init_in *)arg)->max_readahead;
		out.init.max_write = 4096;
		reply(dev, in->unique, 0, &out.init, sizeof(out.init));
		return;
	case FUSE_LOOKUP:
		if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, "data") != 0) {
			reply(dev, in->unique, ENOENT, NULL, 0);
			return;
		}
		out.entry.nodeid = DATA_INO;
		out.entry.entry_valid = out.entry.attr_valid = 3600;
		attr_of(DATA_INO, &out.entry.attr);
		reply(dev, in->unique, 0, &out.entry, sizeof(out.entry));
		return;
	case FUSE_GETATTR:
		out.attr.attr_valid = 3600;
		attr_of(in->nodeid, &out.attr.attr);
		reply(dev, in->unique, 0, &out.attr, sizeof(out.attr));
		return;
	case FUSE_OPEN:
	case FUSE_OPENDIR:
		out.open.fh = 1;
		reply(dev, in->unique, 0, &out.open, sizeof(out.open));
		return;
	case FUSE_READ:
		if (!let_go && *nheld == 0)
			printf("held\n");
		if (*nheld < MAX_HELD)
			held[(*nheld)++] = in->unique;
		else
			reply(dev, in->unique, EIO, NULL, 0);
		return;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		return; /* no answer */
	case FUSE_FLUSH:
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
		reply(dev, in->unique, 0, NULL, 0);
		return;
	default:
		reply(dev, in->unique, ENOSYS, NULL, 0);
	}
}

/* The child: as uid/gid, the write that holds file's lock.  Its result, as the exit status. */
static int stall_write(const char *mnt, const char *file, uid_t uid, gid_t gid)
{
	char data[4096];
	void *map;
	ssize_t n;
	int fd, src;

	snprintf(data, sizeof(data), "%s/data", mnt);
	if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
		return 10;
	fd = open(file, O_WRONLY | O_APPEND | O_CLOEXEC);
	src = open(data, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || src < 0)
		return 11;
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, src, 0);
	if (map == MAP_FAILED)
		return 12;
	n = write(fd, map, 4096); /* the lock taken, then the fault: it waits here */
	return n < 0 ? (errno == EFAULT ? 0 : 13) : 14;
}

/* Mount a FUSE file system at mnt: the /dev/fuse descriptor, or -1. */
static int fuse_mount(const char *mnt)
{
	char opts[128];
	int dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);

	if (dev < 0)
		return -1;
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other,default_permissions", dev);
	if (mount("ktrstall", mnt, "fuse.ktrstall", MS_NOSUID | MS_NODEV, opts) < 0) {
		close(dev);
		return -1;
	}
	return dev;
}

static char buf[DATA_SIZE + 8192];

/*
 * Let go: every held read fails, and so does the write; serve the rest
 * until the child has ended (its close).  Its wait status.
 */
static int let_go_of(int dev, __u64 *held, int nheld, pid_t child)
{
	int status = 0;

	while (child > 0 && waitpid(child, &status, WNOHANG) == 0) {
		struct pollfd p = { .fd = dev, .events = POLLIN };

		for (int i = 0; i < nheld; i++)
			reply(dev, held[i], EIO, NULL, 0);
		nheld = 0;
		if (poll(&p, 1, 50) > 0 &&
		    read(dev, buf, sizeof(buf)) >= (ssize_t)sizeof(struct fuse_in_header))
			serve(dev, (const struct fuse_in_header *)buf,
			      buf + sizeof(struct fuse_in_header), held, &nheld);
	}
	return status;
}

int main(int argc, char **argv)
{
	__u64 held[MAX_HELD];
	int dev, nheld = 0, status = 0;
	pid_t child = -1;

	if (argc != 5) {
		fprintf(stderr, "usage: fuse_stall MNT FILE UID GID\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGUSR1, on_usr1);
	alarm(3600);
	signal(SIGALRM, on_usr1);
	dev = fuse_mount(argv[1]);
	if (dev < 0) {
		printf("no-fuse %s\n", strerror(errno));
		return 3;
	}
	printf("mounted\n");
	while (!let_go) {
		struct pollfd p = { .fd = dev, .events = POLLIN };
		ssize_t n;

		if (child < 0 && nheld == 0) {
			child = fork();
			if (child == 0)
				_exit(stall_write(argv[1], argv[2], atoi(argv[3]), atoi(argv[4])));
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(dev, buf, sizeof(buf));
		if (n < (ssize_t)sizeof(struct fuse_in_header))
			continue;
		serve(dev, (const struct fuse_in_header *)buf, buf + sizeof(struct fuse_in_header),
		      held, &nheld);
	}
	status = let_go_of(dev, held, nheld, child);
	umount2(argv[1], MNT_DETACH);
	close(dev);
	printf("released\n");
	printf("write: %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ?
				      "failed EFAULT, nothing written" :
				      "unexpected");
	return 0;
}
