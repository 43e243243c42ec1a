// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The text sink: kdump's BSD-style lines.  One printer per record type, in
 * the order of BSD kdump's ktrsyscall(), ktrsysret(), ...  Each printer
 * checks what the event pass has not (kdump_event.c) and returns -EINVAL
 * before printing anything, so the caller can print "invalid record".
 * Also kdump's front: kdump__new() picks the sink, kdump__record() runs
 * the event pass and feeds the sink.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "decode.h"
#include "kdump_event.h"
#include "kdump_priv.h"
#include "kdump_tp.h"
#include "kdump_user.h"

#define CSW_OLD_LEN 8 /* DragonFly / old FreeBSD struct ktr_csw */

typedef int (*printer_fn)(struct kdump *kd, const struct kd_event *ev);

struct kdump *kdump__new(const struct kdump_opts *opts, FILE *out)
{
	struct kdump *kd;

	kd = calloc(1, sizeof(*kd));
	if (!kd)
		return NULL;
	kd->o = *opts;
	kd->out = out;
	kd->sink = (opts->flags & KD_SUMMARY) ? &kd_sink_summary :
		   (opts->flags & KD_TREE)    ? &kd_sink_tree :
		   (opts->flags & KD_JSON)    ? &kd_sink_json :
		   (opts->flags & KD_CHROME)  ? &kd_sink_chrome :
						&kd_sink_text;
	ktr_decode_set_machine("x86_64"); /* until the file's INFO record says */
	return kd;
}

void kdump__free(struct kdump *kd)
{
	if (!kd)
		return;
	kd_summary__free(kd->sum);
	kd_tp__free(kd->tp);
	kd_jsonout__free(kd);
	kd_chrome__free(kd);
	kd_map__free(&kd->abi);
	kd_map__free(&kd->calls);
	kd_threads__free(kd);
	free(kd->join.buf);
	free(kd);
}

unsigned long kdump__ninvalid(const struct kdump *kd)
{
	return kd->ninvalid;
}

/* As kd_fmt_scname(), straight to the output: this runs for every CALL and RET. */
static void print_scname(struct kdump *kd, unsigned int sv_flags, int code)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	if (!name) {
		fprintf(kd->out, "[%d]", code);
		return;
	}
	fputs(name, kd->out);
	if (kd->o.flags & KD_SYSNR)
		fprintf(kd->out, "[%d]", code);
}

/* --- record bodies ------------------------------------------------------- */

static int pr_syscall(struct kdump *kd, const struct kd_event *ev)
{
	if (!ev->valid)
		return -EINVAL;
	print_scname(kd, ev->sv_flags, ev->call.code);
	ktr_print_syscall_args(kd->out, ev->sv_flags, ev->call.code, ev->call.narg, ev->call.args,
			       kd->o.decode);
	return 0;
}

static int pr_sysret(struct kdump *kd, const struct kd_event *ev)
{
	if (!ev->valid)
		return -EINVAL;
	print_scname(kd, ev->sv_flags, ev->ret.code);
	fputc(' ', kd->out);
	ktr_print_sysret(kd->out, ev->sv_flags, ev->ret.code, ev->ret.error, ev->ret.retval,
			 kd->o.decode);
	return 0;
}

static int pr_namei(struct kdump *kd, const struct kd_event *ev)
{
	const unsigned char *d = ev->data;
	size_t len = ev->len;
	kd_putquoted(kd->out, d, len);
	return 0;
}

static int pr_genio(struct kdump *kd, const struct kd_event *ev)
{
	const unsigned char *d = ev->data;
	size_t len = ev->len;
	struct ktr_genio gio;
	size_t n;

	if (len < sizeof(gio))
		return -EINVAL;
	memcpy(&gio, d, sizeof(gio));
	if (gio.ktr_rw != KTR_UIO_READ && gio.ktr_rw != KTR_UIO_WRITE)
		return -EINVAL;
	n = len - sizeof(gio);
	fprintf(kd->out, "fd %d %s %zu byte%s", gio.ktr_fd,
		gio.ktr_rw == KTR_UIO_READ ? "read" : "wrote", n, n == 1 ? "" : "s");
	if ((kd->o.flags & KD_NOGIO) || n == 0)
		return 0;
	if (kd->o.maxdata > 0 && n > (size_t)kd->o.maxdata)
		n = kd->o.maxdata;
	fputc('\n', kd->out);
	kd_dump_data(kd->out, d + sizeof(gio), n);
	return 0;
}

/* BSD kdump's ktrpsig(): the system's signal names, its 32-bit mask. */
static int pr_psig_bsd(struct kdump *kd, const struct kd_event *ev, const struct ktr_psig *ps)
{
	const char *name = ktr_bsd_signal_name(ev->sv_flags, ps->signo);

	if (name)
		fputs(name, kd->out);
	else
		fprintf(kd->out, "SIG%d", ps->signo);
	if (ps->action == 0)
		fputs(" SIG_DFL", kd->out);
	else if (ps->action == 1)
		fputs(" SIG_IGN", kd->out);
	else
		fprintf(kd->out, " caught handler=0x%llx mask=0x%x", (unsigned long long)ps->action,
			ps->mask[0]);
	fprintf(kd->out, " code=%d", ps->code);
	return 0;
}

static int pr_psig(struct kdump *kd, const struct kd_event *ev)
{
	const unsigned char *d = ev->data;
	size_t len = ev->len;
	const char *name, *code;
	struct ktr_psig ps;

	if (len != sizeof(ps))
		return -EINVAL;
	memcpy(&ps, d, sizeof(ps));
	if (ktr_bsd_abi(ev->sv_flags))
		return pr_psig_bsd(kd, ev, &ps);
	name = ktr_signal_name(ps.signo);
	if (name)
		fputs(name, kd->out);
	else
		fprintf(kd->out, "SIG%d", ps.signo);
	if (ps.action == 0)
		fputs(" SIG_DFL", kd->out);
	else if (ps.action == 1)
		fputs(" SIG_IGN", kd->out);
	else
		/* Linux sigset_t is 64 bits, in mask[0] (low) and mask[1] */
		fprintf(kd->out, " caught handler=0x%llx mask=0x%llx",
			(unsigned long long)ps.action,
			(unsigned long long)ps.mask[1] << 32 | ps.mask[0]);
	code = ktr_sigcode_name(ps.signo, ps.code);
	if (code)
		fprintf(kd->out, " code=%s", code);
	else
		fprintf(kd->out, " code=%d", ps.code);
	return 0;
}

static int pr_csw(struct kdump *kd, const struct kd_event *ev)
{
	const unsigned char *d = ev->data;
	size_t len = ev->len;
	struct ktr_csw cs;

	/* FreeBSD tells the two layouts apart by size (ktr_csw_old) */
	if (len != sizeof(cs) && len != CSW_OLD_LEN)
		return -EINVAL;
	memset(&cs, 0, sizeof(cs));
	memcpy(&cs, d, len);
	fprintf(kd->out, "%s %s", cs.out ? "stop" : "resume", cs.user ? "user" : "kernel");
	if (len == sizeof(cs) && cs.wmesg[0]) {
		fputc(' ', kd->out);
		kd_putquoted(kd->out, (const unsigned char *)cs.wmesg,
			     strnlen(cs.wmesg, sizeof(cs.wmesg)));
	}
	return 0;
}

static int pr_struct(struct kdump *kd, const struct kd_event *ev)
{
	const unsigned char *d = ev->data;
	size_t len = ev->len;
	const unsigned char *nul = memchr(d, '\0', len);
	size_t i, nl;

	if (!nul || nul == d)
		return -EINVAL;
	nl = nul - d;
	for (i = 0; i < nl; i++)
		if (d[i] < 0x20 || d[i] > 0x7e)
			return -EINVAL;
	if (ktr_bsd_abi(ev->sv_flags)) {
		/* another system's structure: its name and bytes, not Linux's fields */
		fprintf(kd->out, "struct %.*s, %zu bytes", (int)nl, (const char *)d, len - nl - 1);
		if (!(kd->o.flags & KD_NOGIO) && len - nl - 1 > 0) {
			fputc('\n', kd->out);
			kd_dump_data(kd->out, d + nl + 1, len - nl - 1);
		}
		return 0;
	}
	ktr_print_struct(kd->out, (const char *)d, d + nl + 1, len - nl - 1, kd->o.decode);
	return 0;
}

/* ARGS, ENVS: NUL-separated strings, the last NUL optional. */
static int pr_strings(struct kdump *kd, const struct kd_event *ev)
{
	const unsigned char *d = ev->data;
	size_t len = ev->len;
	const unsigned char *end = d + len, *nul;

	while (d < end) {
		nul = memchr(d, '\0', end - d);
		if (!nul)
			nul = end;
		kd_putquoted(kd->out, d, nul - d);
		d = nul + 1;
		if (d < end)
			fputs(", ", kd->out);
	}
	return 0;
}

static int pr_exit(struct kdump *kd, const struct kd_event *ev)
{
	const unsigned char *d = ev->data;
	size_t len = ev->len;
	struct ktr_exit ex;
	const char *sig;

	if (len != sizeof(ex))
		return -EINVAL;
	memcpy(&ex, d, sizeof(ex));
	if (WIFEXITED(ex.status)) {
		fprintf(kd->out, "exited %d", WEXITSTATUS(ex.status));
	} else if (WIFSIGNALED(ex.status)) {
		sig = ktr_signal_name(WTERMSIG(ex.status));
		if (sig)
			fprintf(kd->out, "killed by %s", sig);
		else
			fprintf(kd->out, "killed by SIG%d", WTERMSIG(ex.status));
		if (WCOREDUMP(ex.status))
			fputs(" (core dumped)", kd->out);
	} else {
		fprintf(kd->out, "status %#x", (unsigned int)ex.status);
	}
	return 0;
}

static int pr_lost(struct kdump *kd, const struct kd_event *ev)
{
	if (!ev->valid)
		return -EINVAL;
	if (ev->h->ktr_flags & KTRH_SYSWIDE) /* one CPU's buffer (ktraceb -S) */
		fprintf(kd->out, "%llu records lost on CPU %d (%llu in all there)",
			(unsigned long long)ev->lost.lost, KTRH_CPUID_DECODE(ev->h->ktr_flags),
			(unsigned long long)ev->lost.total);
	else
		fprintf(kd->out, "%llu records lost (%llu in all)",
			(unsigned long long)ev->lost.lost, (unsigned long long)ev->lost.total);
	return 0;
}

static int pr_fileinfo(struct kdump *kd, const struct kd_event *ev)
{
	const unsigned char *d = ev->data;
	size_t len = ev->len;
	struct ktr_fileinfo fi;

	/* a later format may append fields: only the known prefix is read */
	if (len < sizeof(fi))
		return -EINVAL;
	memcpy(&fi, d, sizeof(fi));
	if (memcmp(fi.fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC)) != 0)
		return -EINVAL;
	fprintf(kd->out, "ktraceb format %u, ", fi.fi_version);
	kd_putesc(kd->out, (const unsigned char *)fi.fi_machine,
		  strnlen(fi.fi_machine, sizeof(fi.fi_machine)));
	fputs(", kernel ", kd->out);
	kd_putesc(kd->out, (const unsigned char *)fi.fi_release,
		  strnlen(fi.fi_release, sizeof(fi.fi_release)));
	return 0;
}

/* A recorder's dump (ktraceb -R): what it recovered, and why it was written. */
static int pr_flight(struct kdump *kd, const struct kd_event *ev)
{
	struct ktr_flight_info fi;

	if (ev->len < sizeof(fi))
		return -EINVAL;
	memcpy(&fi, ev->data, sizeof(fi));
	if (fi.kf_part == KTR_FLIGHT_LAST_PER_CPU) {
		fprintf(kd->out, "last recorded per-CPU events: %llu",
			(unsigned long long)fi.kf_kept);
		return 0;
	}
	if (fi.kf_part != KTR_FLIGHT_RING || fi.kf_kept > fi.kf_produced)
		return -EINVAL;
	fprintf(kd->out, "recovered %llu/%llu entries", (unsigned long long)fi.kf_kept,
		(unsigned long long)fi.kf_produced);
	if (fi.kf_out_of_order)
		fprintf(kd->out, ", %llu out of order", (unsigned long long)fi.kf_out_of_order);
	if (fi.kf_compact)
		fputs(", compact", kd->out);
	if (fi.kf_why == KTR_FLIGHT_CRASH && WIFSIGNALED(fi.kf_status)) {
		const char *sig = ktr_signal_name(WTERMSIG(fi.kf_status));

		fprintf(kd->out, ": pid %d killed by ", fi.kf_pid);
		if (sig)
			fputs(sig, kd->out);
		else
			fprintf(kd->out, "SIG%d", WTERMSIG(fi.kf_status));
	} else if (fi.kf_why == KTR_FLIGHT_EXIT && WIFEXITED(fi.kf_status)) {
		fprintf(kd->out, ": pid %d exited %d", fi.kf_pid, WEXITSTATUS(fi.kf_status));
	} else if (fi.kf_why == KTR_FLIGHT_DEMAND) {
		fputs(": on demand", kd->out);
	}
	return 0;
}

/* One record type a line. */
/* clang-format off */
static const struct {
	const char *tag;
	printer_fn print;
} printers[KTR_TYPE_MAX + 1] = {
	[KTR_SYSCALL] =		{ "CALL", pr_syscall },
	[KTR_SYSRET] =		{ "RET ", pr_sysret },
	[KTR_NAMEI] =		{ "NAMI", pr_namei },
	[KTR_GENIO] =		{ "GIO ", pr_genio },
	[KTR_PSIG] =		{ "PSIG", pr_psig },
	[KTR_CSW] =		{ "CSW ", pr_csw },
	[KTR_USER] =		{ "USER", kd_print_user },
	[KTR_STRUCT] =		{ "STRU", pr_struct },
	[KTR_ARGS] =		{ "ARGS", pr_strings },
	[KTR_ENVS] =		{ "ENVS", pr_strings },
	[KTR_FILEINFO] =	{ "INFO", pr_fileinfo },
	[KTR_LOST] =		{ "LOST", pr_lost },
	[KTR_EXIT] =		{ "EXIT", pr_exit },
	[KTR_FLIGHT] =		{ "RING", pr_flight },
	[KTR_TRACEPOINT] =	{ "TRACE", kd_tp__print },
};
/* clang-format on */

/* --- line prefix -------------------------------------------------------- */

static void print_ns(FILE *out, __s64 ns)
{
	__u64 a = ns < 0 ? -(__u64)ns : (__u64)ns;

	fprintf(out, "%s%llu.%09llu ", ns < 0 ? "-" : "", (unsigned long long)(a / 1000000000),
		(unsigned long long)(a % 1000000000));
}

static void print_times(struct kdump *kd, const struct ktr_header *h)
{
	unsigned int f = kd->o.flags;
	__s64 ns;

	if (!(f & (KD_ABSTIME | KD_ELAPSED | KD_RELTIME)))
		return;
	ns = kd_event__ns(kd, h);
	if (!kd->have_first) {
		kd->have_first = 1;
		kd->first_ns = kd->prev_ns = ns;
	}
	if (f & KD_ABSTIME)
		print_ns(kd->out, kd_event__wall_ns(kd, h));
	if (f & KD_ELAPSED)
		print_ns(kd->out, (__s64)((__u64)ns - (__u64)kd->first_ns));
	if (f & KD_RELTIME)
		print_ns(kd->out, (__s64)((__u64)ns - (__u64)kd->prev_ns));
	kd->prev_ns = ns;
}

static void print_prefix(struct kdump *kd, const struct ktr_header *h)
{
	char comm[KTR_MAXCOMLEN + 1];
	int i;

	/* comm is untrusted: stop at NUL or 16 bytes, and keep the columns readable */
	for (i = 0; i < KTR_MAXCOMLEN && h->ktr_comm[i]; i++)
		comm[i] = h->ktr_comm[i] >= 0x20 && h->ktr_comm[i] < 0x7f ? h->ktr_comm[i] : '?';
	comm[i] = '\0';
	if (kd->o.flags & KD_TIDCOL)
		fprintf(kd->out, "%6d %6d", h->ktr_pid, h->ktr_tid);
	else
		fprintf(kd->out, "%5d:%-5d", h->ktr_pid, h->ktr_tid);
	if (kd->o.flags & KD_CPU)
		fprintf(kd->out, " %2d", KTRH_CPUID_DECODE(h->ktr_flags));
	fprintf(kd->out, " %-8s ", comm);
	print_times(kd, h);
}

/* --- dispatch ------------------------------------------------------------- */

static bool visible(const struct kdump *kd, const struct ktr_header *h)
{
	int type = h->ktr_type;

	if (type == KTR_LOST || type == KTR_FLIGHT)
		return true; /* what the file misses is always said */
	if ((kd->o.flags & KD_TRSEL) &&
	    (type <= 0 || type > KTR_TYPE_MAX ||
	     !((unsigned int)kd->o.trpoints &
	       (type == KTR_TRACEPOINT ? KTRFAC_TRACEPOINT : 1u << type))))
		return false;
	if ((kd->o.flags & KD_PIDSEL) && h->ktr_pid != kd->o.pid && h->ktr_tid != kd->o.pid)
		return false;
	return true;
}

/* The text printer of a record type and its tag, or NULL where the text shows none. */
static printer_fn printer_of(const struct kdump *kd, int type, const char **tag)
{
	printer_fn bsd = kd->fmt.sys != KD_SYS_KTRACEB ? kd_bsd_printer(type, tag) : NULL;

	if (bsd)
		return bsd;
	if (type <= 0 || type > KTR_TYPE_MAX || !printers[type].print)
		return NULL;
	*tag = printers[type].tag;
	return printers[type].print;
}

const char *kd_print_tag(const struct kdump *kd, int type)
{
	const char *tag = NULL;

	return printer_of(kd, type, &tag) ? tag : NULL;
}

int kd_print_body(struct kdump *kd, const struct kd_event *ev, FILE *out)
{
	const char *tag;
	printer_fn print = printer_of(kd, ev->h->ktr_type, &tag);
	FILE *saved = kd->out;
	int err;

	if (!print)
		return -ENOENT;
	kd->out = out;
	err = print(kd, ev);
	kd->out = saved;
	return err ? -EINVAL : 0;
}

static void print_record(struct kdump *kd, const struct kd_event *ev)
{
	int type = ev->h->ktr_type;
	const char *tag;
	printer_fn print = printer_of(kd, type, &tag);

	print_prefix(kd, ev->h);
	if (!print) {
		fprintf(kd->out, "UNKNOWN(%d)\n", type);
	} else {
		fprintf(kd->out, "%s  ", tag);
		if (print(kd, ev)) {
			fputs("invalid record", kd->out);
			kd->ninvalid++;
		}
		fputc('\n', kd->out);
	}
	if (kd->o.flags & KD_FOLLOW)
		fflush(kd->out);
}

#define JOIN_MAX (64u << 20) /* most bytes of one joined argv or envp */

/* Print the ARGS/ENVS being joined, if any, as one record with its first piece's header. */
static void join__flush(struct kdump *kd)
{
	struct kd_event ev = { 0 };

	if (!kd->join.len)
		return;
	kd->join.hdr.ktr_len = kd->join.len;
	ev.h = &kd->join.hdr;
	ev.data = kd->join.buf;
	ev.len = kd->join.len;
	print_record(kd, &ev);
	kd->join.len = 0;
}

/*
 * ARGS/ENVS split over KTR_STRINGS_CHUNK-byte records (ktr.h): keep the
 * pieces and print one line when the last, shorter, piece arrives.
 * Returns true when the record was taken into the join.
 */
static bool join__take(struct kdump *kd, const struct kd_event *ev)
{
	const struct ktr_header *h = ev->h;
	bool same = kd->join.len && kd->join.hdr.ktr_tid == h->ktr_tid &&
		    kd->join.hdr.ktr_type == h->ktr_type;
	size_t len = ev->len;
	unsigned char *buf;

	if (kd->join.len && !same)
		join__flush(kd);
	if ((h->ktr_type != KTR_ARGS && h->ktr_type != KTR_ENVS) ||
	    (!same && len != KTR_STRINGS_CHUNK) || kd->join.len + len > JOIN_MAX)
		return false;
	buf = realloc(kd->join.buf, kd->join.len + len);
	if (!buf)
		return false;
	kd->join.buf = buf;
	if (!kd->join.len)
		kd->join.hdr = *h;
	memcpy(buf + kd->join.len, ev->data, len);
	kd->join.len += len;
	if (len != KTR_STRINGS_CHUNK)
		join__flush(kd);
	return true;
}

static int text__event(struct kdump *kd, const struct kd_event *ev)
{
	int type = ev->h->ktr_type;

	if (type > 0 && type <= KTR_TYPE_MAX && !kd_print_tag(kd, type))
		return 0; /* PROCCTOR, PROCDTOR, and types DragonFly kdump skips */
	if (!join__take(kd, ev))
		print_record(kd, ev);
	return 0;
}

static int text__finish(struct kdump *kd)
{
	join__flush(kd);
	return 0;
}

const struct kd_sink kd_sink_text = { text__event, text__finish };

/* The pipeline: every record through the event pass, the visible ones on to the sink. */
int kdump__record(struct kdump *kd, const struct ktr_header *h, const void *data)
{
	struct kd_event ev;
	int err;

	err = kd_event__decode(kd, h, data, &ev);
	if (err)
		return err;
	if (!visible(kd, h))
		return 0;
	return kd->sink->event(kd, &ev);
}

void kdump__set_format(struct kdump *kd, const struct kd_bsd_fmt *fmt)
{
	char desc[128];

	kd->fmt = *fmt;
	kd->have_fmt = 1;
	if (fmt->sys == KD_SYS_KTRACEB)
		return;
	kd->sv_default = fmt->sv_flags;
	if (kd->sink != &kd_sink_text)
		return;
	/* what ktraceb's INFO record says of its file, said of this one */
	kd_bsd__describe(fmt, desc, sizeof(desc));
	if (kd->o.flags & KD_TIDCOL)
		fprintf(kd->out, "%6d %6d", 0, 0);
	else
		fprintf(kd->out, "%5d:%-5d", 0, 0);
	if (kd->o.flags & KD_CPU)
		fprintf(kd->out, " %2d", 0);
	fprintf(kd->out, " %-8s INFO  %s\n", "kdump", desc);
}

int kdump__run(struct kdump *kd, struct ktr_reader *r)
{
	struct ktr_record rec;
	int err;

	while ((err = ktr_reader__next(r, &rec)) > 0) {
		if (!kd->have_fmt)
			kdump__set_format(kd, ktr_reader__format(r));
		err = kdump__record(kd, &rec.hdr, rec.data);
		if (err)
			return err;
	}
	return err;
}

int kdump__finish(struct kdump *kd)
{
	return kd->sink->finish(kd);
}
