// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/sbuf.c - the growing string that files are built in, and JSON and CSV escaping. */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sbuf.h"

void sb_init(struct sbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void sb_free(struct sbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_add(struct sbuf *sb, const char *s, size_t n)
{
	if (sb->failed)
		return;
	if (sb->cap - sb->len <= n) {
		size_t cap = sb->cap ? sb->cap : 4096;
		char *nb;

		while (cap - sb->len <= n)
			cap *= 2;
		nb = realloc(sb->buf, cap);
		if (!nb) {
			sb->failed = true;
			return;
		}
		sb->buf = nb;
		sb->cap = cap;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct sbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	char buf[256], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	if ((size_t)n < sizeof(buf)) {
		sb_add(sb, buf, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);	/* a long piece: format it again, whole */
	if (!big) {
		sb->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_add(sb, big, (size_t)n);
	free(big);
}

/* Bytes of the well-formed UTF-8 sequence at s (RFC 3629), 0 when it is not one. */
size_t utf8_valid_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] && s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		lo = s[0] == 0xe0 ? 0xa0 : 0x80;	/* overlong */
		hi = s[0] == 0xed ? 0x9f : 0xbf;	/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		lo = s[0] == 0xf0 ? 0x90 : 0x80;	/* overlong */
		hi = s[0] == 0xf4 ? 0x8f : 0xbf;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * A JSON string: quotes and backslashes escaped, control characters as
 * \uXXXX (or their short forms), UTF-8 passed through, and every byte that
 * is not part of well-formed UTF-8 replaced by U+FFFD, so the file always
 * parses. NULL is null.
 */
void json_string(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	static const char short_esc[0x20] = {
		['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
	};

	if (!s) {
		sb_puts(sb, "null");
		return;
	}
	sb_add(sb, "\"", 1);
	while (*p) {
		size_t n = utf8_valid_len(p);

		if (*p == '"' || *p == '\\') {
			sb_add(sb, "\\", 1);
			sb_add(sb, (const char *)p, 1);
		} else if (*p < 0x20 && short_esc[*p]) {
			sb_add(sb, "\\", 1);
			sb_add(sb, &short_esc[*p], 1);
		} else if (*p < 0x20 || *p == 0x7f) {
			sb_printf(sb, "\\u%04x", *p);
		} else if (n) {
			sb_add(sb, (const char *)p, n);
			p += n;
			continue;
		} else {
			sb_puts(sb, "\\ufffd");
		}
		p++;
	}
	sb_add(sb, "\"", 1);
}

/* The shortest form that reads back as the same double. */
void fmt_number(char *buf, size_t len, double v)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
}

/* A number as JSON has it; null for NaN and infinities. */
void json_number(struct sbuf *sb, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		sb_puts(sb, "null");
		return;
	}
	fmt_number(buf, sizeof(buf), v);
	sb_puts(sb, buf);
}

/*
 * A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
 * break, quotes doubled; bytes that are not UTF-8 become U+FFFD. NULL is
 * the empty field.
 */
void csv_field(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool quote = s && strpbrk(s, ",\"\r\n");

	if (!s)
		return;
	if (quote)
		sb_add(sb, "\"", 1);
	while (*p) {
		size_t n = utf8_valid_len(p);

		if (*p == '"')
			sb_add(sb, "\"\"", 2);
		else if (n)
			sb_add(sb, (const char *)p, n);
		else
			sb_puts(sb, "\xef\xbf\xbd");
		p += n ? n : 1;
	}
	if (quote)
		sb_add(sb, "\"", 1);
}

/* Local time with its offset: 2026-11-29T18:49:03+01:00. */
void fmt_iso8601(char *buf, size_t len, time_t t)
{
	struct tm tm;
	char z[8];
	size_t n;

	localtime_r(&t, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	if (strftime(z, sizeof(z), "%z", &tm) == 5)
		snprintf(buf + n, len - n, "%.3s:%s", z, z + 3);
}
