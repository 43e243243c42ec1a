// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A command traced from its exec (ktraceb command ...): it is forked, held
 * on a pipe until the daemon has its tracing state, then released to
 * execvp(); the state says "await exec", so the trace starts with CALL
 * execve as BSD's does.  ktraceb then stays until the command has ended,
 * whatever becomes of the trace: if the daemon ends or the file fails
 * first, that is said and ktraceb still waits, so that `ktraceb job &&
 * next` runs next after job, and on job's status.  With -i ktraceb is the
 * subreaper of the command's descendants (PR_SET_CHILD_SUBREAPER): the
 * orphans among them become its children, so that without the daemon it
 * can still wait for all of them, as the trace would have.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "common/ktr_proto.h"
#include "ktr_command.h"
#include "ktr_options.h"
#include "ktr_talk.h"
#include "ktr_trfile.h"

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

	if (syscall(SYS_capset, &hdr, data) < 0 || prctl(PR_SET_DUMPABLE, 1) < 0)
		_exit(126);
}

/*
 * Has the forked child anything to drop before it looks like the
 * command?  Not for root, nor for a caller with no capability that is
 * dumpable: its child is as the command would be from the fork on.
 */
static bool must_drop_privilege(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (getuid() == 0)
		return false;
	if (syscall(SYS_capget, &hdr, data) < 0)
		return true;
	return data[0].permitted || data[1].permitted || data[0].effective || data[1].effective ||
	       data[0].inheritable || data[1].inheritable || prctl(PR_GET_DUMPABLE) != 1;
}

/*
 * Fork the command, held until its tracing is set up; returns its pid, or
 * -1 if it could not drop its privileges.  The daemon checks the child as
 * it is when the request arrives, so a child that has privileges to drop
 * says on a pipe that it looks like the command already (no capability,
 * dumpable) before the request is sent: a child not yet scheduled still
 * holds this binary's capabilities, and was refused as a process with
 * capabilities.  A child with nothing to drop is not waited for: the
 * request is sent while it starts (on this 2-CPU VM the wait was a
 * millisecond of a traced `true`).
 */
static pid_t spawn_held(char **command, bool inherit, int *gate_fd)
{
	bool drop = must_drop_privilege();
	int gate[2], ready[2];
	ssize_t n = 1;
	pid_t pid;
	char c;

	if (pipe2(gate, O_CLOEXEC) < 0 || pipe2(ready, O_CLOEXEC) < 0)
		err(EX_OSERR, "pipe");
	/* after the daemon was started: it is no descendant of ours to wait for */
	if (inherit && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		warn("cannot wait for the command's orphaned descendants: prctl");
	pid = fork();
	if (pid < 0)
		err(EX_OSERR, "fork");
	if (pid == 0) {
		close(gate[1]);
		close(ready[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (drop) {
			drop_privilege();
			if (write(ready[1], "r", 1) != 1)
				_exit(127);
		}
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
	while (drop && (n = read(ready[0], &c, 1)) < 0 && errno == EINTR)
		;
	if (n != 1) { /* it exited instead */
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

/* The command, and how it ended once reaped. */
static pid_t command_pid;
static int command_status;
static bool command_reaped;
static bool children_left = true; /* false once ktraceb has no child left at all */

/*
 * Every child that has ended reaped (with -i the orphans among the
 * command's descendants are ours too), the command's status kept.
 */
static void command__reap(void)
{
	int st;
	pid_t p;

	while ((p = waitpid(-1, &st, WNOHANG)) > 0)
		if (p == command_pid) {
			command_status = st;
			command_reaped = true;
		}
	if (p < 0 && errno == ECHILD)
		children_left = false;
}

/* Only to wake the waits below (poll returns at a signal, whatever SA_RESTART says). */
static void command__on_child(int sig)
{
	(void)sig;
}

/*
 * Wait until the command has ended (all: and every descendant that is
 * ours, -i), or an interruption (SIGINT, SIGTERM) ends the wait.
 */
static void command__wait(bool all)
{
	for (;;) {
		command__reap();
		if (ktr_interrupted || !children_left || (command_reaped && !all))
			return;
		poll(NULL, 0, 100);
	}
}

/* The SET that traces the held child from its exec. */
static void command__request(const struct ktr_options *o, pid_t child, struct ktr_request *req)
{
	req->op = KTR_OP_SET;
	req->facs = o->facs;
	req->pid = child;
	req->iosize = o->iosize;
	req->ustack_kib = o->ustack_kib;
	req->flags = KTR_REQ_FOREGROUND | KTR_REQ_AWAIT_EXEC | (o->gzip ? KTR_REQ_GZIP : 0) |
		     (o->syswide ? KTR_REQ_SYSWIDE : 0) | ktr_options__say_flags(o);
	req->flight_bytes = o->flight_bytes;
	req->flight_flags = o->flight_flags;
	req->ring_bytes = o->ring_given ? o->bpf.ring_bytes : 0;
	memcpy(req->events, o->events, sizeof(req->events));
	ktr_options__request_select(o, &req->select);
}

/*
 * The command released and waited for, its trace's end first: the
 * command's status, or, if it succeeded and the trace did not end whole
 * (the file failed, the daemon ended), EX_IOERR.
 */
static int command__follow(const struct ktr_options *o, int sock, int fd, int gate)
{
	struct sigaction sa = { .sa_handler = command__on_child,
				.sa_flags = SA_RESTART | SA_NOCLDSTOP };
	bool inherit = o->facs & KTRFAC_INHERIT;
	char waiting[160];
	int error, status;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	if (write(gate, "x", 1) != 1)
		err(EX_OSERR, "cannot start %s", o->command[0]);
	close(gate);
	snprintf(waiting, sizeof(waiting), "; waiting for %s (pid %d)%s", o->command[0],
		 command_pid, inherit ? " and its descendants" : "");
	error = ktr_talk__wait_done(o, sock, fd, waiting, command__reap);
	close(fd);
	command__reap(); /* interrupted too: a ^C may have ended the command as well */
	if (!ktr_interrupted) {
		/* the daemon's line said why the trace ended; this one, why we stay */
		if (error > 0 && !command_reaped)
			warnx("%s", waiting + 2);
		command__wait(error && inherit);
	}
	if (!command_reaped)
		return ktr_interrupted ? 128 + ktr_interrupted : EX_SOFTWARE;
	status = exit_status(command_status);
	return status ? status : error ? EX_IOERR : 0;
}

int ktr_command__run(const struct ktr_options *o)
{
	struct ktr_request req = { 0 };
	struct ktr_reply rep;
	int fd = ktr_trfile__open(o), sock = ktr_talk__connect(o, true, fd), gate, error;
	pid_t child;

	child = spawn_held(o->command, o->facs & KTRFAC_INHERIT, &gate);
	if (child < 0) {
		ktr_trfile__discard(o, fd);
		errx(EX_OSERR, "cannot start %s: cannot drop ktraceb's capabilities",
		     o->command[0]);
	}
	command_pid = child;
	command__request(o, child, &req);
	error = ktr_talk__request(o, &sock, &req, fd, &rep);
	if (error || !rep.count) {
		ktr_trfile__discard(o, fd);
		close(fd);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		if (!rep.msg[0]) /* the daemon said why already */
			warnx("cannot trace %s", o->command[0]);
		/* no daemon could load the programs, or none of what was asked works here */
		return error == EOPNOTSUPP ? EX_UNAVAILABLE : 1;
	}
	return command__follow(o, sock, fd, gate);
}
