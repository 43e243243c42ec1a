// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>

#include "ktr_usdt_elf.h"

#define PHDRS_MAX	 64 /* program headers looked at (a real file has about 10) */
#define NT_GNU_BUILD_ID	 3
#define NOTE_SEGMENT_MAX (64u << 10)

/* The build id in one PT_NOTE segment's notes, copied into id; its length, or 0. */
static int build_id__in(Elf *elf, const GElf_Phdr *ph, __u8 *id, int max)
{
	size_t len = ph->p_filesz < NOTE_SEGMENT_MAX ? ph->p_filesz : NOTE_SEGMENT_MAX;
	Elf_Data *data = elf_getdata_rawchunk(elf, ph->p_offset, len, ELF_T_NHDR);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		int n;

		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((char *)data->d_buf + name_off, "GNU", 4) != 0 || nh.n_descsz == 0)
			continue;
		n = nh.n_descsz < (size_t)max ? (int)nh.n_descsz : max;
		memcpy(id, (char *)data->d_buf + desc_off, n);
		return n;
	}
	return 0;
}

int ktr_usdt_elf__object_id(int fd, struct ktr_object_id *id)
{
	Elf *elf;
	size_t n;

	memset(id, 0, sizeof(*id));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return 0;
	if (elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &n) == 0) {
		for (size_t i = 0; i < n && i < PHDRS_MAX; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, i, &ph))
				continue;
			if (ph.p_type == PT_NOTE && !id->build_id_len)
				id->build_id_len =
					build_id__in(elf, &ph, id->build_id, sizeof(id->build_id));
			if (ph.p_type == PT_LOAD && id->nloads < KTR_OBJECT_MAXLOADS)
				id->loads[id->nloads++] =
					(struct ktr_object_load){ ph.p_offset, ph.p_vaddr,
								  ph.p_filesz, ph.p_flags, 0 };
		}
	}
	elf_end(elf);
	return id->build_id_len;
}
