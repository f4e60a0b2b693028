// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/json_writer.c - the JSON writer's primitives: keys, values, objects and arrays, pretty
 * printed into a string buffer, for every part of --json's document. */
#include <stdbool.h>
#include <stdint.h>

#include "formats/json_writer.h"
#include "sys/machine.h"

/* The separator, indentation and key before a value. */
void jw_key(struct jw *w, const char *key)
{
	if (w->depth) {
		sb_puts(w->sb, w->first ? "\n" : ",\n");
		for (int i = 0; i < w->depth; i++)
			sb_add(w->sb, "  ", 2);
	}
	if (key) {
		json_string(w->sb, key);
		sb_add(w->sb, ": ", 2);
	}
	w->first = false;
}

void jw_open(struct jw *w, const char *key, char c)
{
	jw_key(w, key);
	sb_add(w->sb, &c, 1);
	w->depth++;
	w->first = true;
}

void jw_close(struct jw *w, char c)
{
	w->depth--;
	if (!w->first) {
		sb_add(w->sb, "\n", 1);
		for (int i = 0; i < w->depth; i++)
			sb_add(w->sb, "  ", 2);
	}
	sb_add(w->sb, &c, 1);
	w->first = false;
}

void jw_str(struct jw *w, const char *key, const char *v)
{
	jw_key(w, key);
	json_string(w->sb, v);
}

/* A string that is null when empty: what could not be read. */
void jw_known(struct jw *w, const char *key, const char *v)
{
	jw_str(w, key, v && *v ? v : NULL);
}

void jw_num(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	json_number(w->sb, v);
}

void jw_int(struct jw *w, const char *key, long long v)	/* SI_UNKNOWN: null */
{
	jw_key(w, key);
	if (v == SI_UNKNOWN)
		sb_puts(w->sb, "null");
	else
		sb_printf(w->sb, "%lld", v);
}

void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	sb_printf(w->sb, "%llu", (unsigned long long)v);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_key(w, key);
	sb_puts(w->sb, v ? "true" : "false");
}

void jw_null(struct jw *w, const char *key)
{
	jw_key(w, key);
	sb_puts(w->sb, "null");
}

/* 1 true, 0 false, < 0 null: what could not be read. */
void jw_tristate(struct jw *w, const char *key, int v)
{
	if (v < 0)
		jw_null(w, key);
	else
		jw_bool(w, key, v);
}

