// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The text of each kind's body (kdump_body.h), one function per kind, in
 * the order of BSD kdump's ktrsyscall(), ktrsysret(), ...; the decoder has
 * checked every payload, so none can fail.
 */
#include <string.h>
#include <sys/wait.h>

#include "decode.h"
#include "kdump_body.h"
#include "kdump_cgroup.h"
#include "kdump_data.h"
#include "kdump_fmt.h"
#include "kdump_tp.h"

typedef void (*body_fn)(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);

void kd_body_data(FILE *out, const unsigned char *p, size_t n, const struct kdump_opts *o)
{
	if ((o->flags & KD_NOGIO) || n == 0)
		return;
	if (o->maxdata > 0 && n > (size_t)o->maxdata)
		n = o->maxdata;
	fputc('\n', out);
	kd_dump_data(out, p, n);
}

static void body_call(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_put_scname(out, ev->sv_flags, ev->call.code, o->flags & KD_SYSNR);
	if ((o->flags & KD_FDS) && ev->call.fdmask) {
		kd_body_call_fds(out, ev, o);
		return;
	}
	ktr_print_syscall_args(out, ev->sv_flags, ev->call.code, ev->call.narg, ev->call.args,
			       o->decode);
}

static void body_ret(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_put_scname(out, ev->sv_flags, ev->ret.code, o->flags & KD_SYSNR);
	fputc(' ', out);
	ktr_print_sysret(out, ev->sv_flags, ev->ret.code, ev->ret.error, ev->ret.retval, o->decode);
	if ((o->flags & KD_FDS) && ev->ret.fd_new)
		kd_put_fd(out, ev, (int)ev->ret.retval, o);
	if (ev->ret.new_tid)
		fprintf(out, " <pid changed to %d>", ev->ret.new_tid);
	if ((o->flags & KD_DURATION) && ev->ret.has_dur)
		kd_put_duration(out, ev->ret.dur_ns);
}

/* A path cut at KTR_PATH_MAX bytes ends in "..." after its quote, as strace shows it. */
static void body_namei(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_putquoted(out, ev->data, ev->len);
	if (ev->namei.cut)
		fputs("...", out);
}

static void body_genio(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	size_t n = ev->genio.n;

	fprintf(out, "fd %d %s %zu byte%s", ev->genio.fd, ev->genio.read ? "read" : "wrote", n,
		n == 1 ? "" : "s");
	kd_body_data(out, ev->genio.data, n, o);
}

static void put_signal(FILE *out, const char *name, int signo)
{
	if (name)
		fputs(name, out);
	else
		fprintf(out, "SIG%d", signo);
}

/* Linux: its signal and si_code names, a 64-bit mask; BSD kdump's ktrpsig(): a 32-bit one. */
static void body_psig(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_psig *ps = &ev->psig;
	const char *code = ev->bsd ? NULL : ktr_sigcode_name(ps->signo, ps->code);

	put_signal(out,
		   ev->bsd ? ktr_bsd_signal_name(ev->sv_flags, ps->signo) :
			     ktr_signal_name(ps->signo),
		   ps->signo);
	if (ps->action == 0)
		fputs(" SIG_DFL", out);
	else if (ps->action == 1)
		fputs(" SIG_IGN", out);
	else if (ev->bsd)
		fprintf(out, " caught handler=0x%llx mask=0x%x", (unsigned long long)ps->action,
			ps->mask[0]);
	else
		/* Linux sigset_t is 64 bits, in mask[0] (low) and mask[1] */
		fprintf(out, " caught handler=0x%llx mask=0x%llx", (unsigned long long)ps->action,
			(unsigned long long)ps->mask[1] << 32 | ps->mask[0]);
	if (code)
		fprintf(out, " code=%s", code);
	else
		fprintf(out, " code=%d", ps->code);
}

static void body_csw(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "%s %s", ev->csw.out ? "stop" : "resume", ev->csw.user ? "user" : "kernel");
	if (ev->csw.wmesg) {
		fputc(' ', out);
		kd_putquoted(out, ev->csw.wmesg, ev->csw.wlen);
	}
}

static void body_struct(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	size_t len = ev->strct.len;

	if (ev->bsd) {
		/* another system's structure: its name and bytes, not Linux's fields */
		fprintf(out, "struct %.*s, %zu bytes", (int)ev->strct.nlen, ev->strct.name, len);
		if (!(o->flags & KD_NOGIO) && len > 0) {
			fputc('\n', out);
			kd_dump_data(out, ev->strct.data, len);
		}
		return;
	}
	if ((o->flags & KD_FDS) && kd_body_fdpair(out, ev, o))
		return;
	ktr_print_struct(out, ev->strct.name, ev->strct.data, len, o->decode);
}

/* ARGS, ENVS: NUL-separated strings, the last NUL optional. */
static void body_strings(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const unsigned char *d = ev->data, *end = d + ev->len, *nul;

	while (d < end) {
		nul = memchr(d, '\0', end - d);
		if (!nul)
			nul = end;
		kd_putquoted(out, d, nul - d);
		d = nul + 1;
		if (d < end)
			fputs(", ", out);
	}
}

static void body_fileinfo(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_fileinfo *fi = &ev->fileinfo;

	fprintf(out, "ktraceb format %u, ", fi->fi_version);
	ktr_put_escaped(out, fi->fi_machine, strnlen(fi->fi_machine, sizeof(fi->fi_machine)),
			KTR_ESC_CR);
	fputs(", kernel ", out);
	ktr_put_escaped(out, fi->fi_release, strnlen(fi->fi_release, sizeof(fi->fi_release)),
			KTR_ESC_CR);
	/* the other build of the BPF programs, said; the usual one goes without a word */
	if ((fi->fi_flags & KTR_FI_BPF_KNOWN) && (fi->fi_flags & KTR_FI_BPF_OLD))
		fputs(", BPF programs for kernels before 5.12", out);
}

static void body_lost(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	if (ev->h->ktr_flags & KTRH_SYSWIDE) /* one CPU's buffer (ktraceb -S) */
		fprintf(out, "%llu records lost on CPU %d (%llu in all there)",
			(unsigned long long)ev->lost.lost, KTRH_CPUID_DECODE(ev->h->ktr_flags),
			(unsigned long long)ev->lost.total);
	else
		fprintf(out, "%llu records lost (%llu in all)", (unsigned long long)ev->lost.lost,
			(unsigned long long)ev->lost.total);
}

static void body_exit(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	int status = ev->exit_status;

	if (WIFEXITED(status)) {
		fprintf(out, "exited %d", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		fputs("killed by ", out);
		put_signal(out, ktr_signal_name(WTERMSIG(status)), WTERMSIG(status));
		if (WCOREDUMP(status))
			fputs(" (core dumped)", out);
	} else {
		fprintf(out, "status %#x", (unsigned int)status);
	}
}

/* The trace's end in this file: why, then what it wrote and lost. */
static void body_end(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_end *e = &ev->end;
	const char *why = kd_fmt_end_why(e->ke_why, false);

	fputs("trace ended: ", out);
	if (why)
		fputs(why, out);
	else
		fprintf(out, "reason %u", e->ke_why);
	if (e->ke_why == KTR_END_WRITE_ERROR) {
		const char *name = ktr_errno_name(e->ke_errno);

		fprintf(out, ": %s", e->ke_errno > 0 ? strerror(e->ke_errno) : "error");
		if (name)
			fprintf(out, " (%s)", name);
	}
	if (e->ke_why == KTR_END_CLEARED && e->ke_pid)
		fprintf(out, " by pid %d (uid %u)", e->ke_pid, e->ke_uid);
	if (e->ke_why == KTR_END_KILLED) {
		fputs(": its last records are missing", out);
		return;
	}
	/* the session's records with the END's own: what ktraceb said it wrote */
	fprintf(out, "; %llu records, %llu lost", (unsigned long long)e->ke_records + 1,
		(unsigned long long)e->ke_lost);
	if (e->ke_unwritten)
		fprintf(out, " (%llu the file did not take)", (unsigned long long)e->ke_unwritten);
}

/* A recorder's dump (ktraceb -R): what it recovered, and why it was written. */
static void body_flight(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_flight_info *fi = &ev->flight;

	if (fi->kf_part == KTR_FLIGHT_LAST_PER_CPU) {
		fprintf(out, "last recorded per-CPU events: %llu", (unsigned long long)fi->kf_kept);
		return;
	}
	fprintf(out, "recovered %llu/%llu entries", (unsigned long long)fi->kf_kept,
		(unsigned long long)fi->kf_produced);
	if (fi->kf_out_of_order)
		fprintf(out, ", %llu out of order", (unsigned long long)fi->kf_out_of_order);
	if (fi->kf_compact)
		fputs(", compact", out);
	if (fi->kf_why == KTR_FLIGHT_CRASH && WIFSIGNALED(fi->kf_status)) {
		fprintf(out, ": pid %d killed by ", fi->kf_pid);
		put_signal(out, ktr_signal_name(WTERMSIG(fi->kf_status)), WTERMSIG(fi->kf_status));
	} else if (fi->kf_why == KTR_FLIGHT_EXIT && WIFEXITED(fi->kf_status)) {
		fprintf(out, ": pid %d exited %d", fi->kf_pid, WEXITSTATUS(fi->kf_status));
	} else if (fi->kf_why == KTR_FLIGHT_DEMAND) {
		fputs(": on demand", out);
	}
}

static void body_tracepoint(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_tp__print(out, ev->tp.fmt, ev->tp.id, ev->tp.raw, ev->tp.len);
}

/* --- the records only foreign files have ------------------------------------ */

static void body_string(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_putquoted(out, ev->data, strnlen((const char *)ev->data, ev->len));
}

/* Records kdump has no decoder for: their size, and their bytes as a dump. */
static void body_bytes(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "%zu byte%s", ev->len, ev->len == 1 ? "" : "s");
	kd_body_data(out, ev->data, ev->len, o);
}

static void body_fault(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "%#llx type %d", (unsigned long long)ev->fault.va, ev->fault.type);
}

static void body_faultend(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "%d", ev->faultend);
}

static void body_mib(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	__s32 v;

	for (size_t i = 0; i < ev->len / 4; i++) {
		memcpy(&v, ev->data + 4 * i, 4);
		fprintf(out, "%s%d", i ? "." : "", v);
	}
}

static void body_pledge(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const char *name = ktr_syscall_name(ev->sv_flags, ev->pledge.call);

	fprintf(out, "%s, errno %d %s, promise %#llx", name ? name : "?", ev->pledge.error,
		ktr_bsd_errno_name(ev->sv_flags, ev->pledge.error) ?: "",
		(unsigned long long)ev->pledge.code);
}

static void body_procctor(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "sv_flags %#x", ev->procctor);
}

static void body_empty(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
}

void kd_body(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	static const body_fn bodies[KD_NKINDS] = {
		[KD_CALL] = body_call,
		[KD_RET] = body_ret,
		[KD_NAMEI] = body_namei,
		[KD_GENIO] = body_genio,
		[KD_PSIG] = body_psig,
		[KD_CSW] = body_csw,
		[KD_USER] = kd_body_user,
		[KD_STRUCT] = body_struct,
		[KD_ARGS] = body_strings,
		[KD_ENVS] = body_strings,
		[KD_FILEINFO] = body_fileinfo,
		[KD_LOST] = body_lost,
		[KD_EXIT] = body_exit,
		[KD_FLIGHT] = body_flight,
		[KD_TRACEPOINT] = body_tracepoint,
		[KD_SYSCTL] = body_string,
		[KD_CAPFAIL] = body_bytes,
		[KD_FAULT] = body_fault,
		[KD_FAULTEND] = body_faultend,
		[KD_STRUCT_ARRAY] = body_bytes,
		[KD_EXTERR] = body_bytes,
		[KD_EMUL] = body_string,
		[KD_MIB] = body_mib,
		[KD_PLEDGE] = body_pledge,
		[KD_START] = body_empty,
		[KD_OTHER] = body_bytes,
		[KD_PROCCTOR] = body_procctor,
		[KD_PROCDTOR] = body_empty,
		[KD_FILTER] = kd_body_filter,
		[KD_USTACK] = kd_body_ustack,
		[KD_OBJECT] = kd_body_object,
		[KD_CGROUP] = kd_body_cgroup,
		[KD_FD] = kd_body_fd,
		[KD_END] = body_end,
	};

	if (ev->kind < KD_NKINDS && bodies[ev->kind])
		bodies[ev->kind](out, ev, o);
}
