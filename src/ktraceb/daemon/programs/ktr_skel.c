// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The programs' object for this kernel, opened through one skeleton (ktr_skel.h). */
#include <errno.h>
#include <stdlib.h>

#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_ustack.h"
#include "ktraceb.skel.h"
#include "ktraceb_old.skel.h"
#include "ktr_kernel_caps.h"
#include "ktr_skel.h"

bool ktr_skel__old(void)
{
	return ktr_caps__lacks() & KTR_LACKS_ATOMICS;
}

const char *ktr_skel__build(void)
{
	return ktr_skel__old() ? "for kernels before 5.12 (no BPF atomics but add: "
				 "bpf/old_kernel.bpf.h)" :
				 "for Linux 5.12 and later";
}

struct ktraceb_bpf *ktr_skel__open(void)
{
	struct ktraceb_bpf *obj = calloc(1, sizeof(*obj));
	int err;

	if (!obj) {
		errno = ENOMEM;
		return NULL;
	}
	err = ktraceb_bpf__create_skeleton(obj);
	/* the old build's bytes in the skeleton's place: the same names, the same layout */
	if (!err && ktr_skel__old())
		obj->skeleton->data = (void *)ktraceb_old_bpf__elf_bytes(&obj->skeleton->data_sz);
	if (!err)
		err = bpf_object__open_skeleton(obj->skeleton, NULL);
	if (err) {
		ktraceb_bpf__destroy(obj);
		errno = -err;
		return NULL;
	}
	return obj;
}
