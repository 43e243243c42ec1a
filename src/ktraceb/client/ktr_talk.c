// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The command's talk with the daemon about one trace: connecting (the
 * daemon started if none runs), one request and its answer, and, for a
 * trace the command stays for, the wait for its end.
 */
#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "common/ktr_proto.h"
#include "ktr_client.h"
#include "ktr_options.h"
#include "ktr_talk.h"
#include "ktr_trfile.h"

/* A request whose daemon went before reading it, asked of the next: at most so often */
#define TALK_TRIES 3

volatile sig_atomic_t ktr_interrupted;

void ktr_talk__on_signal(int sig)
{
	ktr_interrupted = sig;
}

/* Print the daemon's per-process lines ("pid 12: not your process"). */
void ktr_talk__print(const char *msg)
{
	const char *p = msg;

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "ktraceb: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* The daemon's socket; tracefd (if >= 0) is discarded when there is none. */
int ktr_talk__connect(const struct ktr_options *o, bool spawn, int tracefd)
{
	const char *why;
	int sock = ktr_client__connect(&o->bpf, spawn, &why);

	if (sock < 0 && !(sock == -ENOENT && !spawn)) {
		if (tracefd >= 0)
			ktr_trfile__discard(o, tracefd);
		errx(EX_UNAVAILABLE, "%s", why);
	}
	return sock;
}

int ktr_talk__request(const struct ktr_options *o, int *sock, struct ktr_request *req, int fd,
		      struct ktr_reply *rep)
{
	int err;

	req->magic = KTR_PROTO_MAGIC;
	for (int tries = 1;; tries++) {
		const char *why;

		err = ktr_client__request(*sock, req, fd, rep);
		/*
		 * Closed without a word (a refusal says why first): the daemon
		 * went before it read the request, leaving as it idled or
		 * stopped.  Nothing was done: asked again, of the next one (a
		 * SET starts it, as its first connection did).
		 */
		if (err != -ECONNRESET || tries == TALK_TRIES)
			break;
		close(*sock);
		*sock = ktr_client__connect(&o->bpf, req->op == KTR_OP_SET, &why);
		if (*sock < 0)
			errx(EX_UNAVAILABLE, "%s", why);
	}
	if (err == -EBADMSG)
		errx(EX_UNAVAILABLE, "the running ktraceb daemon is another version: "
				     "retry when its traces have ended");
	if (err)
		errx(EX_UNAVAILABLE, "ktraceb daemon: %s", strerror(-err));
	ktr_talk__print(rep->msg);
	/*
	 * The rings serve every trace: the daemon grows them for a bigger -b
	 * (or said why not), and never shrinks them for a smaller one.
	 */
	if (o->ring_given && rep->ring_bytes > o->bpf.ring_bytes)
		warnx("-b ignored: the running daemon's ring buffers are bigger, %llu bytes each",
		      (unsigned long long)rep->ring_bytes);
	return rep->error;
}

/*
 * The daemon is gone (killed, or crashed) before the trace's DONE: said
 * once, in one line.  The trace file holds what it wrote until then.
 */
static void talk__daemon_gone(const struct ktr_options *o, int error, const char *waiting)
{
	warnx("the ktraceb daemon ended (%s): the trace in %s ends here, incomplete%s",
	      strerror(-error), o->tracefile, waiting ? waiting : "");
}

/*
 * Wait for the daemon's DONE, passing on a Ctrl-C as STOP; each() (if any)
 * is called at least every 100 ms meanwhile.  A recording that nothing
 * triggered wrote nothing: its file (fd, if >= 0) goes.
 */
int ktr_talk__wait_done(const struct ktr_options *o, int sock, int fd, const char *waiting,
			void (*each)(void))
{
	struct ktr_request stop = { .magic = KTR_PROTO_MAGIC, .op = KTR_OP_STOP };
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	struct ktr_reply *rep = calloc(1, sizeof(*rep));
	bool stopping = false;
	int error;

	if (!rep)
		errx(EX_OSERR, "out of memory");
	for (;;) {
		if (each)
			each();
		/* sent again until it goes: a STOP lost to a full socket would leave us waiting */
		if (ktr_interrupted && !stopping)
			stopping = ktr_proto__send(sock, &stop, sizeof(stop), -1) == 0;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		error = ktr_proto__recv(sock, rep, sizeof(*rep), NULL);
		if (error == -EAGAIN || error == -EINTR)
			continue;
		if (error) {
			free(rep);
			talk__daemon_gone(o, error, waiting);
			return KTR_TALK_GONE;
		}
		if (rep->type == KTR_REPLY_DONE)
			break;
		if (rep->type == KTR_REPLY_NOTE)
			ktr_talk__print(rep->msg);
	}
	ktr_talk__print(rep->msg);
	if (o->flight_bytes && !rep->records) {
		if (fd >= 0)
			ktr_trfile__discard(o, fd);
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
