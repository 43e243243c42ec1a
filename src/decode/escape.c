// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The one escaper of byte strings for output (decode.h KTR_ESC_*), for the
 * decoders' strings, kdump's text and its JSON: printable ASCII as it is,
 * but for the quote and the backslash, and the rest escaped in the style
 * asked for.  Text goes out in chunks, never a byte at a time: paths and
 * data make most of kdump's output.
 */
#include <string.h>
#include "decode.h"

#define CHUNK 1024 /* bytes escaped between two fwrite()s */

static const char hex[] = "0123456789abcdef";

int ktr_escape_byte(char *buf, unsigned char c, int how)
{
	char e = 0;

	switch (c) {
	case '\n':
		e = 'n';
		break;
	case '\t':
		e = 't';
		break;
	case '\r':
		/* the decoders' C strings have always shown it in octal */
		e = (how & (KTR_ESC_CR | KTR_ESC_JSON)) ? 'r' : 0;
		break;
	case '"':
	case '\\':
		e = (char)c;
		break;
	}
	if (e) {
		buf[0] = '\\';
		buf[1] = e;
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		buf[0] = (char)c;
		return 1;
	}
	if (how & KTR_ESC_JSON) {
		memcpy(buf, "\\u00", 4);
		buf[4] = hex[c >> 4];
		buf[5] = hex[c & 15];
		return 6;
	}
	buf[0] = '\\';
	buf[1] = (char)('0' + (c >> 6));
	buf[2] = (char)('0' + ((c >> 3) & 7));
	buf[3] = (char)('0' + (c & 7));
	return 4;
}

static bool is_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

void ktr_put_escaped(FILE *out, const void *p, size_t len, int how)
{
	const unsigned char *s = p, *end = s + len;
	char buf[CHUNK + 8];
	size_t n = 0;

	while (s < end) {
		const unsigned char *run = s;

		while (s < end && is_plain(*s))
			s++;
		if (s - run >= CHUNK - (ptrdiff_t)n) {
			/* a long plain run: straight out, after what is buffered */
			fwrite(buf, 1, n, out);
			fwrite(run, 1, s - run, out);
			n = 0;
		} else {
			memcpy(buf + n, run, s - run);
			n += s - run;
		}
		if (s == end)
			break;
		n += ktr_escape_byte(buf + n, *s++, how);
		if (n >= CHUNK) {
			fwrite(buf, 1, n, out);
			n = 0;
		}
	}
	fwrite(buf, 1, n, out);
}

void ktr_print_cstr(FILE *out, const char *s, size_t max, bool keep_nul)
{
	ktr_put_escaped(out, s, keep_nul ? max : strnlen(s, max), KTR_ESC_C);
}

/* The value of up to three octal digits at s[*i] (the first known to be one). */
static unsigned char octal(const char *s, size_t len, size_t *i)
{
	unsigned int v = s[*i] - '0';

	for (int k = 0; k < 2 && *i + 1 < len && s[*i + 1] >= '0' && s[*i + 1] <= '7'; k++)
		v = v * 8 + (s[++*i] - '0');
	return (unsigned char)v;
}

size_t ktr_unescape_c(unsigned char *dst, size_t size, const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n < size; i++) {
		unsigned char c = s[i];

		if (c == '\\' && i + 1 < len) {
			c = s[++i];
			if (c >= '0' && c <= '7')
				c = octal(s, len, &i);
			else
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
		}
		dst[n++] = c;
	}
	return n;
}
