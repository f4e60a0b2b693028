// SPDX-License-Identifier: GPL-2.0-or-later
/* model/summary.c - the passes of one cell summarised (means, their intervals, the passes a
 * 10 % change would take), and the walk over every cell's summary in the tables' order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/verdict_stats.h"
#include "model/kinds.h"
#include "model/config.h"
#include "model/plan.h"
#include "model/record.h"
#include "model/result.h"
#include "model/workloads.h"

#define SUMMARY_CHANGE 0.10
#define SUMMARY_POWER 0.80

/*
 * The passes per setting that find a 10 % change of a number 80 % of the
 * time, from these passes' own spread resampled (core/power.c), at the
 * level of one cell's three tests (mean, p99, deadlines: 0.05 / 3); a
 * table of more cells asks for more, as its verdicts' n10% says. The
 * passes stand for both settings, as if compared with themselves.
 */
static int summary_power(const double *v, int n, int field)
{
	int got;

	if (n < 3)
		return -1;	/* two passes say next to nothing of a spread */
	got = passes_for_change(v, n, v, n,
				field == RF_DEADLINES_MET_PCT ? CHANGE_SHORTFALL : CHANGE_SCALE,
				SUMMARY_CHANGE, SUMMARY_POWER, VERDICT_FDR / 3);
	return got > POWER_CAP ? -1 : got;
}

/*
 * The passes that gave numbers: mean latency with its 95 % confidence
 * interval, the largest max and the mean max, the SD pooled (root mean
 * square), the rest averaged.
 */
void summarize_passes(const struct result *const *res, int n, struct pass_summary *s)
{
	static const int power_of[3] = { RF_MEAN, RF_P99, RF_DEADLINES_MET_PCT };
	double *v = calloc((size_t)n + 1, sizeof(*v)), half;

	memset(s, 0, sizeof(*s));
	for (int k = 0; k < 3; k++)
		s->power[k] = -1;
	for (int k = 0; k < RF_COUNT; k++)
		s->value[k] = NAN;
	for (int i = 0; i < n; i++) {
		if (res[i]->status != ROW_OK || !isfinite(res[i]->value[RF_MEAN]))
			s->nfail += res[i]->status == ROW_FAILED;
		else
			s->npass++;
	}
	for (int k = 0; v && s->npass && k < RF_COUNT; k++) {
		int cnt = 0;

		for (int i = 0; i < n; i++) {
			double x = res[i]->value[k];

			if (res[i]->status != ROW_OK || !isfinite(res[i]->value[RF_MEAN]) ||
			    !isfinite(x))
				continue;
			v[cnt++] = k == RF_SD ? x * x : x;
		}
		if (!cnt)
			continue;
		for (int m = 0; m < 3; m++)
			if (power_of[m] == k)
				s->power[m] = summary_power(v, cnt, k);
		mean_ci95(v, cnt, &s->value[k], k == RF_MEAN ? &s->half_mean : &half);
		if (k == RF_SD)
			s->value[k] = sqrt(s->value[k]);
		for (int i = 0; k == RF_MAX && i < cnt; i++)
			s->max = i ? fmax(s->max, v[i]) : v[i];
	}
	free(v);
}

/*
 * One line of the summary: first's cell, its result k (a group's member, a
 * file's thread), variant v; start, end: its table's first and last line.
 */
static void summary_of(const struct run_record *rec, const struct cell *first, int k, int v,
		       bool start, bool end, const struct result **list,
		       void (*fn)(void *arg, const struct cell *c, const struct pass_summary *s),
		       void *arg)
{
	int member[GROUP_MAX];
	struct cell c = *first;
	struct pass_summary s;
	int n;

	c.member = k;
	c.variant = v;
	c.table_start = start;
	c.table_end = end;
	if (k < cell_members(rec->cfg, first, member))	/* a file's: its one bench */
		c.bench = member[k];
	n = record_passes_of(rec, cell_result_name(rec->cfg, first, k), workloads[c.load].name,
			     v, c.ncpus, cell_group_name(rec->cfg, &c), list);
	summarize_passes(list, n, &s);
	fn(arg, &c, &s);
}

/* The end of the table that begins at cell i of the first n cells: its last cell. */
static int table_last(const struct plan *p, int n, int i)
{
	while (i < n - 1 && !p->cells[i].table_end)
		i++;
	return i;
}

/*
 * Per table of the plan's first pass, in its order, each member of its
 * group in turn (-W A+B: the tables print so), per cell each variant in
 * turn (whatever order the pass ran them in): the summary of its passes.
 * fn gets the cell with bench the member's, group still the cell's. A
 * workload file's table is one: per cell and variant, each thread in turn.
 */
void each_cell_summary(const struct run_record *rec,
		       void (*fn)(void *arg, const struct cell *c, const struct pass_summary *s),
			 void *arg)
{
	const struct result **list = calloc((size_t)rec->nres + 1, sizeof(*list));
	const struct plan *p = rec->plan;
	int nv = rec->cfg->nvariants ? rec->cfg->nvariants : 1;
	int step = plan_cell_step(rec->cfg, p), ncells = plan_first_cells(rec->cfg, p);

	for (int t = 0, end; list && t < ncells; t = end + 1) {
		const struct cell *c0 = &p->cells[t];
		int nm = cell_nresults(rec->cfg, c0);
		bool file = cell_table(c0) == TABLE_THREADS;

		end = table_last(p, ncells, t);
		for (int k = 0; k < (file ? 1 : nm); k++)
			for (int i = t; i + step - 1 <= end; i += step)
				for (int v = 0; v < nv; v++)
					for (int j = file ? 0 : k; j < (file ? nm : k + 1); j++)
						summary_of(rec, &p->cells[i], j, v,
							   i == t && v == 0 && (!file || !j),
							   i + step - 1 == end && v == nv - 1 &&
							   (!file || j == nm - 1), list, fn, arg);
	}
	free(list);
}
