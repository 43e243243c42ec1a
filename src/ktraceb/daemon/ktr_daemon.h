/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The ktraceb daemon: the one owner of the BPF programs and maps.  It
 * serves requests on its socket (ktr_proto.h), keeps one route (trace file
 * writer) per file, drains the ring into them, and ends a route when no
 * process traces into it any more.  It exits when it has had nothing to do
 * for a second, so an idle machine runs no ktraceb programs at all.
 */
#ifndef KTRACEB_KTR_DAEMON_H
#define KTRACEB_KTR_DAEMON_H

#include <stdbool.h>
#include <sys/types.h>

struct ktr_loader_opts;

/*
 * Serve on listen_fd until idle.  shared: serve every uid (root's daemon);
 * else only owner.  Returns an exit status.
 */
int ktr_daemon__run(const struct ktr_loader_opts *opts, int listen_fd, bool shared,
		    uid_t owner);

#endif /* KTRACEB_KTR_DAEMON_H */
