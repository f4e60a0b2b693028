/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare/compare.h - --compare: runs read back, grouped into tables of summarised passes, and
 * their plot. */
#ifndef COMPARE_COMPARE_H
#define COMPARE_COMPARE_H

#include <stdio.h>

#include "model/compare_matrix.h"
#include "model/record.h"

struct config;

struct verdict_table;

#define CMP_COLS_MAX 8		/* columns of a run's group: the metrics' rows that have one */

void cmp_print(FILE *out, const struct cmp_input *in, const struct cmp_matrix *m);
void knobs_differing(const struct cmp_input *in, int n, int r, bool same_label, char *buf,
		     size_t len);		/* "policy fifo": run r's knobs that differ */
int compare_verdicts(const struct cmp_input *in, int n, struct verdict_table *vt);

int compare_main(const struct config *cfg);	/* --compare FILE...: its exit status */
int cmp_select(const struct cmp_input *in, int n, const char *list, int *pick, int max,
	       char *err, size_t errlen);	/* --runs LIST: the runs it picks */
void pretty_date(char *buf, size_t len, const char *d);	/* "2026-11-29 19:36" */

#endif
