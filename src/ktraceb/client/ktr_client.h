/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* Talking to the ktraceb daemon, and starting it when none runs. */
#ifndef KTRACEB_KTR_CLIENT_H
#define KTRACEB_KTR_CLIENT_H

#include <stdbool.h>

#include "common/ktr_daemon_opts.h"

struct ktr_request;
struct ktr_reply;

/*
 * The daemon this binary runs (ktr_daemon__run), set once by main() before
 * any call below: when it starts one in a fork of its own, and when it
 * serves a socket it was given.
 */
void ktr_client__set_daemon(ktr_daemon_run_fn *run);

/*
 * A connection to a daemon this caller can trust (root's, or its own uid's),
 * started if none runs and spawn is set.  Returns the socket, or -errno
 * with *why set (-ENOENT: none runs and spawn was not set).
 */
int ktr_client__connect(const struct ktr_loader_opts *opts, bool spawn, const char **why);

/*
 * Started by systemd's socket activation (LISTEN_PID, LISTEN_FDS) as root?
 * Clears those variables either way.
 */
bool ktr_client__activated(void);

/* Serve as root's daemon on the socket systemd passed (fd 3): its exit status. */
int ktr_client__serve_activated(const struct ktr_loader_opts *opts);

/*
 * The daemon's name, in ps and as its argv[0]: a ktraceb that starts a
 * daemon runs itself again so, with the daemon's options (-b, -v) and the
 * socket it bound as fd 3 (ktr_client.c).
 */
#define KTR_DAEMON_ARGV0 "ktracebd"
/* Is this process such a daemon (argv[0] exactly KTR_DAEMON_ARGV0)? */
bool ktr_client__spawned(const char *argv0);
/* Serve as that daemon, once fd 3 is known to be this uid's socket: its exit status. */
int ktr_client__serve_spawned(const struct ktr_loader_opts *opts);

/* Send req (with fd if >= 0) and wait for the answer.  0 or -errno. */
int ktr_client__request(int sock, const struct ktr_request *req, int fd, struct ktr_reply *rep);

/* The path of root's daemon's log (ktraceb(1) FILES), of this build. */
void ktr_client__log_path(char *buf, size_t size);

#endif /* KTRACEB_KTR_CLIENT_H */
