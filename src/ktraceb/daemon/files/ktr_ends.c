// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Answers that wait for traces to end, and the ends remembered (ktr_ends.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ktr_proto.h"
#include "daemon/ktr_clock.h"
#include "daemon/requests/ktr_conn.h"
#include "ktr_ends.h"
#include "ktr_files.h"
#include "ktr_writer.h"

/* An answer waiting. */
struct ends_wait {
	struct ktr_conn *cn;
	__u32 *routes; /* 0 once ended */
	unsigned int n, left;
	int error;
	unsigned int done;
	unsigned long long ring_bytes;
	long long deadline_ms;
	char msg[KTR_REPLY_MSG_MAX];
};

/* A trace that ended, remembered. */
struct ends_kept {
	bool used;
	dev_t dev;
	ino_t ino;
	uid_t owner;
	pid_t pids[8];
	unsigned int npids;
	unsigned long long records;
	bool recovered;
	char line[300];
};

struct ktr_ends {
	struct ends_wait **v;
	unsigned int n;
	struct ends_kept kept[KTR_ENDS_KEPT];
	unsigned int next_kept;
};

struct ktr_ends *ktr_ends__new(void)
{
	return calloc(1, sizeof(struct ktr_ends));
}

static void ends__send(struct ends_wait *w)
{
	ktr_conn__reply(w->cn, KTR_REPLY_RESULT, w->error, w->done, w->msg, 0, 0, w->ring_bytes);
	ktr_conn__release(w->cn);
	free(w->routes);
	free(w);
}

/* Answer i sent and gone from the list. */
static void ends__drop(struct ktr_ends *e, unsigned int i, bool send)
{
	struct ends_wait *w = e->v[i];

	e->v[i] = e->v[--e->n];
	if (send) {
		ends__send(w);
		return;
	}
	ktr_conn__release(w->cn);
	free(w->routes);
	free(w);
}

void ktr_ends__free(struct ktr_ends *e)
{
	if (!e)
		return;
	while (e->n)
		ends__drop(e, 0, true);
	free(e->v);
	free(e);
}

bool ktr_ends__wait(struct ktr_ends *e, struct ktr_conn *cn, const __u32 *routes, unsigned int n,
		    int error, unsigned int done, const char *msg, unsigned long long ring_bytes)
{
	struct ends_wait *w, **v;

	if (!n)
		return false;
	w = calloc(1, sizeof(*w));
	v = w ? reallocarray(e->v, e->n + 1, sizeof(*v)) : NULL;
	if (v)
		e->v = v;
	if (w && v)
		w->routes = malloc(n * sizeof(*routes));
	if (!w || !v || !w->routes) {
		free(w);
		return false;
	}
	memcpy(w->routes, routes, n * sizeof(*routes));
	w->cn = cn;
	w->n = w->left = n;
	w->error = error;
	w->done = done;
	w->ring_bytes = ring_bytes;
	w->deadline_ms = ktr_now_ms() + KTR_ENDS_WAIT_MS;
	snprintf(w->msg, sizeof(w->msg), "%s", msg);
	ktr_conn__hold(cn); /* not idle while it waits */
	e->v[e->n++] = w;
	return true;
}

void ktr_ends__ended(struct ktr_ends *e, __u32 r, const char *line)
{
	for (unsigned int i = 0; i < e->n;) {
		struct ends_wait *w = e->v[i];
		bool mine = false;

		for (unsigned int j = 0; j < w->n; j++)
			if (w->routes[j] == r) {
				w->routes[j] = 0;
				w->left--;
				mine = true;
			}
		if (mine)
			ktr_proto__msg_add(w->msg, "%s\n", line);
		if (mine && !w->left)
			ends__drop(e, i, true);
		else
			i++;
	}
}

void ktr_ends__sweep(struct ktr_ends *e, const struct ktr_files *files)
{
	long long now = ktr_now_ms();

	for (unsigned int i = 0; i < e->n;) {
		struct ends_wait *w = e->v[i];

		if (now < w->deadline_ms) {
			i++;
			continue;
		}
		for (unsigned int j = 0; j < w->n; j++) {
			struct ktr_tracefile *f =
				w->routes[j] ? ktr_files__get(files, w->routes[j]) : NULL;

			if (f)
				ktr_proto__msg_add(
					w->msg,
					"%s: tracing stopped; the file is still being "
					"written (%llu records to go): its END record will "
					"say how it ended\n",
					ktr_tracefile__path(f), ktr_writer__pending(f->w));
		}
		ends__drop(e, i, true);
	}
}

void ktr_ends__gone(struct ktr_ends *e, struct ktr_conn *cn)
{
	for (unsigned int i = 0; i < e->n;)
		if (e->v[i]->cn == cn)
			ends__drop(e, i, false);
		else
			i++;
}

bool ktr_ends__busy(const struct ktr_ends *e)
{
	return e->n > 0;
}

void ktr_ends__remember(struct ktr_ends *e, dev_t dev, ino_t ino, uid_t owner, const pid_t *pids,
			unsigned int n, const char *line, unsigned long long records,
			bool recovered)
{
	struct ends_kept *k = &e->kept[e->next_kept++ % KTR_ENDS_KEPT];

	memset(k, 0, sizeof(*k));
	k->used = true;
	k->dev = dev;
	k->ino = ino;
	k->owner = owner;
	k->npids = n < 8 ? n : 8;
	memcpy(k->pids, pids, k->npids * sizeof(*pids));
	k->records = records;
	k->recovered = recovered;
	snprintf(k->line, sizeof(k->line), "%s", line);
}

/* The newest remembered end that matches and uid may hear of. */
static struct ends_kept *ends__find(struct ktr_ends *e, pid_t pid, dev_t dev, ino_t ino, uid_t uid)
{
	for (unsigned int i = 1; i <= KTR_ENDS_KEPT; i++) {
		struct ends_kept *k = &e->kept[(e->next_kept - i) % KTR_ENDS_KEPT];
		bool match = false;

		if (!k->used || (uid != 0 && uid != k->owner))
			continue;
		for (unsigned int j = 0; pid && j < k->npids; j++)
			match |= k->pids[j] == pid;
		if (match || (!pid && k->dev == dev && k->ino == ino))
			return k;
	}
	return NULL;
}

const char *ktr_ends__recall_pid(struct ktr_ends *e, pid_t pid, uid_t uid)
{
	struct ends_kept *k = pid ? ends__find(e, pid, 0, 0, uid) : NULL;

	if (!k)
		return NULL;
	k->used = false; /* said once */
	return k->line;
}

const char *ktr_ends__recall_file(struct ktr_ends *e, dev_t dev, ino_t ino, uid_t uid,
				  unsigned long long *records, bool *recovered)
{
	struct ends_kept *k = ends__find(e, 0, dev, ino, uid);

	if (!k)
		return NULL;
	*records = k->records; /* said to every -D that asks, while it is remembered */
	*recovered = k->recovered;
	return k->line;
}
