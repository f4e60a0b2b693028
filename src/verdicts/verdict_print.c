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

#define VERDICT_WIDTH 100	/* the widest line: rows, title and legend */
#define RATIO_FIGS 5		/* the widest number in B/A's column */
#define VALUE_FIGS 6		/* the widest median */

/* ---- text ---- */

/* A ratio in at most RATIO_FIGS characters: "0.041", "12.3", "inf", "2e-04", "3e+05". */
static void fmt_ratio(char *buf, size_t len, double r)
{
	if (isinf(r))
		snprintf(buf, len, "inf");
	else if (r > 0.0 && (r < 0.01 || r >= 99999.5))
		snprintf(buf, len, "%.0e", r);
	else
		fmt_value(buf, len, r, 3, RATIO_FIGS);
}

/*
 * "0.086 [0.041, 0.189]", "1.75 ~[0.25, 3.25]" (approximate), "2.00
 * (1.00, 2.50]" (the test rejects 1.00 itself: an open end), "1.2
 * [unbounded]", "-": B/A with its interval, as the tables say.
 */
void verdict_ratio_text(char *buf, size_t len, const struct verdict *v)
{
	char r[32], lo[32], hi[32];

	if (!isfinite(v->t.ratio)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_ratio(r, sizeof(r), v->t.ratio);
	if (v->t.ratio_low <= 0 && isinf(v->t.ratio_high)) {
		snprintf(buf, len, "%s [unbounded]", r);
		return;
	}
	fmt_ratio(lo, sizeof(lo), v->t.ratio_low);
	fmt_ratio(hi, sizeof(hi), v->t.ratio_high);
	snprintf(buf, len, "%s %s%c%s, %s%c", r, v->t.on_logs ? "" : "~",
		 v->t.low_open ? '(' : '[', lo, hi, v->t.high_open ? ')' : ']');
}

static void fmt_metric_value(char *buf, size_t len, const struct verdict *v, double x)
{
	if (v->metric == VM_DL) {
		fmt_pct(buf, len, x, 0);
		if (strlen(buf) > VALUE_FIGS)
			fmt_pct(buf, len, x, VALUE_FIGS);
	} else
		fmt_value(buf, len, verdict_metric_is_count(v->metric) ? x :
			  x / (v->realtime ? 1e3 : 1e6), 3, VALUE_FIGS);
}

/* p or q in 6 characters at most: "0.016", "0.0012", "<0.001", "-" */
static void fmt_p(char *buf, size_t len, double p)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.2g", p);
}

/*
 * The verdict as its table's last words say it, in JSON's words: "better",
 * "too few passes (5)" (the passes each variant needs; JSON's
 * passes_needed).
 */
void verdict_what_text(char *buf, size_t len, const struct verdict *v)
{
	if (v->kind == VK_TOO_FEW)
		snprintf(buf, len, "%s (%d)", verdict_kind_names[v->kind], v->need);
	else
		snprintf(buf, len, "%s", verdict_kind_names[v->kind]);
}

/* The metric with its unit: "mean (ms)", "p99 (us)", "deadlines %", "frame p99 (ms)", "xruns". */
void verdict_metric_text(char *buf, size_t len, const struct verdict *v)
{
	snprintf(buf, len, "%s%s", verdict_metric_name(v->metric),
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

/* A verdict table's columns: their heads, and which are aligned left. */
enum { VC_LOAD, VC_METRIC, VC_A, VC_B, VC_RATIO, VC_P, VC_Q, VC_WHAT, VC_N10, VC_COLS };
static const char *const column_head[VC_COLS] = {
	"Load", "Metric", "med A", "med B", "B/A [95% interval]", "p", "q", "Verdict", "n10%",
};
static const bool column_left[VC_COLS] = {
	[VC_LOAD] = true, [VC_METRIC] = true, [VC_RATIO] = true, [VC_WHAT] = true,
};
#define CELL_LEN 48

/* One line of a verdict table, as text in its columns. */
static void verdict_cells(const struct verdict *v, char cell[VC_COLS][CELL_LEN])
{
	snprintf(cell[VC_LOAD], CELL_LEN, "%s", v->load);
	verdict_metric_text(cell[VC_METRIC], CELL_LEN, v);
	fmt_metric_value(cell[VC_A], CELL_LEN, v, v->a);
	fmt_metric_value(cell[VC_B], CELL_LEN, v, v->b);
	verdict_ratio_text(cell[VC_RATIO], CELL_LEN, v);
	fmt_p(cell[VC_P], CELL_LEN, v->t.p);
	fmt_p(cell[VC_Q], CELL_LEN, v->q);
	verdict_what_text(cell[VC_WHAT], CELL_LEN, v);
	fmt_power(cell[VC_N10], CELL_LEN, v->power);
}

/*
 * The line in columns of width w[], gap[c] spaces before column c, with no
 * trailing space.
 */
static void table_line(struct sbuf *sb, char cell[VC_COLS][CELL_LEN], const int *w,
		       const int *gap)
{
	char line[VC_COLS * (CELL_LEN + 2) + 2];
	int at = 0;

	for (int c = 0; c < VC_COLS; c++)
		at += snprintf(line + at, sizeof(line) - (size_t)at, column_left[c] ? "%*s%-*s" :
			       "%*s%*s", gap[c], "", w[c], cell[c]);
	while (at > 0 && line[at - 1] == ' ')
		at--;
	line[at] = '\0';
	sb_printf(sb, "%s\n", line);
}

/*
 * One space between columns, two before B/A, p and the verdict while the
 * line stays within VERDICT_WIDTH.
 */
static void table_gaps(const int *w, int *gap)
{
	static const int wider[] = { VC_RATIO, VC_WHAT, VC_P };
	int total = 0;

	for (int c = 0; c < VC_COLS; c++) {
		gap[c] = c > 0;
		total += w[c] + gap[c];
	}
	for (size_t k = 0; k < sizeof(wider) / sizeof(wider[0]) && total < VERDICT_WIDTH; k++) {
		gap[wider[k]]++;
		total++;
	}
}

/* Is v a line of bench's table (in in_group; -r's or not; on ncpus) for group gi? */
static bool in_table(const struct verdict *v, int gi, const char *bench, const char *in_group,
		     bool realtime, int ncpus)
{
	return v->group == gi && verdict_of(v, bench, in_group, realtime) && v->ncpus == ncpus;
}

/*
 * "--- Verdicts for Video: B load-nice=19 against A load-nice=0 (passes: 5
 * and 5) ---", on more lines where one would be wider than VERDICT_WIDTH (a
 * long knob's labels): the passes on a line of their own, then "against"
 * too, each further line indented by 4.
 */
static void table_title(struct sbuf *sb, const struct verdict_table *t, const struct verdict *v,
			const char *name, int ncpus)
{
	bool runs = t->labels[0][0] == '[';	/* runs: "[2]" is B, "[1]" A */
	char on[24] = "", head[MEMBER_LABEL_LEN + 200], mid[RES_VARIANT_LEN + 40], tail[64];
	size_t h, m, e;

	if (ncpus)
		snprintf(on, sizeof(on), " on %d CPU%s", ncpus, ncpus == 1 ? "" : "s");
	snprintf(head, sizeof(head), "--- Verdicts for %s%s%s: %s%s", name,
		 v->realtime ? " real time" : "", on, runs ? "B = " : "", t->labels[v->group]);
	snprintf(mid, sizeof(mid), "against %s%s", runs ? "A = " : "", t->labels[0]);
	snprintf(tail, sizeof(tail), "(passes: %d and %d) ---", v->t.na, v->t.nb);
	h = strlen(head);
	m = strlen(mid);
	e = strlen(tail);
	if (h + 1 + m + 1 + e <= VERDICT_WIDTH)
		sb_printf(sb, "%s %s %s\n", head, mid, tail);
	else if (h + 1 + m <= VERDICT_WIDTH)
		sb_printf(sb, "%s %s\n    %s\n", head, mid, tail);
	else if (4 + m + 1 + e <= VERDICT_WIDTH)
		sb_printf(sb, "%s\n    %s %s\n", head, mid, tail);
	else
		sb_printf(sb, "%s\n    %s\n    %s\n", head, mid, tail);
}

/*
 * The verdicts of bench (in in_group, "" alone; -r's or not) on ncpus CPUs
 * (0: without --ncpus), one table per group compared with the first, each
 * column as wide as its widest cell: 100 columns at most (a load's name of
 * 8, "frame p99 (ms)", medians of 6, B/A of 21 with its numbers of 5, p
 * and q of 6, "no difference shown", ">10000", one space apart).
 */
void verdicts_print(struct sbuf *sb, const struct verdict_table *t, const char *bench,
		    const char *in_group, bool realtime, int ncpus)
{
	char name[MEMBER_LABEL_LEN], cell[VC_COLS][CELL_LEN];

	member_label(name, sizeof(name), bench, in_group);
	for (int gi = 1; gi < t->ngroups; gi++) {
		int w[VC_COLS], gap[VC_COLS], first = -1;

		for (int c = 0; c < VC_COLS; c++)
			w[c] = (int)strlen(column_head[c]);
		for (int i = 0; i < t->n; i++) {
			if (!in_table(&t->v[i], gi, bench, in_group, realtime, ncpus))
				continue;
			first = first < 0 ? i : first;
			verdict_cells(&t->v[i], cell);
			for (int c = 0; c < VC_COLS; c++)
				w[c] = (int)strlen(cell[c]) > w[c] ? (int)strlen(cell[c]) : w[c];
		}
		if (first < 0)
			continue;
		table_gaps(w, gap);
		table_title(sb, t, &t->v[first], name, ncpus);
		for (int c = 0; c < VC_COLS; c++)
			snprintf(cell[c], CELL_LEN, "%s", column_head[c]);
		table_line(sb, cell, w, gap);
		for (int i = first; i < t->n; i++) {
			if (!in_table(&t->v[i], gi, bench, in_group, realtime, ncpus))
				continue;
			verdict_cells(&t->v[i], cell);
			table_line(sb, cell, w, gap);
		}
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

/* Is any of the table's intervals approximate, any open, any p from Monte Carlo? */
static void table_marks(const struct verdict_table *t, bool *approx, bool *open, bool *sampled)
{
	*approx = *open = *sampled = false;
	for (int i = 0; i < t->n; i++) {
		*approx |= !t->v[i].t.on_logs && isfinite(t->v[i].t.ratio_low) &&
			   isfinite(t->v[i].t.ratio_high);
		*open |= t->v[i].t.low_open || t->v[i].t.high_open;
		*sampled |= !t->v[i].t.p_exact;
	}
}

/* Under the verdict tables: what their columns mean, once. */
void verdicts_legend(struct sbuf *sb, const struct verdict_table *t)
{
	char text[2048], count[32];
	int out = 0;
	bool approx, open, sampled;

	for (int i = 0; i < t->n; i++)
		out += isfinite(t->v[i].t.p) && !t->v[i].counted;
	table_marks(t, &approx, &open, &sampled);
	snprintf(count, sizeof(count), t->ntests ? "the %d test%s" : "the tests (none here)",
		 t->ntests, t->ntests == 1 ? "" : "s");
	snprintf(text, sizeof(text), "Verdicts: the passes of each variant (the unit of "
		 "evidence) against those of the first; med A, med B: their medians. B/A: the "
		 "Hodges-Lehmann ratio, with its distribution-free 95 %% interval%s%s; p: the "
		 "two-sided Mann-Whitney test, exact given the ties (mid-ranks)%s; q: "
		 "Benjamini-Hochberg over %s that could reach q <= %.2g given their ties and "
		 "passes (Tarone: %d left out, shown as no difference or as too few passes (N), N "
		 "the passes per variant that could give a verdict); better or worse where q <= "
		 "%.2g, which way from the ranks; n10%%: passes per variant that find a 10 %% "
		 "change 80 %% of the time at this table's level, p <= %.2g, from these passes' own "
		 "spread resampled and widened to its 80 %% upper bound (a latency 10 %% longer, "
		 "stutters and xruns at a 10 %% higher rate, 10 %% more deadlines missed).",
		 approx ? " (~: approximate, of values that can be 0, their difference read as a "
		 "ratio through A's median)" : "", open ? " (an end in ( or ): the test rejects "
		 "it, the values just inside it not)" : "", sampled ? " or, where that would be "
		 "slow, from 9999 random splits" : "", count, VERDICT_FDR, out, VERDICT_FDR,
		 t->power_level);
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
		"p_exact,passes_for_10pct_over_cap,ratio_low_open,ratio_high_open\n");
	for (int i = 0; i < t->n; i++) {
		const struct verdict *v = &t->v[i];
		char name[MEMBER_LABEL_LEN];

		member_label(name, sizeof(name), v->bench, v->in_group);
		csv_field(sb, name);	/* "Video@Desktop": a column more changes every file */
		sb_printf(sb, ",%s,%s,", v->load, verdict_metric_name(v->metric));
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
		sb_printf(sb, ",%s,%d,%d,%d,%d\n", interval_kind(v), v->t.p_exact,
			  v->power > POWER_CAP, v->t.low_open, v->t.high_open);
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
	json_pair(sb, depth, "ratio_low_open", false);
	sb_puts(sb, v->t.low_open ? "true" : "false");
	json_pair(sb, depth, "ratio_high_open", false);
	sb_puts(sb, v->t.high_open ? "true" : "false");
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
		json_string(sb, verdict_metric_name(v->metric));
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
 * What bench's verdicts (in group, "" alone) show in a comparison: VS_NONE
 * when it has none (one run, no cell in common), VS_TOO_FEW when no cell
 * has a verdict to show, text then saying why in one sentence (too few
 * passes, or every metric the same value in every pass: nothing to test),
 * else VS_TABLE.
 */
int verdicts_shown(const struct verdict_table *vt, const char *bench, const char *group,
		   bool realtime, char *text, size_t len)
{
	char name[MEMBER_LABEL_LEN];
	int most = 0, need = 0;
	bool any = false, seen = false;

	if (!vt || vt->ngroups < 2)
		return VS_NONE;
	for (int i = 0; i < vt->n; i++) {
		const struct verdict *v = &vt->v[i];

		if (!verdict_of(v, bench, group, realtime))
			continue;
		seen = true;
		any |= v->kind != VK_TOO_FEW && !v->constant;
		most = v->t.na > most ? v->t.na : most;
		most = v->t.nb > most ? v->t.nb : most;
		need = v->kind == VK_TOO_FEW ? v->need : need;
	}
	if (!seen)
		return VS_NONE;
	if (any)
		return VS_TABLE;
	member_label(name, sizeof(name), bench, group);
	if (!need) {
		snprintf(text, len, "No verdict for %s%s: in each cell every pass of each run gave "
			 "the same value of every metric (%d passes at most), so there was nothing "
			 "to test.", name, realtime ? " real time" : "", most);
		return VS_TOO_FEW;
	}
	snprintf(text, len, "No verdict for %s%s: its runs have at most %d "
		 "pass%s of a cell, and with the %d tests of this comparison a verdict needs %d "
		 "of each (--repeat, or logs holding several runs).", name,
		 realtime ? " real time" : "", most, most == 1 ? "" : "es",
		 vt->ntests + vt->ntoofew, need);
	return VS_TOO_FEW;
}
