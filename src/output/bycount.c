// SPDX-License-Identifier: GPL-2.0-or-later
/* output/bycount.c - --ncpus's closing tables: a number of each benchmark x load against the
 * CPU count, the table sched_ext authors post. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loads/loads.h"
#include "output/output.h"
#include "run/config.h"
#include "run/plan.h"

/*
 * The tables, in the order printed. A chain's figure (stutters, xruns) is
 * one more row here: its field, and no fallback.
 */
const struct count_metric count_metrics[] = {
	{ .title = "% deadlines met", .field = RF_DL, .fallback = RF_CPU,
	  .fallback_note = "% desired CPU: it has no deadlines" },
};
const size_t nr_count_metrics = ARRAY_SIZE(count_metrics);

/* The mean over the passes of cell x count of the metric; *fell: from its fallback. */
static double count_value(const struct run_record *rec, const struct cell *c, int variant,
			  int ncpus, const struct count_metric *m, const struct result **list,
			  bool *fell)
{
	struct pass_summary s;
	int n = record_passes_of(rec, workloads[c->bench].name, workloads[c->load].name,
				 variant, ncpus, list);

	summarize_passes(list, n, &s);
	*fell = false;
	if (!s.npass)
		return NAN;
	if (isfinite(s.v[m->field]) || m->fallback < 0)
		return s.v[m->field];
	*fell = true;
	return s.v[m->fallback];
}

/* One line: the benchmark, the load (with --vary, its variant), a column per count. */
static bool count_line(struct sbuf *sb, const struct run_record *rec, const struct cell *c,
		       int variant, const struct count_metric *m, const struct result **list)
{
	const struct config *cfg = rec->cfg;
	char load[RES_NAME_LEN + 4], bench[RES_NAME_LEN + 2], v[32], line[512];
	bool any = false, fell = false;
	size_t used;

	snprintf(load, sizeof(load), cfg->nvariants ? "%s/%c" : "%s", workloads[c->load].name,
		 'A' + variant);
	for (int k = 0; k < cfg->nncpus; k++) {
		bool f;
		double x = count_value(rec, c, variant, cfg->ncpus[k], m, list, &f);

		any |= isfinite(x);
		fell |= f;
	}
	if (!any)
		return false;	/* a figure this benchmark does not have */
	snprintf(bench, sizeof(bench), "%s%s", workloads[c->bench].name, fell ? "*" : "");
	used = (size_t)snprintf(line, sizeof(line), "%-10s %-10s", bench, load);
	for (int k = 0; k < cfg->nncpus && used < sizeof(line); k++) {
		bool f;
		double x = count_value(rec, c, variant, cfg->ncpus[k], m, list, &f);

		if (isfinite(x))
			fmt_pct(v, sizeof(v), x, 0);
		else
			snprintf(v, sizeof(v), "-");
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %8s", v);
	}
	sb_printf(sb, "%s\n", line);
	return fell;
}

/*
 * The table of metric m: a line per benchmark x load (x variant) of the
 * plan's first pass, in its order, a column per --ncpus count in the order
 * given; each value the mean over the passes ("-": no pass gave one).
 */
void count_table(struct sbuf *sb, const struct run_record *rec, const struct count_metric *m)
{
	const struct config *cfg = rec->cfg;
	const struct plan *p = rec->plan;
	const struct result **list = calloc((size_t)rec->nres + 1, sizeof(*list));
	int nv = cfg->nvariants ? cfg->nvariants : 1;
	bool fell = false;
	char head[32];

	if (!list || !cfg->nncpus)
		goto out;
	sb_printf(sb, "--- %s by CPU count", m->title);
	if (cfg->repeat > 1)
		sb_printf(sb, ", the mean of %d passes", cfg->repeat);
	sb_printf(sb, " ---\n%-10s %-10s", "Bench", "Load");
	for (int k = 0; k < cfg->nncpus; k++) {
		snprintf(head, sizeof(head), "%d CPU%s", cfg->ncpus[k], cfg->ncpus[k] == 1 ? "" : "s");
		sb_printf(sb, " %8s", head);
	}
	sb_puts(sb, "\n");
	for (int i = 0; i < p->per_pass && p->cells[i].ncpus == cfg->ncpus[0]; i += nv)
		for (int v = 0; v < nv; v++)
			fell |= count_line(sb, rec, &p->cells[i], v, m, list);
	if (fell)
		sb_printf(sb, "*: %s\n", m->fallback_note);
	sb_puts(sb, "\n");
out:
	free(list);
}
