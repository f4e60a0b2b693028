/* SPDX-License-Identifier: GPL-2.0-or-later */
/* formats/readers.h - the files read back: our logs, 0.31's and its fork's, our CSV. */
#ifndef FORMATS_READERS_H
#define FORMATS_READERS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/record.h"

/* read_file.c: parsing is pure (text in, structs out); results_read does the I/O */
int results_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen);
int results_read(const char *path, struct result_file *f, char *err, size_t errlen);

/* log_read.c: our logs, 0.31's and its fork's */
int log_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen);

/* log_values.c: a table's row, read by the columns (model/log_format.h) its writer walks */
struct log_column;
struct log_table {		/* a table as its column line has it */
	const struct log_column *cols;	/* log_table_columns()'s */
	size_t ncols;
	bool has[32];			/* cols[i] is in it (LOG_COLUMNS_MAX) */
	double unit_ns;			/* of its latencies */
};
int log_words(const struct log_column *cols, size_t ncols, const bool *has);
int log_values(const struct log_table *lt, char *const *tok, int ntok, struct result *o,
	       int line, char *err, size_t errlen);
int log_tail(struct result *o, const char *tail, int line, char *err, size_t errlen);

/* fork_log.c: the tables of the maintained fork of interbench, which has a median column */
bool fork_columns(const char *line);
double fork_unit_ns(const char *line);
bool fork_row(const char *s, double unit_ns, bool deadlines, struct result *o);
bool fork_sniff(const char *text, size_t len);	/* a log with the fork's tables */

/* csv.c: our CSV, read back by the table of columns its writer walks */
int csv_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen);
bool csv_sniff(const char *text, size_t len);

#endif
