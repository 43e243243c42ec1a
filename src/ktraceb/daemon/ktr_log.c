// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The daemon's messages (ktr_log.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "build_id.h"
#include "common/ktr_proto.h"
#include "ktr_log.h"

static int log_fd = -1;
static char log_path[512];
static off_t log_size;

/* Is dir uid's own, and nobody else's to write in? */
static bool log__dir_ok(const char *dir, uid_t uid)
{
	struct stat st;

	return dir && dir[0] == '/' && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == uid && !(st.st_mode & 022);
}

/* The log file at log_path, appended to; a regular file of ours alone, or none. */
static void log__reopen(void)
{
	struct stat st;

	if (log_fd >= 0)
		close(log_fd);
	log_fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK,
		      0600);
	if (log_fd < 0)
		return;
	if (fstat(log_fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		close(log_fd);
		log_fd = -1;
		return;
	}
	log_size = st.st_size;
}

/* Past KTR_LOG_MAX: the file kept as .old, a new one begun. */
static void log__rotate(void)
{
	char old[sizeof(log_path) + 8];

	snprintf(old, sizeof(old), "%s.old", log_path);
	if (rename(log_path, old) == 0)
		log__reopen();
}

void ktr_log__open(bool shared, uid_t owner)
{
	const char *dir = shared ? KTR_RUN_DIR : getenv("XDG_RUNTIME_DIR");

	log_path[0] = '\0';
	if (!log__dir_ok(dir, shared ? 0 : owner))
		return;
	if (shared)
		snprintf(log_path, sizeof(log_path), KTR_LOG_SHARED_FMT, KTRACEB_BUILD_ID);
	else
		snprintf(log_path, sizeof(log_path), "%s/ktraceb-%s.log", dir, KTRACEB_BUILD_ID);
	log__reopen();
	if (log_fd < 0)
		log_path[0] = '\0';
	else if (log_size > KTR_LOG_MAX)
		log__rotate();
}

void ktr_log__close(void)
{
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}

const char *ktr_log__path(void)
{
	return log_fd >= 0 ? log_path : "";
}

/*
 * raw (n bytes) as one line of text in out: a user chooses some of it (a
 * trace file's name), so no byte of it may start a line of its own or
 * steer a terminal.  A newline is "\n", any other control byte (below
 * 0x20, and 0x7f) "\xNN", and the backslash "\\", so that the escaped
 * line reads back as the bytes it stands for.
 */
static void log__escape(const char *raw, size_t n, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 <= size; i++) {
		unsigned char c = raw[i];

		if (c == '\n' || c == '\\') {
			out[o++] = '\\';
			out[o++] = c == '\n' ? 'n' : '\\';
		} else if (c < 0x20 || c == 0x7f) {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
}

void ktr_log(int prio, const char *fmt, ...)
{
	char raw[1024], line[4 * sizeof(raw)], stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	va_list ap;
	int n, k;

	va_start(ap, fmt);
	n = vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(raw))
		n = sizeof(raw) - 1;
	while (n > 0 && raw[n - 1] == '\n')
		n--;
	/* the one place the log is written: whatever a message holds, it stays one line */
	log__escape(raw, n, line, sizeof(line));
	syslog(prio, "%s", line);
	if (log_fd < 0)
		return;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	k = dprintf(log_fd, "%s ktracebd[%d]: %s\n", stamp, (int)getpid(), line);
	if (k > 0)
		log_size += k;
	if (log_size > KTR_LOG_MAX)
		log__rotate();
}
