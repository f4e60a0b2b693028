// SPDX-License-Identifier: GPL-2.0-or-later
/* report/workload_table.c - a workload file's text: its header lines, its table (a line per
 * load, a line per thread under it), its --explain lines and its --repeat summary. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"
#include "lib/util.h"
#include "model/config.h"
#include "model/log_format.h"
#include "model/plan.h"
#include "model/workloads.h"
#include "report/report.h"

/*
 * Header lines, after the Settings line: which file ran (its path and
 * digest, its threads, how its timers ran) and, once, the keys it has that
 * interbench accepts without effect.
 */
void report_workload_header(struct report *o, const struct run_record *rec)
{
	const struct rtapp_input *wf = &rec->cfg->rtapp;

	if (!wf->model)
		return;
	report_out(o, "%s%s (%s), sha256 %s, %zu thread object%s (%d thread%s); timers %s\n",
		   LOG_MARK(LM_WORKLOAD), wf->name, wf->path, wf->sha256, wf->model->nthreads,
		   wf->model->nthreads == 1 ? "" : "s", rtapp_nthreads(wf->model),
		   rtapp_nthreads(wf->model) == 1 ? "" : "s",
		   wf->swept ? "swept against the tick (--period swept)" : "exact, as in rt-app");
	if (wf->note[0])
		report_out(o, "%s%s\n", LOG_MARK(LM_NOTE), wf->note);
}

/* The thread names' column: as wide as the longest, at least THREAD_NAME_WIDTH. */
static int name_width(const struct run_record *rec)
{
	const struct rtapp_file *f = rec->cfg->rtapp.model;
	int w = THREAD_NAME_WIDTH;

	for (size_t j = 0; f && j < f->nthreads; j++)
		if ((int)strlen(f->threads[j].name) > w)
			w = (int)strlen(f->threads[j].name);
	return w;
}

static bool column_shown(const struct run_record *rec, const struct log_column *c)
{
	return !(c->flags & LC_PERCENTILE) || rec->cfg->percentiles;
}

/* Where the columns end: the load's line puts its intensity there, under its head. */
static int columns_width(const struct run_record *rec)
{
	int w = name_width(rec);
	size_t ncols;
	const struct log_column *cols = log_table_columns(LT_THREAD, &ncols);

	for (size_t i = 0; i < ncols; i++)
		if (column_shown(rec, &cols[i]))
			w += (int)strlen(cols[i].sep) + abs(cols[i].width);
	return w;
}

void report_workload_heading(struct report *o, const struct run_record *rec, int ncpus)
{
	const struct config *cfg = rec->cfg;
	size_t ncols;
	const struct log_column *cols = log_table_columns(LT_THREAD, &ncols);

	o->table_first = rec->nres;
	o->table_marks = 0;
	report_out(o, "%s%s ", LOG_MARK(LM_WORKLOAD_HEADING), cfg->rtapp.name);
	if (cfg->realtime)
		report_out(o, "%s", LOG_MARK(LM_REALTIME));
	report_out(o, "%s", LOG_MARK(LM_PRESENCE));
	if (cfg->load_nice)
		report_out(o, "nice %d ", cfg->load_nice);
	report_heading_end(o, ncpus);
	report_load_cell(o, rec, "Load", -1);
	report_out(o, "%-*s", name_width(rec), LOG_MARK(LM_THREAD));
	for (size_t i = 0; i < ncols; i++) {
		const struct log_column *c = &cols[i];

		if (!column_shown(rec, c))
			continue;
		report_out(o, "%s", c->head);
		if (c->flags & LC_UNIT)
			report_out(o, " (%s)", cfg->realtime ? "us" : "ms");
	}
	report_out(o, "%s\n", LOG_MARK(LM_INTENSITY));
}

/* The load's line: its intensity under the column's head, what its I/O measured, why it failed. */
static void load_line(struct report *o, const struct run_record *rec, const struct result *r)
{
	char v[96];

	report_load_cell(o, rec, r->load, r->variant_index);
	if (r->status == ROW_FAILED) {
		report_out(o, "%s: %s\n", LOG_MARK(LM_FAILED), r->reason);
		return;
	}
	load_work_text(v, sizeof(v), r->value, r->unit);
	report_out(o, "%*s  %s", columns_width(rec), "", v);
	report_load_notes(o, r);
	report_out(o, "\n");
}

/* A thread's line: its name, its numbers in the thread table's columns, its marks. */
static void thread_line(struct report *o, const struct run_record *rec, int i)
{
	const struct result *r = &rec->res[i];
	double u = report_unit_ns(rec);
	char marks[256];
	size_t ncols;
	const struct log_column *cols = log_table_columns(LT_THREAD, &ncols);

	report_out(o, "\t%-*s", name_width(rec), r->bench);
	if (r->status == ROW_FAILED) {
		report_out(o, " %s\n", LOG_MARK(LM_FAILED));
		return;
	}
	for (size_t k = 0; k < ncols; k++) {
		const struct log_column *c = &cols[k];

		if (!column_shown(rec, c))
			continue;
		report_column_cell(o, c, r, u);
	}
	o->table_marks |= result_marks(r, record_fastest(rec, i + 1), marks, sizeof(marks));
	if (marks[0])
		report_out(o, "  [%s]", marks);
	report_worst_note(o, rec, r);
	report_out(o, "\n");
}

/* A row of the file, results [first, first + n): the load's line, a line per thread. */
void report_threads(struct report *o, const struct run_record *rec, int first, int n)
{
	if (n < 1 || first < 0)
		return;
	load_line(o, rec, &rec->res[first]);
	for (int i = first; i < first + n; i++)
		thread_line(o, rec, i);
}

/* --explain: where each thread's latency went, a line per load and thread. */
static void workload_explain(struct report *o, const struct run_record *rec)
{
	char line[700], label[2 * RES_NAME_LEN + 4];

	report_out(o, "Where the latency went (%s), per thread:\n",
		   rec->cfg->realtime ? "us" : "ms");
	for (int i = o->table_first; i < rec->nres; i++) {
		const struct result *r = &rec->res[i];

		if (r->status == ROW_FAILED || !r->wake)
			continue;
		snprintf(label, sizeof(label), "%s %s", r->load, r->bench);
		if (!(r->value[RF_SAMPLES] > 0))
			report_out(o, "%s: no wake-ups (none after a timer, a resume or its "
				   "suspend)\n", label);
		else
			explain_line(line, sizeof(line), r, report_unit_ns(rec), label,
				     rec->cfg->wake == WAKE_TIMER);
		if (r->value[RF_SAMPLES] > 0)
			report_out(o, "%s\n", line);
	}
	report_out(o, "\n");
}

/* The table's end: the marks' footnote, then --explain's lines. */
void report_workload_end(struct report *o, const struct run_record *rec)
{
	report_marks_note(o);
	if (rec->cfg->explain && rec->nres > o->table_first)
		workload_explain(o, rec);
}

/* --repeat, a workload file's summary: a line per load and thread, its heading first. */
void workload_summary_line(struct report *o, const struct run_record *rec,
			   const struct cell *cell, const struct pass_summary *s)
{
	const struct config *cfg = rec->cfg;
	char m[32], lo[32], hi[32], mx[32], d[32], text[128], n10[48];
	double u = report_unit_ns(rec), mean = s->value[RF_MEAN], half = s->half_mean;
	int w = name_width(rec);

	if (cell->table_start) {
		report_out(o, "--- Summary of %d passes: rt-app workload %s ", cfg->repeat,
			   cfg->rtapp.name);
		report_heading_end(o, cell->ncpus);
		snprintf(text, sizeof(text), "Latency (%s) [95%% CI]", cfg->realtime ? "us" : "ms");
		report_load_cell(o, rec, "Load", -1);
		report_out(o, "%-*s  %-30s%12s%17s%8s  %s\n", w, LOG_MARK(LM_THREAD), text,
			   "Max Latency", "% Deadlines Met", "Passes", "n10% mean/p99/dl");
	}
	report_load_cell(o, rec, workloads[cell->load].name, cell->variant);
	report_out(o, "%-*s  ", w, cell_result_name(cfg, cell, cell->member));
	if (!s->npass) {
		report_out(o, "no pass produced numbers\n");
		return;
	}
	fmt_sig3(m, sizeof(m), mean / u);
	fmt_sig3(lo, sizeof(lo), mean > half ? (mean - half) / u : 0.0);
	fmt_sig3(hi, sizeof(hi), (mean + half) / u);
	fmt_sig3(mx, sizeof(mx), s->max / u);
	fmt_pct(d, sizeof(d), s->value[RF_DEADLINES_MET_PCT], 0);
	snprintf(text, sizeof(text), "%7s [%s, %s]", isfinite(mean) ? m : "-",
		 isfinite(mean) ? lo : "-", isfinite(mean) ? hi : "-");
	report_out(o, "%-30s%12s%17s%8d  %s\n", text, mx, d, s->npass,
		   report_power_text(n10, sizeof(n10), s, true));
}
