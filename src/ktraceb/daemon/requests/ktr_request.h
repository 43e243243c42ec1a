/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Serving a request (ktr_proto.h) that arrived on a connection
 * (ktr_conn.h): checked against its caller, done, answered.
 */
#ifndef KTRACEB_KTR_REQUEST_H
#define KTRACEB_KTR_REQUEST_H

struct ktr_conn;
struct ktr_proto_fds;
struct ktr_request;
struct ktr_parts;

/*
 * Serve req of cn (fds: the descriptors that came with it, fds->fd taken
 * over; a request with other descriptors than its kind takes is
 * refused): its answer (KTR_REPLY_RESULT) sent with msg, where the lines
 * it makes gather (KTR_REPLY_MSG_MAX, zeroed; NULL: no memory, and cn is
 * dropped); a STOP is answered by DONE alone.
 */
void ktr_request__handle(const struct ktr_parts *k, struct ktr_conn *cn,
			 const struct ktr_request *req, const struct ktr_proto_fds *fds, char *msg);

#endif /* KTRACEB_KTR_REQUEST_H */
