// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Why the kernel refused a BPF program, in one line (ktr_refusal.h): libbpf's
 * warnings pass through here, and the verifier's log in them is kept down to
 * the program's name and the verifier's last words.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "ktr_refusal.h"

static bool refusal_verbose;

/*
 * The last program the kernel refused, and the verifier's reason (the
 * log's last line before its statistics): a failed load says which and
 * why in one line, with or without -v.  Several threads load at once.
 */
static pthread_mutex_t refusal_lock = PTHREAD_MUTEX_INITIALIZER;
static char refused_prog[64];
static char refused_why[160];

/* The verifier's own words in a load log: its last line that is not a statistic. */
static void refusal__from_log(const char *log)
{
	const char *end = strstr(log, "-- END PROG LOAD LOG --"), *line = NULL;

	if (!end)
		end = log + strlen(log);
	for (const char *p = log; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n && strncmp(p, "processed ", 10) != 0 &&
		    strncmp(p, "verification time", 17) != 0 &&
		    strncmp(p, "stack depth", 11) != 0 && strncmp(p, "-- BEGIN", 8) != 0 &&
		    strncmp(p, "libbpf: ", 8) != 0 && !memmem(p, n, "PROG LOAD LOG", 13))
			line = p;
		p += n + 1;
	}
	if (line)
		snprintf(refused_why, sizeof(refused_why), "%.*s", (int)strcspn(line, "\n"), line);
}

static void refusal__note(const char *text)
{
	const char *p = strstr(text, "prog '");

	pthread_mutex_lock(&refusal_lock);
	if (p && (strstr(text, "failed to load") || strstr(text, "load failed"))) {
		p += 6;
		snprintf(refused_prog, sizeof(refused_prog), "%.*s", (int)strcspn(p, "'"), p);
	}
	if (strstr(text, "PROG LOAD LOG"))
		refusal__from_log(text);
	pthread_mutex_unlock(&refusal_lock);
}

static int refusal__print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list copy;

	if (level == LIBBPF_WARN) {
		/* a whole verifier log: its reason is at its end */
		char *text = NULL;

		va_copy(copy, ap);
		if (vasprintf(&text, fmt, copy) >= 0)
			refusal__note(text);
		va_end(copy);
		free(text);
	}
	if (level == LIBBPF_DEBUG && !refusal_verbose)
		return 0;
	if (level != LIBBPF_WARN && !refusal_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

const char *ktr_refusal__say(char *buf, size_t size)
{
	pthread_mutex_lock(&refusal_lock);
	if (refused_prog[0])
		snprintf(buf, size, "the kernel refused the BPF program %s: %s", refused_prog,
			 refused_why[0] ? refused_why :
					  "no reason given (ktraceb -v shows libbpf's log)");
	else
		buf[0] = '\0';
	pthread_mutex_unlock(&refusal_lock);
	return buf[0] ? buf : NULL;
}

void ktr_refusal__clear(void)
{
	pthread_mutex_lock(&refusal_lock);
	refused_prog[0] = refused_why[0] = '\0';
	pthread_mutex_unlock(&refusal_lock);
}

bool ktr_refusal__prog(char *buf, size_t size)
{
	pthread_mutex_lock(&refusal_lock);
	snprintf(buf, size, "%s", refused_prog);
	pthread_mutex_unlock(&refusal_lock);
	return buf[0] != '\0';
}

void ktr_refusal__listen(bool verbose)
{
	refusal_verbose = verbose;
	libbpf_set_print(refusal__print);
}
