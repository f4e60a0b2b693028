// SPDX-License-Identifier: GPL-2.0-or-later
/* output/verdict.c - verdicts: each group's passes against the first's, per cell and metric,
 * as text, JSON and CSV. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "output/verdict.h"
#include "run/config.h"

#define CHANGE_SHOWN 0.10	/* the change "passes for" is worked out for */
#define POWER_SHOWN 0.80
#define VERDICT_ROW "%-8s %-14s %8s %8s  %-20s %6s %6s  %-19s %4s\n"	/* a line of the table */
#define VERDICT_WIDTH 100

const char *const verdict_metric_names[VM_COUNT] = {
	[VM_MEAN] = "mean", [VM_P99] = "p99", [VM_DL] = "deadlines",
	[VM_FRAME_P99] = "frame p99", [VM_STUTTERS] = "stutters", [VM_XRUNS] = "xruns",
};

const char *const verdict_kind_names[] = {
	[VK_NO_DIFFERENCE] = "no difference shown",
	[VK_BETTER] = "better",
	[VK_WORSE] = "worse",
	[VK_TOO_FEW] = "too few passes",
};

/* A chain's metrics have no value for the others: their cells get no verdict on them. */
static const int metric_field[VM_COUNT] = {
	[VM_MEAN] = RF_MEAN, [VM_P99] = RF_P99, [VM_DL] = RF_DL,
	[VM_FRAME_P99] = RF_FRAME_P99, [VM_STUTTERS] = RF_STUTTERS, [VM_XRUNS] = RF_XRUNS,
};

/* A count (stutters, xruns): no unit, no scaling. */
static bool metric_is_count(int m)
{
	return m == VM_STUTTERS || m == VM_XRUNS;
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
		    !isfinite(r->v[field]))
			continue;
		v[n++] = r->v[field];
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

/* One metric of bench x load, group g against group 0; 0, or -ENOMEM. */
static int one_verdict(struct verdict_table *t, const struct verdict_group *g, int gi,
		       const struct result *cell, int m, double *a, double *b)
{
	int na = pass_values(&g[0], cell, metric_field[m], a);
	int nb = pass_values(&g[gi], cell, metric_field[m], b);
	struct verdict *v;

	if (!na || !nb)
		return 0;		/* Gaming has no deadlines; a failed cell no numbers */
	v = new_verdict(t);
	if (!v)
		return -ENOMEM;
	snprintf(v->bench, sizeof(v->bench), "%s", cell->bench);
	snprintf(v->load, sizeof(v->load), "%s", cell->load);
	snprintf(v->in_group, sizeof(v->in_group), "%s", cell->group);
	v->metric = m;
	v->group = gi;
	v->realtime = cell->realtime;
	v->ncpus = cell->ncpus;
	if (shift_test(a, na, b, nb, &v->t) == -ENOMEM)
		return -ENOMEM;
	v->power = passes_for_power(sd_log_pooled(a, na, b, nb), CHANGE_SHOWN, POWER_SHOWN);
	v->constant = all_equal(a, na, b, nb);
	v->a = median(a, na);
	v->b = median(b, nb);
	v->q = NAN;
	return 0;
}

/* Is the change an improvement? Lower latency, fewer stutters and xruns, more deadlines met. */
static bool improves(const struct verdict *v)
{
	double r = v->t.ratio;
	bool lower = isfinite(r) ? r < 1 : v->b < v->a;

	return v->metric == VM_DL ? !lower : lower;
}

/*
 * The false discovery rate is held over every test of the table at once
 * (Benjamini-Hochberg), so that 40 cells x 3 metrics do not cry wolf; a
 * test whose sizes can never reach the bar says how many passes could.
 * A metric that every pass of both gave the same value (100 % deadlines
 * met) has nothing to test: its smallest attainable p is 1, and counting
 * it would only raise the bar for the others (Tarone's refinement for
 * discrete tests), so it is shown as no difference, outside the count.
 */
static int judge(struct verdict_table *t)
{
	double *p = calloc((size_t)t->n + 1, sizeof(*p)), *q = calloc((size_t)t->n + 1, sizeof(*q));
	int need;

	if (!p || !q) {
		free(p);
		free(q);
		return -ENOMEM;
	}
	t->ntests = 0;
	for (int i = 0; i < t->n; i++) {
		p[i] = t->v[i].constant ? NAN : t->v[i].t.p;
		t->ntests += isfinite(p[i]);
	}
	bh_qvalues(p, t->n, q);
	need = passes_for_significance(t->ntests);
	for (int i = 0; i < t->n; i++) {
		struct verdict *v = &t->v[i];

		v->q = q[i];
		v->need = need;
		if (v->constant)
			v->kind = VK_NO_DIFFERENCE;
		else if (v->t.p_min > VERDICT_FDR / (t->ntests ? t->ntests : 1) && !(q[i] <= VERDICT_FDR))
			v->kind = VK_TOO_FEW;
		else if (q[i] <= VERDICT_FDR && v->a != v->b)
			v->kind = improves(v) ? VK_BETTER : VK_WORSE;
		else
			v->kind = VK_NO_DIFFERENCE;
	}
	free(p);
	free(q);
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

/*
 * Every cell of group 0 (in its order), each metric, each other group
 * against it. 0, or -ENOMEM.
 */
int verdicts_build(const struct verdict_group *g, int ng, struct verdict_table *t)
{
	const struct result **cells = NULL;
	int most = 0, ncells = 0;
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
	if (!a || !b || !cells)
		goto nomem;
	for (int i = 0; t->ngroups > 1 && i < g[0].nres; i++) {
		const struct result *r = &g[0].res[i];

		if ((g[0].variant >= 0 && r->variant_index != g[0].variant) ||
		    seen_cell(cells, ncells, r))
			continue;
		cells[ncells++] = r;
		for (int gi = 1; gi < t->ngroups; gi++)
			for (int m = 0; m < VM_COUNT; m++)
				if (one_verdict(t, g, gi, r, m, a, b))
					goto nomem;
	}
	free(a);
	free(b);
	free(cells);
	return judge(t);
nomem:
	free(a);
	free(b);
	free(cells);
	verdicts_free(t);
	return -ENOMEM;
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

/* ---- text ---- */

/* "0.0861 [0.0408, 0.189]", "1.2 [unbounded]", "-": B/A with its interval, as the tables say. */
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
	snprintf(buf, len, "%s [%s, %s]", r, lo, hi);
}

static void fmt_metric_value(char *buf, size_t len, const struct verdict *v, double x)
{
	if (v->metric == VM_DL)
		fmt_pct(buf, len, x, 0);
	else if (metric_is_count(v->metric))
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
		 v->metric == VM_DL ? " %" : metric_is_count(v->metric) ? "" :
		 v->realtime ? " (us)" : " (ms)");
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
	if (v->power > 0)
		snprintf(power, sizeof(power), "%d", v->power);
	else
		snprintf(power, sizeof(power), "-");
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

/* Under the verdict tables: what their columns mean, once. */
void verdicts_legend(struct sbuf *sb, const struct verdict_table *t)
{
	char text[1024];

	snprintf(text, sizeof(text), "Verdicts: the passes of each variant (the unit of "
		 "evidence) against those of the first. B/A: the Hodges-Lehmann ratio, with its "
		 "distribution-free 95 %% interval; p: the exact two-sided Mann-Whitney test "
		 "(mid-ranks for ties); q: Benjamini-Hochberg over the %d test%s of numbers that "
		 "varied, better or worse "
		 "where q <= %.2g; n10%%: passes per variant for an 80 %% chance to find a 10 %% "
		 "change, from these passes' spread.", t->ntests, t->ntests == 1 ? "" : "s",
		 VERDICT_FDR);
	sb_wrapped(sb, text);
}

/* ---- files ---- */

static void csv_num(struct sbuf *sb, double v)
{
	if (isfinite(v))
		json_number(sb, v);
	sb_add(sb, ",", 1);
}

/* The file's verdicts: a CSV of its own, one line per verdict. */
void verdicts_csv(struct sbuf *sb, const struct verdict_table *t)
{
	sb_puts(sb, "benchmark,load,metric,variant,baseline,a,b,ratio,ratio_low,ratio_high,p,q,"
		"verdict,tested,passes_a,passes_b,passes_needed,passes_for_10pct\n");
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
		sb_printf(sb, "%s,%d,%d,%d,%d,", verdict_kind_names[v->kind], !v->constant,
			  v->t.na, v->t.nb,
			  v->kind == VK_TOO_FEW ? v->need : 0);
		if (v->power > 0)
			sb_printf(sb, "%d", v->power);
		sb_puts(sb, "\n");
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
			json_pair(sb, depth + 2, "group", false);
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
		sb_puts(sb, v->constant ? "false" : "true");
		json_num_pair(sb, depth + 2, "passes_a", v->t.na);
		json_num_pair(sb, depth + 2, "passes_b", v->t.nb);
		json_num_pair(sb, depth + 2, "passes_needed", v->kind == VK_TOO_FEW ? v->need :
			      NAN);
		json_num_pair(sb, depth + 2, "passes_for_10pct", v->power > 0 ? v->power : NAN);
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
