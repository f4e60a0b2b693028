// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_verdict.c - unit tests: verdict tables judged over synthetic passes, which way is
 * better for each metric, what is counted, and how the tables show it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/defs.h"
#include "model/metrics.h"
#include "model/record.h"
#include "lib/sbuf.h"
#include "verdicts/verdicts.h"

#include "tests/unit.h"

#define MAXP 12		/* passes per variant */
#define MAXM 3		/* metrics of a cell */
#define MS 1e6		/* latencies are kept in ns */

struct metric_passes {
	int metric;			/* enum verdict_metric; 0 ends the list but for the first */
	int na, nb;
	double a[MAXP], b[MAXP];	/* as the result holds them: ns, %, counts */
	int want;			/* enum verdict_kind */
	bool tested;
};

static const int field_of[VM_COUNT] = {
	[VM_MEAN] = RF_MEAN, [VM_P99] = RF_P99, [VM_DL] = RF_DEADLINES_MET_PCT,
	[VM_FRAME_P99] = RF_FRAME_P99, [VM_STUTTERS] = RF_STUTTERS, [VM_XRUNS] = RF_XRUNS,
};

/* Pass p of variant v of Audio under Burn, every metric unknown. */
static void blank_pass(struct result *r, int v, int p)
{
	result_init(r);
	snprintf(r->bench, sizeof(r->bench), "Audio");
	snprintf(r->load, sizeof(r->load), "Burn");
	r->variant_index = v;
	snprintf(r->variant, sizeof(r->variant), "x=%d", v);
	r->pass = p;
}

/* One cell's passes: A's first, then B's, the metrics given set in each. */
static int cell_passes(const struct metric_passes *m, int nm, struct result *res)
{
	int n = 0, most_a = 0, most_b = 0;

	for (int k = 0; k < nm; k++) {
		most_a = m[k].na > most_a ? m[k].na : most_a;
		most_b = m[k].nb > most_b ? m[k].nb : most_b;
	}
	for (int v = 0; v < 2; v++)
		for (int p = 0; p < (v ? most_b : most_a); p++) {
			blank_pass(&res[n], v, p);
			for (int k = 0; k < nm; k++)
				if (p < (v ? m[k].nb : m[k].na))
					res[n].value[field_of[m[k].metric]] =
						v ? m[k].b[p] : m[k].a[p];
			n++;
		}
	return n;
}

static const struct verdict *find_metric(const struct verdict_table *t, int m)
{
	for (int i = 0; i < t->n; i++)
		if (t->v[i].metric == m)
			return &t->v[i];
	return NULL;
}

/* cells' verdicts built from the passes of m[0..nm), the table judged over them */
static bool build(const struct metric_passes *m, int nm, struct result *res,
		  struct verdict_table *t)
{
	int n = cell_passes(m, nm, res);
	struct verdict_group g[2] = { { "A", res, n, 0 }, { "B", res, n, 1 } };

	return !verdicts_build(g, 2, t);
}

#define L(x) ((x) * MS)

/*
 * Each case is a table of its own. The first two are the examples the
 * verdicts got wrong: a ratio pinned at 1 by ties called B worse where its
 * ranks are lower (0.0326), and equal medians kept a q of 0.0044 from being
 * called at all.
 */
static const struct judge_case {
	const char *name;
	struct metric_passes m[MAXM];
} judge_cases[] = {
	{ "ties pin the ratio at 1, the ranks say B is lower", {
	  { VM_MEAN, 12, 11, { L(0.109), L(0.109), L(0.106), L(0.105), L(0.104), L(0.101),
	    L(0.100), L(0.100), L(0.100), L(0.100), L(0.100), L(0.100) },
	    { L(0.103), L(0.100), L(0.100), L(0.100), L(0.100), L(0.100), L(0.100), L(0.100),
	      L(0.100), L(0.100), L(0.100) }, VK_BETTER, true } } },
	{ "equal medians, q 0.0044: called", {
	  { VM_MEAN, 9, 12, { L(0.1), L(0.1), L(0.1), L(0.1), L(0.2), L(0.2), L(0.2), L(0.2),
	    L(0.2) }, { L(0.2), L(0.2), L(0.2), L(0.2), L(0.2), L(0.2), L(0.2), L(0.3), L(0.4),
	    L(0.4), L(0.5), L(0.5) }, VK_WORSE, true } } },
	/*
	 * A finding at p = 8/252 (5 vs 5, two pairs out of order) beside a
	 * deadline column where one pass missed one: that column can give no p
	 * below 1, and counting it made q = 0.063 (no difference shown).
	 */
	{ "an untestable metric does not count", {
	  { VM_MEAN, 5, 5, { L(1.0), L(1.1), L(1.2), L(1.3), L(1.4) },
	    { L(0.5), L(0.6), L(0.7), L(0.8), L(1.15) }, VK_BETTER, true },
	  { VM_DL, 5, 5, { 100, 100, 100, 100, 100 }, { 100, 100, 99.9, 100, 100 },
	    VK_NO_DIFFERENCE, false },
	  { VM_P99, 5, 5, { L(3), L(3), L(3), L(3), L(3) }, { L(3), L(3), L(3), L(3), L(3) },
	    VK_NO_DIFFERENCE, false } } },
	/* 3 vs 3 can never reach 0.05 (2/20): how many could */
	{ "too few passes", {
	  { VM_MEAN, 3, 3, { L(1), L(2), L(3) }, { L(4), L(5), L(6) }, VK_TOO_FEW, true } } },
	/* 6 vs 6 could (2/924), but not with 11 equal values: untested, for its ties */
	{ "ties, not passes, leave nothing to test", {
	  { VM_STUTTERS, 6, 6, { 2, 2, 2, 2, 2, 2 }, { 2, 2, 2, 2, 2, 5 }, VK_NO_DIFFERENCE,
	    false } } },
};

static bool test_judge(void)
{
	static struct result res[2 * MAXP];

	for (size_t i = 0; i < ARRAY_SIZE(judge_cases); i++) {
		const struct judge_case *c = &judge_cases[i];
		struct verdict_table t;
		int nm = 1;

		while (nm < MAXM && c->m[nm].na)
			nm++;
		EXPECT(build(c->m, nm, res, &t), "%s: build", c->name);
		for (int k = 0; k < nm; k++) {
			const struct verdict *v = find_metric(&t, c->m[k].metric);
			bool ok = v && v->kind == c->m[k].want && v->tested == c->m[k].tested;

			if (!ok)
				verdicts_free(&t);
			EXPECT(ok, "%s, %s: %s (tested %d, p %g, q %g), want %s", c->name,
			       verdict_metric_name(c->m[k].metric),
			       v ? verdict_kind_names[v->kind] : "none", v ? v->tested : -1,
			       v ? v->t.p : NAN, v ? v->q : NAN, verdict_kind_names[c->m[k].want]);
		}
		verdicts_free(&t);
	}
	return true;
}

/*
 * Which way is better: lower latency (mean, p99, frame p99), fewer stutters
 * and xruns, more deadlines met. 6 vs 6 passes apart, one test a table.
 */
static bool test_direction(void)
{
	static const struct {
		int metric;
		bool b_lower;
		int want;
	} cases[] = {
		{ VM_MEAN, true, VK_BETTER }, { VM_MEAN, false, VK_WORSE },
		{ VM_P99, true, VK_BETTER }, { VM_P99, false, VK_WORSE },
		{ VM_FRAME_P99, true, VK_BETTER }, { VM_FRAME_P99, false, VK_WORSE },
		{ VM_DL, true, VK_WORSE }, { VM_DL, false, VK_BETTER },
		{ VM_STUTTERS, true, VK_BETTER }, { VM_STUTTERS, false, VK_WORSE },
		{ VM_XRUNS, true, VK_BETTER }, { VM_XRUNS, false, VK_WORSE },
	};
	static struct result res[2 * MAXP];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct metric_passes m = { .metric = cases[i].metric, .na = 6, .nb = 6 };
		struct verdict_table t;
		const struct verdict *v;
		int kind;

		for (int p = 0; p < 6; p++) {
			m.a[p] = 10 + p;
			m.b[p] = cases[i].b_lower ? 2 + p : 20 + p;
		}
		EXPECT(build(&m, 1, res, &t), "build");
		v = find_metric(&t, cases[i].metric);
		kind = v ? v->kind : -1;
		verdicts_free(&t);
		EXPECT(kind == cases[i].want, "%s, B %s: %s", verdict_metric_name(cases[i].metric),
		       cases[i].b_lower ? "lower" : "higher", kind < 0 ? "none" :
		       verdict_kind_names[kind]);
	}
	return true;
}

/* The text, JSON and CSV of a table with a count (raw, approximate) and a latency (logs). */
static bool test_marks(void)
{
	static struct result res[2 * MAXP];
	struct metric_passes m[2] = {
		{ VM_MEAN, 6, 6, { L(1.0), L(1.1), L(1.2), L(1.3), L(1.4), L(1.5) },
		  { L(2.0), L(2.1), L(2.2), L(2.3), L(2.4), L(2.5) }, VK_WORSE, true },
		{ VM_STUTTERS, 6, 6, { 0, 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10, 11 }, VK_WORSE, true },
	};
	char mean[112], stut[112];
	struct verdict_table t;
	struct sbuf sb;
	bool json_ok, csv_ok, legend_ok;

	EXPECT(build(m, 2, res, &t), "build");
	verdict_ratio_text(mean, sizeof(mean), find_metric(&t, VM_MEAN));
	verdict_ratio_text(stut, sizeof(stut), find_metric(&t, VM_STUTTERS));
	sb_init(&sb);
	verdicts_json(&sb, &t, 0);
	json_ok = !sb.failed && strstr(sb.buf, "\"metric\": \"stutters\"") &&
		  strstr(sb.buf, "\"interval\": \"approximate\"") &&
		  strstr(sb.buf, "\"interval\": \"distribution-free\"") &&
		  strstr(sb.buf, "\"p_exact\": true");
	sb_free(&sb);
	sb_init(&sb);
	verdicts_csv(&sb, &t);
	csv_ok = !sb.failed && strstr(sb.buf, ",interval,p_exact,passes_for_10pct_over_cap,"
				      "ratio_low_open,ratio_high_open\n") &&
		 strstr(sb.buf, ",approximate,1,0,0,0\n") &&
		 strstr(sb.buf, ",distribution-free,1,0,0,0\n");
	sb_free(&sb);
	sb_init(&sb);
	verdicts_legend(&sb, &t);
	legend_ok = !sb.failed && strstr(sb.buf, "(~:") && strstr(sb.buf, "approximate,") &&
		    strstr(sb.buf, "Tarone") && strstr(sb.buf, "resampled");
	sb_free(&sb);
	verdicts_free(&t);
	EXPECT(strstr(stut, " ~[") && !strstr(mean, "~"), "mean '%s', stutters '%s'", mean, stut);
	EXPECT(json_ok, "JSON's interval and p_exact");
	EXPECT(csv_ok, "CSV's interval, p_exact and cap columns");
	EXPECT(legend_ok, "the legend says what ~ means, Tarone, resampling");
	/* without a count, no ~ to explain */
	EXPECT(build(m, 1, res, &t), "build");
	sb_init(&sb);
	verdicts_legend(&sb, &t);
	legend_ok = !sb.failed && !strstr(sb.buf, "~");
	sb_free(&sb);
	verdicts_free(&t);
	EXPECT(legend_ok, "a legend with ~ but no interval marked");
	return true;
}

/*
 * n10% at the table's level: 0.05 max(1, R) / m. Two latencies apart and a
 * third that is not, 6 vs 6: m = 3, R = 2, level 0.033; and one spread
 * over eight orders of magnitude needs more than the cap.
 */
static bool test_power_level(void)
{
	static struct result res[2 * MAXP];
	struct metric_passes m[3] = {
		{ VM_MEAN, 6, 6, { L(1.0), L(1.1), L(1.2), L(1.3), L(1.4), L(1.5) },
		  { L(2.0), L(2.1), L(2.2), L(2.3), L(2.4), L(2.5) }, VK_WORSE, true },
		{ VM_P99, 6, 6, { L(3.0), L(3.1), L(3.2), L(3.3), L(3.4), L(3.5) },
		  { L(6.0), L(6.1), L(6.2), L(6.3), L(6.4), L(6.5) }, VK_WORSE, true },
		{ VM_FRAME_P99, 6, 6, { L(1e-4), L(10), L(1e3), L(0.01), L(1e4), L(1) },
		  { L(3e-3), L(50), L(0.2), L(5e3), L(3e-4), L(0.5) }, VK_NO_DIFFERENCE, true },
	};
	struct verdict_table t;
	const struct verdict *wide;
	struct sbuf sb;
	bool capped;

	EXPECT(build(m, 3, res, &t), "build");
	wide = find_metric(&t, VM_FRAME_P99);
	sb_init(&sb);
	verdicts_print(&sb, &t, "Audio", "", false, 0);
	capped = !sb.failed && strstr(sb.buf, " >10000\n");
	sb_free(&sb);
	EXPECT(t.ntests == 3 && t.ncalled == 2 && fabs(t.power_level - 0.05 * 2 / 3) < 1e-12,
	       "m %d, R %d, level %g", t.ntests, t.ncalled, t.power_level);
	EXPECT(find_metric(&t, VM_MEAN)->power == passes_for_change(m[0].a, 6, m[0].b, 6, CHANGE_SCALE, 0.10,
									 0.80, 0.05 * 2 / 3),
	       "mean's n10%% %d is not at the table's level", find_metric(&t, VM_MEAN)->power);
	EXPECT(wide && wide->power == POWER_CAP + 1 && capped, "wide: n10%% %d, printed %s",
	       wide ? wide->power : 0, capped ? ">10000" : "otherwise");
	verdicts_free(&t);
	return true;
}

/* The widest line of sb's text. */
static int widest_line(const char *text)
{
	int most = 0;

	for (const char *l = text; *l;) {
		int n = (int)strcspn(l, "\n");

		most = n > most ? n : most;
		l += n + (l[n] == '\n');
	}
	return most;
}

/*
 * The widest cells a table can have, together: a load's name of 8, "frame
 * p99 (ms)", medians and a ratio far from 1 with an approximate interval,
 * p and q below 0.001, "no difference shown", past the cap; and a
 * too-few line beside them, in JSON's words with the passes needed; and a
 * title whose labels are long.
 */
static bool test_width(void)
{
	struct verdict v[2] = {
		{ .bench = "Game", .load = "ProAudio", .metric = VM_FRAME_P99, .group = 1,
		  .a = 123456.0, .b = 0.0001234e6, .q = 0.00012, .kind = VK_NO_DIFFERENCE,
		  .power = POWER_CAP + 1,
		  .t = { .na = 5, .nb = 5, .ratio = 0.00012345, .ratio_low = 0.00012345,
			 .ratio_high = 123.456, .p = 0.00001, .p_exact = true } },
		{ .bench = "Game", .load = "Compile", .metric = VM_STUTTERS, .group = 1,
		  .a = 1, .b = 2, .q = NAN, .kind = VK_TOO_FEW, .need = 12, .power = 9999,
		  .t = { .na = 5, .nb = 5, .ratio = 2.0, .ratio_low = 1.0, .ratio_high = 2.5,
			 .low_open = true, .p = 0.04, .p_exact = true } },
	};
	struct verdict_table t = { .n = 2, .v = v, .ngroups = 2,
				   .labels = { "A sysctl:kernel.sched_autogroup_enabled=1",
					       "B sysctl:kernel.sched_autogroup_enabled=1" } };
	struct sbuf sb;
	int w;
	bool few, open;

	sb_init(&sb);
	verdicts_print(&sb, &t, "Game", "", false, 0);
	w = widest_line(sb.buf);
	few = strstr(sb.buf, " too few passes (12) ") != NULL;
	open = strstr(sb.buf, "2.00 ~(1.00, 2.50]") != NULL;
	EXPECT(!sb.failed && w <= 100 && few && open, "%d columns:\n%s", w, sb.buf);
	sb_free(&sb);
	return true;
}

/*
 * When every metric is the same in every pass (and there were passes
 * enough), the one line says there was nothing to test, not that a
 * verdict needs more passes.
 */
static bool test_all_constant(void)
{
	struct verdict v[2] = {
		{ .bench = "Audio", .load = "None", .metric = VM_DL, .group = 1, .a = 100,
		  .b = 100, .constant = true, .kind = VK_NO_DIFFERENCE, .need = 4,
		  .t = { .na = 6, .nb = 6, .p = 1.0 } },
		{ .bench = "Audio", .load = "Burn", .metric = VM_DL, .group = 1, .a = 100,
		  .b = 100, .constant = true, .kind = VK_NO_DIFFERENCE, .need = 4,
		  .t = { .na = 6, .nb = 6, .p = 1.0 } },
	};
	struct verdict_table t = { .n = 2, .v = v, .ngroups = 2 };
	char text[512] = "";
	int shown = verdicts_shown(&t, "Audio", "", false, text, sizeof(text));

	EXPECT(shown == VS_TOO_FEW && strstr(text, "nothing to test") && !strstr(text, "needs"),
	       "%d: %s", shown, text);
	v[1].constant = false;
	v[1].kind = VK_TOO_FEW;
	v[1].need = 7;
	shown = verdicts_shown(&t, "Audio", "", false, text, sizeof(text));
	EXPECT(shown == VS_TOO_FEW && strstr(text, "a verdict needs 7 of each"), "%s", text);
	return true;
}

/* The verdicts' metrics: model/metrics.c's rows that name one, in enum verdict_metric's order. */
static bool test_metric_rows(void)
{
	static const char *const names[VM_COUNT] = {
		"mean", "p99", "deadlines", "frame p99", "stutters", "xruns",
	};

	for (int m = 0; m < VM_COUNT; m++)
		EXPECT(verdict_metric(m) && verdict_metric(m)->field == field_of[m] &&
		       !strcmp(verdict_metric_name(m), names[m]), "verdict metric %d: %s", m,
		       verdict_metric(m) ? verdict_metric_name(m) : "no row");
	EXPECT(!verdict_metric(VM_COUNT), "a row past enum verdict_metric's: %s",
	       verdict_metric_name(VM_COUNT));
	EXPECT(verdict_change_kind(VM_DL) == CHANGE_SHORTFALL &&
	       verdict_change_kind(VM_XRUNS) == CHANGE_RATE &&
	       verdict_change_kind(VM_P99) == CHANGE_SCALE, "n10%%'s change by the rows' units");
	return true;
}

void unit_verdict(void)
{
	check("verdict table: its metrics are model/metrics.c's rows that name one",
	      test_metric_rows());
	check("verdict table: judged as the examples ask, Tarone's count", test_judge());
	check("verdict table: better is lower latency, fewer stutters and xruns, more deadlines",
	      test_direction());
	check("verdict table: ~ marks the approximate interval; JSON and CSV say which",
	      test_marks());
	check("verdict table: n10% at the table's level, >10000 past the cap", test_power_level());
	check("verdict table: its widest cells together fit in 100 columns", test_width());
	check("verdict table: every metric constant: nothing to test, not more passes",
	      test_all_constant());
}
