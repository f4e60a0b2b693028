/* SPDX-License-Identifier: GPL-2.0-or-later */
/* formats/readers.h - the files read back: our logs, 0.31's and its fork's, our CSV. */
#ifndef FORMATS_READERS_H
#define FORMATS_READERS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/record.h"

/* results.c: parsing is pure (text in, structs out); results_read does the I/O */
int results_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen);
int results_read(const char *path, struct result_file *f, char *err, size_t errlen);

/* forklog.c: the tables of the maintained fork of interbench, which has a median column */
bool fork_columns(const char *line);
double fork_unit_ns(const char *line);
bool fork_row(const char *s, double unit_ns, bool deadlines, struct result *o);

/* csv.c: our CSV, read back by the table of columns its writer walks */
int parse_csv(const char *text, size_t len, struct result_file *f, char *err, size_t errlen);

#endif
