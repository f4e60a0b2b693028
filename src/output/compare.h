/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output/compare.h - --compare: runs read back, grouped into tables of summarised passes, and
 * their plot. */
#ifndef COMPARE_H
#define COMPARE_H

#include "output/result.h"

struct verdict_table;

struct cmp_input {		/* one column group, with its label */
	const struct run_record *run;
	const char *file;
	char label[512];
};

#define CMP_MAX_TABLES 32
#define CMP_MAX_LOADS 48

struct cmp_cell {		/* the passes of one load in one run */
	struct pass_summary s;
	const struct result **res;	/* those passes */
	int nres;
};

struct cmp_table {		/* one benchmark: a row per load, a cell per run */
	char bench[RES_NAME_LEN];
	bool realtime;
	int ncpus;			/* --ncpus: its rows' CPU count, 0 without */
	char group[RES_GROUP_LEN];	/* -W A+B: the group its rows ran in, "" without */
	int nloads;
	char loads[CMP_MAX_LOADS][RES_NAME_LEN];
	struct cmp_cell *cells;		/* [load * nruns + run] */
	bool *present;			/* the run measured this benchmark at all */
};

struct cmp_matrix {
	int nruns, ntables;
	struct cmp_table tables[CMP_MAX_TABLES];
};

/* 0; -EINVAL when the runs cannot be compared, -ENOMEM: err says which. */
int cmp_build(const struct cmp_input *in, int n, struct cmp_matrix *m, char *err,
	      size_t errlen);
void cmp_matrix_free(struct cmp_matrix *m);
void cmp_print(FILE *out, const struct cmp_input *in, const struct cmp_matrix *m);
void knobs_differing(const struct cmp_input *in, int n, int r, bool same_label, char *buf,
		     size_t len);		/* "policy fifo": run r's knobs that differ */
int compare_verdicts(const struct cmp_input *in, int n, struct verdict_table *vt);
enum cmp_verdicts { CV_NONE, CV_TOO_FEW, CV_TABLE };
int cmp_verdicts_shown(const struct verdict_table *vt, const struct cmp_table *t, char *text,
		       size_t len);

/* plot.c: the one --plot, of a run (histograms) or of a comparison (summaries) */
struct plot_spec {
	const char *title, *subtitle;
	const struct cmp_input *in;
	const struct cmp_matrix *m;
	bool run_legend;		/* a dash pattern per run, with its label */
	const struct verdict_table *vt;	/* --compare's verdicts, a panel per benchmark; NULL */
};
int plot_results(const char *path, const struct plot_spec *spec);

#endif
