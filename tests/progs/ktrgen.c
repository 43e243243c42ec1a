// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktrgen MODE FILE [SEED]: writes a synthetic trace file for the kdump tests,
 * built from include/ktraceb/ktr.h alone, through the tests' record writer
 * (tests/lib/tracegen.h).
 *   good      the records of the kdump contract examples (pid 1234, "cat") and
 *             a second process (pid 4321, "sh"); t_kdump.sh knows the lines
 *   neglen    good, then a record with ktr_len -1
 *   hugelen   good, then a record with ktr_len 0x7fffffff and 10 bytes
 *   badnarg   a SYSCALL with narg 0x7fff in an 8-byte payload, then good
 *   short     every type with a payload shorter than its struct, then good
 *   badtype   good, records of types 0, 9, 31, 32, 0x7fff and -1 (with sane
 *             lengths), good again
 *   garbage   64 KiB of pseudo-random bytes from SEED
 *   flip      good with 1..16 bytes changed at pseudo-random offsets from SEED
 *   tids      SEED (default 100000) getppid CALL/RET pairs, each of its own
 *             thread, tids 1, 2, 3...
 *   tidsflood the same with thread ids that all shared one probe chain of
 *             kdump's former pid/tid hash (the file that made kdump take
 *             seconds: bench/run.sh times kdump on both)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktraceb/ktr.h"
#include "../lib/tracegen.h"

#define AT_FDCWD_U64   ((__u64)(__s64)-100)
#define SYS_openat_NR  257
#define SYS_getppid_NR 110
#define SYS_close_NR   3

/* the file (tids, tidsflood), or memory for the modes that change bytes afterwards */
static FILE *stream;
static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Who and when: CPU 1, one record per microsecond; timeval = fi_wall_offset_ns + mono. */
static struct tg_who who(int pid, int tid, const char *comm)
{
	static long seq;
	struct tg_who w = { .pid = pid,
			    .tid = tid,
			    .comm = comm,
			    .cpu = 1,
			    .sec = 1700000000 + seq / 1000000,
			    .usec = seq % 1000000,
			    .mono = 5000000000ull + 1000ull * (__u64)seq };

	seq++;
	return w;
}

static void rec(int type, int pid, int tid, const char *comm, const void *payload, int len)
{
	struct tg_who w = who(pid, tid, comm);

	if (tg_write(stream, type, len, &w, payload) != 0)
		exit(1);
}

static void call(int pid, const char *comm, int code, int narg, const __u64 *args)
{
	unsigned char p[8 + 8 * KTR_MAXARGS];
	struct ktr_syscall sc = { .ktr_code = (__s16)code, .ktr_narg = (__s16)narg };

	memcpy(p, &sc, sizeof(sc));
	memcpy(p + 8, args, 8 * (size_t)narg);
	rec(KTR_SYSCALL, pid, pid, comm, p, 8 + 8 * narg);
}

static void ret(int pid, const char *comm, int code, int error, __s64 retval)
{
	struct ktr_sysret sr = { .ktr_code = (__s16)code,
				 .ktr_error = error,
				 .ktr_retval = retval };

	rec(KTR_SYSRET, pid, pid, comm, &sr, sizeof(sr));
}

/* The INFO record ktraceb starts a file with. */
static void fileinfo(const char *machine, const char *release, __s64 wall_offset_ns)
{
	struct tg_who w = who(1000, 1000, "ktraceb");

	if (tg_info(stream, &w, machine, release, "ktrgen", wall_offset_ns) != 0)
		exit(1);
}

/* A trace made on arm64: its own numbers (syscall_arm64.tbl), no i386. */
static void arm64(void)
{
	const __u64 open_args[4] = { AT_FDCWD_U64, 0x7ffc1234, 0, 0 };
	const __u64 lm_args[4] = { 0, 0, 0, 0 };

	fileinfo("aarch64", "6.18.0-synthetic", 0);
	call(1234, "cat", 56, 4, open_args); /* openat */
	rec(KTR_NAMEI, 1234, 1234, "cat", "/etc/passwd", 11);
	ret(1234, "cat", 56, 0, 3);
	call(1234, "cat", 458, 4, lm_args); /* listmount */
	ret(1234, "cat", 458, 22, -1);
	call(1234, "cat", 94, 1, lm_args); /* exit_group */
}

static void good(void)
{
	struct ktr_lost lost = { .lost = 5, .lost_total = 5 };
	struct ktr_exit ex3 = { .status = 3 << 8 }, ex9 = { .status = 9 };
	const __u64 open_args[4] = { AT_FDCWD_U64, 0x7ffc1234, 0x80000, 0 };
	const __u64 close_args[1] = { 3 };

	fileinfo("x86_64", "6.1.0-synthetic", 1700000000000000000ll - 5000000000ll);

	call(1234, "cat", SYS_openat_NR, 4, open_args);
	rec(KTR_NAMEI, 1234, 1234, "cat", "/etc/passwd", 11);
	ret(1234, "cat", SYS_openat_NR, 0, 3);
	call(1234, "cat", SYS_openat_NR, 4, open_args);
	rec(KTR_NAMEI, 1234, 1234, "cat", "/etc/nonexistent", 16);
	ret(1234, "cat", SYS_openat_NR, 2, -1);
	call(4321, "sh", SYS_getppid_NR, 0, NULL);
	ret(4321, "sh", SYS_getppid_NR, 0, 1234);
	call(1234, "cat", SYS_getppid_NR, 0, NULL);
	ret(1234, "cat", SYS_getppid_NR, 0, 1);
	rec(KTR_LOST, 1234, 1234, "cat", &lost, sizeof(lost));
	call(1234, "cat", SYS_close_NR, 1, close_args);
	ret(1234, "cat", SYS_close_NR, 9, -1);
	rec(KTR_EXIT, 1234, 1234, "cat", &ex3, sizeof(ex3));
	rec(KTR_EXIT, 4321, 4321, "sh", &ex9, sizeof(ex9));
}

static void short_payloads(void)
{
	static const unsigned char z[64];

	rec(KTR_SYSCALL, 1234, 1234, "cat", z, 4);
	rec(KTR_SYSCALL, 1234, 1234, "cat", NULL, 0);
	rec(KTR_SYSRET, 1234, 1234, "cat", z, 2);
	rec(KTR_GENIO, 1234, 1234, "cat", z, 3);
	rec(KTR_PSIG, 1234, 1234, "cat", z, 12);
	rec(KTR_CSW, 1234, 1234, "cat", z, 4);
	rec(KTR_STRUCT, 1234, 1234, "cat", "stat", 4); /* name without NUL */
	rec(KTR_STRUCT, 1234, 1234, "cat", "stat\0xx", 7);
	rec(KTR_PROCCTOR, 1234, 1234, "cat", z, 1);
	rec(KTR_ARGS, 1234, 1234, "cat", "noterm", 6);
	rec(KTR_FILEINFO, 1234, 1234, "cat", z, 3);
	rec(KTR_LOST, 1234, 1234, "cat", NULL, 0);
	rec(KTR_EXIT, 1234, 1234, "cat", z, 2);
	rec(KTR_NAMEI, 1234, 1234, "cat", NULL, 0);
}

/* n threads' getppid calls; flood: tids inverse(2654435769) * (i << 14), see above */
static int tids(const char *path, unsigned long n, int flood)
{
	__u32 inv = 2654435769u;

	for (int i = 0; i < 5; i++) /* the multiplier's inverse mod 2^32 */
		inv *= 2 - 2654435769u * inv;
	stream = fopen(path, "w");
	if (!stream) {
		perror(path);
		return 1;
	}
	for (unsigned long i = 1; i <= n; i++) {
		int tid = flood ? (int)(inv * ((__u32)i << 14)) : (int)i;
		struct ktr_sysret sr = { .ktr_code = SYS_getppid_NR, .ktr_retval = 1 };
		struct ktr_syscall sc = { .ktr_code = SYS_getppid_NR };

		rec(KTR_SYSCALL, 1234, tid, "cat", &sc, sizeof(sc));
		rec(KTR_SYSRET, 1234, tid, "cat", &sr, sizeof(sr));
	}
	return fclose(stream) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "";
	char *mem = NULL;
	unsigned char *buf;
	size_t blen = 0;
	FILE *f;

	if (strcmp(mode, "tids") == 0 || strcmp(mode, "tidsflood") == 0)
		return tids(argv[2], argc > 3 ? strtoul(argv[3], NULL, 0) : 100000, mode[4] == 'f');
	if (argc > 3)
		rng ^= strtoull(argv[3], NULL, 0) * 0x9e3779b97f4a7c15ull;
	stream = open_memstream(&mem, &blen);
	if (!stream)
		return 1;
	if (strcmp(mode, "good") == 0 || strcmp(mode, "flip") == 0) {
		good();
	} else if (strcmp(mode, "arm64") == 0) {
		arm64();
	} else if (strcmp(mode, "neglen") == 0) {
		good();
		rec(KTR_NAMEI, 1234, 1234, "cat", NULL, 0);
	} else if (strcmp(mode, "hugelen") == 0) {
		good();
		rec(KTR_NAMEI, 1234, 1234, "cat", "0123456789", 10);
	} else if (strcmp(mode, "badnarg") == 0) {
		struct ktr_syscall sc = { .ktr_code = SYS_openat_NR, .ktr_narg = 0x7fff };

		rec(KTR_SYSCALL, 1234, 1234, "cat", &sc, sizeof(sc));
		sc.ktr_narg = -5;
		rec(KTR_SYSCALL, 1234, 1234, "cat", &sc, sizeof(sc));
		sc.ktr_code = -1;
		sc.ktr_narg = 0;
		rec(KTR_SYSCALL, 1234, 1234, "cat", &sc, sizeof(sc));
		sc.ktr_code = 0x7fff;
		rec(KTR_SYSCALL, 1234, 1234, "cat", &sc, sizeof(sc));
		good();
	} else if (strcmp(mode, "short") == 0) {
		short_payloads();
		good();
	} else if (strcmp(mode, "badtype") == 0) {
		static const int types[] = { 0, 9, 31, 32, 0x7fff, -1 };

		good();
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			rec(types[i], 1234, 1234, "cat", "abcdefgh", 8);
		good();
	} else if (strcmp(mode, "garbage") == 0) {
		for (size_t i = 0; i < 65536; i++)
			fputc((unsigned char)next_rand(), stream);
	} else {
		fprintf(stderr, "usage: ktrgen good|arm64|neglen|hugelen|badnarg|short|badtype|"
				"garbage|flip|tids|tidsflood FILE [SEED]\n");
		return 2;
	}
	if (fclose(stream) != 0)
		return 1;
	buf = (unsigned char *)mem;
	/* the modes that break the records just written */
	if (strcmp(mode, "neglen") == 0) {
		memcpy(buf + blen - sizeof(struct ktr_header), &(int){ -1 }, 4);
	} else if (strcmp(mode, "hugelen") == 0) {
		memcpy(buf + blen - 10 - sizeof(struct ktr_header), &(int){ 0x7fffffff }, 4);
	} else if (strcmp(mode, "flip") == 0) {
		int n = 1 + (int)(next_rand() % 16);

		for (int i = 0; i < n; i++) {
			uint64_t r = next_rand();

			buf[r % blen] = (unsigned char)(r >> 32);
		}
	}
	f = fopen(argv[2], "w");
	if (f == NULL || fwrite(buf, 1, blen, f) != blen || fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}
	free(mem);
	return 0;
}
