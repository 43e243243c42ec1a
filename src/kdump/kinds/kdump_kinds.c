// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The table of record kinds (kdump_kind.h): one row a kind, each defined
 * in its file of kinds/.  tests/unit/test_kinds.c checks every kind has
 * its row and its hooks.
 */
#include "kdump_kind.h"
#include "ktraceb/ktr.h"

/* clang-format off */
#define KINDS(X)                                                                         \
	X(CALL, call) X(RET, ret) X(NAMEI, namei) X(GENIO, genio) X(PSIG, psig)           \
	X(CSW, csw) X(USER, user) X(STRUCT, struct) X(ARGS, args) X(ENVS, envs)           \
	X(FILEINFO, fileinfo) X(LOST, lost) X(EXIT, exit) X(FLIGHT, flight)               \
	X(TRACEPOINT, tracepoint) X(FILTER, filter) X(USTACK, ustack) X(OBJECT, object)   \
	X(CGROUP, cgroup) X(FD, fd) X(END, end) X(MAPPING, mapping) X(TPFORMAT, tpformat) \
	X(SYSCTL, sysctl) X(CAPFAIL, capfail) X(FAULT, fault) X(FAULTEND, faultend)       \
	X(STRUCT_ARRAY, struct_array) X(EXTERR, exterr) X(EMUL, emul) X(MIB, mib)         \
	X(PLEDGE, pledge) X(START, start) X(OTHER, other) X(PROCCTOR, procctor)           \
	X(PROCDTOR, procdtor)
/* clang-format on */

#define DECLARE(KIND, name) extern const struct kd_kind_def kd_kind_##name;
KINDS(DECLARE)

#define ROW(KIND, name) [KD_##KIND] = &kd_kind_##name,
const struct kd_kind_def *const kd_kinds[KD_NKINDS] = { KINDS(ROW) };

#define ONE(KIND, name) +1
/* every kind but NONE and UNKNOWN has its row: a kind added to the enum, not here, fails */
_Static_assert(0 KINDS(ONE) == KD_NKINDS - 2, "a kind without its row in KINDS");

enum kd_kind kd_kind_of_type(int type)
{
	static enum kd_kind by_type[KTR_TYPE_MAX + 1];
	static bool made;

	if (type <= 0 || type > KTR_TYPE_MAX)
		return KD_UNKNOWN;
	if (!made) {
		for (int k = 0; k < KD_NKINDS; k++)
			if (kd_kinds[k] && kd_kinds[k]->type > 0 &&
			    kd_kinds[k]->type <= KTR_TYPE_MAX)
				by_type[kd_kinds[k]->type] = k;
		made = true;
	}
	return by_type[type];
}
