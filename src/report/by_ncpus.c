// SPDX-License-Identifier: GPL-2.0-or-later
/* report/by_ncpus.c - --ncpus's closing tables: a number of each benchmark x load against the
 * CPU count, the table sched_ext authors post. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/workloads.h"
#include "report/report.h"
#include "model/config.h"
#include "model/plan.h"
#include "lib/numfmt.h"

/*
 * The tables, in the order printed. A chain's figure (stutters, xruns) is
 * one more row here: its field, and no fallback.
 */
const struct count_metric count_metrics[] = {
	{ .title = "% deadlines met", .field = RF_DEADLINES_MET_PCT, .fallback = RF_CPU,
	  .fallback_note = "% desired CPU: it has no deadlines" },
	{ .title = "stutters (Game)", .field = RF_STUTTERS, .fallback = -1 },
	{ .title = "xruns (AudioGraph)", .field = RF_XRUNS, .fallback = -1 },
};
const size_t nr_count_metrics = ARRAY_SIZE(count_metrics);

/*
 * The mean over the passes of cell x count of the metric, for the cell's
 * result k (a group's member, a workload file's thread); *fell: from its
 * fallback.
 */
static double count_value(const struct run_record *rec, const struct cell *c, int k,
			  int variant, int ncpus, const struct count_metric *m,
			  const struct result **list, bool *fell)
{
	struct pass_summary s;
	int n = record_passes_of(rec, cell_result_name(rec->cfg, c, k), workloads[c->load].name,
				 variant, ncpus, cell_group_name(rec->cfg, c), list);

	summarize_passes(list, n, &s);
	*fell = false;
	if (!s.npass)
		return NAN;
	if (isfinite(s.value[m->field]) || m->fallback < 0)
		return s.value[m->field];
	*fell = true;
	return s.value[m->fallback];
}

/*
 * The first column: the benchmark, "Video@Desktop" for a group's member,
 * "AudioTick@mp3.json" for a workload file's thread; "*" its fallback.
 */
static void bench_label(char *buf, size_t len, const struct run_record *rec,
			const struct cell *c, int k, bool fell)
{
	char label[MEMBER_LABEL_LEN];

	member_label(label, sizeof(label), cell_result_name(rec->cfg, c, k),
		     cell_group_name(rec->cfg, c));
	snprintf(buf, len, "%s%s", label, fell ? "*" : "");
}

/*
 * One line: the benchmark (k: the cell's result, a member of its group or
 * a thread of its file), the load (with --vary, its variant), a column per
 * count.
 */
static bool count_line(struct sbuf *sb, const struct run_record *rec, const struct cell *c,
		       int k, int variant, const struct count_metric *m,
		       const struct result **list, int width)
{
	const struct config *cfg = rec->cfg;
	char load[RES_NAME_LEN + 4], label[MEMBER_LABEL_LEN + 4], v[32], line[512];
	bool any = false, fell = false;
	size_t used;

	snprintf(load, sizeof(load), cfg->nvariants ? "%s/%c" : "%s", workloads[c->load].name,
		 'A' + variant);
	for (int j = 0; j < cfg->nncpus; j++) {
		bool f;
		double x = count_value(rec, c, k, variant, cfg->ncpus[j], m, list, &f);

		any |= isfinite(x);
		fell |= f;
	}
	if (!any)
		return false;	/* a figure this benchmark does not have */
	bench_label(label, sizeof(label), rec, c, k, fell);
	used = (size_t)snprintf(line, sizeof(line), "%-*s %-10s", width, label, load);
	for (int j = 0; j < cfg->nncpus && used < sizeof(line); j++) {
		bool f;
		double x = count_value(rec, c, k, variant, cfg->ncpus[j], m, list, &f);

		if (isfinite(x))
			fmt_pct(v, sizeof(v), x, 0);
		else
			snprintf(v, sizeof(v), "-");
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %8s", v);
	}
	sb_printf(sb, "%s\n", line);
	return fell;
}

/* Whether any result has metric m: the chains' tables only where a chain ran. */
static bool metric_shown(const struct run_record *rec, const struct count_metric *m)
{
	if (m->fallback >= 0)
		return true;
	for (int i = 0; i < rec->nres; i++)
		if (isfinite(rec->res[i].value[m->field]))
			return true;
	return false;
}

/* The first column's width: the longest label of the run, at least 10. */
static int label_width(const struct run_record *rec)
{
	const struct rtapp_input *wf = &rec->cfg->rtapp;
	int w = 10;

	for (size_t j = 0; wf->model && j < wf->model->nthreads; j++) {
		int n = (int)(strlen(wf->model->threads[j].name) + 1 + strlen(wf->name));

		w = n > w ? n : w;
	}
	for (int g = 0; g < rec->cfg->ngroups; g++) {
		const struct task_group *tg = &rec->cfg->groups[g];
		bool desktop = !strcmp(tg->name, GROUP_DESKTOP);

		for (int j = 0; j < tg->n; j++) {
			int n = (int)(strlen(workloads[tg->member[j]].name) + 2 +
				      (desktop ? strlen("Desktop") : strlen(tg->name)));

			w = n > w ? n : w;
		}
	}
	return w;
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
	int nv = cfg->nvariants ? cfg->nvariants : 1, width;
	bool fell = false;
	char head[32];

	if (!list || !cfg->nncpus || !metric_shown(rec, m))
		goto out;
	sb_printf(sb, "--- %s by CPU count", m->title);
	if (cfg->repeat > 1)
		sb_printf(sb, ", the mean of %d passes", cfg->repeat);
	width = label_width(rec);
	sb_printf(sb, " ---\n%-*s %-10s", width, "Bench", "Load");
	for (int k = 0; k < cfg->nncpus; k++) {
		snprintf(head, sizeof(head), "%d CPU%s", cfg->ncpus[k], cfg->ncpus[k] == 1 ? "" : "s");
		sb_printf(sb, " %8s", head);
	}
	sb_puts(sb, "\n");
	for (int i = 0; i < plan_first_cells(cfg, p) && p->cells[i].ncpus == cfg->ncpus[0];
	     i += plan_cell_step(cfg, p)) {
		const struct cell *c = &p->cells[i];

		for (int j = 0; j < cell_nresults(cfg, c); j++)
			for (int v = 0; v < nv; v++)
				fell |= count_line(sb, rec, c, j, v, m, list, width);
	}
	if (fell)
		sb_printf(sb, "*: %s\n", m->fallback_note);
	sb_puts(sb, "\n");
out:
	free(list);
}
