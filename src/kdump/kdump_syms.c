// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Naming a user stack's frames (kdump_syms.h): one elfutils session
 * (Dwfl) per object, the object placed at its link-time addresses, so a
 * frame's file offset turns into an address through the object's PT_LOAD
 * headers and dwfl finds the symbol and the line there (in the object, or
 * in the separate debug file it finds by build id or debuglink).
 *
 * The trace file is not trusted: a KTR_OBJECT path is opened only as a
 * regular file, without blocking, and believed only if its build id is
 * the one asked for; at most OBJECTS_MAX objects are looked at.
 */
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdump_syms.h"

#define OBJECTS_MAX 4096
#define DEBUG_DIR   "/usr/lib/debug"

struct syms_object {
	__u8 id[20];
	char *path; /* from KTR_OBJECT; NULL if none came */
	struct ktr_object_load trace_loads[KTR_OBJECT_MAXLOADS]; /* its PT_LOADs, as the trace says */
	unsigned int ntrace_loads;
	bool tried;
	Dwfl *dwfl; /* NULL: no file found */
	Dwfl_Module *mod;
	const char *from; /* the file reported to dwfl */
	char *from_buf;
	Elf *code; /* the object itself, for its code bytes; NULL if gone */
	int code_fd;
	GElf_Half machine;
	GElf_Phdr *loads;
	size_t nloads;
};

struct kdump_syms {
	struct syms_object *v;
	size_t n, cap;
	char *(*demangle)(const char *, char *, size_t *, int *);
	bool demangle_tried;
};

static char *debuginfo_path = DEBUG_DIR;
static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

struct kdump_syms *kdump_syms__new(void)
{
	elf_version(EV_CURRENT);
	return calloc(1, sizeof(struct kdump_syms));
}

static void object__drop(struct syms_object *o)
{
	if (o->dwfl)
		dwfl_end(o->dwfl);
	if (o->code)
		elf_end(o->code);
	if (o->code_fd >= 0)
		close(o->code_fd);
	free(o->loads);
	free(o->from_buf);
	free(o->path);
}

void kdump_syms__free(struct kdump_syms *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		object__drop(&s->v[i]);
	free(s->v);
	free(s);
}

static struct syms_object *object__find(struct kdump_syms *s, const __u8 id[20])
{
	for (size_t i = 0; i < s->n; i++)
		if (memcmp(s->v[i].id, id, 20) == 0)
			return &s->v[i];
	return NULL;
}

static struct syms_object *object__add(struct kdump_syms *s, const __u8 id[20])
{
	struct syms_object *o;

	if (s->n == OBJECTS_MAX)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct syms_object *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	o = &s->v[s->n++];
	memset(o, 0, sizeof(*o));
	memcpy(o->id, id, 20);
	o->code_fd = -1;
	return o;
}

void kdump_syms__object(struct kdump_syms *s, const struct ktr_object *ko,
			const struct ktr_object_load *loads, const char *path)
{
	struct syms_object *o = object__find(s, ko->ko_build_id);

	if (!o)
		o = object__add(s, ko->ko_build_id);
	if (!o || o->path || o->tried)
		return;
	o->path = strdup(path);
	o->ntrace_loads = ko->ko_nloads <= KTR_OBJECT_MAXLOADS ? ko->ko_nloads : 0;
	memcpy(o->trace_loads, loads, o->ntrace_loads * sizeof(*loads));
}

/* An ELF file at path, opened as a regular file only; its build id is id. */
static Elf *elf__open_matching(const char *path, const __u8 id[20], int *fdp)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	const void *bid;
	struct stat st;
	__u8 padded[20] = { 0 };
	ssize_t len;
	Elf *e;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(fd);
		return NULL;
	}
	len = dwelf_elf_gnu_build_id(e, &bid);
	if (len > 0 && len <= 20)
		memcpy(padded, bid, len);
	if (len <= 0 || len > 20 || memcmp(padded, id, 20) != 0) {
		elf_end(e);
		close(fd);
		return NULL;
	}
	*fdp = fd;
	return e;
}

/*
 * The PT_LOAD headers a frame's file offset is turned into an address by:
 * the object's own, else those the trace kept of it (a debug file's own
 * headers say where its sections were, not where the object's bytes were).
 */
static bool object__loads(struct syms_object *o, Elf *e, bool own)
{
	size_t n;
	GElf_Ehdr eh;

	if (!gelf_getehdr(e, &eh) || elf_getphdrnum(e, &n) < 0 || n == 0 || n > 4096)
		return false;
	o->machine = eh.e_machine;
	if (!own && o->ntrace_loads) {
		o->loads = calloc(o->ntrace_loads, sizeof(*o->loads));
		if (!o->loads)
			return false;
		for (unsigned int i = 0; i < o->ntrace_loads; i++) {
			const struct ktr_object_load *l = &o->trace_loads[i];

			o->loads[o->nloads++] = (GElf_Phdr){ .p_type = PT_LOAD,
							     .p_offset = l->kl_offset,
							     .p_vaddr = l->kl_vaddr,
							     .p_filesz = l->kl_filesz,
							     .p_flags = l->kl_flags };
		}
		return true;
	}
	o->loads = calloc(n, sizeof(*o->loads));
	if (!o->loads)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD)
			o->loads[o->nloads++] = ph;
	}
	o->machine = eh.e_machine;
	return o->nloads > 0;
}

/* The debug file /usr/lib/debug/.build-id/xx/rest.debug of id, or NULL. */
static char *debug_path(const __u8 id[20])
{
	char *p = malloc(sizeof(DEBUG_DIR "/.build-id/") + 3 + 38 + sizeof(".debug"));
	int len = 20;

	if (!p)
		return NULL;
	while (len > 1 && id[len - 1] == 0)
		len--;
	strcpy(p, DEBUG_DIR "/.build-id/");
	for (int i = 0; i < len; i++)
		sprintf(p + strlen(p), i == 0 ? "%02x/" : "%02x", id[i]);
	strcat(p, ".debug");
	return p;
}

/* Find o's file: the object itself (for its code too), else its debug file alone. */
static void object__resolve(struct syms_object *o)
{
	char *debug = debug_path(o->id);
	int fd = -1;
	Elf *e;

	o->tried = true;
	if (o->path && (e = elf__open_matching(o->path, o->id, &o->code_fd))) {
		o->code = e;
		o->from = o->path;
		fd = dup(o->code_fd);
	} else if (debug && (e = elf__open_matching(debug, o->id, &fd))) {
		elf_end(e);
		o->from = o->from_buf = debug;
		debug = NULL;
	}
	free(debug);
	if (fd < 0)
		return;
	o->dwfl = dwfl_begin(&callbacks);
	if (!o->dwfl) {
		close(fd);
		return;
	}
	/* the file checked, not the path again (dwfl takes fd); at its link-time addresses */
	dwfl_report_begin(o->dwfl);
	o->mod = dwfl_report_elf(o->dwfl, o->from, o->from, fd, 0, true);
	dwfl_report_end(o->dwfl, NULL, NULL);
	if (o->mod) {
		GElf_Addr bias;
		Elf *me = dwfl_module_getelf(o->mod, &bias);

		if (me && object__loads(o, o->code ? o->code : me, o->code != NULL))
			return;
	}
	dwfl_end(o->dwfl);
	o->dwfl = NULL;
	o->mod = NULL;
}

/* The PT_LOAD holding file offset off, or NULL */
static const GElf_Phdr *object__load_of(const struct syms_object *o, __u64 off)
{
	for (size_t i = 0; i < o->nloads; i++)
		if (off >= o->loads[i].p_offset &&
		    off - o->loads[i].p_offset < o->loads[i].p_filesz)
			return &o->loads[i];
	return NULL;
}

static void name__function(struct kdump_syms *s, const char *sym, struct kdump_frame_name *out)
{
	char *d = NULL;
	int status;

	if (sym[0] == '_' && sym[1] == 'Z') {
		if (!s->demangle_tried) {
			void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

			s->demangle_tried = true;
			if (h)
				*(void **)&s->demangle = dlsym(h, "__cxa_demangle");
		}
		if (s->demangle)
			d = s->demangle(sym, NULL, NULL, &status);
	}
	snprintf(out->function_buf, sizeof(out->function_buf), "%s", d ? d : sym);
	free(d);
	out->function = out->function_buf;
}

/* The function name without a compiler's clone suffix (.cold, .part.0, .isra.0) */
static size_t base_len(const char *f)
{
	const char *dot = strchr(f, '.');

	return dot ? (size_t)(dot - f) : strlen(f);
}

#define LOST_CHAIN "the walk lost the frame chain here (code without frame pointers?)"

/*
 * The return address at file offset off: is there a call just before it,
 * and which function does a direct call go to?  1: a call (*target set
 * for a direct one, else 0); 0: none; -1: unknown (no code at hand).
 */
static int call_before(const struct syms_object *o, __u64 off, __u64 vaddr, __u64 *target)
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

/* Frame i > 0 against the frame above it: the call before it, and to what. */
static void name__check_call(struct kdump_syms *s, struct syms_object *o, __u64 off, __u64 vaddr,
			     const struct kdump_frame_name *inner, struct kdump_frame_name *out)
{
	const char *called;
	__u64 target;
	GElf_Off toff;
	GElf_Sym sym;
	int c = call_before(o, off, vaddr, &target);

	if (c == 0) {
		out->doubt = "no call before this return address: " LOST_CHAIN;
		return;
	}
	if (c < 0 || !target || !inner || !inner->function || in_plt(o, target))
		return;
	called = dwfl_module_addrinfo(o->mod, target, &toff, &sym, NULL, NULL, NULL);
	if (!called || toff != 0)
		return;
	{
		struct kdump_frame_name t;

		name__function(s, called, &t);
		if (base_len(t.function) == base_len(inner->function) &&
		    strncmp(t.function, inner->function, base_len(t.function)) == 0)
			return;
		snprintf(out->doubt_buf, sizeof(out->doubt_buf),
			 "calls %s here, not %s: frames between are missing "
			 "(code without frame pointers, or a tail call)",
			 t.function, inner->function);
		out->doubt = out->doubt_buf;
	}
}

/* The source file of index idx in cu's line table, or NULL */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* An inlined subroutine's name (its abstract origin's) into buf */
static void inlined_name(Dwarf_Die *die, char *buf, size_t size)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));

	snprintf(buf, size, "%s", name ? name : "??");
}

/*
 * The functions inlined at vaddr, from the scopes DWARF gives (innermost
 * first): the frame's line becomes the outermost one's call site, and each
 * inlined function is shown where it calls the next, the innermost at the
 * line of vaddr itself.
 */
static void name__inlined(struct syms_object *o, __u64 vaddr, struct kdump_frame_name *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(o->mod, vaddr, &bias), *scopes = NULL;
	const char *file = out->file;
	int n, m = 0, line = out->line;

	if (!cu || (n = dwarf_getscopes(cu, vaddr - bias, &scopes)) <= 0)
		return;
	while (m < n && dwarf_tag(&scopes[m]) == DW_TAG_inlined_subroutine)
		m++;
	/* scopes[m-1] is the outermost inlined call: those past KDUMP_INLINED_MAX are not shown */
	for (int k = 0; k < m; k++) {
		Dwarf_Attribute attr;
		Dwarf_Word cl = 0, cf = 0;
		int slot = m - 1 - k;

		if (slot < KDUMP_INLINED_MAX) {
			inlined_name(&scopes[k], out->inlined[slot].function,
				     sizeof(out->inlined[slot].function));
			out->inlined[slot].file = file;
			out->inlined[slot].line = line;
		}
		dwarf_formudata(dwarf_attr(&scopes[k], DW_AT_call_line, &attr), &cl);
		dwarf_formudata(dwarf_attr(&scopes[k], DW_AT_call_file, &attr), &cf);
		file = cu_file(cu, cf);
		line = (int)cl;
	}
	out->ninlined = m < KDUMP_INLINED_MAX ? m : KDUMP_INLINED_MAX;
	if (m) {
		out->file = file;
		out->line = line;
	}
	free(scopes);
}

void kdump_syms__name(struct kdump_syms *s, const struct ktr_ustack_frame *f, unsigned int i,
		      const struct kdump_frame_name *inner, struct kdump_frame_name *out)
{
	struct syms_object *o;
	const GElf_Phdr *load;
	GElf_Off soff;
	GElf_Sym sym;
	Dwfl_Line *line;
	const char *name;
	__u64 vaddr;

	memset(out, 0, offsetof(struct kdump_frame_name, function_buf));
	out->function_buf[0] = out->doubt_buf[0] = 0;
	out->address = f->offset;
	if (f->status != KTR_USTACK_BUILD_ID) {
		if (i > 0)
			out->doubt = "no object file here: anonymous or JIT code, or " LOST_CHAIN;
		return;
	}
	o = object__find(s, f->build_id);
	if (!o)
		o = object__add(s, f->build_id);
	if (!o)
		return;
	if (!o->tried)
		object__resolve(o);
	if (!o->mod)
		return;
	out->object = o->from;
	load = object__load_of(o, f->offset);
	if (!load || !(load->p_flags & PF_X)) {
		out->doubt = "not code in its object: " LOST_CHAIN;
		return;
	}
	vaddr = load->p_vaddr + (f->offset - load->p_offset);
	out->address = vaddr;
	/* a return address is just past its call; the call site is before the syscall's IP */
	name = dwfl_module_addrinfo(o->mod, vaddr - 1, &soff, &sym, NULL, NULL, NULL);
	if (name) {
		name__function(s, name, out);
		out->function_offset = soff + 1;
	}
	line = dwfl_module_getsrc(o->mod, vaddr - 1);
	if (line)
		out->file = dwfl_lineinfo(line, NULL, &out->line, NULL, NULL, NULL);
	name__inlined(o, vaddr - 1, out);
	if (i > 0)
		name__check_call(s, o, f->offset, vaddr, inner, out);
}
