// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump: print a ktraceb (DragonFly-layout) trace file.  main() parses the
 * BSD options and maps errors to one-line messages; the reading is in
 * kdump_reader.c and the rest in the pipeline (kdump_pipeline.h),
 * shared with the tests.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "kdump_pipeline.h"
#include "kdump_reader.h"
#include "kdump_select.h"
#include "trstr.h"

#define DEF_TRACEFILE "ktrace.out"

static void usage_line(FILE *f)
{
	fprintf(f, "usage: kdump [-cDdEGHhJlNnPRsSTyYZ] [-e trace=SET|status=SET] [-f trfile|-] "
		   "[-m maxdata] [-p pid] [-t trstr]\n");
}

static void usage(void)
{
	usage_line(stderr);
	exit(1);
}

/* -h: the usage and what each option does, on the standard output. */
static void help(void)
{
	usage_line(stdout);
	fputs("  -c          the CPU of each record\n"
	      "  -D          each call's time on its RET line, as strace -T: <0.000012>\n"
	      "  -d          numbers in decimal\n"
	      "  -E          the time since the first record shown\n"
	      "  -e trace=SET, -e status=SET\n"
	      "              only the system calls SET names, in strace's language\n"
	      "  -f trfile   read trfile (- for the standard input), not ktrace.out\n"
	      "  -G          the span tree instead of the records\n"
	      "  -H          the pid and the tid in two columns\n"
	      "  -h          this help\n"
	      "  -J          JSON lines instead of text (docs/JSON.md)\n"
	      "  -l          follow the file as it grows\n"
	      "  -m maxdata  I/O bytes shown per record (default 64, 0: all)\n"
	      "  -N          pids and tids as seen in their pid namespace (ktraceb -G)\n"
	      "  -n          no decoding: plain numbers\n"
	      "  -P          a Chrome trace-event timeline (Perfetto) instead of text\n"
	      "  -p pid      only the records of this process (or thread)\n"
	      "  -R          the time since the previous record shown\n"
	      "  -S          the syscall number after its name\n"
	      "  -s          no I/O data\n"
	      "  -T          the wall clock time of each record\n"
	      "  -t trstr    only these records:\n",
	      stdout);
	for (unsigned int i = 0; i < ktr_ntrpoints; i++)
		if (ktr_trpoints[i].letter != '\0')
			printf("                %c  %s\n", ktr_trpoints[i].letter,
			       ktr_trpoints[i].records);
	fputs("  -y          each descriptor's file, as strace -y: read(3</etc/hostname>,...);\n"
	      "              -yy also sockets' protocol and addresses\n"
	      "  -Y          a table of the system calls, as strace -c\n"
	      "  -Z          only the calls that failed (-e status=failed)\n"
	      "See kdump(1).\n",
	      stdout);
	exit(0);
}

/* strtol with end and range checks (FreeBSD set_pid_clear), never atoi. */
static int parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || v < min || v > max)
		errx(1, "invalid number %s", s);
	return (int)v;
}

/*
 * -J and -P write data, not columns: the text's layout and time options
 * mean nothing there (-J has every time and the syscall number, -P has no
 * CPU), nor does another view.  -P's document ends at end of file, which
 * -l never reaches.
 */
static void check_json_opts(unsigned int flags)
{
	static const struct {
		unsigned int flag;
		char letter;
		unsigned int not_with; /* KD_JSON, KD_CHROME */
	} opts[] = {
		{ KD_TIDCOL, 'H', KD_JSON | KD_CHROME },
		{ KD_NSPID, 'N', KD_JSON | KD_CHROME },
		{ KD_ABSTIME, 'T', KD_JSON | KD_CHROME },
		{ KD_DURATION, 'D', KD_JSON | KD_CHROME },
		{ KD_FDS, 'y', KD_CHROME },
		{ KD_ELAPSED, 'E', KD_JSON | KD_CHROME },
		{ KD_RELTIME, 'R', KD_JSON | KD_CHROME },
		{ KD_SUMMARY, 'Y', KD_JSON | KD_CHROME },
		{ KD_TREE, 'G', KD_JSON | KD_CHROME },
		{ KD_SYSNR, 'S', KD_JSON },
		{ KD_CPU, 'c', KD_CHROME },
		{ KD_FOLLOW, 'l', KD_CHROME },
		{ KD_CHROME, 'P', KD_JSON },
	};
	unsigned int sink = flags & (KD_JSON | KD_CHROME);

	if (!sink)
		return;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if ((flags & opts[i].flag) && (opts[i].not_with & sink))
			errx(1, "-%c cannot be used with -%c", (sink & KD_JSON) ? 'J' : 'P',
			     opts[i].letter);
}

/* The options that only set a flag. */
static unsigned int flag_of(int ch)
{
	static const struct {
		char letter;
		unsigned int flag;
	} flags[] = {
		{ 'c', KD_CPU },     { 'E', KD_ELAPSED },  { 'G', KD_TREE },   { 'H', KD_TIDCOL },
		{ 'J', KD_JSON },    { 'l', KD_FOLLOW },   { 'P', KD_CHROME }, { 'R', KD_RELTIME },
		{ 'N', KD_NSPID },   { 's', KD_NOGIO },	   { 'S', KD_SYSNR },  { 'T', KD_ABSTIME },
		{ 'Y', KD_SUMMARY }, { 'D', KD_DURATION },
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].letter == ch)
			return flags[i].flag;
	return 0;
}

/* -e trace=SET, -e status=SET, -Z: checked now, made for the trace's machine later */
static void add_select(struct kdump_opts *o, const char *arg)
{
	const char *why = kd_select__check(arg);

	if (why)
		errx(1, "-e %s: %s", arg, why);
	if (o->nselect == KD_SELECT_ARGS_MAX)
		errx(1, "-e %s: at most %d selections", arg, KD_SELECT_ARGS_MAX);
	o->select[o->nselect++] = arg;
}

/*
 * Options that cannot go together, said in one line: -Y prints at end of
 * file, which -l never reaches; -G and -Y are two views of the records.
 */
static void check_pairs(unsigned int flags)
{
	static const struct {
		unsigned int a, b;
		char la, lb;
	} pairs[] = {
		{ KD_SUMMARY, KD_FOLLOW, 'Y', 'l' },
		{ KD_SUMMARY, KD_TREE, 'Y', 'G' },
		{ KD_FDS, KD_TREE, 'y', 'G' },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if ((flags & pairs[i].a) && (flags & pairs[i].b))
			errx(1, "-%c cannot be used with -%c", pairs[i].la, pairs[i].lb);
}

static void parse_args(int argc, char **argv, struct kdump_opts *o, const char **file)
{
	int ch;

	while ((ch = getopt(argc, argv, "cDde:Ef:GhHJlm:Nnp:PRsSTt:yYZ")) != -1) {
		switch (ch) {
		case 'h':
			help();
			break;
		case 'd':
			o->decode |= KTR_DEC_DECIMAL;
			break;
		case 'e':
		case 'Z':
			add_select(o, ch == 'Z' ? "status=failed" : optarg);
			break;
		case 'f':
			*file = optarg;
			break;
		case 'm':
			o->maxdata = parse_num(optarg, 0, INT_MAX);
			break;
		case 'n':
			o->decode |= KTR_DEC_RAW;
			break;
		case 'y': /* -y, then -yy */
			o->flags |= (o->flags & KD_FDS) ? KD_FDS_SOCK : KD_FDS;
			break;
		case 'p':
			o->pid = parse_num(optarg, 0, INT_MAX);
			o->flags |= KD_PIDSEL;
			break;
		case 't':
			o->trpoints = ktr_getpoints(optarg);
			if (o->trpoints < 0)
				errx(1, "unknown trace point in %s", optarg);
			o->flags |= KD_TRSEL;
			break;
		default:
			if (!flag_of(ch))
				usage();
			o->flags |= flag_of(ch);
		}
	}
	if (optind != argc)
		errx(1, "%s: unexpected argument (the trace file is read with -f)", argv[optind]);
	check_json_opts(o->flags);
	check_pairs(o->flags);
}

static void fail(int rc, const char *file, const struct ktr_reader *r)
{
	fflush(stdout);
	switch (rc) {
	case -EBADMSG:
		errx(1, "bogus length 0x%x", (unsigned int)ktr_reader__header(r)->ktr_len);
	case -ENODATA:
		errx(1, "data too short");
	case -ENOEXEC:
		errx(1, "%s: not a dump", file);
	case -EPROTO:
		errx(1, "unknown record type %d", ktr_reader__header(r)->ktr_type);
	case -EPFNOSUPPORT:
		errx(1, "%s: another system's trace: -e and -Z select Linux system calls", file);
	case -EILSEQ:
		errx(1, "%s: corrupt compressed data: %s", file, ktr_reader__gzip_why(r));
	default:
		errno = -rc;
		err(1, "%s", file);
	}
}

int main(int argc, char **argv)
{
	struct kdump_opts o = { .maxdata = KD_MAXDATA_DEFAULT };
	const char *file = DEF_TRACEFILE;
	struct ktr_reader *r;
	struct kdump *kd;
	unsigned long bad;
	FILE *in;
	int rc;

	parse_args(argc, argv, &o, &file);
	in = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	if (!in)
		err(1, "%s", file);
	r = ktr_reader__open(in, (o.flags & KD_FOLLOW) ? KTR_READER_FOLLOW : 0);
	kd = kdump__new(&o, stdout);
	if (!r || !kd)
		err(1, "%s", file);
	if (in != stdin && !(o.flags & KD_FOLLOW))
		kdump__set_path(kd, file);
	rc = kdump__run(kd, r);
	if (rc == 0)
		rc = kdump__finish(kd);
	else if (o.flags & (KD_JSON | KD_CHROME))
		kdump__finish(kd); /* JSON output stays whole up to the error */
	if (rc)
		fail(rc, file, r);
	bad = kdump__ninvalid(kd);
	kdump__free(kd);
	ktr_reader__close(r);
	if (in != stdin)
		fclose(in);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	if (bad)
		errx(1, "%lu invalid record%s", bad, bad == 1 ? "" : "s");
	return 0;
}
