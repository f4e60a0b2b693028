/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare.h - results read back from logs and CSV files, as --compare and its plot use them. */
#ifndef COMPARE_H
#define COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum res_val {			/* what one row of a table can tell */
	RV_MEAN, RV_SD, RV_MAX,	/* wakeup latency, ns */
	RV_MIN, RV_P50, RV_P90, RV_P99, RV_P999,	/* ns, CSV only */
	RV_CPU, RV_DL,		/* % desired CPU, % deadlines met */
	RV_COUNT,
};

#define RES_NAME_LEN 32

struct res_obs {		/* one row of one pass */
	char bench[RES_NAME_LEN];
	char load[RES_NAME_LEN];
	bool realtime;
	bool failed;
	double v[RV_COUNT];	/* NAN: not given */
};

/*
 * One column group of a comparison: every interbench run of a file with the
 * same kernel release and comment. Their rows are passes of one another.
 */
struct res_run {
	char kernel[128];		/* "" when the log has no header line */
	char comment[256];
	char date[32];			/* datestamp or ISO start of the first run */
	double seconds;			/* per row, 0 when unknown */
	int nruns;			/* interbench runs pooled here */
	bool interrupted;		/* one of them was stopped by a signal */
	int nobs, cap;
	struct res_obs *obs;
};

enum res_format { RES_LOG, RES_CSV };

struct res_file {
	enum res_format format;
	int nruns, cap;
	struct res_run *runs;
};

/* results.c: parsing is pure (text in, structs out); results_read does the I/O */
int results_parse(const char *text, size_t len, struct res_file *f, char *err, size_t errlen);
int results_read(const char *path, struct res_file *f, char *err, size_t errlen);
void results_free(struct res_file *f);
int bench_rank(const char *name);
int load_rank(const char *name);

/* A row of a comparison table: the passes of one load in one run, summarised. */
struct res_cell {
	int npass;			/* passes that gave numbers */
	int nfail;			/* passes that failed */
	double v[RV_COUNT];		/* mean over passes (SD: root mean square) */
	double half_mean, half_max;	/* 95 % confidence half-widths, 0 for one pass */
};

void res_cell_compute(const struct res_obs *const *obs, int n, struct res_cell *c);
bool res_cell_differs(const struct res_cell *a, const struct res_cell *b, int val);

/* compare.c: the tables */
struct cmp_input {		/* one column group, with its label */
	const struct res_run *run;
	const char *file;
	char label[512];
};

#define CMP_MAX_TABLES 32
#define CMP_MAX_LOADS 48

struct cmp_table {		/* one benchmark: a row per load, a cell per run */
	char bench[RES_NAME_LEN];
	bool realtime;
	int nloads;
	char loads[CMP_MAX_LOADS][RES_NAME_LEN];
	struct res_cell *cells;		/* [load * nruns + run] */
	bool *present;			/* the run measured this benchmark at all */
};

struct cmp_matrix {
	int nruns, ntables;
	struct cmp_table tables[CMP_MAX_TABLES];
};

int cmp_build(const struct cmp_input *in, int n, struct cmp_matrix *m, char *err,
	      size_t errlen);
void cmp_matrix_free(struct cmp_matrix *m);

void cmp_fmt_value(char *buf, size_t len, double v, int sig);
void cmp_fmt_change(char *buf, size_t len, double ref, double v);
void cmp_fmt_pct(char *buf, size_t len, double v);
void cmp_print(FILE *out, const struct cmp_input *in, const struct cmp_matrix *m);

/* plot.c: --compare --plot */
int plot_compare(const char *path, const struct cmp_input *in, const struct cmp_matrix *m);

#endif
