// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include "decode.h"
#include "kdump_fmt.h"

void kd_fmt_scname(char *buf, size_t size, unsigned int sv_flags, int code, bool sysnr)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	if (!name)
		snprintf(buf, size, "[%d]", code);
	else if (sysnr)
		snprintf(buf, size, "%s[%d]", name, code);
	else
		snprintf(buf, size, "%s", name);
}

void kd_put_scname(FILE *out, unsigned int sv_flags, int code, bool sysnr)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	if (!name) {
		fprintf(out, "[%d]", code);
		return;
	}
	fputs(name, out);
	if (sysnr)
		fprintf(out, "[%d]", code);
}

void kd_fmt_ns(char *buf, size_t size, __u64 ns)
{
	static const struct {
		__u64 div;
		const char *unit;
	} units[] = { { 1000000000ull, "s" }, { 1000000ull, "ms" }, { 1000ull, "us" } };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double v = (double)ns / units[i].div;

		if (ns < units[i].div)
			continue;
		/* three significant digits at most: 1.25ms, 48.2ms, 839ms */
		snprintf(buf, size,
			 v < 10	 ? "%.2f%s" :
			 v < 100 ? "%.1f%s" :
				   "%.0f%s",
			 v, units[i].unit);
		return;
	}
	snprintf(buf, size, "%lluns", (unsigned long long)ns);
}

void kd_fmt_comm(char comm[KTR_MAXCOMLEN + 1], const struct ktr_header *h)
{
	int i;

	/* keep the columns readable */
	for (i = 0; i < KTR_MAXCOMLEN && h->ktr_comm[i]; i++)
		comm[i] = h->ktr_comm[i] >= 0x20 && h->ktr_comm[i] < 0x7f ? h->ktr_comm[i] : '?';
	comm[i] = '\0';
}

const char *kd_fmt_end_why(__u32 why, bool key)
{
	static const char *const words[KTR_END_MAX + 1][2] = {
		[KTR_END_EXITED] = { "every traced process exited", "exited" },
		[KTR_END_CLEARED] = { "cleared", "cleared" },
		[KTR_END_STOPPED] = { "stopped by its ktraceb", "stopped" },
		[KTR_END_WRITE_ERROR] = { "the file took no more records", "write_error" },
		[KTR_END_REMOVED] = { "the file was removed", "removed" },
		[KTR_END_DAEMON] = { "the ktraceb daemon was stopped", "daemon_stopped" },
		[KTR_END_RING] = { "the ring buffer failed", "ring_failed" },
		[KTR_END_KILLED] = { "the ktraceb daemon writing it was killed", "daemon_killed" },
	};

	return why <= KTR_END_MAX ? words[why][key] : NULL;
}

void kd_put_duration(FILE *out, __u64 ns)
{
	fprintf(out, " <%llu.%06llu>", (unsigned long long)(ns / 1000000000),
		(unsigned long long)(ns % 1000000000 / 1000));
}
