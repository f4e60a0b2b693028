// SPDX-License-Identifier: GPL-2.0-or-later
/* verdicts/verdict_table.c - verdicts: each group's passes against the first's, per cell and
 * metric, judged over the table (its text, JSON and CSV: verdict_print.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/metrics.h"
#include "model/record.h"
#include "verdicts/verdicts.h"
#include "model/config.h"

#define CHANGE_SHOWN 0.10	/* the change "passes for" is worked out for */
#define POWER_SHOWN 0.80

const char *const verdict_kind_names[] = {
	[VK_NO_DIFFERENCE] = "no difference shown",
	[VK_BETTER] = "better",
	[VK_WORSE] = "worse",
	[VK_TOO_FEW] = "too few passes",
};

/*
 * Verdict metric m: the m-th row of model/metrics.c that the verdicts judge
 * (enum verdict_metric is their order there). A chain's metrics have no
 * value for the others: their cells get no verdict on them.
 */
const struct metric *verdict_metric(int m)
{
	for (size_t i = 0; i < nr_metrics; i++)
		if (metrics[i].verdict && !m--)
			return &metrics[i];
	return NULL;
}

const char *verdict_metric_name(int m)
{
	return verdict_metric(m)->verdict;
}

/* A count (stutters, xruns): no unit, no scaling. */
bool verdict_metric_is_count(int m)
{
	return verdict_metric(m)->flags & MF_COUNT;
}

/* What n10%'s 10 % change is: a count's rate, a share's shortfall, else the value. */
int verdict_change_kind(int m)
{
	return verdict_metric_is_count(m) ? CHANGE_RATE :
	       !strcmp(verdict_metric(m)->unit, "%") ? CHANGE_SHORTFALL : CHANGE_SCALE;
}

/*
 * Are a and b the same cell: benchmark (real time or not), the group it ran
 * in (a member of -W A+B is not the benchmark alone), load and CPU count?
 */
static bool same_cell(const struct result *a, const struct result *b)
{
	return a->realtime == b->realtime && !strcmp(a->bench, b->bench) &&
	       !strcmp(a->group, b->group) && !strcmp(a->load, b->load) &&
	       a->ncpus == b->ncpus;
}

/* Is v one of bench's (in in_group, "" alone; real time or not)? */
bool verdict_of(const struct verdict *v, const char *bench, const char *in_group,
		bool realtime)
{
	return v->realtime == realtime && !strcmp(v->bench, bench) &&
	       !strcmp(v->in_group, in_group);
}

/* The passes of cell in group g with a value of field, into v; how many. */
static int pass_values(const struct verdict_group *g, const struct result *cell, int field,
		       double *v)
{
	int n = 0;

	for (int i = 0; i < g->nres; i++) {
		const struct result *r = &g->res[i];

		if (r->status != ROW_OK || !same_cell(r, cell) ||
		    (g->variant >= 0 && r->variant_index != g->variant) ||
		    !isfinite(r->value[field]))
			continue;
		v[n++] = r->value[field];
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	if (!n)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Every pass of both the same value (100 % deadlines met, as is usual)? */
static bool all_equal(const double *a, int na, const double *b, int nb)
{
	for (int i = 0; i < na; i++)
		if (a[i] != a[0])
			return false;
	for (int i = 0; i < nb; i++)
		if (b[i] != a[0])
			return false;
	return true;
}

static struct verdict *new_verdict(struct verdict_table *t)
{
	if (t->n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 32;
		struct verdict *p = realloc(t->v, (size_t)cap * sizeof(*p));

		if (!p)
			return NULL;
		t->v = p;
		t->cap = cap;
	}
	memset(&t->v[t->n], 0, sizeof(t->v[0]));
	return &t->v[t->n++];
}

/* One metric of a cell, gi's passes b[0..nb) against group 0's a[0..na); 0, or -ENOMEM. */
static int one_verdict(struct verdict_table *t, int gi, const struct result *cell, int m,
		       double *a, int na, double *b, int nb)
{
	struct verdict *v = new_verdict(t);

	if (!v)
		return -ENOMEM;
	snprintf(v->bench, sizeof(v->bench), "%s", cell->bench);
	snprintf(v->load, sizeof(v->load), "%s", cell->load);
	snprintf(v->in_group, sizeof(v->in_group), "%s", cell->group);
	v->rtapp = cell->rtapp;
	v->metric = m;
	v->group = gi;
	v->realtime = cell->realtime;
	v->ncpus = cell->ncpus;
	if (shift_test(a, na, b, nb, &v->t) == -ENOMEM)
		return -ENOMEM;
	v->constant = all_equal(a, na, b, nb);
	v->a = median(a, na);
	v->b = median(b, nb);
	v->q = NAN;
	v->power = -1;
	return 0;
}

/*
 * B lower than A, or higher: from the rank statistic, as the test that
 * called it sees it (a ratio of medians or of shifts can sit at 1 when
 * most passes tie); at the null mean, where p is 1, from the medians.
 */
static int direction(const struct verdict *v)
{
	if (v->t.direction)
		return v->t.direction;
	return (v->b > v->a) - (v->b < v->a);
}

/* Is the change an improvement? Lower latency, fewer stutters and xruns, more deadlines met. */
static bool improves(const struct verdict *v)
{
	return v->metric == VM_DL ? direction(v) > 0 : direction(v) < 0;
}

/*
 * A test left out of the count (Tarone) shows why: too few passes when even
 * untied values at these sizes could not reach VERDICT_FDR / k, else no
 * difference shown, untested, its ties being why (or every value the same).
 */
static int verdict_kind(const struct verdict *v, int k)
{
	if (v->counted && v->q <= VERDICT_FDR)
		return improves(v) ? VK_BETTER : VK_WORSE;
	if (v->counted)
		return VK_NO_DIFFERENCE;
	if (v->constant || !isfinite(v->t.p) || !(v->t.p_min > VERDICT_FDR / k))
		return VK_NO_DIFFERENCE;
	return VK_TOO_FEW;
}

/* Tarone's count, then q over the tests counted. */
static int count_and_adjust(struct verdict_table *t)
{
	double *pmin = calloc(2 * (size_t)t->n + 1, sizeof(*pmin)), *q = pmin + t->n;
	bool *counted = calloc((size_t)t->n + 1, sizeof(*counted));

	if (!pmin || !counted) {
		free(pmin);
		free(counted);
		return -ENOMEM;
	}
	for (int i = 0; i < t->n; i++)
		pmin[i] = isfinite(t->v[i].t.p) ? t->v[i].t.p_min_ties : NAN;
	t->tarone_k = tarone_count(pmin, t->n, VERDICT_FDR, counted);
	for (int i = 0; i < t->n; i++)
		pmin[i] = counted[i] ? t->v[i].t.p : NAN;	/* now the p that count */
	bh_qvalues(pmin, t->n, q);
	for (int i = 0; i < t->n; i++) {
		t->v[i].counted = counted[i];
		t->v[i].q = q[i];
		t->ntests += counted[i];
	}
	free(pmin);
	free(counted);
	return 0;
}

/*
 * The false discovery rate is held over the table at once
 * (Benjamini-Hochberg), so that 40 cells x 3 metrics do not cry wolf, but
 * only over the tests that could ever pass: one whose smallest attainable p,
 * given its ties, is above the level it would be held to (every pass the
 * same, or a single pass apart from the others) would only raise the bar
 * for the rest (Tarone's refinement, core/verdict_stats.c). A test too small to
 * pass says how many passes could: those whose p_min passes BH alone among
 * the tests counted and those like it.
 */
static int judge(struct verdict_table *t)
{
	int need;

	if (count_and_adjust(t))
		return -ENOMEM;
	for (int i = 0; i < t->n; i++) {
		struct verdict *v = &t->v[i];

		v->kind = verdict_kind(v, t->tarone_k);
		v->tested = v->counted || v->kind == VK_TOO_FEW;
		t->ntoofew += v->kind == VK_TOO_FEW;
		t->ncalled += v->kind == VK_BETTER || v->kind == VK_WORSE;
	}
	need = passes_for_significance(t->ntests + t->ntoofew);
	for (int i = 0; i < t->n; i++)
		t->v[i].need = need;
	return 0;
}

/* Is r's cell among the n cells seen so far? (Cells are few; results may be many.) */
static bool seen_cell(const struct result *const *cells, int n, const struct result *r)
{
	for (int k = 0; k < n; k++)
		if (same_cell(cells[k], r))
			return true;
	return false;
}

/* What verdicts_build() does with each cell x group x metric that has passes on both sides. */
typedef int (*cell_fn)(struct verdict_table *t, int gi, const struct result *cell, int m,
		       double *a, int na, double *b, int nb);

/*
 * Every cell of group 0 (in its order), each other group against it, each
 * metric: fn on the passes of both, where both have some. 0, or fn's error.
 */
static int each_cell(struct verdict_table *t, const struct verdict_group *g, cell_fn fn,
		     const struct result **cells, double *a, double *b)
{
	int ncells = 0, err = 0;

	for (int i = 0; !err && t->ngroups > 1 && i < g[0].nres; i++) {
		const struct result *r = &g[0].res[i];

		if ((g[0].variant >= 0 && r->variant_index != g[0].variant) ||
		    seen_cell(cells, ncells, r))
			continue;
		cells[ncells++] = r;
		for (int gi = 1; !err && gi < t->ngroups; gi++)
			for (int m = 0; !err && m < VM_COUNT; m++) {
				int na = pass_values(&g[0], r, verdict_metric(m)->field, a);
				int nb = pass_values(&g[gi], r, verdict_metric(m)->field, b);

				/* Gaming has no deadlines; a failed cell no numbers */
				if (na && nb)
					err = fn(t, gi, r, m, a, na, b, nb);
			}
	}
	return err;
}

/*
 * n10%, once the table is judged: at the level a new finding would be held
 * to, VERDICT_FDR max(1, R) / m (Benjamini-Hochberg's bar with R of the m
 * tests counted already called; VERDICT_FDR with none counted). The cells
 * are walked again in the same order, the i-th verdict being theirs.
 */
static int one_power(struct verdict_table *t, int gi, const struct result *cell, int m,
		     double *a, int na, double *b, int nb)
{
	struct verdict *v = &t->v[t->npower++];

	(void)gi;
	(void)cell;
	v->power = passes_for_change(a, na, b, nb, verdict_change_kind(m), CHANGE_SHOWN,
				     POWER_SHOWN, t->power_level);
	return v->power == -ENOMEM ? -ENOMEM : 0;
}

/* Every cell's verdicts, judged over the table, with their n10%. 0, or -ENOMEM. */
int verdicts_build(const struct verdict_group *g, int ng, struct verdict_table *t)
{
	const struct result **cells = NULL;
	int most = 0, err = -ENOMEM;
	double *a, *b;

	memset(t, 0, sizeof(*t));
	t->ngroups = ng < VERDICT_MAX_GROUPS ? ng : VERDICT_MAX_GROUPS;
	for (int i = 0; i < t->ngroups; i++) {
		snprintf(t->labels[i], sizeof(t->labels[i]), "%s", g[i].label);
		most = g[i].nres > most ? g[i].nres : most;
	}
	a = calloc((size_t)most + 1, sizeof(*a));
	b = calloc((size_t)most + 1, sizeof(*b));
	cells = calloc((size_t)g[0].nres + 1, sizeof(*cells));
	if (a && b && cells && !each_cell(t, g, one_verdict, cells, a, b) && !judge(t)) {
		t->power_level = VERDICT_FDR * (t->ncalled > 1 ? t->ncalled : 1) /
				 (t->ntests > 1 ? t->ntests : 1);
		err = each_cell(t, g, one_power, cells, a, b);
	}
	free(a);
	free(b);
	free(cells);
	if (err)
		verdicts_free(t);
	return err;
}

/* Is there a verdict, or only cells with too few passes (and metrics with nothing to test)? */
bool verdicts_any(const struct verdict_table *t)
{
	for (int i = 0; i < t->n; i++)
		if (t->v[i].kind != VK_TOO_FEW && !t->v[i].constant)
			return true;
	return false;
}

void verdicts_free(struct verdict_table *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

/* A --vary run's verdicts: each variant of the record against A. */
int record_verdicts(const struct run_record *rec, struct verdict_table *t)
{
	struct verdict_group g[VERDICT_MAX_GROUPS];
	int ng = rec->cfg->nvariants;

	if (ng > VERDICT_MAX_GROUPS)
		ng = VERDICT_MAX_GROUPS;
	for (int v = 0; v < ng; v++) {
		g[v] = (struct verdict_group){ .res = rec->res, .nres = rec->nres, .variant = v };
		snprintf(g[v].label, sizeof(g[v].label), "%c %s", 'A' + v,
			 rec->cfg->variants[v].label);
	}
	return verdicts_build(g, ng, t);
}
