/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/sbuf.h - the growing string that files are built in, and the escaping of JSON and CSV. */
#ifndef LIB_SBUF_H
#define LIB_SBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/defs.h"

struct sbuf {			/* a growing string: files are built whole, then written */
	char *buf;
	size_t len, cap;
	bool failed;			/* out of memory: the content is incomplete */
};
void sb_init(struct sbuf *sb);
void sb_free(struct sbuf *sb);
void sb_add(struct sbuf *sb, const char *s, size_t n);
void sb_puts(struct sbuf *sb, const char *s);
void sb_printf(struct sbuf *sb, const char *fmt, ...) PRINTF(2, 3);
size_t utf8_valid_len(const unsigned char *s);
void json_string(struct sbuf *sb, const char *s);
void fmt_number(char *buf, size_t len, double v);	/* shortest exact */
void json_number(struct sbuf *sb, double v);
void csv_field(struct sbuf *sb, const char *s);
void fmt_iso8601(char *buf, size_t len, time_t t);

#endif
