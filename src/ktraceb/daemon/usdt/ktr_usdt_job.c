// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>

#include "ktraceb/bpf_usdt.h"
#include "common/ktr_creds.h"
#include "daemon/ktr_clock.h"
#include "ktr_usdt_job.h"

#define JOB_MAGIC      0x6b6a6f62 /* "kjob" */
#define NOTES_PER_MSG  32
#define PREFAULT_MAX   (16u << 20) /* bytes of a file's read-only mappings faulted in */
#define CHILD_DATA_MAX (256u << 20) /* memory a child may take beyond the daemon's */
#define ZOMBIES_MAX    64

/* The first message of an answer; the file's descriptor rides with it. */
struct job_head {
	__u32 magic;
	__s32 error;
	char why[320];
	__s32 nnotes, seen;
	struct ktr_object_id object;
};

struct ktr_usdt_job {
	struct ktr_usdt_job_spec spec;
	pid_t child;
	int sock;
	long long deadline_ms;
	bool got_head;
	int nread; /* notes received so far */
	struct ktr_usdt_job_result res;
};

/* Children killed or done whose exit was not reaped yet. */
static pid_t zombies[ZOMBIES_MAX];

/* --- the child -------------------------------------------------------------- */

static void head__fail(struct job_head *h, int err, const char *fmt, const char *path)
{
	h->error = err;
	snprintf(h->why, sizeof(h->why), fmt, path, strerror(-err));
}

/* Nothing of the daemon's but the socket; limits on what a hostile file can take. */
static void child__confine(int sock)
{
	struct rlimit cpu = { KTR_USDT_JOB_MS / 1000 + 1, KTR_USDT_JOB_MS / 1000 + 1 };
	struct rlimit zero = { 0, 0 }, nofile = { 16, 16 };
	unsigned long pages = 0, data = 0;
	struct rlimit mem;
	FILE *f;

	if (sock != 3 && dup2(sock, 3) < 0)
		_exit(1);
	/* every trace file and client socket of the daemon: not this child's */
	if (close_range(4, ~0U, 0) < 0)
		for (int fd = 4; fd < 65536; fd++)
			close(fd);
	f = fopen("/proc/self/statm", "re");
	if (f) {
		if (fscanf(f, "%lu %*u %*u %*u %*u %lu", &pages, &data) != 2)
			data = 0;
		fclose(f);
	}
	mem.rlim_cur = mem.rlim_max = data * sysconf(_SC_PAGESIZE) + CHILD_DATA_MAX;
	setrlimit(RLIMIT_DATA, &mem);
	setrlimit(RLIMIT_CPU, &cpu);
	setrlimit(RLIMIT_CORE, &zero);
	setrlimit(RLIMIT_FSIZE, &zero);
	setrlimit(RLIMIT_NOFILE, &nofile);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/*
 * The identity the kernel gives a mapping of fd (what /proc/PID/maps and
 * uprobes use): for a file of an overlay or another stacking filesystem,
 * stat(2) tells the upper file's, a mapping the real file's.
 */
static int file__mapped_identity(int fd, dev_t *dev, ino_t *ino)
{
	char line[512];
	void *p = mmap(NULL, 1, PROT_READ, MAP_PRIVATE, fd, 0);
	int err = -ENOENT;
	FILE *f;

	if (p == MAP_FAILED)
		return -errno;
	f = fopen("/proc/self/maps", "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long start;
		unsigned int maj, min;
		unsigned long i;

		if (sscanf(line, "%lx-%*x %*s %*x %x:%x %lu", &start, &maj, &min, &i) == 4 &&
		    start == (unsigned long)p) {
			*dev = makedev(maj, min);
			*ino = i;
			err = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	munmap(p, 1);
	return err;
}

/*
 * The mapped file, opened as the credentials now in force allow: through
 * map_files when the daemon could open that (root: exactly the mapped
 * file, whatever mount namespace or root the process has), else by its
 * path under the process's root.  fd0: the map_files descriptor opened
 * before the credentials were dropped, or -1.
 */
static int child__open(const struct ktr_usdt_job_spec *spec, int fd0, struct job_head *h)
{
	char path[sizeof(spec->path) + 64];
	dev_t dev = 0;
	ino_t ino = 0;
	struct stat st;
	int fd;

	if (fd0 >= 0)
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd0);
	else
		snprintf(path, sizeof(path), "/proc/%d/root%s", spec->pid, spec->path);
	/* opening it again as the trace's owner is the check that they may read it */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		head__fail(h, -errno, "%s: %s", spec->path);
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		head__fail(h, -EINVAL, "%s: %s", spec->path);
		close(fd);
		return -1;
	}
	if ((st.st_dev == spec->dev && st.st_ino == spec->ino) ||
	    (file__mapped_identity(fd, &dev, &ino) == 0 && dev == spec->dev && ino == spec->ino))
		return fd;
	head__fail(h, -ESTALE, "%s: %s (not the file the process maps)", spec->path);
	close(fd);
	return -1;
}

/*
 * Fault the process's read-only mappings of the file in by reading them
 * through /proc/PID/mem, with the trace owner's right to: BPF reads a
 * probe's string argument without faulting, and a page of a library's
 * constants nobody has touched yet would read as nothing.
 */
static void child__prefault(const struct ktr_usdt_job_spec *spec)
{
	static char buf[1 << 16];
	char path[64], line[512];
	size_t done = 0;
	FILE *maps;
	int mem;

	snprintf(path, sizeof(path), "/proc/%d/mem", spec->pid);
	mem = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%d/maps", spec->pid);
	maps = mem >= 0 ? fopen(path, "re") : NULL;
	while (maps && fgets(line, sizeof(line), maps) && done < PREFAULT_MAX) {
		unsigned long start, end, ino;
		unsigned int maj, min;
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu", &start, &end, perms, &maj, &min,
			   &ino) != 6 ||
		    perms[1] == 'w' || makedev(maj, min) != spec->dev || ino != spec->ino)
			continue;
		for (unsigned long a = start; a < end && done < PREFAULT_MAX; a += sizeof(buf)) {
			size_t len = end - a < sizeof(buf) ? end - a : sizeof(buf);

			if (pread(mem, buf, len, a) <= 0)
				break;
			done += len;
		}
	}
	if (maps)
		fclose(maps);
	if (mem >= 0)
		close(mem);
}

static int child__send(int sock, const void *msg, size_t len, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *c;

		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

static void __attribute__((noreturn)) child__run(int sock, const struct ktr_usdt_job_spec *spec)
{
	struct job_head h = { .magic = JOB_MAGIC };
	struct ktr_usdt_note *notes = NULL;
	char path[128];
	int fd0, fd = -1, err;

	child__confine(sock);
	/* root's daemon reads map_files (it needs CAP_SYS_ADMIN); a user's falls back on the path */
	snprintf(path, sizeof(path), "/proc/%d/map_files/%lx-%lx", spec->pid, spec->start,
		 spec->end);
	fd0 = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	err = ktr_creds__become(spec->uid, spec->gid, spec->uid == 0);
	if (err)
		head__fail(&h, err, "%s: cannot take the trace owner's credentials: %s",
			   spec->path);
	else
		fd = child__open(spec, fd0, &h);
	if (fd0 >= 0)
		close(fd0);
	if (fd >= 0 && spec->want_build_id)
		ktr_usdt_elf__object_id(fd, &h.object);
	if (fd >= 0 && spec->want_notes) {
		notes = calloc(KTR_USDT_FILE_NOTES, sizeof(*notes));
		h.nnotes = notes ? ktr_usdt_notes__read(fd, notes, KTR_USDT_FILE_NOTES, &h.seen) :
				   -ENOMEM;
		if (h.nnotes < 0) {
			head__fail(&h, h.nnotes,
				   h.nnotes == -EFBIG ? "%s: probe notes past the limits (%s)" :
							"%s: cannot read its probe notes: %s",
				   spec->path);
			h.nnotes = 0;
		}
	}
	if (fd >= 0 && !h.error)
		child__prefault(spec);
	if (child__send(3, &h, sizeof(h), h.error ? -1 : fd) < 0)
		_exit(1);
	for (int i = 0; i < h.nnotes; i += NOTES_PER_MSG) {
		int n = h.nnotes - i < NOTES_PER_MSG ? h.nnotes - i : NOTES_PER_MSG;

		if (child__send(3, notes + i, n * sizeof(*notes), -1) < 0)
			_exit(1);
	}
	_exit(0);
}

/* --- the daemon's side ------------------------------------------------------ */

struct ktr_usdt_job *ktr_usdt_job__start(const struct ktr_usdt_job_spec *spec)
{
	struct ktr_usdt_job *job = calloc(1, sizeof(*job));
	int sv[2];

	if (!job)
		return NULL;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		free(job);
		return NULL;
	}
	job->spec = *spec;
	job->res.fd = -1;
	job->child = fork();
	if (job->child == 0) {
		close(sv[0]);
		child__run(sv[1], spec);
	}
	close(sv[1]);
	if (job->child < 0) {
		int err = errno;

		close(sv[0]);
		free(job);
		errno = err;
		return NULL;
	}
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	job->sock = sv[0];
	job->deadline_ms = ktr_now_ms() + KTR_USDT_JOB_MS;
	return job;
}

int ktr_usdt_job__fd(const struct ktr_usdt_job *job)
{
	return job->sock;
}

const struct ktr_usdt_job_spec *ktr_usdt_job__spec(const struct ktr_usdt_job *job)
{
	return &job->spec;
}

/* A note as the child sent it, believed only once every field is in range. */
static bool note__sane(const struct ktr_usdt_note *n)
{
	if (!memchr(n->provider, '\0', sizeof(n->provider)) ||
	    !memchr(n->name, '\0', sizeof(n->name)) || n->nargs > KTR_UREC_MAXARGS || !n->pc_off)
		return false;
	for (int i = 0; i < n->nargs; i++) {
		const struct ktr_usdt_arg *a = &n->args[i];

		if (a->kind > KTR_UARG_REG_DEREF ||
		    (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8))
			return false;
	}
	return true;
}

/* The head: the file's descriptor with it, checked.  0, or -EPROTO. */
static int job__head(struct ktr_usdt_job *job, const struct job_head *h, int fd)
{
	struct stat st;

	if (h->magic != JOB_MAGIC || h->nnotes < 0 || h->nnotes > KTR_USDT_FILE_NOTES ||
	    h->seen < h->nnotes || (h->nnotes && !job->spec.want_notes) || h->error > 0 ||
	    (!h->error && (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))))
		return -EPROTO;
	job->got_head = true;
	job->res.error = h->error;
	memcpy(job->res.why, h->why, sizeof(job->res.why));
	job->res.why[sizeof(job->res.why) - 1] = '\0';
	/* the file's identity and ctime as the daemon's own fstat tells them, not the child's */
	if (!h->error) {
		job->res.st_dev = st.st_dev;
		job->res.st_ino = st.st_ino;
		job->res.ctime_ns = (__u64)st.st_ctim.tv_sec * 1000000000ull + st.st_ctim.tv_nsec;
	}
	/* the child runs as the trace's owner, who could have changed its answer */
	if (h->object.build_id_len > 0 &&
	    h->object.build_id_len <= (int)sizeof(h->object.build_id) && h->object.nloads >= 0 &&
	    h->object.nloads <= KTR_OBJECT_MAXLOADS && job->spec.want_build_id)
		job->res.object = h->object;
	job->res.seen = h->seen;
	job->res.nnotes = h->nnotes;
	job->res.fd = h->error ? -1 : fd;
	if (h->nnotes) {
		job->res.notes = calloc(h->nnotes, sizeof(*job->res.notes));
		if (!job->res.notes)
			return -ENOMEM;
	}
	return 0;
}

/* One message; -EAGAIN when none waits, 0 at the end. */
static ssize_t job__recv(struct ktr_usdt_job *job, void *buf, size_t len, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	*fd = -1;
	if (!job->got_head) {
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
	}
	n = recvmsg(job->sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))
		return -EPROTO;
	return n;
}

/* The scan failed: its answer says why, whatever came before. */
static void job__failed(struct ktr_usdt_job *job, int err, const char *why)
{
	if (job->res.fd >= 0)
		close(job->res.fd);
	free(job->res.notes);
	memset(&job->res, 0, sizeof(job->res));
	job->res.fd = -1;
	job->res.error = err;
	snprintf(job->res.why, sizeof(job->res.why), "%.200s: %s", job->spec.path, why);
}

bool ktr_usdt_job__poll(struct ktr_usdt_job *job, long long now_ms, struct ktr_usdt_job_result *res)
{
	static struct ktr_usdt_note chunk[NOTES_PER_MSG];
	struct job_head h;
	ssize_t n;
	int fd;

	for (;;) {
		if (!job->got_head) {
			n = job__recv(job, &h, sizeof(h), &fd);
			if (n == sizeof(h) && job__head(job, &h, fd) == 0)
				continue;
			if (fd >= 0)
				close(fd);
		} else if (job->nread < job->res.nnotes) {
			n = job__recv(job, chunk, sizeof(chunk), &fd);
			if (fd >= 0)
				close(fd);
			if (n > 0 && n % sizeof(chunk[0]) == 0 &&
			    job->nread + n / (ssize_t)sizeof(chunk[0]) <= job->res.nnotes) {
				for (ssize_t i = 0; i < n / (ssize_t)sizeof(chunk[0]); i++)
					if (note__sane(&chunk[i]))
						job->res.notes[job->nread++] = chunk[i];
					else
						job->res.nnotes--; /* dropped, not believed */
				continue;
			}
		} else {
			break; /* all there */
		}
		if (n == -EAGAIN) {
			if (now_ms < job->deadline_ms)
				return false;
			job__failed(job, -ETIMEDOUT, "reading its probes took too long");
		} else if (n == 0) {
			job__failed(job, -EIO, "the look at it ended early");
		} else {
			job__failed(job, -EPROTO, "the look at it gave a bad answer");
		}
		break;
	}
	*res = job->res;
	job->res.fd = -1;
	job->res.notes = NULL;
	return true;
}

void ktr_usdt_job__free(struct ktr_usdt_job *job)
{
	if (!job)
		return;
	if (job->child > 0) {
		kill(job->child, SIGKILL);
		if (waitpid(job->child, NULL, WNOHANG) == 0) {
			/* dying (a filesystem in the way): reaped at a later tick */
			for (int i = 0; i < ZOMBIES_MAX; i++)
				if (!zombies[i]) {
					zombies[i] = job->child;
					break;
				}
		}
	}
	if (job->res.fd >= 0)
		close(job->res.fd);
	free(job->res.notes);
	close(job->sock);
	free(job);
}

void ktr_usdt_job__reap(void)
{
	for (int i = 0; i < ZOMBIES_MAX; i++)
		if (zombies[i] && waitpid(zombies[i], NULL, WNOHANG) != 0)
			zombies[i] = 0;
}
