/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output/output.h - every output of a run record: text and log, JSON, CSV, --plot, --compare. */
#ifndef OUTPUT_OUTPUT_H
#define OUTPUT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/livefile.h"
#include "lib/sbuf.h"
#include "output/result.h"

/* The text of a live run as it is printed: where it goes, and the table being printed. */
struct report {
	FILE *text;			/* stdout, or stderr when stdout carries data */
	FILE *log;			/* <kernel release>.log, or NULL */
	int table_first;		/* the record's result that began the table being printed */
	unsigned table_marks;		/* enum result_mark of that table */
	const char *table_group;	/* -W A+B: the group whose member's table it is, */
					/* which has that member's results only; NULL: none */
};

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
 * bycount.c: --ncpus's closing tables, one per metric: each benchmark x
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

/*
 * files.c: --json and --csv as a run writes them: each grown by a row at a
 * cost that does not grow with the run, complete and valid whenever read
 * (lib/livefile.c says how).
 */
struct live_file {
	struct livefile lf;		/* path NULL: not asked for; "-": stdout, at the end only */
	int held[2];			/* the record's results each of lf's files holds */
	bool failed;			/* an error was reported: left as it is until the end */
};
struct live_files {
	bool ready;			/* paths and fds set (the orchestrator's is zeroed) */
	struct live_file f[2];		/* --json, --csv */
};
int report_files_begin(struct live_files *lf, const struct run_record *rec);
void report_files_row(struct live_files *lf, const struct run_record *rec);
int report_files_end(struct live_files *lf, const struct run_record *rec);
int report_plot(const struct run_record *rec, const char *path);

/* record.c: per cell of the plan's first pass (and member of its group), in the tables' order: */
/* its passes summarised; a group's member as the outputs name it, "Video@Desktop" */
struct cell;
struct pass_summary;
const char *cell_group_name(const struct config *cfg, const struct cell *c);
#define MEMBER_LABEL_LEN (RES_NAME_LEN + RES_GROUP_LEN + 2)
void member_label(char *buf, size_t len, const char *bench, const char *group);
void report_each_summary(const struct run_record *rec,
			 void (*fn)(void *arg, const struct cell *c, const struct pass_summary *s),
			 void *arg);

/* json.c, csv.c: each file as a head, its results and a tail (none for CSV), and whole */
void json_head(struct sbuf *sb, const struct run_record *rec);
void json_result_at(struct sbuf *sb, const struct run_record *rec, int i);
void json_tail(struct sbuf *sb, const struct run_record *rec, bool final);
void build_json(struct sbuf *sb, const struct run_record *rec);
void csv_head(struct sbuf *sb, const struct run_record *rec);
void csv_result_at(struct sbuf *sb, const struct run_record *rec, int i);
void build_csv(struct sbuf *sb, const struct run_record *rec);
/* explain.c: --explain's lines under a table */
struct miss;
void explain_line(char *buf, size_t len, const struct result *r, double unit_ns);
void ran_instead_part(char *buf, size_t len, const struct ran_instead *ri);
void miss_total_line(char *buf, size_t len, const struct result *r);
void miss_line(char *buf, size_t len, const struct result *r, const struct miss *m,
	       double unit_ns, const char *unit);
int compare_main(const struct config *cfg);	/* compare.c: --compare */

#endif
