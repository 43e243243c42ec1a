// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "ktraceb/bpf_flight_flags.h"
#include "ktraceb/bpf_select.h"
#include "ktraceb/bpf_ustack.h"
#include "common/ktr_arch.h"
#include "common/ktr_tracefs.h"
#include "ktr_options.h"
#include "ktr_usdt_list.h"
#include "trstr.h"

#define DEF_TRACEFILE  "ktrace.out"
#define DEF_RING_BYTES (16u << 20)

static void usage_text(FILE *f)
{
	fprintf(f,
		"usage: ktraceb [-aCcdFivz] [-b bufsize] [-f trfile] [-g pgrp | -p pid] [-s iosize] "
		"[-t trstr]\n"
		"       ktraceb [-acFz] [-b bufsize] [-f trfile] [-s iosize] [-t trstr] -G group\n"
		"       ktraceb [-adivz] [-b bufsize] [-f trfile] [-s iosize] [-t trstr] "
		"command [args ...]\n"
		"       ktraceb -R size[,compact][,exit] [other options as above]\n"
		"       ktraceb -D [-f trfile]\n"
		"       ktraceb -e subsys:event ... (with either form above); ktraceb -e list\n"
		"       ktraceb -e usdt:provider[:name] ... (with either form above)\n"
		"       ktraceb -e usdt:list [-e usdt:pattern ...] -p pid | program\n"
		"       ktraceb -S -e subsys:event ... [-f trfile] [command [args ...]]\n");
}

static void usage(void)
{
	usage_text(stderr);
	exit(EX_USAGE);
}

static void help(void)
{
	usage_text(stdout);
	printf("       ktraceb -e trace=SET -e status=SET -Z -k -K size (with either of the first "
	       "two)\n");
	printf("\ntrstr letters (default cnisu, as BSD):\n");
	for (unsigned int i = 0; i < ktr_ntrpoints; i++)
		if (ktr_trpoints[i].letter != '\0')
			printf("  %c  %s\n", ktr_trpoints[i].letter, ktr_trpoints[i].help);
	printf("\n-R size[,compact][,exit]: record into a ring of size bytes (k, m, g) in\n"
	       "memory; write it to trfile when a traced process dumps core (or, with\n"
	       "exit, exits non-zero), or on ktraceb -D -f trfile.  compact keeps only\n"
	       "each syscall's return, for a longer history.\n"
	       "\n-e subsys:event: also record the kernel tracepoint subsys:event (globs\n"
	       "such as sched:* too; repeatable) each time it fires in a traced process;\n"
	       "-e list lists this kernel's events.\n"
	       "\n-e usdt:provider[:name]: also arm those USDT probes (globs: usdt:python:*,\n"
	       "usdt:*; repeatable; implies u), runtimes' and libraries' (python, libstdcxx,\n"
	       "node...); those known to fire at high rates are said when armed.  -e\n"
	       "usdt:list lists the probes of -p pid's files or of a program, and exits.\n"
	       "\n-e trace=SET, -e status=SET: record only the system calls SET names,\n"
	       "in strace's language: names, %%file %%process %%network %%signal %%ipc\n"
	       "%%desc %%memory %%creds %%clock %%stat %%fstat %%lstat %%statfs %%pure, /regex,\n"
	       "?name (no error if unknown), !SET, all, none; status=successful,\n"
	       "failed, all.  Chosen in the kernel: the others cost next to nothing.\n"
	       "-Z: -e status=failed.\n"
	       "\n-k: each recorded call's user stack (-t c): the registers and the top\n"
	       "-K size bytes of the stack (default 8k, at most 64k; 0: the kernel's\n"
	       "frame-pointer walk only), with where each object is mapped and its\n"
	       "build id, for kdump to unwind by DWARF and name the functions.\n"
	       "\n-S: system-wide (root): the -e events of every task on every CPU, with\n"
	       "the CPU in each record (kdump -c); for the command's life, or without one\n"
	       "until ktraceb -c -f trfile or ktraceb -C.\n"
	       "\n-G group: every process of a cgroup (v2) and of its sub-groups, now\n"
	       "and each that enters it later, until ktraceb -c -G group: a path\n"
	       "(/sys/fs/cgroup/system.slice/nginx.service, /system.slice/nginx.service),\n"
	       "a directory's name in the hierarchy, or a systemd unit (nginx.service).\n"
	       "\n-z: write the trace gzip-compressed; kdump reads it as it is.\n"
	       "\nSee ktraceb(1) and kdump(1).\n");
	exit(0);
}

/* A size with an optional k/m/g suffix, within [min, max]; -1 if malformed. */
static long long parse_size(const char *s, long long min, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s || v < 0)
		return -1;
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	else if (*end == 'g' || *end == 'G')
		v <<= 30, end++;
	if (*end != '\0' || v < min || v > max)
		return -1;
	return v;
}

/* -R size[,compact][,exit] */
static void parse_recorder(const char *arg, struct ktr_options *o)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	long long v;

	if (!copy)
		errx(EX_OSERR, "out of memory");
	tok = strtok_r(copy, ",", &save);
	v = tok ? parse_size(tok, KTR_FLIGHT_MIN_BYTES, KTR_FLIGHT_MAX_BYTES) : -1;
	if (v < 0)
		errx(EX_USAGE, "bad recorder size %s: 64k to 4g", arg);
	o->flight_bytes = v;
	while ((tok = strtok_r(NULL, ",", &save))) {
		if (strcmp(tok, "compact") == 0)
			o->flight_flags |= KTR_FLIGHT_F_COMPACT;
		else if (strcmp(tok, "exit") == 0)
			o->flight_flags |= KTR_FLIGHT_F_ON_EXIT;
		else
			errx(EX_USAGE, "bad recorder option %s: compact or exit", tok);
	}
	free(copy);
}

/* -e trace=SET / status=SET: strace's syscall selection, with the host's tables */
static void parse_select(const char *arg, struct ktr_options *o)
{
	struct ktr_select_abi native = { ktr_arch_host.native, *ktr_arch_host.nnative };
	struct ktr_select_abi compat = { ktr_arch_host.compat,
					 ktr_arch_host.compat ? *ktr_arch_host.ncompat : 0 };
	const char *why;

	if (ktr_select__add(&o->select, arg, &native, &compat, &why) < 0)
		errx(EX_USAGE, "-e %s: %s", arg, why);
}

/* -e usdt:PROVIDER[:NAME] (globs too), -e usdt:list */
static void parse_usdt(const char *arg, struct ktr_options *o)
{
	const char *spec = arg + strlen(KTR_USDT_SEL_ARG), *why;

	if (strcmp(spec, "list") == 0) {
		o->list_usdt = true;
		return;
	}
	if (ktr_usdt_sel__add(o->usdt, sizeof(o->usdt), spec, &why) < 0)
		errx(EX_USAGE, "-e %.*s: %s", KTR_USDT_SEL_TEXT, arg, why);
}

/*
 * -e subsys:event (a glob too), -e list, a syscall selection (trace=,
 * status=), or USDT probes (usdt:...: no kernel subsystem is named usdt)
 */
static void parse_event(const char *arg, struct ktr_options *o)
{
	const char *why;

	if (ktr_select__is_arg(arg)) {
		parse_select(arg, o);
		return;
	}
	if (strncmp(arg, KTR_USDT_SEL_ARG, strlen(KTR_USDT_SEL_ARG)) == 0) {
		parse_usdt(arg, o);
		return;
	}
	if (strcmp(arg, "list") == 0) {
		o->list_events = true;
		return;
	}
	if (!ktr_tracefs__name_ok(arg, true, &why))
		errx(EX_USAGE, "-e %.*s: %s", KTR_TP_NAME_MAX, arg, why);
	if (o->nevents >= KTR_TP_REQ_MAX)
		errx(EX_USAGE, "-e: at most %d event names (globs match more)", KTR_TP_REQ_MAX);
	strcpy(o->events[o->nevents++], arg);
}

/* -e list: this kernel's events, as tracefs lists them. */
static int list_events(void)
{
	const char *why = NULL, *dir = ktr_tracefs__dir(&why);
	FILE *f = dir ? ktr_tracefs__events(dir, &why) : NULL;
	char line[256];

	if (!f)
		errx(EX_UNAVAILABLE, "-e list: %s", why);
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	fclose(f);
	return 0;
}

static pid_t parse_id(const char *s, int sign)
{
	long long v = parse_size(s, 1, 0x7fffffff);

	if (v < 0 || strpbrk(s, "kKmMgG"))
		errx(EX_USAGE, "invalid process or group id %s", s);
	return sign * (pid_t)v;
}

/* The letters that only switch something on; false if ch is none of them. */
static bool parse_flag(int ch, struct ktr_options *o)
{
	switch (ch) {
	case 'a':
		o->append = true;
		break;
	case 'C':
		o->clear_all = true;
		break;
	case 'c':
		o->clear = true;
		break;
	case 'd':
		o->descend = true;
		break;
	case 'D':
		o->dump = true;
		break;
	case 'F':
		o->foreground = true;
		break;
	case 'i':
		o->facs |= KTRFAC_INHERIT;
		break;
	case 'k':
		o->ustack = true;
		break;
	case 'S':
		o->syswide = true;
		break;
	case 'v':
		o->bpf.verbose = true;
		break;
	case 'z':
		o->gzip = true;
		break;
	case 'Z':
		parse_select("status=failed", o);
		break;
	default:
		return false;
	}
	return true;
}

static void parse_opt(int ch, struct ktr_options *o)
{
	long long v;

	if (parse_flag(ch, o))
		return;
	switch (ch) {
	case 'b':
		v = parse_size(optarg, 4096, 1LL << 30);
		if (v < 0 || (v & (v - 1)))
			errx(EX_USAGE, "bad ring buffer size %s: a power of two, 4k to 1g", optarg);
		o->bpf.ring_bytes = v;
		o->ring_given = true;
		break;
	case 'e':
		parse_event(optarg, o);
		break;
	case 'f':
		o->tracefile = optarg;
		break;
	case 'G':
		if (o->group)
			errx(EX_USAGE, "only one -G flag is permitted");
		o->group = optarg;
		break;
	case 'g':
	case 'p':
		if (o->pid)
			errx(EX_USAGE, "only one -g or -p flag is permitted");
		o->pid = parse_id(optarg, ch == 'p' ? 1 : -1);
		break;
	case 'R':
		parse_recorder(optarg, o);
		break;
	case 'h':
		help();
		break;
	case 'K':
		v = parse_size(optarg, 0, KTR_USTACK_KIB_MAX * 1024);
		if (v < 0)
			errx(EX_USAGE, "bad stack copy size %s: 0 to %dk", optarg,
			     KTR_USTACK_KIB_MAX);
		o->ustack_kib = (v + 1023) / 1024;
		o->ustack = true;
		break;
	case 's':
		v = parse_size(optarg, 0, KTR_IOSIZE_MAX);
		if (v < 0)
			errx(EX_USAGE, "bad I/O capture size %s: 0 to 64k", optarg);
		o->iosize = v;
		break;
	case 't':
		v = ktr_getpoints(optarg);
		if (v < 0) {
			warnx("unknown facility in %s", optarg);
			usage();
		}
		o->facs = (o->facs & KTRFAC_INHERIT) | v;
		o->facs_given = true;
		break;
	default:
		usage();
	}
}

void ktr_options__parse_activated(int argc, char **argv, struct ktr_options *o)
{
	int ch;

	o->bpf.ring_bytes = DEF_RING_BYTES;
	while ((ch = getopt(argc, argv, "b:v")) != -1)
		parse_opt(ch, o);
}

void ktr_options__request_select(const struct ktr_options *o, struct ktr_request_select *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->usdt, o->usdt, sizeof(out->usdt));
	if (!ktr_select__active(&o->select))
		return;
	out->flags = o->select.calls_given ? KTR_SELECT_F_CALLS : 0;
	out->status = o->select.status == (KTR_SELECT_SUCCESSFUL | KTR_SELECT_FAILED) ?
			      0 :
			      o->select.status;
	memcpy(out->native, o->select.native, sizeof(out->native));
	memcpy(out->compat, o->select.compat, sizeof(out->compat));
	snprintf(out->text, sizeof(out->text), "%s", o->select.text);
}

__u32 ktr_options__say_flags(const struct ktr_options *o)
{
	return (o->facs_given || o->usdt[0] ? 0 : KTR_REQ_DEFAULT_FACS) |
	       (o->bpf.verbose ? KTR_REQ_VERBOSE : 0);
}

/* -e usdt:: for a trace's processes, and it implies 'u'; -e usdt:list lists and exits. */
static void usdt_checks(int argc, char **argv, struct ktr_options *o)
{
	if ((o->usdt[0] || o->list_usdt) && (o->clear || o->clear_all || o->dump || o->syswide))
		errx(EX_USAGE, "-e usdt: names probes to arm: not with -c, -C, -D or -S");
	if (o->usdt[0] && (o->flight_flags & KTR_FLIGHT_F_COMPACT))
		errx(EX_USAGE, "-e usdt: a compact recorder keeps returns and signals only");
	if (o->list_usdt)
		exit(ktr_usdt_list(o, optind < argc ? argv + optind : NULL));
	if (o->usdt[0])
		o->facs |= ktr_facs_that(KTR_FAC_PROBES);
}

void ktr_options__parse(int argc, char **argv, struct ktr_options *o)
{
	int ch;

	o->tracefile = DEF_TRACEFILE;
	o->facs = KTR_DEF_POINTS;
	o->bpf.ring_bytes = DEF_RING_BYTES;
	o->iosize = KTR_IOSIZE_DEFAULT;
	o->ustack_kib = KTR_USTACK_KIB_DEFAULT;
	while ((ch = getopt(argc, argv, "+ab:CcDde:f:Fg:G:hikK:p:R:Ss:t:vzZ")) != -1)
		parse_opt(ch, o);
	if (o->ustack)
		o->facs |= ktr_facs_of_option('k');
	if ((o->ustack || ktr_select__active(&o->select)) && (o->clear || o->clear_all || o->dump))
		errx(EX_USAGE, "-k and syscall selections are for a trace: not with -c, -C or -D");
	if (ktr_facs_unmet(o->facs))
		errx(EX_USAGE, "%s", ktr_facs_unmet(o->facs));
	if (o->list_events)
		exit(list_events());
	usdt_checks(argc, argv, o);
	if (o->nevents)
		o->facs |= ktr_facs_that(KTR_FAC_EVENTS);
	else if ((o->facs & ktr_facs_that(KTR_FAC_EVENTS)) && !o->clear && !o->clear_all)
		errx(EX_USAGE, "-t k: name the kernel events with -e subsys:event");
	if (o->nevents && (o->clear || o->clear_all || o->dump))
		errx(EX_USAGE, "-e names events to record: not with -c, -C or -D");
	if (o->nevents && (o->flight_flags & KTR_FLIGHT_F_COMPACT))
		errx(EX_USAGE, "-e: a compact recorder keeps returns and signals only");
	if (o->syswide && o->flight_bytes)
		errx(EX_USAGE, "-S writes a trace, not a recording: not with -R");
	if (optind < argc)
		o->command = argv + optind;
	if (o->syswide && !o->nevents)
		errx(EX_USAGE, "-S records kernel events system-wide: name them with -e");
	if (o->syswide && (o->ustack || ktr_select__active(&o->select)))
		errx(EX_USAGE, "-S records kernel events: not with -k or a syscall selection");
	if (o->syswide && (o->pid || o->descend || o->foreground || o->append))
		errx(EX_USAGE, "-S: with a command, or alone; not with -p, -g, -d, -F or -a");
	if (o->group && (o->pid || o->command || o->clear_all || o->syswide))
		errx(EX_USAGE, "-G names the processes: not with -p, -g, a command, -C or -S");
	if (o->group && (o->descend || (o->facs & KTRFAC_INHERIT)))
		errx(EX_USAGE,
		     "-G follows the group's processes, forked or moved in: not with -d or -i");
	/* -D: only the file */
	if (o->dump &&
	    (o->pid || o->command || o->clear || o->clear_all || o->flight_bytes || o->gzip))
		usage();
	if (o->dump)
		return;
	if (o->flight_bytes && (o->clear || o->clear_all || o->append))
		errx(EX_USAGE, "-R records for a new file: not with -a, -c or -C");
	if (o->gzip && (o->clear || o->clear_all))
		errx(EX_USAGE, "-z compresses a new trace: not with -c or -C");
	/* the checks FreeBSD's ktrace(1) makes */
	if ((o->pid && o->command) || (o->clear_all && (o->pid || o->clear)) ||
	    (!o->pid && !o->group && !o->clear && !o->clear_all && !o->command && !o->syswide) ||
	    (o->command && (o->clear || o->clear_all)) ||
	    (o->foreground && ((!o->pid && !o->group) || o->clear)))
		usage();
}
