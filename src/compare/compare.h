/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare/compare.h - --compare: runs read back, grouped into tables of summarised passes, and
 * their plot. */
#ifndef COMPARE_COMPARE_H
#define COMPARE_COMPARE_H

#include <stdio.h>

#include "model/matrix.h"
#include "model/record.h"

struct config;

struct verdict_table;

void cmp_print(FILE *out, const struct cmp_input *in, const struct cmp_matrix *m);
void knobs_differing(const struct cmp_input *in, int n, int r, bool same_label, char *buf,
		     size_t len);		/* "policy fifo": run r's knobs that differ */
int compare_verdicts(const struct cmp_input *in, int n, struct verdict_table *vt);

int compare_main(const struct config *cfg);	/* --compare FILE...: its exit status */

#endif
