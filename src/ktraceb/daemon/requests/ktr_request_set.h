/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * SET, the request that starts (or moves) tracing: its rules, its
 * permission and its serving, one entry of ktr_request.c's table.
 */
#ifndef KTRACEB_KTR_REQUEST_SET_H
#define KTRACEB_KTR_REQUEST_SET_H

#include <sys/types.h>

struct ktr_caller;
struct ktr_conn;
struct ktr_request;
struct ktr_parts;

/*
 * A SET's own rules, after those every request obeys (ktr_request.c):
 * why it is malformed, or NULL.  nevents: its event names.
 */
const char *ktr_request_set__check(const struct ktr_caller *c, const struct ktr_request *req,
				   int nevents);
/* May c make it: -S is root's alone.  0 or -EPERM with a line in msg. */
int ktr_request_set__may(const struct ktr_parts *k, const struct ktr_caller *c,
			 const struct ktr_request *req, char *msg);
/*
 * Serve it: the file joined (fd taken over), its events and programs
 * attached, then the processes set.  How many are traced now, and *err.
 */
int ktr_request_set__serve(const struct ktr_parts *k, struct ktr_conn *cn,
			   const struct ktr_request *req, int fd, char *msg, int *err);

/* The processes a SET or CLEAR names (*pids malloc'ed); 0 with a line in msg if none. */
int ktr_request__targets(const struct ktr_request *req, pid_t **pids, char *msg);

#endif /* KTRACEB_KTR_REQUEST_SET_H */
