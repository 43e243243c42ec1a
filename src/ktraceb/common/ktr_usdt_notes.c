// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/ptrace.h>

#include "ktraceb/bpf_usdt.h"
#include "ktr_usdt_notes.h"

#define NT_STAPSDT 3 /* sys/sdt.h: _SDT_NOTE_TYPE */

#if defined(__x86_64__)
/* Registers as operands name them, and where pt_regs keeps each. */
struct reg_name {
	const char *names[4]; /* 64, 32, 16, 8-bit names */
	unsigned short off;
};

static const struct reg_name regs_host[] = {
	{ { "rax", "eax", "ax", "al" }, offsetof(struct pt_regs, rax) },
	{ { "rbx", "ebx", "bx", "bl" }, offsetof(struct pt_regs, rbx) },
	{ { "rcx", "ecx", "cx", "cl" }, offsetof(struct pt_regs, rcx) },
	{ { "rdx", "edx", "dx", "dl" }, offsetof(struct pt_regs, rdx) },
	{ { "rsi", "esi", "si", "sil" }, offsetof(struct pt_regs, rsi) },
	{ { "rdi", "edi", "di", "dil" }, offsetof(struct pt_regs, rdi) },
	{ { "rbp", "ebp", "bp", "bpl" }, offsetof(struct pt_regs, rbp) },
	{ { "rsp", "esp", "sp", "spl" }, offsetof(struct pt_regs, rsp) },
	{ { "r8", "r8d", "r8w", "r8b" }, offsetof(struct pt_regs, r8) },
	{ { "r9", "r9d", "r9w", "r9b" }, offsetof(struct pt_regs, r9) },
	{ { "r10", "r10d", "r10w", "r10b" }, offsetof(struct pt_regs, r10) },
	{ { "r11", "r11d", "r11w", "r11b" }, offsetof(struct pt_regs, r11) },
	{ { "r12", "r12d", "r12w", "r12b" }, offsetof(struct pt_regs, r12) },
	{ { "r13", "r13d", "r13w", "r13b" }, offsetof(struct pt_regs, r13) },
	{ { "r14", "r14d", "r14w", "r14b" }, offsetof(struct pt_regs, r14) },
	{ { "r15", "r15d", "r15w", "r15b" }, offsetof(struct pt_regs, r15) },
};

static int reg__offset(const char *name)
{
	for (size_t i = 0; i < sizeof(regs_host) / sizeof(regs_host[0]); i++)
		for (int w = 0; w < 4; w++)
			if (strcmp(name, regs_host[i].names[w]) == 0)
				return regs_host[i].off;
	return -1;
}
#elif defined(__aarch64__)
/* x0 to x30 (w0 to w30 their low halves) and sp, where user_pt_regs keeps them. */
static int reg__offset(const char *name)
{
	unsigned int n;
	int end = 0;

	if (strcmp(name, "sp") == 0)
		return offsetof(struct user_pt_regs, sp);
	if ((name[0] == 'x' || name[0] == 'w') && isdigit((unsigned char)name[1]) &&
	    sscanf(name + 1, "%u%n", &n, &end) == 1 && name[1 + end] == '\0' && n < 31)
		return offsetof(struct user_pt_regs, regs) + n * sizeof(__u64);
	return -1;
}
#else
/*
 * x86_64 and arm64 only (ktr_arch.h, usdt_args): elsewhere no register
 * operand is understood, so a probe keeps only its arguments before the
 * first one.
 */
static int reg__offset(const char *name)
{
	return -1;
}
#endif

/*
 * One operand, "SIZE@OPERAND"; 0 or -EINVAL.  The assembler's syntax:
 * x86_64's "$7", "%rdi", "-16(%rbp)", "(%rax)"; arm64's "7", "x19",
 * "[sp,16]" (squeezed), "[x0]".
 */
static int arg__parse(const char *tok, struct ktr_usdt_arg *a)
{
	char reg[16];
	long long off;
	int size, n = 0, end = 0, r;

	memset(a, 0, sizeof(*a));
	if (sscanf(tok, "%d@%n", &size, &n) != 1 || n == 0)
		return -EINVAL;
	if (size < 0) {
		a->is_signed = 1;
		size = -size;
	}
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	a->size = size;
	tok += n;
	if (sscanf(tok, "$%lli", &off) == 1 ||
	    ((isdigit((unsigned char)*tok) || *tok == '-') &&
	     sscanf(tok, "%lli%n", &off, &end) == 1 && tok[end] == '\0')) {
		a->kind = KTR_UARG_CONST;
		a->val_off = off;
		return 0;
	}
	if ((sscanf(tok, "%%%15[a-z0-9]", reg) == 1 && tok[strlen(reg) + 1] == '\0') ||
	    (sscanf(tok, "%15[a-z0-9]%n", reg, &end) == 1 && tok[end] == '\0')) {
		a->kind = KTR_UARG_REG;
	} else if (sscanf(tok, "%lli(%%%15[a-z0-9])", &off, reg) == 2 ||
		   (off = 0, sscanf(tok, "(%%%15[a-z0-9])", reg) == 1) ||
		   (sscanf(tok, "[%15[a-z0-9],%lli]%n", reg, &off, &end) == 2 &&
		    tok[end] == '\0') ||
		   (off = 0, sscanf(tok, "[%15[a-z0-9]]%n", reg, &end) == 1 && tok[end] == '\0')) {
		a->kind = KTR_UARG_REG_DEREF;
		a->val_off = off;
	} else {
		return -EINVAL; /* index registers, %rip and the like */
	}
	r = reg__offset(reg);
	if (r < 0)
		return -EINVAL;
	a->reg_off = r;
	return 0;
}

/* The operands, without the spaces inside arm64's brackets ("8@[sp, 16]"). */
static void spec__squeeze(const char *spec, char *out, size_t size)
{
	size_t n = 0;
	int depth = 0;

	for (; *spec && n + 1 < size; spec++) {
		if (*spec == '[')
			depth++;
		else if (*spec == ']' && depth)
			depth--;
		else if (depth && isspace((unsigned char)*spec))
			continue;
		out[n++] = *spec;
	}
	out[n] = '\0';
}

/*
 * An argument string ("-4@%eax 8@-16(%rbp) 4@$7", on arm64 "-4@x0
 * 8@[sp, 16] 4@7") into args; the arguments understood, from the first,
 * up to max.
 */
static int args__parse(const char *note_spec, struct ktr_usdt_arg *args, int max)
{
	char tok[64], buf[512];
	const char *spec = buf;
	int n = 0, used;

	spec__squeeze(note_spec, buf, sizeof(buf));
	while (n < max && sscanf(spec, " %63s%n", tok, &used) == 1) {
		if (arg__parse(tok, &args[n]) < 0)
			break;
		n++;
		spec += used;
	}
	return n;
}

/*
 * A hostile file may have any number of headers and notes: every walk
 * below is one pass over what the file holds, and what is kept is capped
 * while walking, so the cost is linear in the file and the memory fixed.
 */
#define LOADS_MAX	  64 /* PT_LOAD segments kept (a real file has 2 to 4) */
#define NOTES_SECTION_MAX (8u << 20) /* bytes of .note.stapsdt read */

struct elf_loads {
	GElf_Phdr v[LOADS_MAX];
	size_t n;
};

/* The file's PT_LOAD segments, the first LOADS_MAX of them, in one pass. */
static int loads__collect(Elf *elf, struct elf_loads *loads)
{
	size_t n;

	loads->n = 0;
	if (elf_getphdrnum(elf, &n) < 0)
		return -EINVAL;
	for (size_t i = 0; i < n && loads->n < LOADS_MAX; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD)
			loads->v[loads->n++] = ph;
	}
	return 0;
}

/* A link-time address as a file offset, through the PT_LOAD holding it. */
static int vaddr__offset(const struct elf_loads *loads, __u64 vaddr, bool exec, __u64 *off)
{
	for (size_t i = 0; i < loads->n; i++) {
		const GElf_Phdr *ph = &loads->v[i];

		if (exec && !(ph->p_flags & PF_X))
			continue;
		if (vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < ph->p_filesz) {
			*off = vaddr - ph->p_vaddr + ph->p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* The sections sys/sdt.h makes: the notes, and .stapsdt.base's address. */
static Elf_Scn *notes__section(Elf *elf, __u64 *base_addr)
{
	Elf_Scn *scn = NULL, *notes = NULL;
	size_t shstrndx;

	*base_addr = 0;
	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (sh.sh_type == SHT_NOTE && !notes && strcmp(name, ".note.stapsdt") == 0)
			notes = scn;
		else if (strcmp(name, ".stapsdt.base") == 0)
			*base_addr = sh.sh_addr;
	}
	return notes;
}

/*
 * One note's description: pc, base, semaphore (link-time addresses), then
 * provider, name and argument strings.  0, or -EINVAL to skip it.
 */
static int note__parse(const struct elf_loads *loads, const char *desc, size_t len, __u64 base_addr,
		       struct ktr_usdt_note *out)
{
	__u64 addr[3];
	const char *prov, *name, *args, *end = desc + len;

	if (len < sizeof(addr) + 3)
		return -EINVAL;
	memcpy(addr, desc, sizeof(addr));
	prov = desc + sizeof(addr);
	name = memchr(prov, '\0', end - prov);
	args = name ? memchr(name + 1, '\0', end - name - 1) : NULL;
	if (!args || !memchr(args + 1, '\0', end - args - 1))
		return -EINVAL;
	name++;
	args++;
	/* prelinked or moved: .stapsdt.base says by how much */
	if (base_addr && addr[1]) {
		addr[0] += base_addr - addr[1];
		if (addr[2])
			addr[2] += base_addr - addr[1];
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->provider, sizeof(out->provider), "%s", prov);
	snprintf(out->name, sizeof(out->name), "%s", name);
	if (vaddr__offset(loads, addr[0], true, &out->pc_off) < 0)
		return -EINVAL;
	if (addr[2] && vaddr__offset(loads, addr[2], false, &out->sema_off) < 0)
		return -EINVAL;
	out->nargs = args__parse(args, out->args, KTR_UREC_MAXARGS);
	return 0;
}

/* The notes of scn, the first max into out; *seen counts every valid one. */
static int notes__collect(Elf *elf, Elf_Scn *scn, __u64 base_addr, struct ktr_usdt_note *out,
			  int max, int *seen)
{
	struct elf_loads *loads = malloc(sizeof(*loads));
	size_t off = 0, name_off, desc_off;
	GElf_Shdr sh;
	Elf_Data *data;
	GElf_Nhdr nh;
	int n = 0;

	if (!loads)
		return -ENOMEM;
	if (!gelf_getshdr(scn, &sh) || sh.sh_size > NOTES_SECTION_MAX ||
	    loads__collect(elf, loads)) {
		free(loads);
		return -EFBIG;
	}
	/* a notes section that cannot be read is not one without notes */
	data = sh.sh_size ? elf_getdata(scn, NULL) : NULL;
	if (sh.sh_size && !data) {
		free(loads);
		return -EIO;
	}
	while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		struct ktr_usdt_note note;

		if (nh.n_type != NT_STAPSDT || nh.n_namesz != sizeof("stapsdt") ||
		    memcmp((char *)data->d_buf + name_off, "stapsdt", nh.n_namesz) != 0)
			continue;
		if (note__parse(loads, (char *)data->d_buf + desc_off, nh.n_descsz, base_addr,
				&note) < 0)
			continue;
		if (n < max)
			out[n++] = note;
		(*seen)++;
	}
	free(loads);
	return n;
}

int ktr_usdt_notes__read(int fd, struct ktr_usdt_note *out, int max, int *seen)
{
	Elf *elf;
	Elf_Scn *scn;
	__u64 base_addr;
	int n = 0;

	*seen = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	/*
	 * A file that cannot be read (an I/O error, no memory) is an error,
	 * not a file without probes: the daemon never scans one of those
	 * again (ktr_usdt_scan.c), and a passing failure would leave a
	 * program's probes unarmed until the daemon ends.
	 */
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return -EIO;
	if (elf_kind(elf) == ELF_K_ELF && gelf_getclass(elf) == ELFCLASS64) {
		scn = notes__section(elf, &base_addr);
		if (scn)
			n = notes__collect(elf, scn, base_addr, out, max, seen);
	}
	elf_end(elf);
	return n;
}
