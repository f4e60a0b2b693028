// SPDX-License-Identifier: GPL-2.0-or-later
/* core/verdict_stats.c - pure maths of a verdict: the shift's ratio and interval, the test,
 * Tarone and BH over a table. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/ranksum.h"
#include "core/verdict_stats.h"

/*
 * Up to this many values in all, the interval's rank comes from the exact
 * distribution of untied U; beyond, from the normal approximation, which
 * errs wide (a few ranks at 10 vs 200).
 */
#define EXACT_MAX 80
#define POWER_ALPHA 0.05	/* passes_for_power()'s two-sided level */

/* ---- the shift and its interval ---- */

/*
 * The interval is the one that inverts the rank test (Hodges and Lehmann;
 * Lehmann's Nonparametrics, ch. 2): B shifted by d does not differ from A,
 * at 1 - VERDICT_LEVEL, exactly for the d between the c-th smallest and the
 * c-th largest of the na * nb differences, c being the largest integer with
 * P(U <= c - 1) <= (1 - VERDICT_LEVEL) / 2 under the null (no ties). Its
 * coverage is then at least VERDICT_LEVEL for continuous values. c < 1 (3 vs
 * 3: P(U = 0) = 1/20 already) means no such interval at these sizes.
 */
int shift_rank(int na, int nb)
{
	int n = na + nb, k = na < nb ? na : nb, c = 0;
	double alpha = (1.0 - VERDICT_LEVEL) / 2, all, below = 0.0, *cnt;

	if (na < 1 || nb < 1)
		return 0;
	if (n > EXACT_MAX) {
		/* P(U <= c - 1) ~ Phi((c - 1/2 - na nb / 2) / sd), with continuity correction */
		double mean = (double)na * nb / 2, sd = sqrt((double)na * nb * (n + 1) / 12.0);

		c = (int)floor(mean + 0.5 - normal_quantile(1.0 - alpha) * sd);
		return c > 0 ? c : 0;
	}
	/* U is below its mean k(n-k)/2 at the interval's ends: the lower half will do */
	cnt = untied_u_counts(na, nb, (long)k * (n - k) / 2 + 1);
	if (!cnt)
		return -ENOMEM;
	all = binom(n, k);
	/* counts are exact up to 2^53: 1/40 against 0.025 must compare as equal */
	for (long u = 0; 2 * u <= (long)k * (n - k); u++) {
		below += cnt[u];
		if (below > alpha * all * (1 + 1e-9))
			break;
		c = (int)u + 1;
	}
	free(cnt);
	return c;
}

/* The median of x[0..n), on a copy. */
static double median_copy(const double *x, int n, int *err)
{
	double *v = malloc((size_t)n * sizeof(*v)), m;

	if (!v) {
		*err = -ENOMEM;
		return NAN;
	}
	memcpy(v, x, (size_t)n * sizeof(*v));
	m = median_inplace(v, n);
	free(v);
	return m;
}

/*
 * The interval made to agree with the test at no shift, d = 0, whose p is
 * known: with ties, the c-th difference can be 0 itself (many pairs tied),
 * a closed end at 1.00 where the test, mid-ranks and all, rejects 1.00.
 * Where p <= 1 - VERDICT_LEVEL the interval leaves 0 out: an end at or
 * past it is moved to it and made open (every shift just past 0 is one the
 * test accepts, 0 itself is not); elsewhere it holds 0.
 */
static void agree_with_test(const struct shift_test *t, double *lo, double *hi, bool *lo_open,
			    bool *hi_open)
{
	*lo_open = *hi_open = false;
	if (!(t->p <= 1.0 - VERDICT_LEVEL)) {
		*lo = fmin(*lo, 0.0);
		*hi = fmax(*hi, 0.0);
	} else if (t->direction > 0 && *lo <= 0.0) {
		*lo = 0.0;
		*lo_open = true;
	} else if (t->direction < 0 && *hi >= 0.0) {
		*hi = 0.0;
		*hi_open = true;
	}
}

/*
 * The Hodges-Lehmann shift of B from A, the median of the na * nb
 * differences, and its interval, as ratios. On log(values) when all are
 * positive: a latency's passes spread in proportion to it, and exp(shift)
 * is B's typical ratio to A. When a value can be 0 (a count, a %), on raw
 * differences, read as ratio (median(a) + shift) / median(a): the interval
 * of the shift is still the rank test's, but divided by a median that is
 * itself uncertain, and with the ties of counts, it covered the true ratio
 * only 85-92 % of the time in simulations, so it is marked approximate.
 */
static int hodges_lehmann(const double *x, int na, int nb, struct shift_test *t)
{
	long m = (long)na * nb;
	bool logs = true, nonneg = true;
	double *d, *v, shift, lo = 0.0, hi = 0.0, base = 1.0;
	int c = shift_rank(na, nb), err = 0;
	bool lo_open = false, hi_open = false;

	if (c < 0)
		return c;
	for (int i = 0; i < na + nb; i++) {
		logs = logs && x[i] > 0.0;
		nonneg = nonneg && x[i] >= 0.0;
	}
	if (!logs) {
		base = median_copy(x, na, &err);
		if (err)
			return err;
	}
	d = malloc((size_t)(m + na + nb) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	v = d + m;	/* the logs taken once, not na * nb times */
	for (int i = 0; i < na + nb; i++)
		v[i] = logs ? log(x[i]) : x[i];
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			d[(long)i * nb + j] = v[na + j] - v[i];
	shift = median_inplace(d, m);
	if (c >= 1) {
		lo = kth_smallest(d, m, c - 1);
		hi = kth_smallest(d, m, m - c);
		agree_with_test(t, &lo, &hi, &lo_open, &hi_open);
	}
	free(d);
	t->on_logs = logs;
	t->low_open = base < 0.0 ? hi_open : lo_open;	/* a negative median(a) swaps the ends */
	t->high_open = base < 0.0 ? lo_open : hi_open;
	if (logs) {
		t->ratio = exp(shift);
		t->ratio_low = c >= 1 ? exp(lo) : 0.0;
		t->ratio_high = c >= 1 ? exp(hi) : INFINITY;
	} else if (base != 0.0) {
		/* a negative median(a) swaps the ends */
		t->ratio = (base + shift) / base;
		t->ratio_low = c >= 1 ? fmin(base + lo, base + hi) / base : 0.0;
		t->ratio_high = c >= 1 ? fmax(base + lo, base + hi) / base : INFINITY;
		if (nonneg) {	/* B's median is >= 0 too: a ratio below 0 cannot be */
			t->ratio = fmax(t->ratio, 0.0);
			t->ratio_low = fmax(t->ratio_low, 0.0);
			t->ratio_high = fmax(t->ratio_high, 0.0);
		}
	}
	return 0;
}

/* p, its least value given the ties, and the direction, from the ranks of x's na + nb values. */
static int rank_test(const double *x, int na, int nb, struct shift_test *t)
{
	struct rank_groups g;
	int err = rank_groups_make(x, na, nb, &g);

	if (err)
		return err;
	err = rank_sum_p(&g, &t->p, &t->p_exact);
	t->p_min_ties = rank_p_min(&g);
	if (!t->p_exact)	/* Monte Carlo's p is never below 1 / (R + 1) */
		t->p_min_ties = fmax(t->p_min_ties, 1.0 / (RANK_MC_DRAWS + 1));
	t->direction = rank_direction(&g);
	rank_groups_free(&g);
	return err;
}

int shift_test(const double *a, int na, const double *b, int nb, struct shift_test *t)
{
	double *x;
	int err;

	*t = (struct shift_test){ .ratio = NAN, .ratio_low = NAN, .ratio_high = NAN, .p = NAN,
				  .p_exact = true, .p_min = 1.0, .p_min_ties = 1.0 };
	if (na < 0 || nb < 0 || (na && !a) || (nb && !b))
		return -EINVAL;
	x = malloc(((size_t)na + (size_t)nb + 1) * sizeof(*x));
	if (!x)
		return -ENOMEM;
	for (int i = 0; i < na; i++)
		if (isfinite(a[i]))
			x[t->na++] = a[i];
	for (int i = 0; i < nb; i++)
		if (isfinite(b[i]))
			x[t->na + t->nb++] = b[i];
	t->p_min = mw_p_min(t->na, t->nb);
	err = -EINVAL;
	if (t->na && t->nb)
		err = rank_test(x, t->na, t->nb, t);
	if (!err)
		err = hodges_lehmann(x, t->na, t->nb, t);
	free(x);
	return err;
}

/* ---- a table's many tests ---- */

/*
 * q_i = min over the p_j >= p_i of p_j m / rank_j, rank_j the number of p at
 * or below p_j, m the number of p that are not NAN: the step-up procedure's
 * adjusted p, so that the rows with q <= VERDICT_FDR are the ones
 * Benjamini-Hochberg finds. Without allocating (nothing to fail on): O(n^2),
 * nothing for a table's tens or hundreds of rows. q must not be p.
 */
void bh_qvalues(const double *p, int n, double *q)
{
	int m = 0;

	for (int i = 0; i < n; i++)
		m += !isnan(p[i]);
	for (int i = 0; i < n; i++) {
		int rank = 0;

		q[i] = NAN;
		if (isnan(p[i]))
			continue;
		for (int j = 0; j < n; j++)
			rank += p[j] <= p[i];
		q[i] = fmin(p[i] * m / rank, 1.0);
	}
	/*
	 * Each q_i becomes the least q_j over p_j >= p_i; one already lowered
	 * is a least over fewer of the same, so the order does not matter.
	 */
	for (int i = 0; i < n; i++) {
		if (isnan(p[i]))
			continue;
		for (int j = 0; j < n; j++)
			if (!isnan(p[j]) && p[j] >= p[i] && q[j] < q[i])
				q[i] = q[j];
	}
}

/*
 * A test whose smallest attainable p is above the level it would be held to
 * can never be found, yet counting it would raise the bar of every other:
 * Tarone (1990) leaves out those with p_min > alpha / K for the least K at
 * which no more than K remain, and Gilbert (2005, "A modification of the
 * Benjamini-Hochberg procedure for discrete data") shows the false discovery
 * rate is still held when Benjamini-Hochberg is applied to the m(K) left.
 * m(K) only falls as K grows and m(n) <= n: the loop ends by K = n.
 */
int tarone_count(const double *p_min, int n, double alpha, bool *counted)
{
	int k = 1;

	for (;; k++) {
		int m = 0;

		for (int i = 0; i < n; i++)
			m += p_min[i] <= alpha / k;
		if (m <= k)
			break;
	}
	for (int i = 0; i < n; i++)
		counted[i] = p_min[i] <= alpha / k;
	return k;
}

/*
 * 2 / C(na + nb, na): the two most extreme splits (all of B above all of A,
 * or below) out of all the equally likely ones.
 */
double mw_p_min(int na, int nb)
{
	if (na < 1 || nb < 1)
		return 1.0;
	return fmin(2.0 / binom(na + nb, na < nb ? na : nb), 1.0);
}

/* 2/C(2n, n) falls below 1e-300 by n = 500: the loop always ends well before. */
int passes_for_significance(int ntests)
{
	double need = VERDICT_FDR / (ntests > 1 ? ntests : 1);
	int n = 1;

	while (mw_p_min(n, n) > need * (1 + 1e-12))
		n++;
	return n;
}

int passes_for_power(double sd_log, double change, double power)
{
	double z, d, n;
	int least = passes_for_significance(1);

	if (!isfinite(sd_log) || sd_log < 0.0 || !isfinite(change) || change <= -1.0 ||
	    change == 0.0 || !(power > 0.0 && power < 1.0))
		return -1;
	z = normal_quantile(1.0 - POWER_ALPHA / 2) + normal_quantile(power);
	if (z < 0.0)
		z = 0.0;
	d = log1p(change);
	/* the t-test's n per group, then as many more as the rank test's 3/pi efficiency asks */
	n = ceil(2.0 * z * z * sd_log * sd_log / (d * d) / (3.0 / M_PI));
	if (!(n < INT_MAX))
		return -1;
	return (int)n > least ? (int)n : least;
}

/* Sum of squared deviations of log(v) and its degrees of freedom, for v > 0 only. */
static double log_ss(const double *v, int n, int *df)
{
	double mean = 0.0, ss = 0.0;
	int used = 0;

	for (int i = 0; i < n; i++)
		if (v[i] > 0.0 && isfinite(v[i]))
			mean += (log(v[i]) - mean) / ++used;
	for (int i = 0; i < n; i++)
		if (v[i] > 0.0 && isfinite(v[i]))
			ss += (log(v[i]) - mean) * (log(v[i]) - mean);
	*df += used > 1 ? used - 1 : 0;
	return ss;
}

/* Each sample about its own mean, so that B's shift from A is not counted as spread. */
double sd_log_pooled(const double *a, int na, const double *b, int nb)
{
	int df = 0;
	double ss = log_ss(a, na, &df) + log_ss(b, nb, &df);

	return df >= 2 ? sqrt(ss / df) : NAN;
}
