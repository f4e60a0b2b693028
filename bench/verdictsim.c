// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/verdictsim.c - does n10% keep its word, does the interval agree with the test, and where is
 * p exact: the verdicts' statistics held to runs simulated from known laws (fixed seeds). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/defs.h"
#include "core/ranksum.h"
#include "core/verdict_stats.h"
#include "tests/sim_laws.h"

#define LEVEL 0.05
#define CHANGE 0.10
#define POWER 0.80
#define PILOTS 40		/* pilot runs per law: each gives one advice */
#define RUNS 400		/* runs of the advised passes per advice: sd 0.02 at 0.8 */

/* A law of one pass's value: base (A) or changed (B, the change the advice is for). */
struct law {
	const char *name;
	double (*draw)(uint64_t *s, double param, bool changed);
	double param;
	int dir;		/* the change's direction in the ranks: +1 B higher */
	int kind;		/* enum change_kind: what n10% takes the change to be */
};

/* Counts (stutters, xruns): Poisson at a rate, the change 10 % more of it. */
static double draw_count(uint64_t *s, double rate, bool changed)
{
	return sim_poisson(s, rate * (changed ? 1 + CHANGE : 1.0));
}

/*
 * Deadlines met %: 1000 periods a pass, each missed at a pass's own rate
 * (log-normal about param %, CV 50 %); the change, 10 % more misses.
 */
static double draw_deadlines(uint64_t *s, double miss_pct, bool changed)
{
	double rate = miss_pct / 100 * exp(0.47 * sim_normal(s) - 0.11);
	double missed = sim_poisson(s, 1000 * rate * (changed ? 1 + CHANGE : 1.0));

	return 100.0 * (1000 - fmin(missed, 1000)) / 1000;
}

/* Latencies: log-normal of CV 30 % (sd of logs 0.294); the change, 10 % longer. */
static double draw_latency(uint64_t *s, double sd_log, bool changed)
{
	return exp(sd_log * sim_normal(s)) * (changed ? 1 + CHANGE : 1.0);
}

/* The test's p on x[0..2n) and its direction: exact up to 60 passes each, normal beyond. */
static double run_p(double *x, int n, int *dir)
{
	struct shift_test t;

	if (n > 60)
		return sim_normal_p(x, n, n, dir);
	if (shift_test(x, n, x + n, n, &t))
		return NAN;
	*dir = t.direction;
	return t.p;
}

/* The share of RUNS runs of n passes each that find the law's change, its way. */
static double found_share(const struct law *l, int n, uint64_t seed)
{
	double *x = malloc(2 * (size_t)n * sizeof(*x));
	int found = 0, dir;

	for (int r = 0; x && r < RUNS; r++) {
		for (int i = 0; i < 2 * n; i++)
			x[i] = l->draw(&seed, l->param, i >= n);
		found += run_p(x, n, &dir) <= LEVEL && dir == l->dir;
	}
	free(x);
	return (double)found / RUNS;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* PILOTS pilots of `passes` each from the law (no change): their advices, run. */
static void advice_line(const struct law *l, int passes)
{
	double a[64], b[64], sum = 0, least = 1;
	int n[PILOTS], kept = 0, run = 0, over = 0;
	uint64_t s = 1 + (uint64_t)passes * 1000 + (uint64_t)(l->param * 100);

	for (int k = 0; k < PILOTS; k++) {
		double f;

		for (int i = 0; i < passes; i++) {
			a[i] = l->draw(&s, l->param, false);
			b[i] = l->draw(&s, l->param, false);
		}
		n[k] = passes_for_change(a, passes, b, passes, l->kind, CHANGE, POWER, LEVEL);
		if (n[k] < 2 || n[k] > 4000) {	/* past what a user would run, or none */
			over++;
			continue;
		}
		f = found_share(l, n[k], 7 + k);
		sum += f;
		least = fmin(least, f);
		kept += f >= POWER;
		run++;
	}
	qsort(n, PILOTS, sizeof(n[0]), cmp_int);
	printf("| %s %g | %d | %d | %d | %.3f | %.3f | %d of %d (%.0f %%) | %d |\n", l->name, l->param,
	       passes, n[PILOTS / 2], n[PILOTS / 10], run ? sum / run : NAN, least, kept, run,
	       run ? 100.0 * kept / run : 0.0, over);
}

static void advices(void)
{
	static const struct law laws[] = {
		{ "stutters, Poisson mean", draw_count, 1, +1, CHANGE_RATE },
		{ "stutters, Poisson mean", draw_count, 2, +1, CHANGE_RATE },
		{ "xruns, Poisson mean", draw_count, 3, +1, CHANGE_RATE },
		{ "deadlines %, misses % about", draw_deadlines, 2, -1, CHANGE_SHORTFALL },
		{ "latency, log-normal sd of logs", draw_latency, 0.294, +1, CHANGE_SCALE },
	};
	static const int pilots[] = { 5, 10, 20 };

	printf("| law | pilot passes each | n10%% median | n10%% 10th percentile | share found, "
	       "mean | least | advices found >= 80 %% | advices past 4000 |\n");
	printf("|---|---|---|---|---|---|---|---|\n");
	for (size_t l = 0; l < ARRAY_SIZE(laws); l++)
		for (size_t p = 0; p < ARRAY_SIZE(pilots); p++)
			if (laws[l].draw != draw_count || pilots[p] == 10)
				advice_line(&laws[l], pilots[p]);
}

/*
 * Tied passes (counts 0..4, deadlines at 100 or just below) of 5 to 10
 * each, B's shifted now and then: of the tests with p <= 0.05, how many
 * show an interval that holds the ratio 1 (a closed end at it, or across).
 */
static void interval_ties(void)
{
	uint64_t s = 99;
	int called = 0, holds = 0, cases = 20000;

	for (int c = 0; c < cases; c++) {
		int n = 5 + (int)rng_below(&s, 6);
		double x[20], shift = rng_below(&s, 3) * 0.7;
		struct shift_test t;

		for (int i = 0; i < 2 * n; i++)
			x[i] = c % 2 ? sim_poisson(&s, 1.0 + (i >= n ? shift : 0)) :
			       100 - fmin(sim_poisson(&s, 0.5 + (i >= n ? shift : 0)), 3) * 0.5;
		if (shift_test(x, n, x + n, n, &t) || !(t.p <= LEVEL))
			continue;
		called++;
		holds += (t.ratio_low < 1.0 || (t.ratio_low == 1.0 && !t.low_open)) &&
			 (t.ratio_high > 1.0 || (t.ratio_high == 1.0 && !t.high_open));
	}
	printf("Of %d tied cases (5 to 10 passes each, counts and deadlines %%), %d had p <= %.2g; "
	       "of these, %d showed an interval holding the ratio 1 (an open end at 1 does not).\n",
	       cases, called, LEVEL, holds);
}

/* The most passes each (equal sizes) whose p is exact, untied and with ties (values 0..3). */
static void exact_rule(void)
{
	int last[2] = { 0, 0 };

	for (int tied = 0; tied < 2; tied++)
		for (int n = 2; n <= 260; n++) {
			double *x = malloc(2 * (size_t)n * sizeof(*x));
			struct rank_groups g;
			bool exact = false;

			for (int i = 0; x && i < 2 * n; i++)
				x[i] = tied ? (i * 7 % 4) + (i >= n && i % 5 == 0) : i * 1.1 + (i >= n);
			if (x && !rank_groups_make(x, n, n, &g)) {
				/* the decision only: rank_sum_p() would compute it */
				exact = rank_p_is_exact(&g);
				rank_groups_free(&g);
			}
			free(x);
			if (exact)
				last[tied] = n;
		}
	printf("p is exact up to %d vs %d untied passes, %d vs %d with ties; beyond, Monte Carlo.\n",
	       last[0], last[0], last[1], last[1]);
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");

	advices();
	if (quick)
		return 0;
	printf("\n");
	interval_ties();
	exact_rule();
	return 0;
}
