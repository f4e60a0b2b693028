/* SPDX-License-Identifier: GPL-2.0-or-later */
/* formats/json_writer.h - the JSON writer --json's document is written with: its state and
 * primitives; only formats/json*.c use it. */
#ifndef FORMATS_JSON_WRITER_H
#define FORMATS_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/sbuf.h"

struct config;

struct jw {			/* a pretty-printing JSON writer */
	struct sbuf *sb;
	const struct config *cfg;	/* of the run written */
	int depth;
	bool first;		/* nothing yet in the open object or array */
};

void jw_key(struct jw *w, const char *key);	/* the separator, indentation and key */
void jw_open(struct jw *w, const char *key, char c);
void jw_close(struct jw *w, char c);
void jw_str(struct jw *w, const char *key, const char *v);
void jw_known(struct jw *w, const char *key, const char *v);	/* null when empty */
void jw_num(struct jw *w, const char *key, double v);
void jw_int(struct jw *w, const char *key, long long v);	/* SI_UNKNOWN: null */
void jw_u64(struct jw *w, const char *key, uint64_t v);
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
void jw_tristate(struct jw *w, const char *key, int v);	/* < 0: null */

struct run_record;
/* json_run.c: the document's "run" and "system" */
void json_run(struct jw *w, const struct run_record *run);
void json_system(struct jw *w, const struct run_record *run);

/* json_rtapp.c: a workload file's part of the document */
void json_workload_run(struct jw *w, const struct config *cfg);

#endif
