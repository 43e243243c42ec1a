// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * elf_bomb OUT NPHDRS NNOTES: writes an ELF file made to cost a USDT note
 * reader as much as it can: NPHDRS program headers (the first an
 * PT_LOADs that hold no probe, the last an executable one holding them
 * all) and NNOTES stapsdt notes.  A reader that walks the headers
 * for every note pays NPHDRS x NNOTES; one that keeps every note keeps
 * NNOTES of them.  For t_usdt_hostile.sh.
 */
#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE_DESC 32 /* pc, base, semaphore, "p\0n\0\0" and padding */

int main(int argc, char **argv)
{
	long nph = argc > 2 ? atol(argv[2]) : 0, nnotes = argc > 3 ? atol(argv[3]) : 0;
	const char shstr[] = "\0.shstrtab\0.note.stapsdt";
	size_t note_size = 12 + 8 + NOTE_DESC;
	size_t ph_off = sizeof(Elf64_Ehdr), notes_off = ph_off + nph * sizeof(Elf64_Phdr);
	size_t str_off = notes_off + nnotes * note_size,
	       sh_off = (str_off + sizeof(shstr) + 7) & ~7ul;
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh[3] = { 0 };
	FILE *f;

	if (argc < 4 || nph < 1 || nph > 65534 || nnotes < 0) {
		fprintf(stderr, "usage: elf_bomb OUT NPHDRS(1-65534) NNOTES\n");
		return 2;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = ph_off;
	eh.e_shoff = sh_off;
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = nph;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 3;
	eh.e_shstrndx = 1;
	fwrite(&eh, sizeof(eh), 1, f);
	for (long i = 0; i < nph; i++) {
		bool last = i == nph - 1;
		Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = last ? PF_R | PF_X : PF_R };

		/* the last one holds the probes: a reader walking them in order pays for all */
		ph.p_vaddr = last ? 0 : 0x10000000 + i * 0x1000;
		ph.p_offset = 0;
		ph.p_filesz = ph.p_memsz = last ? sh_off : 0x10;
		ph.p_align = 0x1000;
		fwrite(&ph, sizeof(ph), 1, f);
	}
	for (long i = 0; i < nnotes; i++) {
		Elf64_Nhdr nh = { .n_namesz = 8, .n_descsz = NOTE_DESC, .n_type = 3 };
		unsigned long long desc[4] = { 64 + (i % 64), 0, 0, 0 };

		memcpy(&desc[3], "p\0n\0\0\0\0", 8);
		fwrite(&nh, sizeof(nh), 1, f);
		fwrite("stapsdt", 8, 1, f);
		fwrite(desc, sizeof(desc), 1, f);
	}
	fwrite(shstr, sizeof(shstr), 1, f);
	while ((size_t)ftell(f) < sh_off)
		fputc(0, f);
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_STRTAB;
	sh[1].sh_offset = str_off;
	sh[1].sh_size = sizeof(shstr);
	sh[2].sh_name = 11;
	sh[2].sh_type = SHT_NOTE;
	sh[2].sh_offset = notes_off;
	sh[2].sh_size = nnotes * note_size;
	sh[2].sh_addralign = 4;
	fwrite(sh, sizeof(sh), 1, f);
	return fclose(f) ? 1 : 0;
}
