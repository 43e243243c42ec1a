// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_kernel.h"
#include "ktraceb/bpf_tp.h"
#include "daemon/programs/ktr_bpf.h"
#include "common/ktr_proto.h"
#include "common/ktr_tracefs.h"
#include "daemon/ktr_clock.h"
#include "daemon/files/ktr_files.h"
#include "daemon/programs/ktr_kernel_caps.h"
#include "daemon/programs/ktr_link.h"
#include "daemon/ktr_record.h"
#include "daemon/requests/ktr_share.h"
#include "ktr_tp.h"
#include "ktr_tp_stub.h"

struct tp_event {
	__u32 id;
	char name[KTR_TP_NAME_MAX];
	int link_fd;
	uid_t owner; /* charged for it (ktr_share.h): a file's owner that wants it */
};

struct tp_pair {
	__u32 route;
	__u32 id;
	uid_t owner; /* the file's */
};

struct ktr_tp {
	const struct ktr_bpf *b; /* its program's descriptor */
	int wanted_fd, events_fd;
	struct tp_event *ev;
	unsigned int nev;
	struct tp_pair *pairs;
	unsigned int npairs;
};

struct ktr_tp_set {
	unsigned int n;
	struct ktr_tp_fmt fmt[];
};

struct ktr_tp *ktr_tp__new(const struct ktr_bpf *b)
{
	struct ktr_tp *tp = calloc(1, sizeof(*tp));

	if (!tp)
		return NULL;
	tp->b = b;
	tp->wanted_fd = ktr_bpf__map_fd(b, tp_wanted);
	tp->events_fd = ktr_bpf__map_fd(b, tp_events);
	return tp;
}

void ktr_tp__free(struct ktr_tp *tp)
{
	if (!tp)
		return;
	for (unsigned int i = 0; i < tp->nev; i++)
		close(tp->ev[i].link_fd);
	free(tp->ev);
	free(tp->pairs);
	free(tp);
}

void ktr_tp__set_free(struct ktr_tp_set *set)
{
	free(set);
}

int ktr_tp__user_may(char *msg)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	if (level <= -1)
		return 0;
	ktr_proto__msg_add(msg, "-e: kernel events are root's here (raw tracepoint data needs "
				"kernel.perf_event_paranoid -1 for other users, as for perf)\n");
	return -EPERM;
}

/* Add the events available_events lists that pattern matches; how many matched, or -errno. */
static int tp__match(FILE *avail, const char *pattern, char (*names)[KTR_TP_NAME_MAX],
		     unsigned int *n)
{
	char line[256];
	int matched = 0;
	const char *why;

	rewind(avail);
	while (fgets(line, sizeof(line), avail)) {
		line[strcspn(line, "\n")] = '\0';
		if (fnmatch(pattern, line, 0) != 0 || !ktr_tracefs__name_ok(line, false, &why))
			continue;
		matched++;
		for (unsigned int i = 0; i < *n; i++)
			if (strcmp(names[i], line) == 0)
				goto next;
		if (*n >= KTR_TP_PER_FILE)
			return -E2BIG;
		strcpy(names[(*n)++], line);
next:;
	}
	return matched;
}

int ktr_tp__resolve(const char (*req)[KTR_TP_NAME_MAX], unsigned int nreq, struct ktr_tp_set **out,
		    char *msg)
{
	char(*names)[KTR_TP_NAME_MAX] = calloc(KTR_TP_PER_FILE, KTR_TP_NAME_MAX);
	const char *why = NULL, *dir = ktr_tracefs__dir(&why);
	struct ktr_tp_set *set = NULL;
	unsigned int n = 0;
	FILE *avail = NULL;
	int err = 0;

	*out = NULL;
	if (!names)
		return -ENOMEM;
	if (dir)
		avail = ktr_tracefs__events(dir, &why);
	if (!avail) {
		ktr_proto__msg_add(msg, "-e: %s\n", why);
		free(names);
		return -EPERM;
	}
	for (unsigned int i = 0; i < nreq && !err; i++) {
		int m = tp__match(avail, req[i], names, &n);

		if (m == -E2BIG) {
			ktr_proto__msg_add(msg, "-e %s: more than %d events in one trace\n", req[i],
					   KTR_TP_PER_FILE);
			err = -E2BIG;
		} else if (m == 0) {
			ktr_proto__msg_add(msg, "-e %s: no such kernel event\n", req[i]);
			err = -ENOENT;
		}
	}
	fclose(avail);
	if (!err) {
		set = calloc(1, sizeof(*set) + n * sizeof(set->fmt[0]));
		err = set ? 0 : -ENOMEM;
	}
	for (unsigned int i = 0; !err && i < n; i++) {
		err = ktr_tracefs__format(dir, names[i], &set->fmt[i], &why);
		if (err)
			ktr_proto__msg_add(msg, "-e %s: %s\n", names[i], why);
		set->n++;
	}
	free(names);
	if (err) {
		free(set);
		return err;
	}
	*out = set;
	return 0;
}

static struct tp_event *tp__event(struct ktr_tp *tp, __u32 id)
{
	for (unsigned int i = 0; i < tp->nev; i++)
		if (tp->ev[i].id == id)
			return &tp->ev[i];
	return NULL;
}

static bool tp__wants(const struct ktr_tp *tp, __u32 r, __u32 id)
{
	for (unsigned int i = 0; i < tp->npairs; i++)
		if (tp->pairs[i].id == id && (r == 0 || tp->pairs[i].route == r))
			return true;
	return false;
}

/*
 * The subject rule (docs/FORMAT.md, KTR_TRACEPOINT): a sched: or signal:
 * event is also recorded for the traced process it is about, when the
 * task running is not traced.  Its subject is the task its first field of
 * these names is the pid of (the task switched in, forked, woken or
 * signalled), and that task's comm is the field of the same prefix.
 */
static void tp__subject(const struct ktr_tp_fmt *fmt, struct ktr_tp_event *val)
{
	static const char *const pids[] = { "next_pid", "child_pid", "pid" };

	if (strncmp(fmt->f.tf_name, "sched:", 6) != 0 && strncmp(fmt->f.tf_name, "signal:", 7) != 0)
		return;
	for (size_t i = 0; i < sizeof(pids) / sizeof(pids[0]) && !val->tp_subject; i++)
		for (unsigned int j = 0; j < fmt->f.tf_nfields; j++) {
			const struct ktr_tpfield *pf = &fmt->fields[j];
			char comm[sizeof(pf->tp_name)];

			if (strcmp(pf->tp_name, pids[i]) != 0 || pf->tp_size != 4 ||
			    (pf->tp_flags & (KTR_TPF_DATA_LOC | KTR_TPF_ARRAY)))
				continue;
			val->tp_subject = pf->tp_offset;
			/* "next_pid" -> "next_comm", "pid" -> "comm" */
			snprintf(comm, sizeof(comm), "%.*scomm", (int)(strlen(pids[i]) - 3),
				 pids[i]);
			for (unsigned int k = 0; k < fmt->f.tf_nfields; k++)
				if (strcmp(fmt->fields[k].tp_name, comm) == 0 &&
				    fmt->fields[k].tp_size == 16)
					val->tp_subject_comm = fmt->fields[k].tp_offset;
			break;
		}
}

/* What uid holds of pairs (events: the events charged to it), and everyone in *all. */
static unsigned int tp__held(const struct ktr_tp *tp, uid_t uid, bool events, unsigned int *all)
{
	unsigned int n = 0;

	*all = events ? tp->nev : tp->npairs;
	for (unsigned int i = 0; i < *all; i++)
		n += (events ? tp->ev[i].owner : tp->pairs[i].owner) == uid;
	return n;
}

/* May uid want one more event in a file, attaching it if new?  0, or -errno, a line in msg. */
static int tp__may(struct ktr_tp *tp, uid_t uid, const struct ktr_tp_fmt *fmt, char *msg)
{
	unsigned int all, mine = tp__held(tp, uid, false, &all);
	char why[256];
	int err = ktr_share__may(KTR_POOL_EVENT_USES, uid, mine, all, 1, why, sizeof(why));

	if (!err && !tp__event(tp, fmt->f.tf_id)) {
		mine = tp__held(tp, uid, true, &all);
		err = ktr_share__may(KTR_POOL_EVENTS, uid, mine, all, 1, why, sizeof(why));
	}
	if (err)
		ktr_proto__msg_add(msg, "-e %s: %s\n", fmt->f.tf_name, why);
	return err;
}

/* The event attached (its copy size first), once, charged to owner. */
static int tp__attach(struct ktr_tp *tp, const struct ktr_tp_fmt *fmt, uid_t owner, char *msg)
{
	struct ktr_tp_event val = { .tp_fixed = (__u16)fmt->fixed, .tp_nloc = (__u16)fmt->nloc };
	struct tp_event *ev = tp__event(tp, fmt->f.tf_id), *v;

	if (ev)
		return 0;
	if (tp->nev >= KTR_TP_MAX_EVENTS) {
		ktr_proto__msg_add(msg, "-e %s: too many kernel events attached\n", fmt->f.tf_name);
		return -E2BIG;
	}
	for (unsigned int i = 0; i < fmt->nloc && i < KTR_TP_MAXLOC; i++)
		val.tp_loc[i] = (__u16)fmt->loc[i];
	tp__subject(fmt, &val);
	if (bpf_map_update_elem(tp->events_fd, &fmt->f.tf_id, &val, BPF_ANY) < 0)
		return -errno;
	v = realloc(tp->ev, (tp->nev + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	tp->ev = v;
	ev = &tp->ev[tp->nev];
	memset(ev, 0, sizeof(*ev));
	ev->id = fmt->f.tf_id;
	ev->owner = owner;
	snprintf(ev->name, sizeof(ev->name), "%s", fmt->f.tf_name);
	/* the program knows its event by the cookie (bpf/tp.bpf.c), or by its stub's word */
	if (ktr_caps__lacks() & KTR_LACKS_ATTACH_COOKIE)
		ev->link_fd = ktr_tp_stub__attach(tp->b, fmt->f.tf_id);
	else
		ev->link_fd = ktr_link__tracepoint(tp->b->prog_fd[KTR_PROG(ktr_tp_record)],
						   fmt->f.tf_id, fmt->f.tf_id);
	if (ev->link_fd < 0) {
		int err = ev->link_fd;

		ktr_proto__msg_add(msg, "-e %s: cannot attach: %s\n", fmt->f.tf_name,
				   strerror(-err));
		bpf_map_delete_elem(tp->events_fd, &fmt->f.tf_id);
		return err;
	}
	tp->nev++;
	return 0;
}

/* The event's KTR_TPFORMAT record into f. */
static int tp__write_format(struct ktr_tracefile *f, const struct ktr_tp_fmt *fmt)
{
	size_t plen = sizeof(fmt->f) + fmt->f.tf_nfields * sizeof(fmt->fields[0]);
	unsigned char *rec = calloc(1, sizeof(struct ktr_header) + plen);
	struct ktr_header *h = (struct ktr_header *)rec;
	int err;

	if (!rec)
		return -ENOMEM;
	ktr_record__own(h, KTR_TPFORMAT, plen, 0);
	memcpy(h + 1, &fmt->f, sizeof(fmt->f));
	memcpy(rec + sizeof(*h) + sizeof(fmt->f), fmt->fields,
	       fmt->f.tf_nfields * sizeof(fmt->fields[0]));
	err = ktr_tracefile__append(f, h, sizeof(*h) + plen, ktr_wall_offset_ns());
	free(rec);
	return err;
}

int ktr_tp__want(struct ktr_tp *tp, __u32 r, struct ktr_tracefile *f, struct ktr_tp_set *set,
		 char *msg)
{
	int err = 0;

	for (unsigned int i = 0; i < set->n && !err; i++) {
		const struct ktr_tp_fmt *fmt = &set->fmt[i];
		struct ktr_tp_key key = { r, fmt->f.tf_id };
		struct tp_pair *p;
		__u8 one = 1;

		if (tp__wants(tp, r, key.id))
			continue;
		p = realloc(tp->pairs, (tp->npairs + 1) * sizeof(*p));
		if (!p) {
			err = -ENOMEM;
			break;
		}
		tp->pairs = p;
		err = tp__may(tp, f->owner, fmt, msg);
		/* the format before any hit: the file decodes without tracefs */
		if (!err)
			err = tp__write_format(f, fmt);
		if (!err)
			err = tp__attach(tp, fmt, f->owner, msg);
		if (!err && bpf_map_update_elem(tp->wanted_fd, &key, &one, BPF_ANY) < 0)
			err = -errno;
		if (!err)
			tp->pairs[tp->npairs++] = (struct tp_pair){ r, key.id, f->owner };
	}
	if (err && !msg[0])
		ktr_proto__msg_add(msg, "-e: %s\n", strerror(-err));
	free(set);
	return err;
}

/* An event still wanted is charged to an owner of a file that wants it. */
static void tp__recharge(const struct ktr_tp *tp, struct tp_event *ev)
{
	for (unsigned int i = 0; i < tp->npairs; i++)
		if (tp->pairs[i].id == ev->id && tp->pairs[i].owner == ev->owner)
			return;
	for (unsigned int i = 0; i < tp->npairs; i++)
		if (tp->pairs[i].id == ev->id) {
			ev->owner = tp->pairs[i].owner;
			return;
		}
}

void ktr_tp__forget(struct ktr_tp *tp, __u32 r)
{
	unsigned int kept = 0;

	if (!tp)
		return;
	for (unsigned int i = 0; i < tp->npairs; i++) {
		struct ktr_tp_key key = { tp->pairs[i].route, tp->pairs[i].id };

		if (key.route != r)
			tp->pairs[kept++] = tp->pairs[i];
		else
			bpf_map_delete_elem(tp->wanted_fd, &key);
	}
	tp->npairs = kept;
	for (unsigned int i = 0; i < tp->nev;) {
		if (tp__wants(tp, 0, tp->ev[i].id)) {
			tp__recharge(tp, &tp->ev[i]);
			i++;
			continue;
		}
		close(tp->ev[i].link_fd);
		bpf_map_delete_elem(tp->events_fd, &tp->ev[i].id);
		tp->ev[i] = tp->ev[--tp->nev];
	}
}
