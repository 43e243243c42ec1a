// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Unwinding a stack copy with elfutils (kdump_unwind.h).  A process's
 * mappings at the time of a stack make an address space: a Dwfl session
 * with each object found reported at its load bias, attached to a "live"
 * process whose one thread has the record's registers and whose memory is
 * the record's stack bytes.  A few such spaces are kept: the stacks of one
 * process mostly come together.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdump_files.h"
#include "kdump_syms.h"
#include "kdump_unwind.h"

#define SPACES 8

/* The stack being unwound: what the callbacks read. */
struct uw_ctx {
	struct kdump_syms *syms;
	__s32 tid;
	const struct ktr_uregs *ur;
	const __u64 *regs;
	const unsigned char *stack;
	size_t len;
	const struct kd_mapping *maps;
	size_t nmaps;
	struct kd_unwound *out;
	Dwfl *dwfl;
	bool prev_cfi; /* the last frame has call frame information: the next one is sure */
	bool read_failed; /* since the last frame: a read outside the copy */
	bool stopped;
	__u64 read_addr;
};

struct uw_space {
	__s32 pid; /* 0: free */
	__u64 key;
	unsigned long used;
	Dwfl *dwfl;
	char why[160]; /* dwfl NULL: why no space could be made */
	struct uw_ctx ctx;
};

struct kd_unwinder {
	struct kdump_syms *syms;
	struct uw_space spaces[SPACES];
	unsigned long clock;
};

/* objects of this machine only: no debug file (its .eh_frame is empty) */
static const Dwfl_Callbacks uw_callbacks = {
	.find_elf = kd_find_no_elf,
	.find_debuginfo = kd_find_no_debuginfo,
};

static pid_t uw_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct uw_ctx *c = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = c;
	return c->tid;
}

static bool uw_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct uw_ctx *c = arg;

	if (tid != c->tid)
		return false;
	*thread_argp = c;
	return true;
}

/* The process's memory: the stack copy, and nothing else. */
static bool uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct uw_ctx *c = arg;
	__u64 sp = c->ur->ur_sp;

	if (addr >= sp && addr - sp <= c->len && c->len - (addr - sp) >= sizeof(*result)) {
		memcpy(result, c->stack + (addr - sp), sizeof(*result));
		return true;
	}
	if (!c->read_failed) {
		c->read_failed = true;
		c->read_addr = addr;
	}
	return false;
}

static bool uw_set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct uw_ctx *c = thread_arg;
	Dwarf_Word regs[KTR_UREGS_MAXREGS];

	for (unsigned int i = 0; i < c->ur->ur_nregs; i++)
		regs[i] = c->regs[i];
	if (!dwfl_thread_state_registers(thread, 0, c->ur->ur_nregs, regs))
		return false;
	dwfl_thread_state_register_pc(thread, c->ur->ur_pc);
	return true;
}

static const Dwfl_Thread_Callbacks uw_threads = {
	.next_thread = uw_next_thread,
	.get_thread = uw_get_thread,
	.memory_read = uw_memory_read,
	.set_initial_registers = uw_set_initial_registers,
};

struct kd_unwinder *kd_unwinder__new(struct kdump_syms *syms)
{
	struct kd_unwinder *u = calloc(1, sizeof(*u));

	if (u)
		u->syms = syms;
	return u;
}

static void space__drop(struct uw_space *sp)
{
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	memset(sp, 0, sizeof(*sp));
}

void kd_unwinder__free(struct kd_unwinder *u)
{
	if (!u)
		return;
	for (int i = 0; i < SPACES; i++)
		space__drop(&u->spaces[i]);
	free(u);
}

/*
 * The load bias of the object mapped by m: where its PT_LOAD that the
 * mapping holds (an executable one first) begins, less its p_vaddr.
 */
static bool map__bias(const struct kd_mapping *m, const GElf_Phdr *loads, size_t n, __u64 *bias)
{
	__u64 len = m->end - m->start;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			const GElf_Phdr *l = &loads[i];

			if ((pass == 0 && !(l->p_flags & PF_X)) || l->p_offset >= m->pgoff + len ||
			    l->p_offset + l->p_filesz <= m->pgoff)
				continue;
			*bias = m->start - m->pgoff + l->p_offset - l->p_vaddr;
			return true;
		}
	return false;
}

/* Each object of maps found on this machine, reported at its bias; how many. */
static int space__report(struct kd_unwinder *u, Dwfl *dwfl, const struct kd_mapping *maps, size_t n)
{
	int nmods = 0;

	dwfl_report_begin(dwfl);
	for (size_t i = 0; i < n; i++) {
		const GElf_Phdr *loads;
		const char *path;
		size_t nloads;
		__u64 bias;
		bool seen = false;
		int fd;

		for (size_t j = 0; j < i && !seen; j++)
			seen = memcmp(maps[j].build_id, maps[i].build_id, 20) == 0;
		if (seen)
			continue; /* one module per object (its other mappings are in it) */
		fd = kdump_syms__object_file(u->syms, maps[i].build_id, &path, &loads, &nloads);
		if (fd < 0)
			continue;
		if (!map__bias(&maps[i], loads, nloads, &bias) ||
		    !dwfl_report_elf(dwfl, path, path, fd, bias, false)) {
			close(fd);
			continue;
		}
		nmods++;
	}
	dwfl_report_end(dwfl, NULL, NULL);
	return nmods;
}

/* The space of pid's mappings (key): kept, or made in the least used slot. */
static struct uw_space *space__get(struct kd_unwinder *u, __s32 pid, __u64 key,
				   const struct kd_mapping *maps, size_t n)
{
	struct uw_space *sp = &u->spaces[0];

	for (int i = 0; i < SPACES; i++) {
		if (u->spaces[i].pid == pid && u->spaces[i].key == key) {
			u->spaces[i].used = ++u->clock;
			return &u->spaces[i];
		}
		if (u->spaces[i].used < sp->used)
			sp = &u->spaces[i];
	}
	space__drop(sp);
	sp->pid = pid;
	sp->key = key;
	sp->used = ++u->clock;
	sp->dwfl = dwfl_begin(&uw_callbacks);
	if (!sp->dwfl) {
		snprintf(sp->why, sizeof(sp->why), "%s", dwfl_errmsg(-1));
	} else if (space__report(u, sp->dwfl, maps, n) == 0) {
		snprintf(sp->why, sizeof(sp->why),
			 n ? "none of the objects the process maps is on this machine" :
			     "the trace says nothing of where the process maps its objects");
	} else if (!dwfl_attach_state(sp->dwfl, NULL, pid, &uw_threads, &sp->ctx)) {
		snprintf(sp->why, sizeof(sp->why), "%s", dwfl_errmsg(-1));
	} else {
		return sp;
	}
	dwfl_end(sp->dwfl);
	sp->dwfl = NULL;
	return sp;
}

/* Has the code at adj (an address in a call) call frame information? */
static bool has_cfi(Dwfl *dwfl, Dwarf_Addr adj)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, adj);
	Dwarf_Addr bias;
	Dwarf_Frame *frame;
	Dwarf_CFI *cfi;

	if (!mod)
		return false;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (cfi && dwarf_cfi_addrframe(cfi, adj - bias, &frame) == 0) {
		free(frame);
		return true;
	}
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && dwarf_cfi_addrframe(cfi, adj - bias, &frame) == 0) {
		free(frame);
		return true;
	}
	return false;
}

static int uw_stop(struct uw_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int uw_stop(struct uw_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->out->stop, sizeof(c->out->stop), fmt, ap);
	va_end(ap);
	c->stopped = true;
	return DWARF_CB_ABORT;
}

/* A frame found by the frame-pointer fallback: one only if a call is before it. */
static int uw_fallback_frame(struct uw_ctx *c, const struct kd_mapping *m, Dwarf_Addr pc)
{
	int call = m ? kdump_syms__call_before(c->syms, m->build_id, pc - m->start + m->pgoff) : -1;

	if (call == 1)
		return DWARF_CB_OK;
	return uw_stop(c,
		       "frame #%u has no unwind information, and its frame pointer leads to %#llx, "
		       "%s",
		       c->out->n - 1, (unsigned long long)pc,
		       call == 0 ? "where no call precedes: not a return address" :
				   "which cannot be checked (no code there on this machine)");
}

/*
 * A frame without call frame information whose frame pointer is 0: the
 * outermost one, by the ABI (the kernel starts a process so, and a thread
 * starts so too), like ld.so's _start.
 */
static bool outermost(const struct uw_ctx *c, Dwfl_Frame *state)
{
	unsigned int fp = c->ur->ur_machine == EM_AARCH64 ? 29 : 6;
	Dwarf_Word v;

	return dwfl_frame_reg(state, fp, &v) == 0 && v == 0;
}

static int uw_frame(Dwfl_Frame *state, void *arg)
{
	struct uw_ctx *c = arg;
	struct kd_unwound *out = c->out;
	struct ktr_ustack_frame *f;
	const struct kd_mapping *m;
	Dwarf_Addr pc, adj;
	bool act;
	int fd;

	/* what unwinding this frame reads from here (dwfl_frame_pc unwinds it already) */
	c->read_failed = false;
	if (!dwfl_frame_pc(state, &pc, &act))
		return uw_stop(c, "after #%u: %s", out->n ? out->n - 1 : 0, dwfl_errmsg(-1));
	adj = act ? pc : pc - 1;
	m = kd_mappings__find(c->maps, c->nmaps, adj);
	if (out->n > 0 && !c->prev_cfi && uw_fallback_frame(c, m, pc) != DWARF_CB_OK)
		return DWARF_CB_ABORT;
	f = &out->f[out->n++];
	memset(f, 0, sizeof(*f));
	if (m) {
		f->status = KTR_USTACK_BUILD_ID;
		memcpy(f->build_id, m->build_id, sizeof(f->build_id));
		f->offset = pc - m->start + m->pgoff;
	} else {
		f->status = KTR_USTACK_IP;
		f->offset = pc;
		return uw_stop(c,
			       "no object is mapped at %#llx in the trace (anonymous or JIT "
			       "code, or the vdso): its frame cannot be unwound",
			       (unsigned long long)pc);
	}
	c->prev_cfi = has_cfi(c->dwfl, adj);
	if (!c->prev_cfi && outermost(c, state)) {
		c->stopped = true; /* the end, said by nothing */
		return DWARF_CB_ABORT;
	}
	if (!c->prev_cfi) {
		fd = kdump_syms__object_file(c->syms, m->build_id, &(const char *){ NULL },
					     &(const GElf_Phdr *){ NULL }, &(size_t){ 0 });
		if (fd < 0)
			return uw_stop(c,
				       "the object of frame #%u is not on this machine (only "
				       "its debug file, or nothing): no unwind information",
				       out->n - 1);
		close(fd);
	}
	if (out->n == KD_UNWIND_MAX)
		return uw_stop(c, "%d frames: the rest are not unwound", KD_UNWIND_MAX);
	return DWARF_CB_OK;
}

/* Why the unwind read outside the copy: where the copy ends, and why there. */
static void uw_copy_end(struct uw_ctx *c)
{
	const struct ktr_uregs *ur = c->ur;
	unsigned long long end = ur->ur_sp + c->len;
	const char *why;

	if (c->read_addr < ur->ur_sp || c->read_addr > end + 4096) {
		snprintf(c->out->stop, sizeof(c->out->stop),
			 "the unwind reads %#llx, outside the stack copy (%#llx to %#llx)",
			 (unsigned long long)c->read_addr, (unsigned long long)ur->ur_sp, end);
		return;
	}
	switch (ur->ur_end) {
	case KTR_UREGS_END_FAULT:
		why = "the stack could not be read further";
		break;
	case KTR_UREGS_END_TOP:
		why = "the stack's start";
		break;
	case KTR_UREGS_END_RECORD:
		why = "as much as a flight recorder's record holds";
		break;
	default:
		why = "ktraceb -K copies more";
		break;
	}
	snprintf(c->out->stop, sizeof(c->out->stop),
		 "the stack copy ends at %#llx, %zu bytes above the stack pointer (%s)", end,
		 c->len, why);
}

void kd_unwinder__run(struct kd_unwinder *u, __s32 pid, __s32 tid, const struct ktr_uregs *ur,
		      const __u64 *regs, const unsigned char *stack, size_t stack_len,
		      const struct kd_mapping *maps, size_t nmaps, __u64 key,
		      struct kd_unwound *out)
{
	struct uw_space *sp = space__get(u, pid, key, maps, nmaps);
	struct uw_ctx *c = &sp->ctx;
	int rc;

	out->n = 0;
	out->stop[0] = 0;
	if (!sp->dwfl) {
		const struct kd_mapping *m = kd_mappings__find(maps, nmaps, ur->ur_pc);
		struct ktr_ustack_frame *f = &out->f[out->n++];

		memset(f, 0, sizeof(*f));
		f->status = m ? KTR_USTACK_BUILD_ID : KTR_USTACK_IP;
		f->offset = m ? ur->ur_pc - m->start + m->pgoff : ur->ur_pc;
		if (m)
			memcpy(f->build_id, m->build_id, sizeof(f->build_id));
		snprintf(out->stop, sizeof(out->stop), "not unwound: %s", sp->why);
		return;
	}
	*c = (struct uw_ctx){ .syms = u->syms,
			      .tid = tid,
			      .ur = ur,
			      .regs = regs,
			      .stack = stack,
			      .len = stack_len,
			      .maps = maps,
			      .nmaps = nmaps,
			      .out = out,
			      .dwfl = sp->dwfl };
	rc = dwfl_getthread_frames(sp->dwfl, tid, uw_frame, c);
	if (c->stopped)
		return;
	/* elfutils ends an unwind whose return address it cannot read as if at the outermost frame */
	if (c->read_failed)
		uw_copy_end(c);
	else if (rc == 0)
		return;
	else
		snprintf(out->stop, sizeof(out->stop), "after #%u: %s", out->n ? out->n - 1 : 0,
			 dwfl_errmsg(-1));
}
