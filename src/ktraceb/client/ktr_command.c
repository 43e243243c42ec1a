// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A command traced from its exec (ktraceb command ...): it is forked, held
 * on a pipe until the daemon has its tracing state, then released to
 * execvp(); the state says "await exec", so the trace starts with CALL
 * execve as BSD's does.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "ktraceb/bpf_shared.h"
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

int ktr_command__run(const struct ktr_options *o)
{
	struct ktr_request req = { 0 };
	struct ktr_reply rep;
	int fd = ktr_trfile__open(o), sock = ktr_talk__connect(o, true, fd), gate, status = 0,
	    error;
	pid_t child;

	child = spawn_held(o->command, &gate);
	if (child < 0) {
		ktr_trfile__discard(o, fd);
		errx(EX_OSERR, "cannot start %s: cannot drop ktraceb's capabilities",
		     o->command[0]);
	}
	req.op = KTR_OP_SET;
	req.facs = o->facs;
	req.pid = child;
	req.iosize = o->iosize;
	req.ustack_kib = o->ustack_kib;
	req.flags = KTR_REQ_FOREGROUND | KTR_REQ_AWAIT_EXEC | (o->gzip ? KTR_REQ_GZIP : 0) |
		    (o->syswide ? KTR_REQ_SYSWIDE : 0);
	req.flight_bytes = o->flight_bytes;
	req.flight_flags = o->flight_flags;
	memcpy(req.events, o->events, sizeof(req.events));
	ktr_options__request_select(o, &req.select);
	error = ktr_talk__request(o, sock, &req, fd, &rep);
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
	if (write(gate, "x", 1) != 1)
		err(EX_OSERR, "cannot start %s", o->command[0]);
	close(gate);
	error = ktr_talk__wait_done(o, sock, fd);
	close(fd);
	if (waitpid(child, &status, ktr_interrupted ? WNOHANG : 0) != child)
		return 128 + ktr_interrupted;
	status = exit_status(status);
	return status ? status : error ? EX_IOERR : 0;
}
