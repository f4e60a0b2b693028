// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_power.c - unit tests of the core: the passes that would find a 10 % change,
 * held to runs simulated from known laws. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/defs.h"
#include "core/ranksum.h"
#include "core/verdict_stats.h"

#include "tests/sim_laws.h"
#include "tests/unit.h"

#define CHANGE 0.10
#define POWER 0.80

/* A standard normal draw: Box-Muller, u never 0. */
static double normal_draw(uint64_t *s)
{
	double u = ((double)(rng_next(s) >> 11) + 0.5) * 0x1p-53;
	double v = (double)(rng_next(s) >> 11) * 0x1p-53;

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

static double phi(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/*
 * Bimodal passes: log(value) is -M or +M, half the time each, plus a
 * normal of sd S: a pass either met a tick-long wait or not. Their SD of
 * logs is 0.97, so the log-normal formula asks for 1,700 passes; the rank
 * test only has to see the shift within each mode.
 */
#define MODE 0.932
#define WITHIN 0.265

static double mix_cdf(double x)
{
	return 0.5 * phi((x + MODE) / WITHIN) + 0.5 * phi((x - MODE) / WITHIN);
}

/* The mixture's q-quantile, by bisection. */
static double mix_quantile(double q)
{
	double lo = -20, hi = 20;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (mix_cdf(mid) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * n passes at random quantiles, one in each of n equal strata: random
 * passes (a grid's differences would sit on a lattice), with little noise.
 */
static void stratified(double (*quantile)(double), int n, uint64_t seed, double *out)
{
	for (int i = 0; i < n; i++)
		out[i] = exp(quantile((i + ((double)(rng_next(&seed) >> 11) + 0.5) * 0x1p-53) / n));
}

/* Two-sided normal p of untied U for n vs n (within 1e-3 of exact beyond 80 values). */
static double normal_p(long u, int n)
{
	double nn = (double)n * n, z = (fabs(u - nn / 2) - 0.5) / sqrt(nn * (2.0 * n + 1) / 12);

	return z > 0 ? erfc(z / M_SQRT2) : 1.0;
}

/* The share of `runs` runs of n passes of the mixture, B times 1.1, that p <= level finds. */
static double bimodal_found(int n, double level, int runs, uint64_t seed)
{
	double *x = malloc(2 * (size_t)n * sizeof(*x));
	int found = 0;

	for (int r = 0; x && r < runs; r++) {
		struct rank_groups g;

		for (int i = 0; i < 2 * n; i++)
			x[i] = exp((rng_next(&seed) >> 63 ? MODE : -MODE) +
				   WITHIN * normal_draw(&seed)) * (i >= n ? 1 + CHANGE : 1.0);
		if (rank_groups_make(x, n, n, &g))
			break;
		found += normal_p(g.u2 / 2, n) <= level;
		rank_groups_free(&g);
	}
	free(x);
	return (double)found / runs;
}

/*
 * Passes from the mixture, 400 each so that the estimate's own noise (a
 * third of the effect at 40 each) does not hide its bias. The old formula:
 * about 1,700; the resampled passes: about 560, and runs of that many from
 * the mixture find the change 80 % of the time (1,000 runs: sd 0.013),
 * while 70 % of them would not.
 */
static bool test_bimodal(void)
{
	static double a[400], b[400];
	double found, fewer;
	int n, old;

	stratified(mix_quantile, 400, 1, a);
	stratified(mix_quantile, 400, 2, b);
	n = passes_for_change(a, 400, b, 400, CHANGE_SCALE, CHANGE, POWER, 0.05);
	old = passes_for_power(sd_log_pooled(a, 400, b, 400), CHANGE, POWER);
	EXPECT(old > 1600 && n >= 480 && n <= 640, "bimodal: %d passes, the log-normal formula %d",
	       n, old);
	found = bimodal_found(n, 0.05, 1000, 11);
	fewer = bimodal_found(n * 7 / 10, 0.05, 1000, 12);
	EXPECT(found >= 0.78 && fewer < POWER, "%d passes found it %.3f of the time, %d %.3f", n,
	       found, n * 7 / 10, fewer);
	return true;
}

/* The normal p the simulation above uses, against the exact one, untied 150 vs 150. */
static bool test_normal_p_close(void)
{
	double x[300];
	uint64_t s = 5;
	struct rank_groups g;
	double exact, approx;

	for (int i = 0; i < 300; i++)
		x[i] = normal_draw(&s) + (i >= 150 ? 0.25 : 0.0);
	EXPECT(!rank_groups_make(x, 150, 150, &g), "no memory");
	exact = rank_p_exact(&g);
	approx = normal_p(g.u2 / 2, 150);
	rank_groups_free(&g);
	EXPECT(fabs(approx - exact) <= 0.03 * exact, "normal %.6f, exact %.6f", approx, exact);
	return true;
}

/*
 * The share of runs of n log-normal passes (sd of logs sd), B times 1.1, the
 * test finds: exact up to 60 passes, normal beyond (as test_normal_p_close()).
 */
static double lognormal_found(int n, double sd, double level, int runs, uint64_t seed)
{
	double *x = malloc(2 * (size_t)n * sizeof(*x));
	int found = 0;

	for (int r = 0; x && r < runs; r++) {
		struct rank_groups g;

		for (int i = 0; i < 2 * n; i++)
			x[i] = exp(sd * normal_draw(&seed)) * (i >= n ? 1 + CHANGE : 1.0);
		if (rank_groups_make(x, n, n, &g))
			break;
		found += (n <= 60 ? rank_p_exact(&g) : normal_p(g.u2 / 2, n)) <= level;
		rank_groups_free(&g);
	}
	free(x);
	return (double)found / runs;
}

static double sd_now;	/* the log-normal's sd of logs, for lognormal_quantile() */

static double lognormal_quantile(double q)
{
	return sd_now * normal_quantile(q);
}

/*
 * Few passes, where the exact test's steps matter: 20 log-normal passes
 * each. Runs of the n named find the change 80 % of the time (2,000 runs:
 * sd 0.009), and n is the least the model itself accepts.
 */
static bool test_few(void)
{
	static const struct {
		double sd, level;
	} cases[] = { { 0.08, 0.05 }, { 0.05, 0.01 }, { 0.12, 0.05 / 6 } };
	double a[20], b[20];

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		double sd = cases[c].sd, level = cases[c].level, found;
		int n;

		sd_now = sd;
		stratified(lognormal_quantile, 20, 3 + c, a);
		stratified(lognormal_quantile, 20, 13 + c, b);
		n = passes_for_change(a, 20, b, 20, CHANGE_SCALE, CHANGE, POWER, level);
		EXPECT(n > 2 && n <= 64, "sd %g at %g: %d passes", sd, level, n);
		found = lognormal_found(n, sd, level, 2000, 21 + c);
		EXPECT(found >= 0.775, "sd %g at %g: %d passes found it %.3f of the time", sd,
		       level, n, found);
		EXPECT(power_at_passes(a, 20, b, 20, CHANGE_SCALE, CHANGE, level, n) >= POWER &&
		       power_at_passes(a, 20, b, 20, CHANGE_SCALE, CHANGE, level, n - 1) < POWER + 0.02,
		       "sd %g at %g: %d is not the least", sd, level, n);
	}
	return true;
}

/*
 * Counts with zeros, the values' own path (no logs): the model's power at
 * 40 passes against runs of 40 drawn from the same law, B's counts times
 * 1.1 (zeros stay zeros, ties and all), the exact tied test (500 runs).
 */
static bool test_counts(void)
{
	static const double law[20] = { 0, 0, 0, 0, 0, 0, 3, 5, 6, 8, 9, 10, 12, 14, 15, 18, 22,
					25, 30, 40 };
	double a[40], b[40], pa[40], pb[40], model, found = 0;
	uint64_t s = 31;

	for (int i = 0; i < 40; i++) {
		pa[i] = law[i % 20];
		pb[i] = law[(7 * i + 3) % 20];
	}
	model = power_at_passes(pa, 40, pb, 40, CHANGE_SCALE, CHANGE, 0.05, 40);
	for (int r = 0; r < 500; r++) {
		struct shift_test t;

		for (int i = 0; i < 40; i++) {
			a[i] = law[rng_below(&s, 20)];
			b[i] = law[rng_below(&s, 20)] * (1 + CHANGE);
		}
		shift_test(a, 40, b, 40, &t);
		found += t.p <= 0.05;
	}
	found /= 500;
	EXPECT(fabs(model - found) <= 0.06, "counts, 40 passes: the model %.3f, runs %.3f", model,
	       found);
	EXPECT(passes_for_change(pa, 40, pb, 40, CHANGE_SCALE, CHANGE, POWER, 0.05) > 40, "80 %% at 40 passes?");
	return true;
}

/*
 * Five passes each, spread wider than the change: no two of the ten are
 * within log(1.1) of each other, so that unsmoothed pairs showed none of
 * it (more than 10,000). Smoothed, about what the log-normal formula
 * says of such passes.
 */
static bool test_spread_few(void)
{
	static const double la[] = { -1.5, -0.7, 0.0, 0.6, 1.4 };
	static const double lb[] = { -1.25, -0.35, 0.2, 0.95, 1.6 };
	double a[5], b[5];
	int n, old;

	for (int i = 0; i < 5; i++) {
		a[i] = exp(la[i]);
		b[i] = exp(lb[i]);
	}
	n = passes_for_change(a, 5, b, 5, CHANGE_SCALE, CHANGE, POWER, 0.05);
	old = passes_for_power(sd_log_pooled(a, 5, b, 5), CHANGE, POWER);
	EXPECT(n <= POWER_CAP && n > old / 3 && n < 3 * old, "%d passes, the formula %d", n, old);
	return true;
}

/*
 * What a user sees: random sets of 10 passes each of a log-normal law (sd
 * of logs 0.3; 20 sets). The n named for each, run, finds the change 80 %
 * of the time on average (300 runs each, normal p beyond 60 passes).
 */
static bool test_random_sets(void)
{
	double a[10], b[10], sum = 0.0;

	for (int k = 0; k < 20; k++) {
		uint64_t s = 1000 + k;
		int n;

		for (int i = 0; i < 10; i++) {
			a[i] = exp(0.3 * normal_draw(&s));
			b[i] = exp(0.3 * normal_draw(&s));
		}
		n = passes_for_change(a, 10, b, 10, CHANGE_SCALE, CHANGE, POWER, 0.05);
		EXPECT(n > 2 && n <= POWER_CAP, "set %d: %d passes", k, n);
		sum += lognormal_found(n, 0.3, 0.05, 300, 77 + k);
	}
	EXPECT(sum / 20 >= 0.78, "found %.3f of the time on average", sum / 20);
	return true;
}

static bool test_edges(void)
{
	static const double one[] = { 1.0 }, two[] = { 1.0, 1.1 }, same[] = { 5, 5, 5, 5, 5 };
	static const double wide[] = { 1, 100, 0.01, 1e4, 1e-4, 3, 0.3, 30 };
	static const double wide2[] = { 2, 70, 0.02, 3e4, 3e-4, 5, 0.1, 10 };
	static const struct {
		const double *a, *b;
		int na, nb;
		double change, power, level;
		int want;
	} cases[] = {
		{ one, two, 1, 2, CHANGE, POWER, 0.05, -1 },	/* one value: no spread */
		{ two, two, 2, 2, 0.0, POWER, 0.05, -1 },
		{ two, two, 2, 2, CHANGE, 1.0, 0.05, -1 },
		{ two, two, 2, 2, CHANGE, POWER, 1.0, -1 },
		/* every pass the same: the least that can pass, 2/C(2n, n) <= level */
		{ same, same, 5, 5, CHANGE, POWER, 0.05, 4 },
		{ same, same, 5, 5, CHANGE, POWER, 0.01, 5 },
		{ wide, wide2, 8, 8, CHANGE, POWER, 0.05, POWER_CAP + 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int n = passes_for_change(cases[i].a, cases[i].na, cases[i].b, cases[i].nb,
					  CHANGE_SCALE, cases[i].change, cases[i].power,
					  cases[i].level);

		EXPECT(n == cases[i].want, "case %zu: %d, want %d", i, n, cases[i].want);
	}
	return true;
}

/* A stricter level never asks for fewer passes. */
static bool test_level(void)
{
	double a[10], b[10];
	int last = 0;

	sd_now = 0.2;
	stratified(lognormal_quantile, 10, 7, a);
	stratified(lognormal_quantile, 10, 8, b);
	for (double level = 0.05; level > 1e-4; level /= 3) {
		int n = passes_for_change(a, 10, b, 10, CHANGE_SCALE, CHANGE, POWER, level);

		EXPECT(n >= last, "level %g: %d passes, fewer than %d", level, n, last);
		last = n;
	}
	return true;
}

/*
 * Counts at a mean of 1 to 3 per pass (Poisson), pilots of 10 passes each:
 * runs of the passes n10% names for each, at a 10 % higher rate, find it
 * (p <= 0.05 the right way, the normal p with ties: 2 x 1,000 passes and
 * more) in at least 75 % of the tables. A model that multiplied each count
 * by 1.1 named about half the passes needed and found it half the time.
 */
static bool test_count_rate(void)
{
	double a[10], b[10], *x = malloc(2 * 8000 * sizeof(*x));
	int found = 0, runs = 0, dir;
	uint64_t s = 4242;

	EXPECT(x, "no memory");
	for (int k = 0; k < 12; k++) {
		double rate = 1 + k % 3;
		int n;

		for (int i = 0; i < 10; i++) {
			a[i] = sim_poisson(&s, rate);
			b[i] = sim_poisson(&s, rate);
		}
		n = passes_for_change(a, 10, b, 10, CHANGE_RATE, CHANGE, POWER, 0.05);
		EXPECT(n > 100 && n <= 8000, "rate %g: %d passes", rate, n);
		for (int r = 0; r < 25; r++, runs++) {
			for (int i = 0; i < 2 * n; i++)
				x[i] = sim_poisson(&s, rate * (i >= n ? 1 + CHANGE : 1.0));
			found += sim_normal_p(x, n, n, &dir) <= 0.05 && dir > 0;
		}
	}
	free(x);
	EXPECT(found >= 0.75 * runs, "found in %d of %d tables", found, runs);
	return true;
}

/*
 * A share near 100 % (deadlines met): 10 % more of its shortfall is a
 * change that can happen, so n10% is no longer the least that can pass
 * (4); the audit's stutters, few and tied, get a number below the cap.
 */
static bool test_share_and_few_counts(void)
{
	static const double da[] = { 99.2, 99.6, 100, 98.9, 99.4, 99.7 };
	static const double db[] = { 99.5, 99.1, 99.8, 100, 99.3, 99.0 };
	static const double sa[] = { 0, 0, 1, 0, 2, 0 }, sb[] = { 0, 1, 0, 0, 3, 0 };
	int n = passes_for_change(da, 6, db, 6, CHANGE_SHORTFALL, CHANGE, POWER, 0.05);
	int c = passes_for_change(sa, 6, sb, 6, CHANGE_RATE, CHANGE, POWER, 0.05);

	EXPECT(n > 20 && n <= POWER_CAP, "deadlines: %d passes", n);
	EXPECT(c > 100 && c <= POWER_CAP, "stutters: %d passes", c);
	EXPECT(passes_for_change(sa, 6, sb, 6, CHANGE_RATE, -CHANGE, POWER, 0.05) == -1,
	       "a fall of a rate is not modelled");
	return true;
}

/*
 * From 5 log-normal passes each (CV 30 %), n10% keeps its word for at
 * least 80 % of the sets it is worked out from: it names at least the n at
 * which the test finds the change 80 % of the time (Noether's, for this
 * law: 1/2 + theta = Phi(log 1.1 / (sd sqrt 2))), not only on average.
 */
static bool test_margin(void)
{
	double sd = 0.294, theta = phi(log1p(CHANGE) / (sd * M_SQRT2)) - 0.5, a[5], b[5];
	double z = normal_quantile(0.975) + normal_quantile(POWER);
	int need = (int)ceil(z * z / (6 * theta * theta)), kept = 0;
	uint64_t s = 555;

	for (int k = 0; k < 50; k++) {
		for (int i = 0; i < 5; i++) {
			a[i] = exp(sd * sim_normal(&s));
			b[i] = exp(sd * sim_normal(&s));
		}
		kept += passes_for_change(a, 5, b, 5, CHANGE_SCALE, CHANGE, POWER, 0.05) >= need;
	}
	EXPECT(kept >= 40, "%d of 50 sets named %d passes or more", kept, need);
	return true;
}

/*
 * The exact critical values make the power zig-zag with n: the n named
 * is one from which every n up to past the exact range reaches the power.
 */
static bool test_zigzag(void)
{
	double a[8], b[8];

	sd_now = 0.03;
	stratified(lognormal_quantile, 8, 91, a);
	stratified(lognormal_quantile, 8, 92, b);
	for (double level = 0.05; level > 0.002; level /= 2) {
		int n = passes_for_change(a, 8, b, 8, CHANGE_SCALE, CHANGE, POWER, level);

		EXPECT(n > 2 && n < 60, "level %g: %d passes", level, n);
		for (int k = n; k <= 64; k++)
			EXPECT(power_at_passes(a, 8, b, 8, CHANGE_SCALE, CHANGE, level, k) >=
			       POWER + 0.02 - 1e-9, "level %g: %d named, %d falls short", level,
			       n, k);
	}
	return true;
}

void unit_core_power(void)
{
	check("power: bimodal passes, about 560 where the log-normal formula said 1,700",
	      test_bimodal());
	check("power: the normal p of its check is the exact one's", test_normal_p_close());
	check("power: few passes, the exact test's steps", test_few());
	check("power: counts with zeros, ties kept", test_counts());
	check("power: five passes spread wider than the change", test_spread_few());
	check("power: random sets of 10 passes, as a user has them", test_random_sets());
	check("power: out of range, constant, and past the cap", test_edges());
	check("power: a stricter level asks for more passes", test_level());
	check("power: counts, a 10 % higher rate found at the passes named",
	      test_count_rate());
	check("power: a share's shortfall, and few tied counts", test_share_and_few_counts());
	check("power: from 5 passes, n10% keeps its word for 80 % of the sets",
	      test_margin());
	check("power: the least n from which every n passes", test_zigzag());
}
