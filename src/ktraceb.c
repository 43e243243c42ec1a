// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktraceb: trace a command into a kdump-compatible file.
 *
 * The command is forked, held on a pipe until its tracing state is in the
 * BPF procs map, then released to execvp().  The state says "await exec", so
 * the BPF side records nothing until the command's first execve: the trace
 * starts with CALL execve, as BSD's ktrace(1) does.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_drain.h"
#include "ktr_loader.h"
#include "ktr_writer.h"
#include "trstr.h"

#define DEF_TRACEFILE	"ktrace.out"
#define DEF_RING_BYTES	(16u << 20)
#define POLL_MS		50
#define ROUTE		0	/* this process feeds one trace file */

struct options {
	const char *tracefile;
	int facs;
	bool append;
	bool verbose;
	struct ktr_loader_opts bpf;
	char **command;
};

static volatile sig_atomic_t exiting;

static void usage(void)
{
	fprintf(stderr, "usage: ktraceb [-aiv] [-b bufsize] [-f trfile] [-s iosize] [-t trstr] "
			"command [args ...]\n");
	exit(EX_USAGE);
}

/* A size with an optional k/m suffix, within [min, max]; -1 if malformed. */
static long long parse_size(const char *s, long long min, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s || v < 0)
		return -1;
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	else if (*end == 'g' || *end == 'G')
		v <<= 30, end++;
	if (*end != '\0' || v < min || v > max)
		return -1;
	return v;
}

static void parse_args(int argc, char **argv, struct options *o)
{
	long long v;
	int ch;

	o->tracefile = DEF_TRACEFILE;
	o->facs = KTR_DEF_POINTS;
	o->bpf.ring_bytes = DEF_RING_BYTES;
	o->bpf.iosize = KTR_IOSIZE_DEFAULT;
	while ((ch = getopt(argc, argv, "+ab:f:is:t:v")) != -1) {
		switch (ch) {
		case 'a':
			o->append = true;
			break;
		case 'b':
			v = parse_size(optarg, 4096, 1LL << 30);
			if (v < 0 || (v & (v - 1)))
				errx(EX_USAGE, "bad ring buffer size %s: a power of two, 4k to 1g",
				     optarg);
			o->bpf.ring_bytes = v;
			break;
		case 'f':
			o->tracefile = optarg;
			break;
		case 'i':
			o->facs |= KTRFAC_INHERIT;
			break;
		case 's':
			v = parse_size(optarg, 0, KTR_SCRATCH_SIZE - 1024);
			if (v < 0)
				errx(EX_USAGE, "bad I/O capture size %s", optarg);
			o->bpf.iosize = v;
			break;
		case 't': {
			int facs = ktr_getpoints(optarg);

			if (facs < 0) {
				warnx("unknown facility in %s", optarg);
				usage();
			}
			o->facs = (o->facs & KTRFAC_INHERIT) | facs;
			break;
		}
		case 'v':
			o->verbose = o->bpf.verbose = true;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	o->bpf.csw = o->facs & KTRFAC_CSW;
	o->command = argv + optind;
}

static void on_signal(int sig)
{
	exiting = sig;
}

static void write_fileinfo(struct ktr_writer *w)
{
	struct ktr_fileinfo fi;
	struct utsname u;

	memset(&fi, 0, sizeof(fi));
	memcpy(fi.fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC));
	fi.fi_version = KTR_FORMAT_VERSION;
	fi.fi_hdrsize = sizeof(struct ktr_header);
	fi.fi_byteorder = KTR_BYTEORDER_MARK;
	if (uname(&u) == 0) {
		snprintf(fi.fi_machine, sizeof(fi.fi_machine), "%.15s", u.machine);
		snprintf(fi.fi_release, sizeof(fi.fi_release), "%.64s", u.release);
	}
	fi.fi_clock = CLOCK_MONOTONIC;
	fi.fi_wall_offset_ns = ktr_wall_offset_ns();
	snprintf(fi.fi_tool, sizeof(fi.fi_tool), "ktraceb %s", KTRACEB_VERSION);
	ktr_writer__append_meta(w, KTR_FILEINFO, &fi, sizeof(fi), fi.fi_wall_offset_ns);
}

/* Fork the command, held until its tracing is set up; returns its pid. */
static pid_t spawn_held(char **command, int *gate_fd)
{
	int gate[2];
	pid_t pid;
	char c;

	if (pipe2(gate, O_CLOEXEC) < 0)
		err(EX_OSERR, "pipe");
	pid = fork();
	if (pid < 0)
		err(EX_OSERR, "fork");
	if (pid == 0) {
		close(gate[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(gate[0], &c, 1) != 1)
			_exit(127); /* ktraceb gave up before tracing started */
		execvp(command[0], command);
		warn("exec of '%s' failed", command[0]);
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(gate[0]);
	*gate_fd = gate[1];
	return pid;
}

/* Traced processes still feeding this file; stale entries are removed. */
static int count_traced(int procs_fd)
{
	__u32 key, next, *prev = NULL;
	int n = 0;

	while (bpf_map_get_next_key(procs_fd, prev, &next) == 0) {
		struct ktr_proc_state ps;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(procs_fd, &key, &ps) < 0 || ps.route != ROUTE)
			continue;
		if (kill(key, 0) < 0 && errno == ESRCH) {
			bpf_map_delete_elem(procs_fd, &key);
			continue;
		}
		n++;
	}
	return n;
}

static void untrace_all(int procs_fd)
{
	__u32 key;

	while (bpf_map_get_next_key(procs_fd, NULL, &key) == 0)
		if (bpf_map_delete_elem(procs_fd, &key) < 0)
			break;
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EX_SOFTWARE;
}

/* Drain until the command and every process it passed tracing to are gone. */
static int run(struct ktr_drain *drain, int procs_fd, pid_t child, struct ktr_writer *w)
{
	int status = 0, err;
	bool child_done = false;

	for (;;) {
		err = ktr_drain__poll(drain, POLL_MS);
		if (err) {
			warnx("%s: %s: tracing stopped", ktr_writer__path(w), strerror(-err));
			untrace_all(procs_fd);
		}
		if (!child_done && waitpid(child, &status, WNOHANG) == child)
			child_done = true;
		if (exiting || (child_done && count_traced(procs_fd) == 0))
			break;
	}
	untrace_all(procs_fd);
	err = ktr_drain__finish(drain);
	if (err)
		warnx("%s: %s: tracing stopped", ktr_writer__path(w), strerror(-err));
	if (!child_done && waitpid(child, &status, exiting ? WNOHANG : 0) == child)
		child_done = true;
	return child_done ? exit_status(status) : 128 + exiting;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct ktraceb_bpf *skel;
	struct ktr_writer *w;
	struct ktr_drain *drain;
	struct ktr_proc_state ps = { 0 };
	const char *why;
	int gate, procs_fd, status;
	__u32 key;
	pid_t child;

	parse_args(argc, argv, &o);
	if (getuid() != geteuid())
		errx(EX_CONFIG, "must not run set-uid: install with file capabilities instead");
	w = ktr_writer__open(o.tracefile, o.append, &why);
	if (!w)
		errx(EX_CANTCREAT, "%s: %s", o.tracefile, why);
	skel = ktr_loader__load(&o.bpf, &why);
	if (!skel)
		errx(EX_UNAVAILABLE, "%s", why);
	drain = ktr_drain__new(skel);
	if (!drain)
		err(EX_OSERR, "ring buffer");
	ktr_drain__set_writer(drain, ROUTE, w);
	write_fileinfo(w);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	procs_fd = bpf_map__fd(skel->maps.procs);
	child = spawn_held(o.command, &gate);
	key = child;
	ps.facs = o.facs;
	ps.route = ROUTE;
	ps.flags = KTR_PS_AWAIT_EXEC;
	ps.sv_flags = KTR_SV_LINUX_AMD64;
	if (bpf_map_update_elem(procs_fd, &key, &ps, BPF_NOEXIST) < 0) {
		kill(child, SIGKILL);
		err(EX_OSERR, "cannot trace pid %d", child);
	}
	if (write(gate, "x", 1) != 1)
		err(EX_OSERR, "cannot start %s", o.command[0]);
	close(gate);

	status = run(drain, procs_fd, child, w);
	fprintf(stderr, "ktraceb: %llu records written to %s, %llu lost\n",
		ktr_writer__records(w), o.tracefile, ktr_drain__lost(drain, ROUTE));
	ktr_drain__free(drain);
	ktr_loader__destroy(skel);
	if (ktr_writer__close(w) < 0)
		status = status ? status : EX_IOERR;
	return status;
}
