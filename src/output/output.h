/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output/output.h - every output of a run record: text and log, JSON, CSV, --plot, --compare. */
#ifndef OUTPUT_OUTPUT_H
#define OUTPUT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "output/result.h"
#include "output/sbuf.h"

/* The text of a live run as it is printed: where it goes, and the table being printed. */
struct report {
	FILE *text;			/* stdout, or stderr when stdout carries data */
	FILE *log;			/* <kernel release>.log, or NULL */
	int table_first;		/* the record's result that began the table being printed */
	unsigned table_marks;		/* enum result_mark of that table */
};

/* report.c: text, to the terminal and the log */
void report_header(struct report *out, const struct run_record *rec);
void report_heading(struct report *out, const struct run_record *rec, int bench);
void report_row(struct report *out, const struct run_record *rec, int i);
void report_table_end(struct report *out, const struct run_record *rec);
void report_interrupted(struct report *out, const struct run_record *rec);
void report_summary(struct report *out, const struct run_record *rec);	/* --repeat */
void report_verdicts(struct report *out, const struct run_record *rec);	/* --vary */

/* files.c: JSON and CSV, rewritten whole after each row; --plot */
int report_files(const struct run_record *rec);
int report_plot(const struct run_record *rec, const char *path);

/* record.c: per cell of the plan's first pass, in its order: its passes summarised */
struct cell;
struct pass_summary;
void report_each_summary(const struct run_record *rec,
			 void (*fn)(void *arg, const struct cell *c, const struct pass_summary *s),
			 void *arg);

void build_json(struct sbuf *sb, const struct run_record *rec);	/* json.c */
void build_csv(struct sbuf *sb, const struct run_record *rec);	/* csv.c */
void explain_line(char *buf, size_t len, const struct result *r, double unit_ns);	/* explain.c */
int compare_main(const struct config *cfg);	/* compare.c: --compare */

#endif
