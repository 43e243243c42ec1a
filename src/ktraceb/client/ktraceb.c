// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktraceb: BSD ktrace(1) on Linux.  This command parses the BSD options,
 * opens the trace file with the caller's own credentials and hands it to
 * the ktraceb daemon (ktr_daemon.c), which owns the BPF programs and writes
 * every trace file.  With -p/-g it returns at once, as BSD does; with a
 * command (or -F) it stays until the trace ends and reports what it wrote.
 *
 * A command is forked, held on a pipe until the daemon has its tracing
 * state, then released to execvp(); the state says "await exec", so the
 * trace starts with CALL execve as BSD's does.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "ktraceb/bpf_shared.h"
#include "ktr_client.h"
#include "daemon/ktr_loader.h"
#include "ktr_others.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "daemon/ktr_flight.h"
#include "daemon/ktr_pin.h"
#include "common/ktr_tracefs.h"
#include "daemon/ktr_writer.h"
#include "trstr.h"

#define DEF_TRACEFILE  "ktrace.out"
#define DEF_RING_BYTES (16u << 20)

struct options {
	const char *tracefile;
	int facs;
	bool facs_given, append, clear, clear_all, descend, foreground, ring_given, dump, gzip;
	bool syswide; /* -S: the -e events of every task (root's) */
	__u64 flight_bytes; /* -R: a recorder's ring */
	__u32 flight_flags;
	pid_t pid; /* > 0 pid, < 0 process group, 0 none */
	struct ktr_loader_opts bpf;
	__u32 iosize;
	char **command;
	char events[KTR_TP_REQ_MAX][KTR_TP_NAME_MAX]; /* -e, checked here and by the daemon */
	int nevents;
	bool list_events;
};

static volatile sig_atomic_t interrupted;

static void usage_text(FILE *f)
{
	fprintf(f,
		"usage: ktraceb [-aCcdFivz] [-b bufsize] [-f trfile] [-g pgrp | -p pid] [-s iosize] "
		"[-t trstr]\n"
		"       ktraceb [-adivz] [-b bufsize] [-f trfile] [-s iosize] [-t trstr] "
		"command [args ...]\n"
		"       ktraceb -R size[,compact][,exit] [other options as above]\n"
		"       ktraceb -D [-f trfile]\n"
		"       ktraceb -e subsys:event ... (with either form above); ktraceb -e list\n"
		"       ktraceb -S -e subsys:event ... [-f trfile] [command [args ...]]\n");
}

static void usage(void)
{
	usage_text(stderr);
	exit(EX_USAGE);
}

static void help(void)
{
	usage_text(stdout);
	printf("\ntrstr letters (default cnisu, as BSD):\n"
	       "  c  system calls and returns, with the structures they pass and\n"
	       "     exec's arguments and environment\n"
	       "  n  path names (namei)\n"
	       "  i  data read and written (genio), up to -s iosize bytes per I/O\n"
	       "  s  signals delivered (psig)\n"
	       "  u  user records: the USDT probes of the traced programs (utrace(),\n"
	       "     spans of <ktraceb/utrace.h>, runtimes' and libraries' probes)\n"
	       "  w  context switches (csw)\n"
	       "  k  kernel tracepoints, those -e names (implied by -e)\n"
	       "  +  the default set\n"
	       "\n-R size[,compact][,exit]: record into a ring of size bytes (k, m, g) in\n"
	       "memory; write it to trfile when a traced process dumps core (or, with\n"
	       "exit, exits non-zero), or on ktraceb -D -f trfile.  compact keeps only\n"
	       "each syscall's return, for a longer history.\n"
	       "\n-e subsys:event: also record the kernel tracepoint subsys:event (globs\n"
	       "such as sched:* too; repeatable) each time it fires in a traced process;\n"
	       "-e list lists this kernel's events.\n"
	       "\n-S: system-wide (root): the -e events of every task on every CPU, with\n"
	       "the CPU in each record (kdump -c); for the command's life, or without one\n"
	       "until ktraceb -c -f trfile or ktraceb -C.\n"
	       "\n-z: write the trace gzip-compressed; kdump reads it as it is.\n"
	       "\nSee ktraceb(1) and kdump(1).\n");
	exit(0);
}

/* A size with an optional k/m/g suffix, within [min, max]; -1 if malformed. */
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

/* -R size[,compact][,exit] */
static void parse_recorder(const char *arg, struct options *o)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	long long v;

	if (!copy)
		errx(EX_OSERR, "out of memory");
	tok = strtok_r(copy, ",", &save);
	v = tok ? parse_size(tok, KTR_FLIGHT_MIN_BYTES, KTR_FLIGHT_MAX_BYTES) : -1;
	if (v < 0)
		errx(EX_USAGE, "bad recorder size %s: 64k to 4g", arg);
	o->flight_bytes = v;
	while ((tok = strtok_r(NULL, ",", &save))) {
		if (strcmp(tok, "compact") == 0)
			o->flight_flags |= KTR_FLIGHT_COMPACT;
		else if (strcmp(tok, "exit") == 0)
			o->flight_flags |= KTR_FLIGHT_ON_EXIT;
		else
			errx(EX_USAGE, "bad recorder option %s: compact or exit", tok);
	}
	free(copy);
}

/* -e subsys:event (a glob too), or -e list */
static void parse_event(const char *arg, struct options *o)
{
	const char *why;

	if (strcmp(arg, "list") == 0) {
		o->list_events = true;
		return;
	}
	if (!ktr_tracefs__name_ok(arg, true, &why))
		errx(EX_USAGE, "-e %.*s: %s", KTR_TP_NAME_MAX, arg, why);
	if (o->nevents >= KTR_TP_REQ_MAX)
		errx(EX_USAGE, "-e: at most %d event names (globs match more)", KTR_TP_REQ_MAX);
	strcpy(o->events[o->nevents++], arg);
}

/* -e list: this kernel's events, as tracefs lists them. */
static int list_events(void)
{
	const char *why = NULL, *dir = ktr_tracefs__dir(&why);
	FILE *f = dir ? ktr_tracefs__events(dir, &why) : NULL;
	char line[256];

	if (!f)
		errx(EX_UNAVAILABLE, "-e list: %s", why);
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	fclose(f);
	return 0;
}

static pid_t parse_id(const char *s, int sign)
{
	long long v = parse_size(s, 1, 0x7fffffff);

	if (v < 0 || strpbrk(s, "kKmMgG"))
		errx(EX_USAGE, "invalid process or group id %s", s);
	return sign * (pid_t)v;
}

static void parse_opt(int ch, struct options *o)
{
	long long v;

	switch (ch) {
	case 'a':
		o->append = true;
		break;
	case 'b':
		v = parse_size(optarg, 4096, 1LL << 30);
		if (v < 0 || (v & (v - 1)))
			errx(EX_USAGE, "bad ring buffer size %s: a power of two, 4k to 1g", optarg);
		o->bpf.ring_bytes = v;
		o->ring_given = true;
		break;
	case 'C':
		o->clear_all = true;
		break;
	case 'c':
		o->clear = true;
		break;
	case 'd':
		o->descend = true;
		break;
	case 'D':
		o->dump = true;
		break;
	case 'F':
		o->foreground = true;
		break;
	case 'e':
		parse_event(optarg, o);
		break;
	case 'f':
		o->tracefile = optarg;
		break;
	case 'g':
	case 'p':
		if (o->pid)
			errx(EX_USAGE, "only one -g or -p flag is permitted");
		o->pid = parse_id(optarg, ch == 'p' ? 1 : -1);
		break;
	case 'R':
		parse_recorder(optarg, o);
		break;
	case 'S':
		o->syswide = true;
		break;
	case 'h':
		help();
		break;
	case 'i':
		o->facs |= KTRFAC_INHERIT;
		break;
	case 's':
		v = parse_size(optarg, 0, KTR_IOSIZE_MAX);
		if (v < 0)
			errx(EX_USAGE, "bad I/O capture size %s: 0 to 64k", optarg);
		o->iosize = v;
		break;
	case 't':
		v = ktr_getpoints(optarg);
		if (v < 0) {
			warnx("unknown facility in %s", optarg);
			usage();
		}
		o->facs = (o->facs & KTRFAC_INHERIT) | v;
		o->facs_given = true;
		break;
	case 'v':
		o->bpf.verbose = true;
		break;
	case 'z':
		o->gzip = true;
		break;
	default:
		usage();
	}
}

static void parse_args(int argc, char **argv, struct options *o)
{
	int ch;

	o->tracefile = DEF_TRACEFILE;
	o->facs = KTR_DEF_POINTS;
	o->bpf.ring_bytes = DEF_RING_BYTES;
	o->iosize = KTR_IOSIZE_DEFAULT;
	while ((ch = getopt(argc, argv, "+ab:CcDde:f:Fg:hip:R:Ss:t:vz")) != -1)
		parse_opt(ch, o);
	if (o->list_events)
		exit(list_events());
	if (o->nevents)
		o->facs |= KTRFAC_TRACEPOINT;
	else if ((o->facs & KTRFAC_TRACEPOINT) && !o->clear && !o->clear_all)
		errx(EX_USAGE, "-t k: name the kernel events with -e subsys:event");
	if (o->nevents && (o->clear || o->clear_all || o->dump))
		errx(EX_USAGE, "-e names events to record: not with -c, -C or -D");
	if (o->nevents && (o->flight_flags & KTR_FLIGHT_COMPACT))
		errx(EX_USAGE, "-e: a compact recorder keeps returns and signals only");
	if (o->syswide && o->flight_bytes)
		errx(EX_USAGE, "-S writes a trace, not a recording: not with -R");
	if (optind < argc)
		o->command = argv + optind;
	if (o->syswide && !o->nevents)
		errx(EX_USAGE, "-S records kernel events system-wide: name them with -e");
	if (o->syswide && (o->pid || o->descend || o->foreground || o->append))
		errx(EX_USAGE, "-S: with a command, or alone; not with -p, -g, -d, -F or -a");
	/* -D: only the file */
	if (o->dump &&
	    (o->pid || o->command || o->clear || o->clear_all || o->flight_bytes || o->gzip))
		usage();
	if (o->dump)
		return;
	if (o->flight_bytes && (o->clear || o->clear_all || o->append))
		errx(EX_USAGE, "-R records for a new file: not with -a, -c or -C");
	if (o->gzip && (o->clear || o->clear_all))
		errx(EX_USAGE, "-z compresses a new trace: not with -c or -C");
	/* the checks FreeBSD's ktrace(1) makes */
	if ((o->pid && o->command) || (o->clear_all && (o->pid || o->clear)) ||
	    (!o->pid && !o->clear && !o->clear_all && !o->command && !o->syswide) ||
	    (o->command && (o->clear || o->clear_all)) || (o->foreground && (!o->pid || o->clear)))
		usage();
}

static void on_signal(int sig)
{
	interrupted = sig;
}

/* Print the daemon's per-process lines ("pid 12: not your process"). */
static void print_reply_lines(const char *msg)
{
	const char *p = msg;

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "ktraceb: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/*
 * -a adds to a file of the same kind only: gzip members (-z) to a
 * compressed trace, plain records to an uncompressed one.  An empty file
 * takes either.
 */
static void check_append_kind(const struct options *o, int fd)
{
	unsigned char magic[2];
	char link[64];
	struct stat st;
	bool gz;
	int rfd;

	if (fstat(fd, &st) < 0 || st.st_size == 0)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	rfd = open(link, O_RDONLY | O_CLOEXEC);
	if (rfd < 0)
		err(EX_CANTCREAT, "%s", o->tracefile);
	gz = pread(rfd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	close(rfd);
	if (gz && !o->gzip)
		errx(EX_CANTCREAT, "%s: a compressed trace: append to it with -z", o->tracefile);
	if (!gz && o->gzip)
		errx(EX_CANTCREAT, "%s: not a compressed trace: cannot append to it with -z",
		     o->tracefile);
}

static int open_tracefile(const struct options *o)
{
	const char *why;
	int fd = ktr_tracefile_open(o->tracefile, o->append, &why);

	if (fd < 0)
		errx(EX_CANTCREAT, "%s: %s", o->tracefile, why);
	if (o->append)
		check_append_kind(o, fd);
	return fd;
}

/*
 * Nothing could be traced: remove the file this command created, if the
 * path still names it, rather than leave an empty trace behind.
 */
static void discard_tracefile(const struct options *o, int fd)
{
	struct stat mine, now;

	if (!o->append && fstat(fd, &mine) == 0 && lstat(o->tracefile, &now) == 0 &&
	    mine.st_dev == now.st_dev && mine.st_ino == now.st_ino)
		unlink(o->tracefile);
}

/* The daemon's socket; tracefd (if >= 0) is discarded when there is none. */
static int connect_daemon(const struct options *o, bool spawn, int tracefd)
{
	const char *why;
	int sock = ktr_client__connect(&o->bpf, spawn, &why);

	if (sock < 0 && !(sock == -ENOENT && !spawn)) {
		if (tracefd >= 0)
			discard_tracefile(o, tracefd);
		errx(EX_UNAVAILABLE, "%s", why);
	}
	return sock;
}

static int request(const struct options *o, int sock, struct ktr_request *req, int fd,
		   struct ktr_reply *rep)
{
	int err;

	req->magic = KTR_PROTO_MAGIC;
	err = ktr_client__request(sock, req, fd, rep);
	if (err == -EBADMSG)
		errx(EX_UNAVAILABLE, "the running ktraceb daemon is another version: "
				     "retry when its traces have ended");
	if (err)
		errx(EX_UNAVAILABLE, "ktraceb daemon: %s", strerror(-err));
	print_reply_lines(rep->msg);
	/* one ring serves every trace: -b only sizes the ring of a daemon it starts */
	if (o->ring_given && rep->ring_bytes && rep->ring_bytes != o->bpf.ring_bytes)
		warnx("-b ignored: the running daemon's ring buffer is %llu bytes",
		      (unsigned long long)rep->ring_bytes);
	return rep->error;
}

/*
 * A clear goes to the other daemons that may trace what it names too
 * (ktr_others.h), each told only about its own user's: the owners of the
 * processes of -c -p/-g (and of a move, after -p), the owner of -c -f's
 * file, named by its identity (never by the descriptor, which stays with
 * the daemon that served us); -C names nothing and goes to every one.
 */
static void clear_elsewhere(int primary, const struct ktr_request *clear, int fd)
{
	struct ktr_request req = *clear;
	uid_t *owners = NULL, file_owner;
	struct stat st;
	int n = 0;

	req.magic = KTR_PROTO_MAGIC;
	if (req.op == KTR_OP_CLEARFILE) {
		if (fstat(fd, &st) < 0)
			return;
		req.op = KTR_OP_CLEARINODE;
		req.file_dev = st.st_dev;
		req.file_ino = st.st_ino;
		file_owner = st.st_uid;
		ktr_others__ask(primary, &req, &file_owner, 1);
		return;
	}
	if (req.op == KTR_OP_CLEAR &&
	    (n = ktr_procs__owners(req.pid, req.flags & KTR_REQ_DESCEND, &owners)) <= 0)
		return; /* no such process: no daemon traces it */
	ktr_others__ask(primary, &req, owners, n);
	free(owners);
}

/*
 * No daemon runs, so nothing is traced: answer -c -p/-g as BSD would,
 * from the permission rules alone (the process must exist, and be ours).
 */
static int clear_untraced(const struct options *o)
{
	struct ktr_caller self;
	int tgid = o->pid > 0 ? ktr_procs__tgid(o->pid) : o->pid, n = 0, ok = 0;
	pid_t *pids = NULL;

	ktr_caller__self(&self);
	if (o->pid < 0 || tgid > 0)
		n = ktr_procs__collect(tgid, o->descend, &pids);
	if (n <= 0) {
		free(pids);
		if (o->pid > 0)
			warnx("pid %d: no such process", o->pid);
		else
			warnx("process group %d: no such process group", -o->pid);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		const char *why;

		if (ktr_perm__canset(&self, pids[i], 0, &why) == 0)
			ok++;
		else
			warnx("pid %d: %s", pids[i], why);
	}
	free(pids);
	return ok ? 0 : 1;
}

/* -c, -C: clear; never starts a daemon (if none runs, nothing is traced). */
static int run_clear(const struct options *o)
{
	struct ktr_request req = { 0 };
	struct ktr_reply rep;
	int sock, error = 0, fd = -1;

	if (o->clear && !o->pid) {
		/* BSD opens the file to stop tracing into it: only a writer may */
		fd = open(o->tracefile, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			err(1, "%s", o->tracefile);
		req.op = KTR_OP_CLEARFILE;
	} else {
		req.op = o->clear_all ? KTR_OP_CLEARALL : KTR_OP_CLEAR;
		req.pid = o->pid;
		req.flags = o->descend ? KTR_REQ_DESCEND : 0;
		req.facs = o->facs_given ? (__u32)(o->facs & KTRFAC_MASK) : 0;
	}
	sock = connect_daemon(o, false, -1);
	if (sock >= 0)
		error = request(o, sock, &req, fd, &rep);
	else if (req.op == KTR_OP_CLEAR)
		error = clear_untraced(o);
	clear_elsewhere(sock, &req, fd);
	if (fd >= 0)
		close(fd);
	return error ? 1 : 0;
}

/*
 * Wait for the daemon's DONE, passing on a Ctrl-C as STOP.  A recording
 * that nothing triggered wrote nothing: its file (fd, if >= 0) goes.
 */
static int wait_done(const struct options *o, int sock, int fd)
{
	struct ktr_request stop = { .magic = KTR_PROTO_MAGIC, .op = KTR_OP_STOP };
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	struct ktr_reply *rep = calloc(1, sizeof(*rep));
	bool stopping = false;
	int error;

	if (!rep)
		errx(EX_OSERR, "out of memory");
	for (;;) {
		if (interrupted && !stopping) {
			ktr_proto__send(sock, &stop, sizeof(stop), -1);
			stopping = true;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		error = ktr_proto__recv(sock, rep, sizeof(*rep), NULL);
		if (error)
			errx(EX_UNAVAILABLE, "ktraceb daemon: %s", strerror(-error));
		if (rep->type == KTR_REPLY_DONE)
			break;
		if (rep->type == KTR_REPLY_NOTE)
			print_reply_lines(rep->msg);
	}
	print_reply_lines(rep->msg);
	if (o->flight_bytes && !rep->records) {
		if (fd >= 0)
			discard_tracefile(o, fd);
		fprintf(stderr, "ktraceb: recorder: nothing triggered, nothing written%s\n",
			fd >= 0 ? " (trace file removed)" : "");
	} else {
		fprintf(stderr, "ktraceb: %llu records written to %s, %llu lost\n",
			(unsigned long long)rep->records, o->tracefile,
			(unsigned long long)rep->lost);
	}
	error = rep->error;
	free(rep);
	return error;
}

/* -D: a recording's ring into its file now; the recording goes on. */
static int run_dump(const struct options *o)
{
	struct ktr_request req = { .op = KTR_OP_DUMP };
	struct ktr_reply rep;
	int fd, sock, error;

	/* as -c: only a writer of the file may */
	fd = open(o->tracefile, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		err(1, "%s", o->tracefile);
	/* a daemon killed -9 left recordings: a new one takes them over (ktr_pin.h) */
	sock = connect_daemon(o, geteuid() == 0 && ktr_pin__left(), -1);
	if (sock < 0)
		errx(1, "%s: no recording (no ktraceb daemon runs)", o->tracefile);
	error = request(o, sock, &req, fd, &rep);
	close(fd);
	if (error)
		return 1;
	fprintf(stderr, "ktraceb: %u records written to %s\n", rep.count, o->tracefile);
	return 0;
}

/* -p, -g: start tracing and return at once (or stay, with -F). */
static int run_attach(const struct options *o)
{
	struct ktr_request req = { 0 };
	struct ktr_reply rep;
	int fd = open_tracefile(o), sock = connect_daemon(o, true, fd), err;

	req.op = KTR_OP_SET;
	req.facs = o->facs;
	req.pid = o->pid;
	req.iosize = o->iosize;
	req.flags = (o->descend ? KTR_REQ_DESCEND : 0) | (o->foreground ? KTR_REQ_FOREGROUND : 0) |
		    (o->gzip ? KTR_REQ_GZIP : 0) | (o->syswide ? KTR_REQ_SYSWIDE : 0);
	req.flight_bytes = o->flight_bytes;
	req.flight_flags = o->flight_flags;
	memcpy(req.events, o->events, sizeof(req.events));
	err = request(o, sock, &req, fd, &rep);
	if (err || !rep.count)
		discard_tracefile(o, fd);
	close(fd);
	if (err || !rep.count)
		return err == EOPNOTSUPP ? EX_UNAVAILABLE : 1;
	if (!o->pid)
		return 0; /* -S alone: the machine, no process */
	/* a process another daemon traced for us moves here: clear it there */
	req.op = KTR_OP_CLEAR;
	req.facs = 0;
	req.flags &= KTR_REQ_DESCEND;
	memset(req.events, 0, sizeof(req.events));
	clear_elsewhere(sock, &req, -1);
	if (!o->foreground)
		return 0;
	return wait_done(o, sock, -1) ? 1 : 0;
}

/*
 * The command must not keep what the caller's ktraceb binary was given: a
 * file-capability ktraceb holds CAP_BPF and CAP_PERFMON, which its child
 * inherits.  Drop them, and be dumpable, as the command would be if the
 * user ran it directly (and as the daemon's permission check requires).
 */
static void drop_privilege(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (getuid() == 0)
		return;
	if (syscall(SYS_capset, &hdr, data) < 0 || prctl(PR_SET_DUMPABLE, 1) < 0)
		_exit(126);
}

/*
 * Fork the command, held until its tracing is set up; returns its pid, or
 * -1 if it could not drop its privileges.  The daemon checks the child as
 * it is when the request arrives, so the child says on a pipe that it
 * looks like the command already (no capability, dumpable) before the
 * request is sent: a child not yet scheduled still holds this binary's
 * capabilities, and was refused as a process with capabilities.
 */
static pid_t spawn_held(char **command, int *gate_fd)
{
	int gate[2], ready[2];
	pid_t pid;
	char c;

	if (pipe2(gate, O_CLOEXEC) < 0 || pipe2(ready, O_CLOEXEC) < 0)
		err(EX_OSERR, "pipe");
	pid = fork();
	if (pid < 0)
		err(EX_OSERR, "fork");
	if (pid == 0) {
		close(gate[1]);
		close(ready[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		drop_privilege();
		if (write(ready[1], "r", 1) != 1)
			_exit(127);
		close(ready[1]);
		if (read(gate[0], &c, 1) != 1)
			_exit(127); /* ktraceb gave up before tracing started */
		execvp(command[0], command);
		warn("exec of '%s' failed", command[0]);
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(gate[0]);
	close(ready[1]);
	*gate_fd = gate[1];
	if (read(ready[0], &c, 1) != 1) { /* it exited instead */
		close(gate[1]);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EX_SOFTWARE;
}

static int run_command(const struct options *o)
{
	struct ktr_request req = { 0 };
	struct ktr_reply rep;
	int fd = open_tracefile(o), sock = connect_daemon(o, true, fd), gate, status = 0, error;
	pid_t child;

	child = spawn_held(o->command, &gate);
	if (child < 0) {
		discard_tracefile(o, fd);
		errx(EX_OSERR, "cannot start %s: cannot drop ktraceb's capabilities",
		     o->command[0]);
	}
	req.op = KTR_OP_SET;
	req.facs = o->facs;
	req.pid = child;
	req.iosize = o->iosize;
	req.flags = KTR_REQ_FOREGROUND | KTR_REQ_AWAIT_EXEC | (o->gzip ? KTR_REQ_GZIP : 0) |
		    (o->syswide ? KTR_REQ_SYSWIDE : 0);
	req.flight_bytes = o->flight_bytes;
	req.flight_flags = o->flight_flags;
	memcpy(req.events, o->events, sizeof(req.events));
	error = request(o, sock, &req, fd, &rep);
	if (error || !rep.count) {
		discard_tracefile(o, fd);
		close(fd);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		if (!rep.msg[0]) /* the daemon said why already */
			warnx("cannot trace %s", o->command[0]);
		/* no daemon could load the programs, or none of what was asked works here */
		return error == EOPNOTSUPP ? EX_UNAVAILABLE : 1;
	}
	if (write(gate, "x", 1) != 1)
		err(EX_OSERR, "cannot start %s", o->command[0]);
	close(gate);
	error = wait_done(o, sock, fd);
	close(fd);
	if (waitpid(child, &status, interrupted ? WNOHANG : 0) != child)
		return 128 + interrupted;
	status = exit_status(status);
	return status ? status : error ? EX_IOERR : 0;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };

	parse_args(argc, argv, &o);
	if (getuid() != geteuid())
		errx(EX_CONFIG, "must not run set-uid: install with file capabilities instead");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (o.dump)
		return run_dump(&o);
	if (o.clear || o.clear_all)
		return run_clear(&o);
	if (o.syswide && getuid() != 0)
		errx(1, "-S: system-wide tracing is root's alone");
	if (o.pid || (o.syswide && !o.command))
		return run_attach(&o);
	return run_command(&o);
}
