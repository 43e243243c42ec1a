// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The checks of a frame-pointer walk's frames (kdump_syms.h): a walk
 * through code built without frame pointers goes astray without a word,
 * and each frame is checked for what betrays that (no call before a return
 * address, a call to another function than the frame above it).  The
 * DWARF unwinder asks the first of these of a frame its fallback (frame
 * pointers again) found.
 */
#include <string.h>

#include "kdump_syms_int.h"

int syms__call_before(const struct syms_object *o, __u64 off, __u64 vaddr, __u64 *target)
{
	unsigned char b[8];
	Elf_Data *d;

	*target = 0;
	if (!o->code || off < sizeof(b))
		return -1;
	d = elf_getdata_rawchunk(o->code, off - sizeof(b), sizeof(b), ELF_T_BYTE);
	if (!d || d->d_size != sizeof(b))
		return -1;
	memcpy(b, d->d_buf, sizeof(b));
	if (o->machine == EM_X86_64) {
		if (b[3] == 0xe8) { /* call rel32 */
			__s32 rel = (__s32)(b[4] | b[5] << 8 | b[6] << 16 | (__u32)b[7] << 24);

			*target = vaddr + rel;
			return 1;
		}
		/* call r/m64: ff /2, 2 to 7 bytes */
		for (int len = 2; len <= 7; len++) {
			unsigned char modrm = b[8 - len + 1];
			int mod = modrm >> 6, rm = modrm & 7, want = 2;

			if (b[8 - len] != 0xff || ((modrm >> 3) & 7) != 2)
				continue;
			if (mod != 3 && rm == 4) {
				want++;
				if (mod == 0 && len >= 3 && (b[8 - len + 2] & 7) == 5)
					want += 4;
			}
			want += mod == 1 ? 1 : mod == 2 ? 4 : (mod == 0 && rm == 5) ? 4 : 0;
			if (want == len)
				return 1;
		}
		return 0;
	}
	if (o->machine == EM_AARCH64) {
		__u32 insn = b[4] | b[5] << 8 | b[6] << 16 | (__u32)b[7] << 24;

		if ((insn & 0xfc000000) == 0x94000000) { /* bl */
			__s64 imm = (__s64)((__u64)(insn & 0x03ffffff) << 38) >> 36;

			*target = vaddr - 4 + imm;
			return 1;
		}
		/* blr, blraa, blrab, blraaz, blrabz */
		return (insn & 0xfffffc1f) == 0xd63f0000 || (insn & 0xfefff800) == 0xd63f0800;
	}
	return -1;
}

/* Is the address in a PLT (a call through it names no function here)? */
static bool in_plt(const struct syms_object *o, __u64 vaddr)
{
	Dwarf_Addr bias;
	Elf *e = dwfl_module_getelf(o->mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!e || elf_getshdrstrndx(e, &shstrndx) < 0)
		return true;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || vaddr < sh.sh_addr ||
		    vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		return name && strncmp(name, ".plt", 4) == 0;
	}
	return true; /* in no section: do not claim anything */
}

const char *syms__check_call(const struct syms_object *o, __u64 off, __u64 vaddr,
			     struct kdump_frame_name *out)
{
	const char *called;
	__u64 target;
	GElf_Off toff;
	GElf_Sym sym;
	int c = syms__call_before(o, off, vaddr, &target);

	if (c == 0) {
		out->doubt = "no call before this return address: " LOST_CHAIN;
		out->not_frame = true;
		return NULL;
	}
	if (c < 0 || !target || in_plt(o, target))
		return NULL;
	called = dwfl_module_addrinfo(o->mod, target, &toff, &sym, NULL, NULL, NULL);
	return called && toff == 0 ? called : NULL;
}
