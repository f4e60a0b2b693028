/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/compare_matrix.h - runs grouped into tables of summarised passes: a table per
 * benchmark, a cell per load and run, which --compare prints and --plot draws. */
#ifndef MODEL_COMPARE_MATRIX_H
#define MODEL_COMPARE_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "model/record.h"

struct cmp_input {		/* one column group, with its label */
	const struct run_record *run;
	const char *file;
	char label[512];
};

#define CMP_MAX_TABLES 160		/* a workload file's 64 thread objects, twice, and more */
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
	char group[RES_GROUP_LEN];	/* -W A+B: the group its rows ran in, "" without; */
	bool rtapp;			/* a workload file's thread: group is the file */
	int seq;			/* the order it was first seen in: a file's threads' */
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
const char *cmp_latency_name(const struct cmp_input *in, int n);

#endif
