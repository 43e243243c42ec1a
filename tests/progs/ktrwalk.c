// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktrwalk FILE: an independent check of a trace file's structure, written from
 * include/ktraceb/ktr.h alone (no kdump code), so the e2e tests do not trust
 * the reader they test.  It walks the record chain and checks that it ends
 * exactly at EOF and that each fixed-size payload has its size.  It prints
 *   records N
 *   type T COUNT           for each type present
 *   fileinfo_ok N          FILEINFO records with the right magic/version/hdrsize
 *   lost_total N           the largest lost_total of any LOST record
 *   lost_sum N             the sum of their `lost`
 *   exit PID STATUS        for each EXIT record
 *   pid PID COUNT          records per pid (not FILEINFO/LOST)
 *   threaded N             records with KTRH_THREADED
 *   backwards N            CALL and RET records timed before the CALL or RET
 *                          before them of their thread (a thread's records
 *                          out of order)
 *   behind_1ms N           CALL and RET records timed more than 1 ms before
 *                          the latest CALL or RET before them in the file,
 *                          of any thread (threads interleaved out of time
 *                          order; bench/threads.sh)
 *   behind_max_us N        the most such a record was behind, microseconds
 * and exits 0; on the first bad record it prints "bad record at offset X: why"
 * and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktraceb/ktr.h"

#define MAXPIDS 4096

static struct {
	int pid;
	long count;
} pids[MAXPIDS];
static int npids;

static struct {
	int tid;
	unsigned long long ns;
} tids[MAXPIDS];
static int ntids;

/* Is this CALL or RET of tid timed before the last one of tid?  Then it is out of order. */
static int went_back(int tid, unsigned long long ns)
{
	int i;

	for (i = 0; i < ntids && tids[i].tid != tid; i++)
		;
	if (i == ntids) {
		if (ntids == MAXPIDS)
			return 0;
		tids[ntids].tid = tid;
		tids[ntids++].ns = ns;
		return 0;
	}
	if (ns < tids[i].ns)
		return 1;
	tids[i].ns = ns;
	return 0;
}

static void count_pid(int pid)
{
	for (int i = 0; i < npids; i++) {
		if (pids[i].pid == pid) {
			pids[i].count++;
			return;
		}
	}
	if (npids < MAXPIDS) {
		pids[npids].pid = pid;
		pids[npids++].count = 1;
	}
}

/* NULL if the payload fits its type, else why not. */
static const char *check_payload(const struct ktr_header *h, const unsigned char *p)
{
	struct ktr_syscall sc;
	struct ktr_fileinfo fi;

	switch (h->ktr_type) {
	case KTR_SYSCALL:
		if (h->ktr_len < 8)
			return "short syscall";
		memcpy(&sc, p, sizeof(sc));
		if (sc.ktr_narg < 0 || sc.ktr_narg > KTR_MAXARGS ||
		    h->ktr_len != 8 + 8 * sc.ktr_narg)
			return "syscall narg does not match ktr_len";
		return NULL;
	case KTR_SYSRET:
		return h->ktr_len == sizeof(struct ktr_sysret) ? NULL : "sysret size";
	case KTR_NAMEI:
		return h->ktr_len < KTR_PATH_MAX ? NULL : "namei too long";
	case KTR_GENIO:
		return h->ktr_len >= (int)sizeof(struct ktr_genio) ? NULL : "genio size";
	case KTR_PSIG:
		return h->ktr_len == sizeof(struct ktr_psig) ? NULL : "psig size";
	case KTR_CSW:
		return h->ktr_len == 16 || h->ktr_len == 8 ? NULL : "csw size";
	case KTR_FILEINFO:
		if (h->ktr_len != sizeof(fi))
			return "fileinfo size";
		memcpy(&fi, p, sizeof(fi));
		if (memcmp(fi.fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC)) != 0 ||
		    fi.fi_version != KTR_FORMAT_VERSION || fi.fi_hdrsize != 64 ||
		    fi.fi_byteorder != KTR_BYTEORDER_MARK)
			return "fileinfo contents";
		return NULL;
	case KTR_LOST:
		return h->ktr_len == sizeof(struct ktr_lost) ? NULL : "lost size";
	case KTR_EXIT:
		return h->ktr_len == sizeof(struct ktr_exit) ? NULL : "exit size";
	case KTR_PROCCTOR:
		return h->ktr_len == sizeof(struct ktr_proc_ctor) ? NULL : "procctor size";
	default:
		return h->ktr_type >= 1 && h->ktr_type <= KTR_TYPE_MAX ? NULL : "bad type";
	}
}

int main(int argc, char **argv)
{
	static long types[KTR_TYPE_MAX + 1];
	unsigned long long lost_total = 0, lost_sum = 0;
	long records = 0, fileinfo_ok = 0, threaded = 0, backwards = 0, off = 0, behind = 0;
	unsigned long long latest = 0, behind_max = 0;
	unsigned char *p = NULL;
	struct ktr_header h;
	const char *why;
	size_t n;
	FILE *f;

	if (argc != 2 || (f = fopen(argv[1], "r")) == NULL) {
		fprintf(stderr, "usage: ktrwalk FILE\n");
		return 2;
	}
	p = malloc(1 << 20);
	if (p == NULL)
		return 2;
	while ((n = fread(&h, 1, sizeof(h), f)) == sizeof(h)) {
		why = NULL;
		if (h.ktr_len < 0 || h.ktr_len >= (1 << 20))
			why = "bad ktr_len";
		else if (h.ktr_len > 0 && fread(p, 1, h.ktr_len, f) != (size_t)h.ktr_len)
			why = "payload runs past EOF";
		else if (memchr(h.ktr_comm, '\0', sizeof(h.ktr_comm)) == NULL)
			why = "ktr_comm not NUL-terminated";
		else
			why = check_payload(&h, p);
		if (why != NULL) {
			printf("bad record at offset %ld: %s (type %d len %d)\n", off, why,
			       h.ktr_type, h.ktr_len);
			return 1;
		}
		records++;
		types[h.ktr_type]++;
		threaded += (h.ktr_flags & KTRH_THREADED) != 0;
		if (h.ktr_type == KTR_SYSCALL || h.ktr_type == KTR_SYSRET) {
			backwards += went_back(h.ktr_tid, h.ktr_mono_ns);
			if (h.ktr_mono_ns + 1000000 < latest)
				behind++;
			if (h.ktr_mono_ns < latest && latest - h.ktr_mono_ns > behind_max)
				behind_max = latest - h.ktr_mono_ns;
			if (h.ktr_mono_ns > latest)
				latest = h.ktr_mono_ns;
		}
		if (h.ktr_type == KTR_FILEINFO) {
			fileinfo_ok++;
		} else if (h.ktr_type == KTR_LOST) {
			struct ktr_lost l;

			memcpy(&l, p, sizeof(l));
			lost_sum += l.lost;
			if (l.lost_total > lost_total)
				lost_total = l.lost_total;
		} else {
			count_pid(h.ktr_pid);
		}
		if (h.ktr_type == KTR_EXIT) {
			struct ktr_exit e;

			memcpy(&e, p, sizeof(e));
			printf("exit %d %d\n", h.ktr_pid, e.status);
		}
		off += (long)sizeof(h) + h.ktr_len;
	}
	if (n != 0) {
		printf("bad record at offset %ld: partial header at EOF\n", off);
		return 1;
	}
	printf("records %ld\n", records);
	for (int t = 0; t <= KTR_TYPE_MAX; t++)
		if (types[t])
			printf("type %d %ld\n", t, types[t]);
	printf("fileinfo_ok %ld\n", fileinfo_ok);
	printf("lost_total %llu\n", lost_total);
	printf("lost_sum %llu\n", lost_sum);
	for (int i = 0; i < npids; i++)
		printf("pid %d %ld\n", pids[i].pid, pids[i].count);
	printf("threaded %ld\n", threaded);
	printf("backwards %ld\n", backwards);
	printf("behind_1ms %ld\n", behind);
	printf("behind_max_us %llu\n", behind_max / 1000);
	free(p);
	fclose(f);
	return 0;
}
