// SPDX-License-Identifier: GPL-2.0-or-later
/* verdicts/verdict_print.c - the verdicts as they are shown: a table per benchmark and its legend,
 * JSON and CSV. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/record.h"
#include "verdicts/verdicts.h"
#include "lib/numfmt.h"

#define VERDICT_ROW "%-8s %-14s %8s %8s  %-20s %6s %6s  %-19s %4s\n"	/* a line of the table */
#define VERDICT_WIDTH 100

/* ---- text ---- */

/*
 * "0.0861 [0.0408, 0.189]", "1.75 ~[0.25, 3.25]" (approximate), "1.2
 * [unbounded]", "-": B/A with its interval, as the tables say.
 */
void verdict_ratio_text(char *buf, size_t len, const struct verdict *v)
{
	char r[32], lo[32], hi[32];

	if (!isfinite(v->t.ratio)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_sig3(r, sizeof(r), v->t.ratio);
	if (v->t.ratio_low <= 0 && isinf(v->t.ratio_high)) {
		snprintf(buf, len, "%s [unbounded]", r);
		return;
	}
	fmt_sig3(lo, sizeof(lo), v->t.ratio_low);
	if (isinf(v->t.ratio_high))
		snprintf(hi, sizeof(hi), "inf");
	else
		fmt_sig3(hi, sizeof(hi), v->t.ratio_high);
	snprintf(buf, len, "%s %s[%s, %s]", r, v->t.on_logs ? "" : "~", lo, hi);
}

static void fmt_metric_value(char *buf, size_t len, const struct verdict *v, double x)
{
	if (v->metric == VM_DL)
		fmt_pct(buf, len, x, 0);
	else if (verdict_metric_is_count(v->metric))
		fmt_sig3(buf, len, x);
	else
		fmt_sig3(buf, len, x / (v->realtime ? 1e3 : 1e6));
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.2g", p);
}

/* The verdict as its table's last words say it: "better", "no verdict: needs 5 passes". */
void verdict_what_text(char *buf, size_t len, const struct verdict *v)
{
	if (v->kind == VK_TOO_FEW)
		snprintf(buf, len, "no verdict: needs %d passes", v->need);
	else
		snprintf(buf, len, "%s", verdict_kind_names[v->kind]);
}

/* The metric with its unit: "mean (ms)", "p99 (us)", "deadlines %", "frame p99 (ms)", "xruns". */
void verdict_metric_text(char *buf, size_t len, const struct verdict *v)
{
	snprintf(buf, len, "%s%s", verdict_metric_names[v->metric],
		 v->metric == VM_DL ? " %" : verdict_metric_is_count(v->metric) ? "" :
		 v->realtime ? " (us)" : " (ms)");
}

/* n10%: "368", ">10000", "-" */
static void fmt_power(char *buf, size_t len, int power)
{
	if (power > POWER_CAP)
		snprintf(buf, len, ">%d", POWER_CAP);
	else if (power > 0)
		snprintf(buf, len, "%d", power);
	else
		snprintf(buf, len, "-");
}

/* One line of a verdict table. */
static void verdict_line(struct sbuf *sb, const struct verdict *v)
{
	char a[32], b[32], ratio[112], p[16], q[16], what[64], power[16];
	char metric[32];

	fmt_metric_value(a, sizeof(a), v, v->a);
	fmt_metric_value(b, sizeof(b), v, v->b);
	verdict_ratio_text(ratio, sizeof(ratio), v);
	fmt_p(p, sizeof(p), v->t.p);
	fmt_p(q, sizeof(q), v->q);
	verdict_what_text(what, sizeof(what), v);
	fmt_power(power, sizeof(power), v->power);
	verdict_metric_text(metric, sizeof(metric), v);
	sb_printf(sb, VERDICT_ROW, v->load, metric, a, b, ratio, p, q, what, power);
}

/*
 * The verdicts of bench (in in_group, "" alone; -r's or not) on ncpus CPUs
 * (0: without --ncpus), one table per group compared with the first.
 */
void verdicts_print(struct sbuf *sb, const struct verdict_table *t, const char *bench,
		    const char *in_group, bool realtime, int ncpus)
{
	char name[MEMBER_LABEL_LEN];

	member_label(name, sizeof(name), bench, in_group);
	for (int gi = 1; gi < t->ngroups; gi++) {
		bool any = false;

		for (int i = 0; i < t->n; i++) {
			const struct verdict *v = &t->v[i];

			if (v->group != gi || !verdict_of(v, bench, in_group, realtime) ||
			    v->ncpus != ncpus)
				continue;
			if (!any) {	/* runs: "[2]" is B, "[1]" A; variants have letters */
				bool runs = t->labels[0][0] == '[';
				char on[24] = "";

				if (ncpus)
					snprintf(on, sizeof(on), " on %d CPU%s", ncpus,
						 ncpus == 1 ? "" : "s");
				sb_printf(sb, "--- Verdicts for %s%s%s: %s%s against %s%s (passes: "
					  "%d and %d) ---\n", name, realtime ? " real time" : "",
					  on, runs ? "B = " : "", t->labels[gi], runs ? "A = " : "",
					  t->labels[0], v->t.na, v->t.nb);
				sb_printf(sb, VERDICT_ROW, "Load", "Metric", "median A",
					  "median B", "B/A [95% interval]", "p", "q", "Verdict",
					  "n10%");
			}
			any = true;
			verdict_line(sb, v);
		}
		if (any)
			sb_puts(sb, "\n");
	}
}

/* text into sb, its words wrapped at VERDICT_WIDTH columns. */
static void sb_wrapped(struct sbuf *sb, const char *text)
{
	int col = 0;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col && col + 1 + (int)n > VERDICT_WIDTH) {
			sb_puts(sb, "\n");
			col = 0;
		} else if (col) {
			sb_puts(sb, " ");
			col++;
		}
		sb_add(sb, text, n);
		col += (int)n;
		text += n;
		text += strspn(text, " ");
	}
	sb_puts(sb, "\n\n");
}

/* Is any of the table's intervals approximate, any p from Monte Carlo? */
static void table_marks(const struct verdict_table *t, bool *approx, bool *sampled)
{
	*approx = *sampled = false;
	for (int i = 0; i < t->n; i++) {
		*approx |= !t->v[i].t.on_logs && isfinite(t->v[i].t.ratio_low) &&
			   isfinite(t->v[i].t.ratio_high);
		*sampled |= !t->v[i].t.p_exact;
	}
}

/* Under the verdict tables: what their columns mean, once. */
void verdicts_legend(struct sbuf *sb, const struct verdict_table *t)
{
	char text[1536], count[32];
	int out = 0;
	bool approx, sampled;

	for (int i = 0; i < t->n; i++)
		out += isfinite(t->v[i].t.p) && !t->v[i].counted;
	table_marks(t, &approx, &sampled);
	snprintf(count, sizeof(count), t->ntests ? "the %d test%s" : "the tests (none here)",
		 t->ntests, t->ntests == 1 ? "" : "s");
	snprintf(text, sizeof(text), "Verdicts: the passes of each variant (the unit of "
		 "evidence) against those of the first. B/A: the Hodges-Lehmann ratio, with its "
		 "distribution-free 95 %% interval%s; p: the two-sided Mann-Whitney test, exact "
		 "given the ties (mid-ranks)%s; q: Benjamini-Hochberg over %s that could reach "
		 "q <= %.2g given their ties and passes (Tarone: %d left out, shown as no "
		 "difference or as the passes needed); better or worse where q <= %.2g, which way "
		 "from the ranks; n10%%: passes per variant that find a 10 %% change 80 %% of the "
		 "time at this table's level, p <= %.2g, from these passes' own spread resampled.",
		 approx ? " (~: approximate, of values that can be 0, their difference read as a "
		 "ratio through A's median)" : "", sampled ? " or, where that would be slow, from "
		 "9999 random splits" : "", count, VERDICT_FDR, out, VERDICT_FDR, t->power_level);
	sb_wrapped(sb, text);
}

/* ---- files ---- */

static void csv_num(struct sbuf *sb, double v)
{
	if (isfinite(v))
		json_number(sb, v);
	sb_add(sb, ",", 1);
}

/* "distribution-free", "approximate", or "" where there is no ratio */
static const char *interval_kind(const struct verdict *v)
{
	if (!isfinite(v->t.ratio))
		return "";
	return v->t.on_logs ? "distribution-free" : "approximate";
}

/* The file's verdicts: a CSV of its own, one line per verdict. */
void verdicts_csv(struct sbuf *sb, const struct verdict_table *t)
{
	sb_puts(sb, "benchmark,load,metric,variant,baseline,a,b,ratio,ratio_low,ratio_high,p,q,"
		"verdict,tested,passes_a,passes_b,passes_needed,passes_for_10pct,interval,"
		"p_exact,passes_for_10pct_over_cap\n");
	for (int i = 0; i < t->n; i++) {
		const struct verdict *v = &t->v[i];
		char name[MEMBER_LABEL_LEN];

		member_label(name, sizeof(name), v->bench, v->in_group);
		csv_field(sb, name);	/* "Video@Desktop": a column more changes every file */
		sb_printf(sb, ",%s,%s,", v->load, verdict_metric_names[v->metric]);
		csv_field(sb, t->labels[v->group]);
		sb_add(sb, ",", 1);
		csv_field(sb, t->labels[0]);
		sb_add(sb, ",", 1);
		csv_num(sb, v->a);
		csv_num(sb, v->b);
		csv_num(sb, v->t.ratio);
		csv_num(sb, v->t.ratio_low);
		csv_num(sb, v->t.ratio_high);
		csv_num(sb, v->t.p);
		csv_num(sb, v->q);
		sb_printf(sb, "%s,%d,%d,%d,%d,", verdict_kind_names[v->kind], v->tested,
			  v->t.na, v->t.nb,
			  v->kind == VK_TOO_FEW ? v->need : 0);
		if (v->power > 0 && v->power <= POWER_CAP)
			sb_printf(sb, "%d", v->power);
		sb_printf(sb, ",%s,%d,%d\n", interval_kind(v), v->t.p_exact, v->power > POWER_CAP);
	}
}

static void json_pair(struct sbuf *sb, int depth, const char *key, bool first)
{
	sb_puts(sb, first ? "\n" : ",\n");
	for (int i = 0; i < depth; i++)
		sb_add(sb, "  ", 2);
	json_string(sb, key);
	sb_add(sb, ": ", 2);
}

static void json_num_pair(struct sbuf *sb, int depth, const char *key, double v)
{
	json_pair(sb, depth, key, false);
	json_number(sb, v);
}

/* The keys added since 1.x's first verdicts, after the others so that readers keep working. */
static void json_added(struct sbuf *sb, const struct verdict *v, int depth)
{
	json_pair(sb, depth, "interval", false);
	if (isfinite(v->t.ratio))
		json_string(sb, interval_kind(v));
	else
		sb_puts(sb, "null");
	json_pair(sb, depth, "p_exact", false);
	sb_puts(sb, v->t.p_exact ? "true" : "false");
	json_pair(sb, depth, "passes_for_10pct_over_cap", false);
	sb_puts(sb, v->power > POWER_CAP ? "true" : "false");
}

/* The verdicts as a JSON array at depth (the "verdicts" key written by the caller). */
void verdicts_json(struct sbuf *sb, const struct verdict_table *t, int depth)
{
	sb_puts(sb, "[");
	for (int i = 0; i < t->n; i++) {
		const struct verdict *v = &t->v[i];

		sb_puts(sb, i ? ",\n" : "\n");
		for (int k = 0; k < depth + 1; k++)
			sb_add(sb, "  ", 2);
		sb_puts(sb, "{");
		json_pair(sb, depth + 2, "benchmark", true);
		json_string(sb, v->bench);
		if (v->in_group[0]) {	/* only then: a run without groups keeps its shape */
			json_pair(sb, depth + 2, v->rtapp ? "workload" : "group", false);
			json_string(sb, v->in_group);
		}
		json_pair(sb, depth + 2, "load", false);
		json_string(sb, v->load);
		json_pair(sb, depth + 2, "metric", false);
		json_string(sb, verdict_metric_names[v->metric]);
		json_pair(sb, depth + 2, "variant", false);
		json_string(sb, t->labels[v->group]);
		json_pair(sb, depth + 2, "baseline", false);
		json_string(sb, t->labels[0]);
		json_num_pair(sb, depth + 2, "a", v->a);
		json_num_pair(sb, depth + 2, "b", v->b);
		json_num_pair(sb, depth + 2, "ratio", v->t.ratio);
		json_num_pair(sb, depth + 2, "ratio_low", v->t.ratio_low);
		json_num_pair(sb, depth + 2, "ratio_high", isinf(v->t.ratio_high) ? NAN :
			      v->t.ratio_high);
		json_num_pair(sb, depth + 2, "p", v->t.p);
		json_num_pair(sb, depth + 2, "q", v->q);
		json_pair(sb, depth + 2, "verdict", false);
		json_string(sb, verdict_kind_names[v->kind]);
		json_pair(sb, depth + 2, "tested", false);
		sb_puts(sb, v->tested ? "true" : "false");
		json_num_pair(sb, depth + 2, "passes_a", v->t.na);
		json_num_pair(sb, depth + 2, "passes_b", v->t.nb);
		json_num_pair(sb, depth + 2, "passes_needed", v->kind == VK_TOO_FEW ? v->need :
			      NAN);
		json_num_pair(sb, depth + 2, "passes_for_10pct", v->power > 0 &&
			      v->power <= POWER_CAP ? v->power : NAN);
		json_added(sb, v, depth + 2);
		sb_puts(sb, "\n");
		for (int k = 0; k < depth + 1; k++)
			sb_add(sb, "  ", 2);
		sb_puts(sb, "}");
	}
	if (t->n) {
		sb_puts(sb, "\n");
		for (int k = 0; k < depth; k++)
			sb_add(sb, "  ", 2);
	}
	sb_puts(sb, "]");
}

/*
 * What bench's verdicts (in group, "" alone) show in a comparison: VS_NONE when it has none (one run, no cell
 * in common), VS_TOO_FEW when no cell has the passes any verdict needs
 * (text then says so in one sentence), else VS_TABLE.
 */
int verdicts_shown(const struct verdict_table *vt, const char *bench, const char *group,
		   bool realtime, char *text, size_t len)
{
	char name[MEMBER_LABEL_LEN];
	int most = 0, need = 0;
	bool any = false;

	if (!vt || vt->ngroups < 2)
		return VS_NONE;
	for (int i = 0; i < vt->n; i++) {
		const struct verdict *v = &vt->v[i];

		if (!verdict_of(v, bench, group, realtime))
			continue;
		any |= v->kind != VK_TOO_FEW && !v->constant;
		most = v->t.na > most ? v->t.na : most;
		most = v->t.nb > most ? v->t.nb : most;
		need = v->need;
	}
	if (!need)
		return VS_NONE;
	if (any)
		return VS_TABLE;
	member_label(name, sizeof(name), bench, group);
	snprintf(text, len, "No verdict for %s%s: its runs have at most %d pass%s of a cell, and "
		 "with the %d tests of this comparison a verdict needs %d of each (--repeat, or "
		 "logs holding several runs).", name, realtime ? " real time" : "", most,
		 most == 1 ? "" : "es", vt->ntests + vt->ntoofew, need);
	return VS_TOO_FEW;
}
