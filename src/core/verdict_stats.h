/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/verdict_stats.h - the statistics of a verdict: is B different from A, from a few passes of
 * each. */
#ifndef CORE_VERDICT_STATS_H
#define CORE_VERDICT_STATS_H

#include <stdbool.h>

/*
 * A pass is the unit of evidence: each variant gives one value of a metric
 * per pass (its mean latency, p99, % deadlines met); the wake-ups inside a
 * pass share its machine state and are not independent, the passes are. With
 * 3..200 of them nothing is assumed of the values' distribution: the test is
 * Mann-Whitney's on ranks (its p exact given the ties, ranksum.c), the effect
 * the Hodges-Lehmann shift that inverts it, and a table's many tests are held
 * to a false discovery rate, counting only those that could pass (Tarone).
 */
#define VERDICT_FDR 0.05	/* the false discovery rate a table controls (Benjamini-Hochberg) */
#define VERDICT_LEVEL 0.95	/* of the ratio's interval */

struct shift_test {
	int na, nb;		/* values used (NAN and infinite inputs are skipped) */
	double ratio;		/* b over a: the Hodges-Lehmann shift, as a ratio; NAN when
				 * not computable */
	double ratio_low, ratio_high;	/* its VERDICT_LEVEL interval (0 / INFINITY:
					 * unbounded at these sizes) */
	bool low_open, high_open;	/* that end itself left out: the test rejects it (ties
					 * put the end at 1 where p <= 1 - VERDICT_LEVEL) */
	bool on_logs;		/* the shift is of log(values), all > 0: the interval is
				 * distribution-free; else of raw values, read as a ratio
				 * through median(a), and only approximate */
	double p;		/* two-sided, the permutation distribution of the
				 * Mann-Whitney rank sum given the ties (mid-ranks); NAN if
				 * na or nb is 0 */
	bool p_exact;		/* p is exact; else a Monte Carlo p-value (still valid) */
	double p_min;		/* the smallest two-sided p these sizes can ever give,
				 * without ties */
	double p_min_ties;	/* the smallest p these values can give, given their ties
				 * (Tarone's), at least Monte Carlo's least p; 1: none */
	int direction;		/* -1: B's values rank below A's (its rank sum under its
				 * null mean), +1 above, 0 neither (then p is 1) */
};

/* 0, -EINVAL (fewer than 1 value each), -ENOMEM; *t is filled in either way */
int shift_test(const double *a, int na, const double *b, int nb, struct shift_test *t);
/* the interval's c: its ends are the c-th smallest and c-th largest difference; 0: unbounded */
int shift_rank(int na, int nb);		/* or -ENOMEM */
/* Benjamini-Hochberg adjusted p (q-values), monotone, capped at 1; NAN p gives NAN q and is
 * not counted in n; q must not be p */
void bh_qvalues(const double *p, int n, double *q);
/*
 * Tarone's refinement for discrete tests, iterated for the false discovery
 * rate (Gilbert 2005): the least K >= 1 with m(K) = #{p_min[i] <= alpha / K}
 * <= K; counted[i] says whether test i is among those m(K), the only ones
 * Benjamini-Hochberg is then applied to. NAN p_min: no test. Returns K.
 */
int tarone_count(const double *p_min, int n, double alpha, bool *counted);
/* smallest passes per variant (equal sizes) whose p_min can pass BH at VERDICT_FDR when
 * ntests are in the table and this is the only finding: p_min <= VERDICT_FDR / ntests */
int passes_for_significance(int ntests);
double mw_p_min(int na, int nb);		/* 2 / C(na+nb, na), capped at 1 */
/*
 * Passes per variant to detect a relative change `change` (0.10 = 10 %) with
 * `power` (0.80) two-sided at 0.05, from the SD of log(values) between
 * passes: normal approximation n = 2 (z_0.975 + z_power)^2 sd^2 /
 * log(1+change)^2, divided by the Mann-Whitney's asymptotic relative
 * efficiency 3/pi, rounded up, at least passes_for_significance(1); -1 when
 * sd_log is not finite, or change is 0 or <= -1, or power is not in (0, 1).
 * A log-normal model of one group: the --repeat summary's guide.
 */
int passes_for_power(double sd_log, double change, double power);
/* pooled between-pass SD of log(values) of two samples (values <= 0 or NAN skipped); NAN
 * when fewer than 2 degrees of freedom */
double sd_log_pooled(const double *a, int na, const double *b, int nb);

/*
 * What "a change of 10 %" is, by metric: a latency's every value scaled; a
 * count per pass (stutters, xruns), events at a 10 % higher rate; a share in
 * % (deadlines met), 10 % more of its shortfall from 100 %, which can happen
 * where 10 % more of a share near 100 % cannot.
 */
enum change_kind {
	CHANGE_SCALE,		/* each value (1 + change) times */
	CHANGE_RATE,		/* counts: the events' rate (1 + change) times; change > 0 */
	CHANGE_SHORTFALL,	/* shares in %: 100 - value, (1 + change) times */
};

/*
 * Passes per variant that find the change `change` of kind with
 * probability `power` by this rank test at two-sided `level`, from the
 * passes' own spread: A's values and B's brought to A, pooled and resampled
 * (power.c), with a margin for what few passes leave unknown of their
 * spread. POWER_CAP + 1: more than POWER_CAP; -1: fewer than 2 values in a
 * sample, or change, power or level out of range; -ENOMEM.
 */
#define POWER_CAP 10000
int passes_for_change(const double *a, int na, const double *b, int nb, int kind, double change,
		      double power, double level);
/* the power of n passes per variant in that model, as the search sees it; NAN: n < 2 or as -1 */
double power_at_passes(const double *a, int na, const double *b, int nb, int kind, double change,
		       double level, int n);

#endif
