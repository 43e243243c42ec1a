// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Naming a user stack's frames (kdump_syms.h): one elfutils session
 * (Dwfl) per object, the object placed at its link-time addresses, so a
 * frame's file offset turns into an address through the object's PT_LOAD
 * headers and dwfl finds the symbol and the line there (in the object, or
 * in the separate debug file found by build id or debug link).
 *
 * The trace file is not trusted: every file is found and opened by the
 * rules of kdump_files.h (a clean path, a regular file, no blocking open,
 * debug files only inside /usr/lib/debug), an object believed only if its
 * build id is the one asked for, and at most OBJECTS_MAX objects are
 * looked at.
 */
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdump_files.h"
#include "kdump_syms_int.h"

#define OBJECTS_MAX 4096

/* debug files by the rules of kdump_files.h, never libdwfl's standard search */
static const Dwfl_Callbacks callbacks = {
	.find_elf = kd_find_no_elf,
	.find_debuginfo = kd_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};
/* the object's own file alone: the names it exports */
static const Dwfl_Callbacks own_callbacks = {
	.find_elf = kd_find_no_elf,
	.find_debuginfo = kd_find_no_debuginfo,
	.section_address = dwfl_offline_section_address,
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
	if (o->own_dwfl)
		dwfl_end(o->own_dwfl);
	if (o->code)
		elf_end(o->code);
	if (o->code_fd >= 0)
		close(o->code_fd);
	free(o->loads);
	free(o->named);
	free(o->from_buf);
	free(o->code_path);
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

/* A build id's length: its trailing zero bytes are padding (ktr.h) */
static size_t id_len(const __u8 id[20])
{
	size_t n = 20;

	while (n > 1 && id[n - 1] == 0)
		n--;
	return n;
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

/* The object itself: at the trace's path if the file there has its build id, else by build id. */
static Elf *object__find_code(struct syms_object *o)
{
	const char *why = NULL;
	char *p;
	Elf *e = NULL;

	if (o->path) {
		e = kd_elf_open_matching(o->path, o->id, 20, &o->code_fd, &why);
		if (e)
			o->code_path = strdup(o->path);
		else if (why)
			kd_file_skipped(o->path, why);
	}
	if (e || !(p = kd_build_id_path(o->id, id_len(o->id), "")))
		return e;
	e = kd_elf_open_matching(p, o->id, 20, &o->code_fd, &why);
	if (e)
		o->code_path = p;
	else
		free(p);
	if (!e && why)
		kd_file_skipped(p == o->code_path ? p : "an object's file by build id", why);
	return e;
}

/* The object's own symbols apart, when it has no .symtab: the names it exports first */
static void object__own_symbols(struct syms_object *o)
{
	Elf_Scn *scn = NULL;
	int fd;

	while ((scn = elf_nextscn(o->code, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return; /* dwfl takes its names from it */
	}
	fd = dup(o->code_fd);
	o->own_dwfl = fd >= 0 ? dwfl_begin(&own_callbacks) : NULL;
	if (!o->own_dwfl) {
		if (fd >= 0)
			close(fd);
		return;
	}
	dwfl_report_begin(o->own_dwfl);
	o->own_mod = dwfl_report_elf(o->own_dwfl, o->from, o->from, fd, 0, true);
	dwfl_report_end(o->own_dwfl, NULL, NULL);
	if (!o->own_mod)
		close(fd);
}

/* Find o's file: the object itself (for its code too), else its debug file alone. */
static void object__resolve(struct syms_object *o)
{
	char *debug = NULL;
	const char *why = NULL;
	int fd = -1;
	Elf *e;

	o->tried = true;
	if ((e = object__find_code(o))) {
		o->code = e;
		o->from = o->code_path;
		fd = dup(o->code_fd);
	} else if ((debug = kd_build_id_path(o->id, id_len(o->id), ".debug")) &&
		   (e = kd_elf_open_matching(debug, o->id, 20, &fd, &why))) {
		elf_end(e);
		o->from = o->from_buf = debug;
		debug = NULL;
	} else if (why) {
		kd_file_skipped(debug, why);
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

		if (me && object__loads(o, o->code ? o->code : me, o->code != NULL)) {
			if (o->code)
				object__own_symbols(o);
			return;
		}
	} else {
		close(fd);
	}
	dwfl_end(o->dwfl);
	o->dwfl = NULL;
	o->mod = NULL;
}

struct syms_object *syms__object(struct kdump_syms *s, const __u8 id[20])
{
	struct syms_object *o = object__find(s, id);

	if (!o)
		o = object__add(s, id);
	if (o && !o->tried)
		object__resolve(o);
	return o;
}

const GElf_Phdr *syms__load_of(const struct syms_object *o, __u64 off)
{
	for (size_t i = 0; i < o->nloads; i++)
		if (off >= o->loads[i].p_offset &&
		    off - o->loads[i].p_offset < o->loads[i].p_filesz)
			return &o->loads[i];
	return NULL;
}

int kdump_syms__object_file(struct kdump_syms *s, const __u8 id[20], const char **path,
			    const GElf_Phdr **loads, size_t *nloads)
{
	struct syms_object *o = syms__object(s, id);

	if (!o || !o->code)
		return -1;
	*path = o->code_path;
	*loads = o->loads;
	*nloads = o->nloads;
	return dup(o->code_fd);
}

void syms__function(struct kdump_syms *s, const char *sym, struct kdump_frame_name *out)
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

/* May o's DWARF be read (kdump_files.h)?  Asked once. */
static bool object__dwarf_ok(struct syms_object *o)
{
	if (!o->dwarf_tried) {
		o->dwarf_tried = true;
		o->dwarf_ok = kd_module_dwarf_usable(o->mod, o->from);
	}
	return o->dwarf_ok;
}

/*
 * The function at vaddr: the name the object exports there (as strace and
 * the object's users know it), else its own symbol table's or its debug
 * file's (a static function).
 */
static void name__symbol(struct kdump_syms *s, struct syms_object *o, __u64 vaddr,
			 struct kdump_frame_name *out)
{
	const char *name = NULL;
	GElf_Off off;
	GElf_Sym sym;

	if (o->own_mod) {
		name = dwfl_module_addrinfo(o->own_mod, vaddr, &off, &sym, NULL, NULL, NULL);
		if (name && sym.st_size && off >= sym.st_size)
			name = NULL; /* past the end of the exported function before it */
	}
	if (!name)
		name = dwfl_module_addrinfo(o->mod, vaddr, &off, &sym, NULL, NULL, NULL);
	if (name && sym.st_size && off >= sym.st_size)
		name = NULL;
	if (name) {
		syms__function(s, name, out);
		out->function_offset = off + 1;
	}
}

static struct syms_named *named__slot(struct syms_object *o, __u64 vaddr)
{
	if (!o->named && !(o->named = calloc(NAMED_SLOTS, sizeof(*o->named))))
		return NULL;
	return &o->named[(vaddr * 0x9e3779b97f4a7c15ull) >> 56 & (NAMED_SLOTS - 1)];
}

/* The name of the frame at vaddr, if found before (its strings are the object's, or in it) */
static bool name__known(struct syms_object *o, __u64 vaddr, struct kdump_frame_name *out)
{
	struct syms_named *n = named__slot(o, vaddr);

	if (!n || n->vaddr != vaddr)
		return false;
	*out = n->name;
	if (out->function)
		out->function = out->function_buf;
	return true;
}

static void name__keep(struct syms_object *o, __u64 vaddr, const struct kdump_frame_name *name)
{
	struct syms_named *n = named__slot(o, vaddr);

	if (n && vaddr) {
		n->vaddr = vaddr;
		n->name = *name;
	}
}

/*
 * What names frame f: its object, address, function, line and inlined
 * functions.  The object, or NULL if none could be found or the frame is
 * not code in it (said in out->doubt).
 */
static struct syms_object *name__common(struct kdump_syms *s, const struct ktr_ustack_frame *f,
					struct kdump_frame_name *out)
{
	struct syms_object *o;
	const GElf_Phdr *load;
	Dwfl_Line *line;
	__u64 vaddr;

	memset(out, 0, offsetof(struct kdump_frame_name, function_buf));
	out->function_buf[0] = out->doubt_buf[0] = 0;
	out->address = f->offset;
	if (f->status != KTR_USTACK_BUILD_ID)
		return NULL;
	o = syms__object(s, f->build_id);
	if (!o || !o->mod)
		return NULL;
	out->object = o->from;
	load = syms__load_of(o, f->offset);
	if (!load || !(load->p_flags & PF_X)) {
		out->doubt = "not code in its object: " LOST_CHAIN;
		out->not_frame = true;
		return NULL;
	}
	vaddr = load->p_vaddr + (f->offset - load->p_offset);
	out->address = vaddr;
	if (name__known(o, vaddr, out))
		return o;
	/* a return address is just past its call; the call site is before the syscall's IP */
	name__symbol(s, o, vaddr - 1, out);
	if (object__dwarf_ok(o)) {
		line = dwfl_module_getsrc(o->mod, vaddr - 1);
		if (line)
			out->file = dwfl_lineinfo(line, NULL, &out->line, NULL, NULL, NULL);
		name__inlined(o, vaddr - 1, out);
	}
	name__keep(o, vaddr, out);
	return o;
}

/* The function name without a compiler's clone suffix (.cold, .part.0, .isra.0) */
static size_t base_len(const char *f)
{
	const char *dot = strchr(f, '.');

	return dot ? (size_t)(dot - f) : strlen(f);
}

/* Frame i > 0 against the frame above it (inner): the call before it, and to what. */
static void name__check_call(struct kdump_syms *s, const struct syms_object *o, __u64 off,
			     __u64 vaddr, const struct kdump_frame_name *inner,
			     struct kdump_frame_name *out)
{
	const char *called = syms__check_call(o, off, vaddr, out);
	struct kdump_frame_name t;

	if (!called || !inner || !inner->function)
		return;
	syms__function(s, called, &t);
	if (base_len(t.function) == base_len(inner->function) &&
	    strncmp(t.function, inner->function, base_len(t.function)) == 0)
		return;
	snprintf(out->doubt_buf, sizeof(out->doubt_buf),
		 "calls %s here, not %s: frames between are missing "
		 "(code without frame pointers, or a tail call)",
		 t.function, inner->function);
	out->doubt = out->doubt_buf;
}

void kdump_syms__name(struct kdump_syms *s, const struct ktr_ustack_frame *f, unsigned int i,
		      const struct kdump_frame_name *inner, struct kdump_frame_name *out)
{
	struct syms_object *o = name__common(s, f, out);

	if (f->status != KTR_USTACK_BUILD_ID && i > 0) {
		out->doubt = "no object file here: anonymous or JIT code, or " LOST_CHAIN;
		out->not_frame = true;
	} else if (o && i > 0) {
		name__check_call(s, o, f->offset, out->address, inner, out);
	} else if (i > 0 && !out->doubt) {
		out->doubt = "no file with its build id on this machine: the walk cannot be "
			     "checked from here";
		out->not_frame = true;
	}
}

void kdump_syms__name_unwound(struct kdump_syms *s, const struct ktr_ustack_frame *f,
			      struct kdump_frame_name *out)
{
	name__common(s, f, out);
	out->not_frame = false; /* the unwinder is sure of it (kdump_unwind.h) */
	if (out->doubt)
		out->doubt = NULL;
}

int kdump_syms__call_before(struct kdump_syms *s, const __u8 id[20], __u64 off)
{
	struct syms_object *o = syms__object(s, id);
	const GElf_Phdr *load;
	__u64 target;

	if (!o || !o->code || !(load = syms__load_of(o, off)) || !(load->p_flags & PF_X))
		return o && o->code ? 0 : -1;
	return syms__call_before(o, off, load->p_vaddr + (off - load->p_offset), &target);
}
