/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report/report.h - the text report of a run: its header, tables, summaries, verdicts and
 * explanations, to the terminal and the log. */
#ifndef REPORT_REPORT_H
#define REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/defs.h"
#include "lib/sbuf.h"
#include "model/record.h"

struct cell;
struct config;
struct miss;
struct pass_summary;
struct plan;

/* The text of a live run as it is printed: where it goes, and the table being printed. */
struct report {
	FILE *text;			/* stdout, or stderr when stdout carries data */
	FILE *log;			/* <kernel release>.log, or NULL */
	int table_first;		/* the record's result that began the table being printed */
	unsigned table_marks;		/* enum result_mark of that table */
	const char *table_group;	/* -W A+B: the group whose member's table it is, */
					/* which has that member's results only; NULL: none */
};

/* report_out.c: what every table shares */
void report_out(struct report *o, const char *fmt, ...) PRINTF(2, 3);	/* terminal and log */
void report_load_cell(struct report *o, const struct run_record *rec, const char *load,
		      int variant);		/* "Burn\t", "Burn/B  \t"; variant -1: "Load" */
double report_unit_ns(const struct run_record *rec);	/* us for -r, else ms */
void report_heading_end(struct report *o, int ncpus);
void report_marks_note(struct report *o);	/* a blank line, then the table's marks' footnote */
void report_load_notes(struct report *o, const struct result *r);	/* after its intensity */
struct log_column;
void report_column_cell(struct report *o, const struct log_column *c, const struct result *r,
			double unit_ns);	/* its separator, then its value, right-aligned */
void report_worst_note(struct report *o, const struct run_record *rec, const struct result *r);
const char *report_power_text(char *buf, size_t len, const struct pass_summary *s, bool dl);

/* workload_table.c: a workload file's table: a line per load, a line per thread under it */
void report_workload_header(struct report *out, const struct run_record *rec);
void report_workload_heading(struct report *out, const struct run_record *rec, int ncpus);
void report_threads(struct report *out, const struct run_record *rec, int first, int n);
void report_workload_end(struct report *out, const struct run_record *rec);
void workload_summary_line(struct report *out, const struct run_record *rec,
			   const struct cell *cell, const struct pass_summary *s);

/* report.c: text, to the terminal and the log */
void report_header(struct report *out, const struct run_record *rec);
void report_heading(struct report *out, const struct run_record *rec, int bench, int ncpus);
void report_row(struct report *out, const struct run_record *rec, int i);
void report_table_end(struct report *out, const struct run_record *rec);
void report_group(struct report *out, const struct run_record *rec, int first, int ncpus,
		  const char *group);	/* a group's tables, of results [first, nres) */
void report_interrupted(struct report *out, const struct run_record *rec);
void report_summary(struct report *out, const struct run_record *rec);	/* --repeat */
void report_verdicts(struct report *out, const struct run_record *rec);	/* --vary */
void report_by_ncpus(struct report *out, const struct run_record *rec);	/* --ncpus */

/*
 * by_ncpus.c: --ncpus's closing tables, one per metric: each benchmark x
 * load's mean over the passes of a number of the result, a column per count.
 */
struct count_metric {
	const char *title;		/* "% deadlines met": the heading's first words */
	int field;			/* enum rfield */
	int fallback;			/* the field of a benchmark without it, -1: none */
	const char *fallback_note;	/* under the table, when one was used */
};
extern const struct count_metric count_metrics[];
extern const size_t nr_count_metrics;
void count_table(struct sbuf *sb, const struct run_record *rec, const struct count_metric *m);

/* explain_text.c: --explain's lines under a table */
struct miss;
void explain_line(char *buf, size_t len, const struct result *r, double unit_ns,
		  const char *label, bool own_timer);	/* label NULL: the load's name */
void ran_instead_part(char *buf, size_t len, const struct ran_instead *ri);
void miss_total_line(char *buf, size_t len, const struct result *r);
void miss_line(char *buf, size_t len, const struct result *r, const struct miss *m,
	       double unit_ns, const char *unit);
/* report.c: --dry-run: what would run, and for how long */
void print_plan(const struct config *cfg, const struct plan *p);

#endif
