/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verdicts/verdicts.h - verdicts: each group's passes against the first's, per cell and metric,
 * as text, JSON and CSV. */
#ifndef VERDICTS_VERDICTS_H
#define VERDICTS_VERDICTS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/verdict_stats.h"
#include "model/record.h"
#include "lib/sbuf.h"

#define VERDICT_MAX_GROUPS 16	/* --compare's files, or --vary's values */

/* What is compared: the rows of model/metrics.c with a verdict's name, in their order. */
enum verdict_metric {
	VM_MEAN, VM_P99, VM_DL,			/* every periodic benchmark's */
	VM_FRAME_P99, VM_STUTTERS,		/* Game's */
	VM_XRUNS,				/* AudioGraph's */
	VM_COUNT,
};

enum verdict_kind {
	VK_NO_DIFFERENCE,		/* q above VERDICT_FDR */
	VK_BETTER,
	VK_WORSE,
	VK_TOO_FEW,			/* these passes could never pass: see need */
};

/* A group of results that is one side of a comparison: a variant of a run, or a whole run. */
struct verdict_group {
	char label[RES_VARIANT_LEN + 8];	/* "B load-nice=19", "[2] 6.19.0" */
	const struct result *res;
	int nres;
	int variant;			/* only results of this variant_index; -1: all */
};

struct verdict {		/* one metric of one cell, one group against the first */
	char bench[RES_NAME_LEN], load[RES_NAME_LEN];
	char in_group[RES_GROUP_LEN];	/* -W A+B: the group bench ran in; "" alone; a */
	bool rtapp;			/* workload file's thread (rtapp): the file's name */
	int metric;			/* enum verdict_metric */
	int group;			/* against group 0 */
	bool realtime;			/* the latencies' unit: us, else ms */
	int ncpus;			/* --ncpus: the cell's CPU count, 0 without */
	double a, b;			/* the medians over the passes */
	struct shift_test t;
	double q;			/* Benjamini-Hochberg over the tests counted; NAN: not */
	bool constant;			/* every pass of both the same value: nothing to test */
	bool counted;			/* among the tests q is adjusted over (Tarone) */
	bool tested;			/* counted, or would be with more passes: false where
					 * the values' ties leave nothing a test could show */
	int kind;			/* enum verdict_kind */
	int need;			/* passes per group that could pass, with VK_TOO_FEW */
	int power;			/* passes per group to find a 10 % change 80 % of the
					 * time at the table's level; POWER_CAP + 1: more; -1 */
};

struct verdict_table {
	int n, cap;
	struct verdict *v;
	int ngroups;
	char labels[VERDICT_MAX_GROUPS][RES_VARIANT_LEN + 8];	/* the groups' labels */
	int ntests;			/* tests counted, over which q is adjusted (m) */
	int tarone_k;			/* counted: least p (given the ties) <= FDR / tarone_k */
	int ntoofew;			/* tests left out that more passes would bring in */
	int ncalled;			/* better or worse (R) */
	double power_level;		/* n10%'s two-sided level, FDR max(1, R) / m */
	int npower;			/* verdicts given their n10% so far (building) */
};

struct metric;
const struct metric *verdict_metric(int m);	/* its row of model/metrics.c */
const char *verdict_metric_name(int m);	/* "mean", "p99", "deadlines", "frame p99", ... */
extern const char *const verdict_kind_names[];		/* "better", "no difference shown" */

bool verdict_metric_is_count(int m);	/* stutters, xruns: no unit */
int verdict_change_kind(int m);		/* enum change_kind of n10%'s change */

int verdicts_build(const struct verdict_group *g, int ng, struct verdict_table *t);
void verdicts_free(struct verdict_table *t);
bool verdicts_any(const struct verdict_table *t);
void verdicts_print(struct sbuf *sb, const struct verdict_table *t, const char *bench,
		    const char *in_group, bool realtime, int ncpus);
void verdicts_legend(struct sbuf *sb, const struct verdict_table *t);
void verdict_ratio_text(char *buf, size_t len, const struct verdict *v);
void verdict_what_text(char *buf, size_t len, const struct verdict *v);
void verdict_metric_text(char *buf, size_t len, const struct verdict *v);
bool verdict_of(const struct verdict *v, const char *bench, const char *in_group,
		bool realtime);
void verdicts_json(struct sbuf *sb, const struct verdict_table *t, int depth);
void verdicts_csv(struct sbuf *sb, const struct verdict_table *t);
int record_verdicts(const struct run_record *rec, struct verdict_table *t);	/* --vary */

/* What a benchmark's verdicts show in a comparison: none, one line (too few passes), a table. */
enum verdicts_shown_kind { VS_NONE, VS_TOO_FEW, VS_TABLE };
int verdicts_shown(const struct verdict_table *vt, const char *bench, const char *group,
		   bool realtime, char *text, size_t len);

#endif
