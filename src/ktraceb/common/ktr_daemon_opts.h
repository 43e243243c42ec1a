/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * How a daemon starts: the options the command parses (-b, -v) and passes
 * on to the daemon it starts, which loads the BPF programs with them
 * (daemon/ktr_loader.h), and the shape of the call that runs one
 * (daemon/ktr_daemon.h).  The command and the daemon are one binary: its
 * main() hands the daemon's entry point to the client, which knows the
 * daemon by these alone.
 */
#ifndef KTRACEB_KTR_DAEMON_OPTS_H
#define KTRACEB_KTR_DAEMON_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ktr_loader_opts {
	size_t ring_bytes;		/* power of two, >= page size */
	bool verbose;			/* libbpf debug output */
	/*
	 * -v: where stderr goes back to once the programs are loaded, or 0.
	 * The client that started the daemon reads the load's log from a
	 * pipe (stderr meanwhile), and waits while it comes (client/ktr_client.c).
	 */
	int log_done_fd;
	int procs_fd;			/* > 0: a procs map to share (daemon/ktr_pin.h) */
	int selects_fd;			/* > 0: the selections that procs map's entries name */
	bool defer_attach;		/* loaded only: ktr_loader__attach() later */
};

/*
 * Serve on listen_fd until idle.  shared: serve every uid (root's daemon);
 * else only owner.  Returns an exit status.  ktr_daemon__run is one.
 */
typedef int ktr_daemon_run_fn(const struct ktr_loader_opts *opts, int listen_fd, bool shared,
			      uid_t owner);

#endif /* KTRACEB_KTR_DAEMON_OPTS_H */
