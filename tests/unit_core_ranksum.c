// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_ranksum.c - unit tests of the core: the rank sum's p given the ties, its
 * least value, its direction, Monte Carlo beyond. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/defs.h"
#include "core/ranksum.h"
#include "core/verdict_stats.h"

#include "tests/unit.h"

/*
 * The reference values were computed in Python with integers and
 * fractions, by a dynamic programme of its own over the tie groups (a dict
 * of (values taken, doubled rank sum) -> ways), or for 100 vs 100 with four
 * distinct values by enumerating how many of B fall in each group, and for
 * untied 200 vs 200 by the Gaussian binomial in integers.
 */
#define RUNS 6

struct run {
	double v;
	int n;
};

/* A sample written as runs of equal values: { 0, 37 }, { 1, 4 } is 37 zeros and 4 ones. */
static int unrun(const struct run *r, double *out)
{
	int n = 0;

	for (int i = 0; i < RUNS && r[i].n; i++)
		for (int j = 0; j < r[i].n; j++)
			out[n++] = r[i].v;
	return n;
}

static bool near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want) + 1e-300;
}

static const struct tied_case {
	const char *name;
	struct run a[RUNS], b[RUNS];
	double p, p_min;	/* p_min 0: not checked */
	int direction;
} tied_cases[] = {
	/* the brief's example: 5 of A's passes above every B but one, the rest tied at 0.100 */
	{ "mean latency, most tied", { { 0.100, 6 }, { 0.101, 1 }, { 0.104, 1 }, { 0.105, 1 },
	  { 0.106, 1 }, { 0.109, 2 } }, { { 0.100, 10 }, { 0.103, 1 } }, 242.0 / 7429, 0, -1 },
	/* the medians are equal (0.2), B's rank sum is not */
	{ "equal medians", { { 0.1, 4 }, { 0.2, 5 } }, { { 0.2, 7 }, { 0.3, 1 }, { 0.4, 2 },
	  { 0.5, 2 } }, 99.0 / 22610, 0, +1 },
	/* 82 values: the normal approximation said 0.0428 */
	{ "41 vs 41 stutters", { { 0, 41 } }, { { 0, 37 }, { 1, 4 } }, 247.0 / 2133,
	  247.0 / 2133, +1 },
	{ "one pass apart, 6 vs 6", { { 5, 6 } }, { { 5, 5 }, { 7, 1 } }, 1.0, 1.0, +1 },
	{ "one pass apart, 3 vs 9", { { 5, 3 } }, { { 5, 8 }, { 7, 1 } }, 1.0, 0.25, +1 },
	{ "deadlines, 5 vs 5", { { 99.5, 1 }, { 100, 4 } }, { { 98, 1 }, { 99, 1 }, { 100, 3 } },
	  4.0 / 9, 1.0 / 6, -1 },
	{ "all equal", { { 3, 4 } }, { { 3, 5 } }, 1.0, 1.0, 0 },
};

static bool test_tied_p(void)
{
	double a[128], b[128];

	for (size_t i = 0; i < ARRAY_SIZE(tied_cases); i++) {
		const struct tied_case *c = &tied_cases[i];
		struct shift_test t;
		int na = unrun(c->a, a), nb = unrun(c->b, b);

		EXPECT(!shift_test(a, na, b, nb, &t), "%s failed", c->name);
		EXPECT(near(t.p, c->p, 1e-12) && t.p_exact, "%s: p %.17g, want %.17g", c->name,
		       t.p, c->p);
		EXPECT(!c->p_min || near(t.p_min_ties, c->p_min, 1e-12), "%s: least p %.17g, want "
		       "%.17g", c->name, t.p_min_ties, c->p_min);
		EXPECT(t.direction == c->direction, "%s: direction %d, want %d", c->name,
		       t.direction, c->direction);
	}
	return true;
}

/* The first example's ratio is 1: most differences are 0. Its direction is not. */
static bool test_direction_not_ratio(void)
{
	double a[16], b[16];
	int na = unrun(tied_cases[0].a, a), nb = unrun(tied_cases[0].b, b);
	struct shift_test t;

	EXPECT(!shift_test(a, na, b, nb, &t), "failed");
	EXPECT(t.ratio == 1.0 && t.direction == -1, "ratio %g, direction %d", t.ratio, t.direction);
	return true;
}

/* Against the small-p and tied references: p_min from the ends, as the DP gives it. */
static bool test_p_min_ties(void)
{
	static const struct {
		struct run a[RUNS], b[RUNS];
		double want;
	} cases[] = {
		{ { { 1, 1 }, { 2, 2 }, { 3, 1 }, { 5, 1 } }, { { 2, 1 }, { 3, 2 }, { 4, 1 },
		  { 6, 1 }, { 7, 1 } }, 1.0 / 77 },
		{ { { 10, 2 }, { 20, 2 }, { 30, 2 } }, { { 20, 1 }, { 30, 2 }, { 40, 2 },
		  { 50, 1 } }, 2.0 / 231 },
		{ { { 7, 3 }, { 8, 1 } }, { { 7, 1 }, { 8, 2 }, { 9, 2 } }, 1.0 / 126 },
		{ { { 1, 5 } }, { { 2, 5 } }, 2.0 / 252 },	/* untied ends: as mw_p_min */
	};
	double a[32], b[32];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int na = unrun(cases[i].a, a), nb = unrun(cases[i].b, b);
		struct shift_test t;

		EXPECT(!shift_test(a, na, b, nb, &t) && near(t.p_min_ties, cases[i].want, 1e-12),
		       "case %zu: least p %.17g, want %.17g", i, t.p_min_ties, cases[i].want);
	}
	return true;
}

/* Tied, beyond 80 values: exact by the DP (100 vs 100 taken straight, then by shift_test). */
static bool test_tied_big(void)
{
	static const struct {
		struct run a[RUNS], b[RUNS];
		double p;
	} cases[] = {
		{ { { 0, 55 }, { 1, 25 }, { 2, 15 }, { 3, 5 } },
		  { { 0, 45 }, { 1, 28 }, { 2, 19 }, { 3, 8 } }, 0.13272209488262968 },
		{ { { 0, 50 }, { 1, 30 }, { 2, 15 }, { 3, 5 } },
		  { { 0, 47 }, { 1, 31 }, { 2, 16 }, { 3, 6 } }, 0.6487117336436413 },
	};
	double x[256];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int na = unrun(cases[i].a, x), nb = unrun(cases[i].b, x + na);
		struct rank_groups g;
		struct shift_test t;
		double p, sd = sqrt(cases[i].p * (1 - cases[i].p) / RANK_MC_DRAWS);

		EXPECT(!rank_groups_make(x, na, nb, &g), "no memory");
		p = rank_p_exact(&g);
		rank_groups_free(&g);
		EXPECT(near(p, cases[i].p, 1e-10), "case %zu exact: p %.17g, want %.17g", i, p,
		       cases[i].p);
		/* shift_test takes Monte Carlo's p at this size: within its error */
		EXPECT(!shift_test(x, na, x + na, nb, &t) && !t.p_exact &&
		       fabs(t.p - cases[i].p) <= 4 * sd, "case %zu: p %.6f (%s), exact %.6f", i,
		       t.p, t.p_exact ? "exact" : "Monte Carlo", cases[i].p);
	}
	return true;
}

/* Untied, far beyond 80 values: a = 1..200, b = a + 20.5, exact. */
static bool test_untied_big(void)
{
	double a[200], b[200];
	struct shift_test t;

	for (int i = 0; i < 200; i++) {
		a[i] = i + 1;
		b[i] = i + 21.5;
	}
	EXPECT(!shift_test(a, 200, b, 200, &t), "failed");
	EXPECT(t.p_exact && near(t.p, 0.0007384843867225224, 1e-10), "p %.17g (%s)", t.p,
	       t.p_exact ? "exact" : "Monte Carlo");
	return true;
}

/*
 * Monte Carlo against exact where both can be had: never below the exact p
 * by more than its own error (3 sd), a valid p-value's way of erring.
 */
static bool test_monte_carlo(void)
{
	static const struct {
		struct run a[RUNS], b[RUNS];
		double p;
	} cases[] = {
		{ { { 0, 20 }, { 1, 6 }, { 2, 4 } }, { { 0, 14 }, { 1, 9 }, { 2, 7 } },
		  0.14670335702100545 },
		{ { { 0, 25 }, { 1, 5 } }, { { 0, 21 }, { 1, 9 } }, 0.36036045478232237 },
		{ { { 1, 10 }, { 2, 10 }, { 3, 10 } }, { { 1, 8 }, { 2, 10 }, { 3, 12 } },
		  0.5815296763479748 },
		{ { { 0, 41 } }, { { 0, 37 }, { 1, 4 } }, 247.0 / 2133 },
		{ { { 1, 5 } }, { { 2, 5 } }, 2.0 / 252 },
	};
	double x[128];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int na = unrun(cases[i].a, x), nb = unrun(cases[i].b, x + na);
		double p, again, sd = sqrt(cases[i].p * (1 - cases[i].p) / RANK_MC_DRAWS);
		struct rank_groups g;

		EXPECT(!rank_groups_make(x, na, nb, &g), "no memory");
		EXPECT(!rank_p_monte_carlo(&g, &p) && !rank_p_monte_carlo(&g, &again), "no memory");
		rank_groups_free(&g);
		EXPECT(p >= cases[i].p - 3 * sd && p <= cases[i].p + 4 * sd + 1.0 / RANK_MC_DRAWS,
		       "case %zu: Monte Carlo %.6f, exact %.6f (sd %.4f)", i, p, cases[i].p, sd);
		EXPECT(p == again, "case %zu: %g then %g: the seed is not the data's", i, p, again);
	}
	return true;
}

/* The Gaussian binomial against the counts of U by hand: 2 vs 3 gives 1 1 2 2 2 1 1. */
static bool test_untied_counts(void)
{
	static const double want[] = { 1, 1, 2, 2, 2, 1, 1 };
	double *c = untied_u_counts(2, 3, 7);

	EXPECT(c, "no memory");
	for (int u = 0; u < 7; u++)
		if (c[u] != want[u]) {
			double got = c[u];

			free(c);
			EXPECT(false, "U = %d: %g ways, want %g", u, got, want[u]);
		}
	free(c);
	return true;
}

void unit_core_ranksum(void)
{
	check("ranksum: exact p, least p and direction with ties", test_tied_p());
	check("ranksum: the direction from the ranks where the ratio is 1",
	      test_direction_not_ratio());
	check("ranksum: the least p given the ties", test_p_min_ties());
	check("ranksum: tied, 100 vs 100: exact, and Monte Carlo within its error",
	      test_tied_big());
	check("ranksum: untied, 200 vs 200, exact", test_untied_big());
	check("ranksum: Monte Carlo never below exact by more than its error", test_monte_carlo());
	check("ranksum: untied counts of U", test_untied_counts());
}
