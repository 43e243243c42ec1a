// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktraceb: BSD ktrace(1) on Linux.  This command parses the BSD options
 * (client/ktr_options.c), opens the trace file with the caller's own
 * credentials (client/ktr_trfile.c) and hands it to the ktraceb daemon
 * (daemon/ktr_daemon.c), which owns the BPF programs and writes every trace
 * file.  With -p/-g it returns at once, as BSD does (client/ktr_run.c); with
 * a command (client/ktr_command.c) or -F it stays until the trace ends and
 * reports what it wrote.
 *
 * The daemon is this same binary: main() is the one place that knows both
 * sides, and hands the client the daemon's entry point, to run when it
 * starts a daemon or serves a socket it was given.
 */
#include <err.h>
#include <signal.h>
#include <sysexits.h>
#include <unistd.h>

#include "client/ktr_client.h"
#include "client/ktr_command.h"
#include "client/ktr_options.h"
#include "client/ktr_run.h"
#include "client/ktr_talk.h"
#include "daemon/ktr_daemon.h"

int main(int argc, char **argv)
{
	struct ktr_options o = { 0 };

	ktr_client__set_daemon(ktr_daemon__run);
	/* root's daemon, started by systemd on ktracebd.socket */
	if (ktr_client__activated()) {
		ktr_options__parse_activated(argc, argv, &o);
		return ktr_client__serve_activated(&o.bpf);
	}
	/* a daemon a ktraceb started (client/ktr_client.c), under its own name */
	if (argc > 0 && ktr_client__spawned(argv[0])) {
		if (getuid() != geteuid())
			errx(EX_CONFIG,
			     "must not run set-uid: install with file capabilities instead");
		ktr_options__parse_activated(argc, argv, &o);
		return ktr_client__serve_spawned(&o.bpf);
	}
	ktr_options__parse(argc, argv, &o);
	if (getuid() != geteuid())
		errx(EX_CONFIG, "must not run set-uid: install with file capabilities instead");
	signal(SIGINT, ktr_talk__on_signal);
	signal(SIGTERM, ktr_talk__on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (o.dump)
		return ktr_run__dump(&o);
	if (o.clear || o.clear_all)
		return ktr_run__clear(&o);
	if (o.syswide && getuid() != 0)
		errx(1, "-S: system-wide tracing is root's alone");
	if (o.pid || o.group || (o.syswide && !o.command))
		return ktr_run__attach(&o);
	return ktr_command__run(&o);
}
