// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_verdict.c - unit tests of the core: a verdict's rank test, shift, interval and
 * FDR. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "core/defs.h"
#include "core/verdict_stats.h"

#include "tests/sim_laws.h"
#include "tests/unit.h"

/*
 * The reference values were computed in Python with exact arithmetic
 * (fractions, integers): p by enumerating every one of the C(na+nb, nb)
 * splits of the pooled values (itertools.combinations) with mid-ranks, or
 * for 80 values and more by an integer dynamic programme over the same
 * splits; the HL shift by sorting all na * nb differences, its c from the
 * exact distribution of U by the recurrence on sizes.
 */
#define MAXV 12

static bool near(double got, double want, double rel)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= rel * fabs(want) + 1e-300;
}

struct p_case {
	const char *name;
	double a[MAXV], b[MAXV];
	int na, nb;
	double p;
};

static const struct p_case p_cases[] = {
	/* completely separated: p = 2 / C(n+m, n) */
	{ "4 vs 4 apart", { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, 4, 4, 2.0 / 70 },
	{ "3 vs 3 apart", { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, 0.1 },
	{ "5 vs 5 apart", { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 }, 5, 5, 2.0 / 252 },
	{ "3 vs 5 apart", { 1, 2, 3 }, { 4, 5, 6, 7, 8 }, 3, 5, 2.0 / 56 },
	{ "B below A", { 6, 7, 8, 9, 10 }, { 1, 2, 3, 4, 5 }, 5, 5, 2.0 / 252 },
	/* brute force over all splits, mid-ranks */
	{ "interleaved 6 vs 6", { 1.1, 3.2, 2.5, 4.8, 5.0, 0.7 }, { 2.9, 6.1, 4.4, 5.5, 7.3, 3.9 },
	  6, 6, 43.0 / 462 },
	{ "ties, 5 vs 6", { 1, 2, 2, 3, 5 }, { 2, 3, 3, 4, 6, 7 }, 5, 6, 79.0 / 462 },
	{ "ties, 6 vs 6", { 10, 10, 20, 20, 30, 30 }, { 20, 30, 30, 40, 40, 50 }, 6, 6, 4.0 / 77 },
	{ "ties, 4 vs 5", { 7, 7, 7, 8 }, { 7, 8, 8, 9, 9 }, 4, 5, 1.0 / 7 },
	{ "all equal", { 5, 5, 5 }, { 5, 5, 5, 5 }, 3, 4, 1.0 },
	{ "one each", { 1 }, { 2 }, 1, 1, 1.0 },
};

static bool test_p_table(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(p_cases); i++) {
		const struct p_case *c = &p_cases[i];
		struct shift_test t;
		int err = shift_test(c->a, c->na, c->b, c->nb, &t);

		EXPECT(!err && t.na == c->na && t.nb == c->nb, "%s: %d, %d vs %d", c->name, err,
		       t.na, t.nb);
		EXPECT(near(t.p, c->p, 1e-12), "%s: p %.17g, want %.17g", c->name, t.p, c->p);
		EXPECT(near(t.p_min, mw_p_min(c->na, c->nb), 0), "%s: p_min %g", c->name, t.p_min);
	}
	return true;
}

/* The Python's data: a_i = f(i), b_i = g(i), the same formulas on both sides. */
static void fill(double *a, int na, double *b, int nb, int div, double shift)
{
	for (int i = 0; i < na; i++)
		a[i] = (double)(i / div) + (div == 1);
	for (int i = 0; i < nb; i++)
		b[i] = (double)(i / div) + shift;
}

static bool test_p_big(void)
{
	static const struct {
		const char *name;
		int na, nb, div;	/* div > 1: each value div times (ties) */
		double shift;
		double normal;		/* what the normal approximation said, before */
		double exact;		/* the integer dynamic programme's */
	} cases[] = {
		/* a = i // 2, b = i // 2 + 3: 80 values */
		{ "40 vs 40 tied", 40, 40, 2, 3.0, 0, 0.032362727478989044 },
		/* a = 1..50, b = i + 10.5: no ties */
		{ "50 vs 50", 50, 50, 1, 10.5, 0.003067458623737026, 0.002808316638770783 },
		/* a = i // 3, b = i // 3 + 2 */
		{ "45 vs 45 tied", 45, 45, 3, 2.0, 0.042004516252177625, 0.04184297113555936 },
		/* a = 1..41, b = i + 5.5 */
		{ "41 vs 40", 41, 40, 1, 5.5, 0.1470565171136773, 0.14774431930957369 },
	};
	double a[50], b[50];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct shift_test t;

		fill(a, cases[i].na, b, cases[i].nb, cases[i].div, cases[i].shift);
		EXPECT(!shift_test(a, cases[i].na, b, cases[i].nb, &t), "%s failed", cases[i].name);
		EXPECT(t.p_exact && near(t.p, cases[i].exact, 1e-10), "%s: p %.17g, want %.17g "
		       "(the normal approximation's: %g)", cases[i].name, t.p, cases[i].exact,
		       cases[i].normal);
	}
	return true;
}

static bool test_skipped(void)
{
	const double a[] = { 1, NAN, 2, 3, 4 }, b[] = { 5, 6, NAN, 7, INFINITY, 8 };
	const double none[] = { NAN, NAN };
	struct shift_test t;

	EXPECT(!shift_test(a, 5, b, 6, &t) && t.na == 4 && t.nb == 4, "used %d vs %d", t.na, t.nb);
	EXPECT(near(t.p, 2.0 / 70, 1e-12), "p %g", t.p);
	EXPECT(shift_test(none, 2, b, 6, &t) == -EINVAL && t.na == 0 && t.nb == 4 && isnan(t.p) &&
	       isnan(t.ratio) && t.p_min == 1.0, "all of A NAN: p %g", t.p);
	EXPECT(shift_test(a, 0, b, 6, &t) == -EINVAL && isnan(t.p), "no A: p %g", t.p);
	return true;
}

/* Ratios and intervals: Python, the median and the c-th of all sorted differences. */
static const struct hl_case {
	const char *name;
	double a[MAXV], b[MAXV];
	int na, nb;
	double ratio, low, high;
} hl_cases[] = {
	/* b = 2a: log differences symmetric about log 2; c = 9 for 7 vs 7 */
	{ "b = 2a", { 3, 5, 8, 13, 21, 34, 55 }, { 6, 10, 16, 26, 42, 68, 110 }, 7, 7,
	  2.0, 0.47272727272727266, 8.461538461538465 },
	/* c = 24 for 10 vs 10 (the textbook's 95 % rank) */
	{ "10 vs 10", { 101, 97, 110, 105, 99, 120, 103, 98, 107, 112 },
	  { 115, 109, 125, 118, 111, 130, 121, 108, 119, 127 }, 10, 10,
	  1.1273198402635753, 1.0571428571428572, 1.20952380952381 },
	{ "3 vs 3: unbounded", { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, 2.5, 0, INFINITY },
	/* raw differences; median(a) = 20, c = 3 */
	{ "zeros, raw", { 0, 10, 20, 30, 40 }, { 5, 25, 35, 45, 60 }, 5, 5, 1.75, 0.25, 3.25 },
	/* raw, c = 1: Python's lower end (3 - 5) / 3, clamped: values >= 0 have no ratio below 0 */
	{ "zeros, clamped", { 0, 2, 4, 6 }, { 1, 3, 5, 9 }, 4, 4, 4.0 / 3, 0, 4.0 },
	{ "median(a) 0", { 0, 0, 0, 1 }, { 1, 2, 3, 4 }, 4, 4, NAN, NAN, NAN },
};

static bool test_hl_table(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(hl_cases); i++) {
		const struct hl_case *c = &hl_cases[i];
		struct shift_test t;

		EXPECT(!shift_test(c->a, c->na, c->b, c->nb, &t), "%s failed", c->name);
		EXPECT(near(t.ratio, c->ratio, 1e-12) && near(t.ratio_low, c->low, 1e-12) &&
		       near(t.ratio_high, c->high, 1e-12), "%s: %.17g [%.17g, %.17g]", c->name,
		       t.ratio, t.ratio_low, t.ratio_high);
		EXPECT(isnan(t.ratio) || (t.ratio_low <= t.ratio && t.ratio <= t.ratio_high),
		       "%s: %g outside [%g, %g]", c->name, t.ratio, t.ratio_low, t.ratio_high);
	}
	return true;
}

static bool test_hl_p(void)
{
	/* p is computed whatever the ratio: median(a) 0 (brute force: 2/35), b = 2a (445/1716) */
	struct shift_test t;

	EXPECT(!shift_test(hl_cases[5].a, 4, hl_cases[5].b, 4, &t) && near(t.p, 2.0 / 35, 1e-12),
	       "median(a) 0: p %g", t.p);
	EXPECT(!shift_test(hl_cases[0].a, 7, hl_cases[0].b, 7, &t) &&
	       near(t.p, 445.0 / 1716, 1e-12), "b = 2a: p %g", t.p);
	return true;
}

/* Values all > 0: on logs, distribution-free; a value of 0 anywhere: raw, approximate. */
static bool test_interval_kind(void)
{
	struct shift_test t;

	EXPECT(!shift_test(hl_cases[1].a, 10, hl_cases[1].b, 10, &t) && t.on_logs,
	       "latencies: on raw values");
	EXPECT(!shift_test(hl_cases[3].a, 5, hl_cases[3].b, 5, &t) && !t.on_logs,
	       "counts with a 0: on logs");
	return true;
}

#define T_MAX 8

/*
 * Tarone's K by hand: the least K >= 1 with #{p_min <= 0.05 / K} <= K, and
 * which tests that leaves.
 */
static bool test_tarone(void)
{
	static const struct {
		int n;
		double p_min[T_MAX];
		int k;
		const char *counted;	/* '1': counted */
	} cases[] = {
		/* one real finding among untestable ones (a single pass apart: p_min 1) */
		{ 4, { 2.0 / 252, 1, 1, 1 }, 1, "1000" },
		/* four at 5 vs 5 passes: K = 4, 0.0125 >= 0.0079 */
		{ 4, { 2.0 / 252, 2.0 / 252, 2.0 / 252, 2.0 / 252 }, 4, "1111" },
		/* seven of them: m(6) = 7 > 6, and at K = 7 none is left (0.0071 < 0.0079) */
		{ 7, { 2.0 / 252, 2.0 / 252, 2.0 / 252, 2.0 / 252, 2.0 / 252, 2.0 / 252,
		       2.0 / 252 }, 7, "0000000" },
		/* mixed sizes: K = 2 keeps the two below 0.025 */
		{ 5, { 0.001, 0.02, 0.03, 0.1, 1 }, 2, "11000" },
		{ 3, { NAN, 0.001, NAN }, 1, "010" },	/* NAN: no test */
		{ 0, { 0 }, 1, "" },
	};
	bool counted[T_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int k = tarone_count(cases[i].p_min, cases[i].n, VERDICT_FDR, counted);

		EXPECT(k == cases[i].k, "case %zu: K %d, want %d", i, k, cases[i].k);
		for (int j = 0; j < cases[i].n; j++)
			EXPECT(counted[j] == (cases[i].counted[j] == '1'), "case %zu, test %d: %s",
			       i, j, counted[j] ? "counted" : "left out");
	}
	return true;
}

static bool test_shift_rank(void)
{
	static const int cases[][3] = {	/* na, nb -> c: exact U distribution (Python) */
		{ 1, 1, 0 }, { 3, 3, 0 }, { 4, 4, 1 }, { 5, 5, 3 }, { 10, 10, 24 }, { 6, 9, 11 },
		{ 9, 6, 11 }, { 20, 20, 128 }, { 40, 40, 597 }, { 2, 78, 16 }, { 1, 40, 1 },
		{ 1, 39, 1 },		/* P(U = 0) = 1/40, exactly (1 - 0.95) / 2: still in */
		/* the normal approximation, equal to the exact c here */
		{ 41, 40, 613 }, { 50, 50, 966 }, { 100, 100, 4198 }, { 30, 60, 671 },
		{ 10, 200, 632 },	/* exact 634: the approximation errs wide */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT(shift_rank(cases[i][0], cases[i][1]) == cases[i][2],
		       "%d vs %d: c %d, want %d", cases[i][0], cases[i][1],
		       shift_rank(cases[i][0], cases[i][1]), cases[i][2]);
	return true;
}

#define Q_MAX 6

static bool test_bh(void)
{
	static const struct {
		int n;
		double p[Q_MAX], q[Q_MAX];	/* by hand: p m / rank, then the least above */
	} cases[] = {
		{ 4, { 0.01, 0.04, 0.03, 0.005 }, { 0.02, 0.04, 0.04, 0.02 } },
		{ 6, { 0.01, NAN, 0.04, 0.03, NAN, 0.005 }, { 0.02, NAN, 0.04, 0.04, NAN, 0.02 } },
		/* 0.02 * 5/2 = 0.05 is lowered to 0.021 * 5/3 = 0.035 */
		{ 5, { 0.001, 0.02, 0.021, 0.5, 0.9 }, { 0.005, 0.035, 0.035, 0.625, 0.9 } },
		{ 3, { 0.02, 0.9, 0.02 }, { 0.03, 0.9, 0.03 } },	/* ties: the higher rank */
		{ 2, { 1.5, 0.01 }, { 1.0, 0.02 } },			/* capped at 1 */
		{ 2, { NAN, NAN }, { NAN, NAN } },
		{ 1, { 0.3 }, { 0.3 } },
	};
	double q[Q_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bh_qvalues(cases[i].p, cases[i].n, q);
		for (int j = 0; j < cases[i].n; j++)
			EXPECT(near(q[j], cases[i].q[j], 1e-12), "case %zu, p %g: q %.17g, want %g",
			       i, cases[i].p[j], q[j], cases[i].q[j]);
	}
	return true;
}

/* On 60 scattered p: q never below p, never above 1, in the order of p. */
static bool test_bh_monotone(void)
{
	double p[60], q[60];
	unsigned x = 12345;

	for (int i = 0; i < 60; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = i % 7 == 3 ? NAN : (double)(x >> 8 & 0xffff) / 65536.0 / (1 + i % 5 * 20);
	}
	bh_qvalues(p, 60, q);
	for (int i = 0; i < 60; i++) {
		if (isnan(p[i])) {
			EXPECT(isnan(q[i]), "p NAN, q %g", q[i]);
			continue;
		}
		EXPECT(q[i] >= p[i] && q[i] <= 1.0, "p %g: q %g", p[i], q[i]);
		for (int j = 0; j < 60; j++)
			EXPECT(isnan(p[j]) || p[j] > p[i] || q[j] <= q[i], "p %g <= %g, q %g > %g",
			       p[j], p[i], q[j], q[i]);
	}
	return true;
}

static bool test_sizes(void)
{
	/*
	 * By hand: 2/C(8,4) = 0.0286 <= 0.05 (4 passes for 1 test); 2/C(12,6) =
	 * 2/924 = 0.002165 <= 0.05/23 = 0.002174 but > 0.05/24 = 0.002083, and
	 * 2/C(14,7) = 2/3432 = 0.000583 <= 0.05/85 = 0.000588 but > 0.05/86.
	 */
	static const int sig[][2] = {
		{ 1, 4 }, { 0, 4 }, { 2, 5 }, { 23, 6 }, { 24, 7 }, { 40, 7 }, { 85, 7 }, { 86, 8 },
	};
	static const struct {
		int na, nb;
		double p;
	} pmin[] = {
		{ 4, 4, 2.0 / 70 }, { 3, 3, 0.1 }, { 5, 5, 2.0 / 252 }, { 1, 1, 1.0 },
		{ 1, 2, 2.0 / 3 }, { 3, 5, 2.0 / 56 }, { 5, 3, 2.0 / 56 }, { 0, 4, 1.0 },
		{ 20, 20, 2.0 / 137846528820.0 },		/* C(40, 20) */
	};

	for (size_t i = 0; i < ARRAY_SIZE(sig); i++)
		EXPECT(passes_for_significance(sig[i][0]) == sig[i][1], "%d tests: %d passes",
		       sig[i][0], passes_for_significance(sig[i][0]));
	for (size_t i = 0; i < ARRAY_SIZE(pmin); i++)
		EXPECT(near(mw_p_min(pmin[i].na, pmin[i].nb), pmin[i].p, 1e-12), "%d vs %d: %g",
		       pmin[i].na, pmin[i].nb, mw_p_min(pmin[i].na, pmin[i].nb));
	return true;
}

static bool test_power(void)
{
	/*
	 * By hand for the first: z_0.975 + z_0.8 = 1.959964 + 0.841621 =
	 * 2.801585, squared 7.848879; times 2 * 0.1^2 = 0.156978; over
	 * log(1.1)^2 = 0.0090840: 17.2805; over 3/pi = 0.954930: 18.096, so 19.
	 * The others the same way in Python (statistics.NormalDist).
	 */
	static const struct {
		double sd, change, power;
		int n;
	} cases[] = {
		{ 0.1, 0.10, 0.80, 19 }, { 0.05, 0.10, 0.80, 5 },	/* 4.524 */
		{ 0.2, 0.05, 0.90, 370 },				/* 369.79 */
		{ 0.02, 0.10, 0.80, 4 },				/* 0.72: the least, 4 */
		{ 0.0, 0.10, 0.80, 4 }, { 0.1, -0.10, 0.80, 15 },	/* log(0.9)^2: 14.81 */
		{ NAN, 0.10, 0.80, -1 }, { INFINITY, 0.10, 0.80, -1 }, { 0.1, 0.0, 0.80, -1 },
		{ 0.1, 0.10, 1.0, -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int n = passes_for_power(cases[i].sd, cases[i].change, cases[i].power);

		EXPECT(n == cases[i].n, "sd %g, change %g, power %g: %d, want %d", cases[i].sd,
		       cases[i].change, cases[i].power, n, cases[i].n);
	}
	return true;
}

static bool test_sd_log(void)
{
	/* logs {0, 1, 2} (SS 2) and {1, 1, 3} (SS 8/3), 4 degrees of freedom: sqrt(7/6) */
	const double a[] = { 1, 0, M_E, NAN, M_E * M_E }, b[] = { M_E, M_E, M_E * M_E * M_E, -1 };
	const double c[] = { 1, 2 }, d[] = { 3, 4 };
	double sd = sd_log_pooled(a, 5, b, 4), want = sqrt(7.0 / 6);

	EXPECT(near(sd, want, 1e-12), "sd %.17g, want %.17g", sd, want);
	/* 2 degrees of freedom: SS (log 2)^2 / 2 + log(4/3)^2 / 2 */
	want = sqrt((log(2) * log(2) + log(4.0 / 3) * log(4.0 / 3)) / 4);
	sd = sd_log_pooled(c, 2, d, 2);
	EXPECT(near(sd, want, 1e-12), "2 and 2: sd %.17g, want %.17g", sd, want);
	EXPECT(isnan(sd_log_pooled(c, 2, d, 1)), "1 degree of freedom gave a number");
	EXPECT(isnan(sd_log_pooled(a, 0, b, 0)), "no values gave a number");
	return true;
}

/* Does the interval hold the ratio 1, each end closed or open as it says? */
static bool holds_one(const struct shift_test *t)
{
	return (t->ratio_low < 1.0 || (t->ratio_low == 1.0 && !t->low_open)) &&
	       (t->ratio_high > 1.0 || (t->ratio_high == 1.0 && !t->high_open));
}

/*
 * With ties the interval's end can sit on 1.00 itself: the audit's "worse
 * 2.00 [1.00, 2.50]". Over tied samples (counts, deadlines at 100 %) of 5
 * to 10 passes, the interval holds 1 exactly when p > 0.05; and the
 * audit's kind of case shows an open end at 1.
 */
static bool test_interval_agrees(void)
{
	static const double a[] = { 1, 1, 1, 1, 1, 1, 2, 1 }, b[] = { 2, 2, 2, 3, 2, 2, 2, 1 };
	struct shift_test t;
	uint64_t s = 99;
	int called = 0;

	EXPECT(!shift_test(a, 8, b, 8, &t) && t.p <= 0.05 && t.direction > 0 && t.low_open &&
	       t.ratio_low == 1.0 && !holds_one(&t), "p %g [%g, %g] open %d", t.p, t.ratio_low,
	       t.ratio_high, t.low_open);
	for (int c = 0; c < 4000; c++) {
		int n = 5 + (int)rng_below(&s, 6);
		double x[20], shift = rng_below(&s, 3) * 0.7;

		for (int i = 0; i < 2 * n; i++)
			x[i] = c % 2 ? sim_poisson(&s, 1.0 + (i >= n ? shift : 0)) :
			       100 - fmin(sim_poisson(&s, 0.5 + (i >= n ? shift : 0)), 3) * 0.5;
		EXPECT(!shift_test(x, n, x + n, n, &t), "case %d", c);
		if (!isfinite(t.ratio_low) || isinf(t.ratio_high))
			continue;
		called += t.p <= 0.05;
		EXPECT(holds_one(&t) == (t.p > 0.05), "case %d: p %g, [%g, %g] open %d %d", c,
		       t.p, t.ratio_low, t.ratio_high, t.low_open, t.high_open);
	}
	EXPECT(called > 400, "only %d called", called);
	return true;
}

/* The rule design.md states: exact up to 201 vs 201 untied, 81 vs 81 tied. */
static bool test_exact_rule(void)
{
	static const struct {
		int n;
		bool tied, exact;
	} cases[] = { { 201, false, true }, { 202, false, false }, { 81, true, true },
		      { 82, true, false } };

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		int n = cases[c].n;
		double x[404];
		struct rank_groups g;

		for (int i = 0; i < 2 * n; i++)
			x[i] = cases[c].tied ? i % 4 : i;
		EXPECT(!rank_groups_make(x, n, n, &g), "no memory");
		EXPECT(rank_p_is_exact(&g) == cases[c].exact, "%d vs %d %s", n, n,
		       cases[c].tied ? "tied" : "untied");
		rank_groups_free(&g);
	}
	return true;
}

void unit_core_verdict(void)
{
	check("verdict: exact p, separated, interleaved and tied samples", test_p_table());
	check("verdict: p exact at 80 values and beyond, with ties", test_p_big());
	check("verdict: NAN and infinite values skipped; none left is -EINVAL", test_skipped());
	check("verdict: Hodges-Lehmann ratio and interval, logs and raw", test_hl_table());
	check("verdict: p without a ratio", test_hl_p());
	check("verdict: the interval's rank c, exact and normal", test_shift_rank());
	check("verdict: the interval distribution-free on logs, approximate on raw values",
	      test_interval_kind());
	check("verdict: Tarone's K and the tests it counts", test_tarone());
	check("verdict: Benjamini-Hochberg q-values", test_bh());
	check("verdict: q-values monotone, >= p, <= 1", test_bh_monotone());
	check("verdict: passes for significance, p_min", test_sizes());
	check("verdict: passes for power", test_power());
	check("verdict: pooled SD of logs", test_sd_log());
	check("verdict: with ties the interval holds 1 exactly when the test does not reject",
	      test_interval_agrees());
	check("verdict: where p is exact, as design.md says", test_exact_rule());
}
