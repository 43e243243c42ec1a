// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Quoted strings and the two GIO data layouts (kdump_data.h).  Data is
 * most of what kdump prints of a trace of I/O: each layout builds its
 * output in a buffer and writes it in large pieces, never a byte at a time.
 */
#include <stdbool.h>
#include <string.h>
#include <linux/types.h>

#include "decode.h"
#include "kdump_data.h"

/* DragonFly folds text at screenwidth - 2; kdump uses a fixed 80 columns. */
#define TEXT_WIDTH   78
#define HEX_PER_LINE 16
#define OUTBUF	     4096

static const char hex[] = "0123456789abcdef";

/* Output gathered, written when nearly full: room for one more piece of 80 bytes. */
struct obuf {
	FILE *out;
	size_t n;
	char b[OUTBUF];
};

static void ob_flush(struct obuf *o)
{
	fwrite(o->b, 1, o->n, o->out);
	o->n = 0;
}

static void ob_put(struct obuf *o, const char *s, size_t n)
{
	if (o->n + n > sizeof(o->b))
		ob_flush(o);
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

static bool is_print(unsigned char c)
{
	return c >= 0x20 && c <= 0x7e;
}

void kd_putquoted(FILE *out, const void *p, size_t len)
{
	fputc('"', out);
	ktr_put_escaped(out, p, len, KTR_ESC_CR);
	fputc('"', out);
}

/*
 * Eight bytes at a time (the "determine if a word has a byte less than n"
 * tests of Sean Anderson's Bit Twiddling Hacks): is any byte of w below n
 * (n <= 128), above n (n <= 127), equal to c?  Exact as yes-or-no answers.
 */
#define ONES  0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static __u64 any_below(__u64 w, unsigned int n)
{
	return (w - ONES * n) & ~w & HIGHS;
}

static __u64 any_above(__u64 w, unsigned int n)
{
	return ((w + ONES * (127 - n)) | w) & HIGHS;
}

static __u64 any_is(__u64 w, unsigned int c)
{
	return any_below(w ^ (ONES * c), 1);
}

/* FreeBSD shows GIO data as text only if every byte is printable or one of these. */
static const bool text_byte_ok[256] = {
	[0x20 ... 0x7e] = true, ['\n'] = true, ['\r'] = true, ['\t'] = true, ['\0'] = true,
};

static bool is_text(const unsigned char *p, size_t len)
{
	size_t i = 0;
	__u64 w;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		if (!any_below(w, 0x20) && !any_above(w, 0x7e))
			continue;
		for (size_t k = i; k < i + 8; k++)
			if (!text_byte_ok[p[k]])
				return false;
	}
	for (; i < len; i++)
		if (!text_byte_ok[p[i]])
			return false;
	return true;
}

/* One byte of dump_text() into buf; its width in columns (a tab's from col). */
static int text_byte(char *buf, const unsigned char *p, size_t i, size_t len, int col)
{
	if (p[i] == '\t') {
		buf[0] = '\t';
		return 8 - (col & 7);
	}
	if (p[i] == '\0') {
		/* vis(3) VIS_CSTYLE: "\0", or "\000" when an octal digit follows */
		bool digit = i + 1 < len && p[i + 1] >= '0' && p[i + 1] <= '7';

		memcpy(buf, digit ? "\\000" : "\\0", digit ? 4 : 2);
		return digit ? 4 : 2;
	}
	return ktr_escape_byte(buf, p[i], KTR_ESC_CR);
}

/* The bytes from p on that stand for themselves, one column each. */
static size_t plain_run(const unsigned char *p, size_t len)
{
	size_t n = 0;
	__u64 w;

	for (; n + 8 <= len; n += 8) {
		memcpy(&w, p + n, 8);
		if (any_below(w, 0x20) || any_above(w, 0x7e) || any_is(w, '"') || any_is(w, '\\'))
			break;
	}
	while (n < len && p[n] >= 0x20 && p[n] <= 0x7e && p[n] != '"' && p[n] != '\\')
		n++;
	return n;
}

/*
 * DragonFly dumpstr(): 7 spaces and a quote; a newline in the data ends the
 * output line and the next one starts with a TAB; long lines fold with "\".
 * Tabs are kept as tabs, as vis(3) does.  A run of plain bytes goes in at
 * once, up to the fold.
 */
static void dump_text(FILE *out, const unsigned char *p, size_t len)
{
	struct obuf o = { .out = out };
	int col = 8, width;
	size_t run, n;
	char buf[8];

	ob_put(&o, "       \"", 8);
	for (size_t i = 0; i < len;) {
		if (col == 0) {
			ob_put(&o, "\t", 1);
			col = 8;
		}
		if (p[i] == '\n') {
			ob_put(&o, "\n", 1);
			col = 0;
			i++;
			continue;
		}
		for (run = plain_run(p + i, len - i); run; run -= n, i += n, col += n) {
			if (col >= TEXT_WIDTH) {
				ob_put(&o, "\\\n\t", 3);
				col = 8;
			}
			n = run < (size_t)(TEXT_WIDTH - col) ? run : (size_t)(TEXT_WIDTH - col);
			ob_put(&o, (const char *)p + i, n);
		}
		if (i == len || p[i] == '\n')
			continue;
		width = text_byte(buf, p, i, len, col);
		if (col + width > TEXT_WIDTH) {
			ob_put(&o, "\\\n\t", 3);
			col = 8;
		}
		col += width;
		ob_put(&o, buf, p[i++] == '\t' ? 1 : width);
	}
	if (col == 0)
		ob_put(&o, "       ", 7);
	ob_put(&o, "\"", 1);
	ob_flush(&o);
}

/* "       0x0000 6865 6c6c ...  |hell...|": the line of 16 bytes at off; its length. */
static size_t hex_line(char *s, const unsigned char *p, size_t off, size_t len)
{
	size_t k = 0, digits = 4;

	while (digits < 2 * sizeof(off) && off >> (4 * digits))
		digits++;
	memcpy(s, "       0x", 9);
	k = 9;
	for (size_t d = digits; d-- > 0;)
		s[k++] = hex[(off >> (4 * d)) & 15];
	for (size_t i = off; i < off + HEX_PER_LINE; i++) {
		if (i % 2 == 0)
			s[k++] = ' ';
		s[k++] = i < len ? hex[p[i] >> 4] : ' ';
		s[k++] = i < len ? hex[p[i] & 15] : ' ';
	}
	memcpy(s + k, "  |", 3);
	k += 3;
	for (size_t i = off; i < off + HEX_PER_LINE && i < len; i++)
		s[k++] = is_print(p[i]) ? (char)p[i] : '.';
	s[k++] = '|';
	return k;
}

/* FreeBSD hexdump(): "       0x0000 6865 6c6c ...  |hell...|", 16 bytes a line. */
static void dump_hex(FILE *out, const unsigned char *p, size_t len)
{
	struct obuf o = { .out = out };
	char line[128];

	for (size_t off = 0; off < len; off += HEX_PER_LINE) {
		if (off)
			ob_put(&o, "\n", 1);
		ob_put(&o, line, hex_line(line, p, off, len));
	}
	ob_flush(&o);
}

void kd_dump_data(FILE *out, const unsigned char *p, size_t len)
{
	if (is_text(p, len))
		dump_text(out, p, len);
	else
		dump_hex(out, p, len);
}
