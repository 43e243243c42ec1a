// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Visible escaping of strings and the two GIO data layouts: DragonFly's
 * quoted text (dumpstr) and FreeBSD's hexdump, chosen as FreeBSD does.
 */
#include <stdbool.h>

#include "kdump_priv.h"

/* DragonFly folds text at screenwidth - 2; kdump uses a fixed 80 columns. */
#define TEXT_WIDTH   78
#define HEX_PER_LINE 16

static bool is_print(unsigned char c)
{
	return c >= 0x20 && c <= 0x7e;
}

/* One escaped byte into buf (up to 5 bytes with the NUL); its width in columns. */
static int esc_byte(char *buf, unsigned char c)
{
	const char *s = NULL;

	switch (c) {
	case '\n':
		s = "\\n";
		break;
	case '\t':
		s = "\\t";
		break;
	case '\r':
		s = "\\r";
		break;
	case '\\':
		s = "\\\\";
		break;
	case '"':
		s = "\\\"";
		break;
	}
	if (s)
		return snprintf(buf, 5, "%s", s);
	if (is_print(c))
		return snprintf(buf, 5, "%c", c);
	return snprintf(buf, 5, "\\%03o", c);
}

void kd_putesc(FILE *out, const unsigned char *p, size_t len)
{
	char buf[8];
	size_t i;

	for (i = 0; i < len; i++) {
		esc_byte(buf, p[i]);
		fputs(buf, out);
	}
}

void kd_putquoted(FILE *out, const unsigned char *p, size_t len)
{
	fputc('"', out);
	kd_putesc(out, p, len);
	fputc('"', out);
}

/* FreeBSD shows GIO data as text only if every byte is printable or one of these. */
static bool is_text(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_print(p[i]) && p[i] != '\n' && p[i] != '\r' && p[i] != '\t' && p[i] != '\0')
			return false;
	return true;
}

/*
 * DragonFly dumpstr(): 7 spaces and a quote; a newline in the data ends the
 * output line and the next one starts with a TAB; long lines fold with "\".
 * Tabs are kept as tabs, as vis(3) does.
 */
static void dump_text(FILE *out, const unsigned char *p, size_t len)
{
	int col = 8, width;
	char buf[8];
	size_t i;

	fputs("       \"", out);
	for (i = 0; i < len; i++) {
		if (col == 0) {
			fputc('\t', out);
			col = 8;
		}
		if (p[i] == '\n') {
			fputc('\n', out);
			col = 0;
			continue;
		}
		if (p[i] == '\t') {
			buf[0] = '\t';
			buf[1] = '\0';
			width = 8 - (col & 7);
		} else if (p[i] == '\0') {
			/* vis(3) VIS_CSTYLE: "\0", or "\000" when an octal digit follows */
			bool digit = i + 1 < len && p[i + 1] >= '0' && p[i + 1] <= '7';

			width = snprintf(buf, sizeof(buf), "%s", digit ? "\\000" : "\\0");
		} else {
			width = esc_byte(buf, p[i]);
		}
		if (col + width > TEXT_WIDTH) {
			fputs("\\\n\t", out);
			col = 8;
		}
		col += width;
		fputs(buf, out);
	}
	if (col == 0)
		fputs("       ", out);
	fputc('"', out);
}

/* FreeBSD hexdump(): "       0x0000 6865 6c6c ...  |hell...|", 16 bytes a line. */
static void dump_hex(FILE *out, const unsigned char *p, size_t len)
{
	size_t n, i;

	for (n = 0; n < len; n += HEX_PER_LINE) {
		if (n)
			fputc('\n', out);
		fprintf(out, "       0x%04zx", n);
		for (i = n; i < n + HEX_PER_LINE; i++) {
			if (i % 2 == 0)
				fputc(' ', out);
			if (i < len)
				fprintf(out, "%02x", p[i]);
			else
				fputs("  ", out);
		}
		fputs("  |", out);
		for (i = n; i < n + HEX_PER_LINE && i < len; i++)
			fputc(is_print(p[i]) ? p[i] : '.', out);
		fputc('|', out);
	}
}

void kd_dump_data(FILE *out, const unsigned char *p, size_t len)
{
	if (is_text(p, len))
		dump_text(out, p, len);
	else
		dump_hex(out, p, len);
}
