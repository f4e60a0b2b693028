// SPDX-License-Identifier: GPL-2.0-or-later
/* core/verdict.c - pure maths of a verdict: the rank test, the shift's ratio and interval, BH. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/verdict.h"

/*
 * Up to this many values in all, p and the interval's rank come from the
 * exact permutation distribution (a table of at most 41 x 3201 counts, a few
 * ms at worst); beyond, from the normal approximation, which is within 1e-3
 * of the exact p there.
 */
#define EXACT_MAX 80
#define POWER_ALPHA 0.05	/* passes_for_power()'s two-sided level */

/* ---- small helpers ---- */

/* Phi^-1(p) by bisection on erfc(): 100 halvings of [-40, 40] reach a double's precision. */
static double normal_quantile(double p)
{
	double lo = -40.0, hi = 40.0;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / M_SQRT2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The k-th smallest (0-based) of v[0..n), reordering v: Hoare's selection,
 * O(n) on average, so that the na * nb differences of big samples are never
 * sorted whole.
 */
static double select_kth(double *v, long n, long k)
{
	long lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2], tmp;
		long i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				tmp = v[i];
				v[i++] = v[j];
				v[j--] = tmp;
			}
		}
		/* v[lo..j] <= pivot <= v[i..hi], and what is between equals it */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

/* The median of v[0..n), n >= 1, reordering v; the mean of the two middle ones for even n. */
static double median_of(double *v, long n)
{
	double lo = select_kth(v, n, (n - 1) / 2), hi;

	if (n % 2)
		return lo;
	/* the selection left every value from (n - 1) / 2 + 1 on at or above lo */
	hi = v[n / 2];
	for (long i = n / 2 + 1; i < n; i++)
		if (v[i] < hi)
			hi = v[i];
	return (lo + hi) / 2;
}

/* C(n, k): each step's product is the integer C(n - k + i, i), exact in a double up to 2^53. */
static double choose(int n, int k)
{
	double c = 1.0;

	for (int i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* ---- the rank sum's null distribution ---- */

/*
 * Ranks are doubled, so that mid-ranks (the mean of the positions a run of
 * ties spans) are integers: a run over positions i..j (1-based) has 2 * rank
 * i + j. Any k of n doubled ranks sum to at least k(k+1) (the k smallest
 * positions' sum, which ties only raise) and at most k(k+1) + 2k(n-k), so a
 * sum is kept as its excess e over k(k+1), 0 <= e <= 2k(n-k): for ranks
 * 2, 4, .. 2n (no ties), e is twice Mann-Whitney's U.
 *
 * rank_sum_counts() returns cnt[0..2k(n-k)], cnt[e] = how many of the
 * C(n, k) ways of choosing k of the n doubled ranks r[] (ascending) have
 * excess e: dynamic programming over the ranks, row j holding the subsets of
 * j ranks among those seen so far. Counts are doubles: C(80, 40) is 1.1e23,
 * past 2^64, and 16 digits are more than a p needs. NULL: out of memory.
 *
 * w = 2k(n-k) + 1 counts them all; a smaller w counts the w lowest excesses
 * only, which is exact when no rank is below twice its position (no ties): a
 * subset's excess then never falls as ranks join it.
 */
static double *rank_sum_counts(const int *r, int n, int k, long w)
{
	double *cnt = calloc((size_t)(k + 1) * (size_t)w, sizeof(*cnt));
	long *top = calloc((size_t)k + 1, sizeof(*top));	/* row j's highest excess so far */

	if (!cnt || !top) {
		free(cnt);
		free(top);
		return NULL;
	}
	cnt[0] = 1.0;
	for (int i = 1; i <= n; i++) {
		/* only rows that can still reach k ranks with the n - i left */
		int jmax = i < k ? i : k, jmin = k - (n - i) > 1 ? k - (n - i) : 1;

		for (int j = jmax; j >= jmin; j--) {
			/* adding rank i as the j-th moves the excess by r - 2j */
			long shift = r[i - 1] - 2L * j;
			long lo = shift < 0 ? -shift : 0, hi = top[j - 1];
			const double *from = cnt + (long)(j - 1) * w;
			double *to = cnt + (long)j * w;

			if (hi + shift > w - 1)
				hi = w - 1 - shift;
			for (long e = lo; e <= hi; e++)
				to[e + shift] += from[e];
			if (hi + shift > top[j])
				top[j] = hi + shift;
		}
	}
	free(top);
	memmove(cnt, cnt + (long)k * w, (size_t)w * sizeof(*cnt));
	return cnt;
}

/* Exact two-sided p: P(|e - k(n-k)| >= dev), k(n-k) being the excess's mean (n + 1 per rank). */
static int exact_p(const int *r, int n, int k, long dev, double *p)
{
	long w = 2L * k * (n - k) + 1, mean = (long)k * (n - k);
	double *cnt = rank_sum_counts(r, n, k, w), tail = 0.0, all = 0.0;

	if (!cnt)
		return -ENOMEM;
	for (long e = 0; e < w; e++) {
		all += cnt[e];
		if (labs(e - mean) >= dev)
			tail += cnt[e];
	}
	free(cnt);
	*p = fmin(tail / all, 1.0);
	return 0;
}

/*
 * Normal approximation of the rank sum w of one sample of k among n: mean
 * k(n+1)/2, variance k(n-k)/12 ((n+1) - sum(t^3 - t) / (n(n-1))) over the
 * runs of t ties, and half a rank of continuity correction.
 */
static double normal_p(int n, int k, double dev, double ties)
{
	double var = (double)k * (n - k) / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
	double z;

	if (!(var > 0.0))
		return 1.0;		/* all ties: nothing differs */
	z = (dev - 0.5) / sqrt(var);
	if (z <= 0.0)
		return 1.0;
	return fmin(erfc(z / M_SQRT2), 1.0);
}

struct ranked {
	double v;
	bool in_b;
};

static int cmp_ranked(const void *x, const void *y)
{
	return cmp_double(&((const struct ranked *)x)->v, &((const struct ranked *)y)->v);
}

/*
 * Mann-Whitney's two-sided p for x[0..na) against x[na..na+nb): the sum of
 * the smaller sample's doubled mid-ranks against its permutation
 * distribution, in which every split of the n values into na and nb is
 * equally likely when A and B do not differ. Either sample's sum gives the
 * same p, as the two add up to n(n+1). Tied values (100 % of deadlines met
 * in several passes, a count) share the mean of their positions, and the
 * permutation distribution is then that of those mid-ranks: exact given the
 * ties, where dropping or breaking them would bias p.
 */
static int rank_sum_p(const double *x, int na, int nb, double *p)
{
	int n = na + nb, k = na < nb ? na : nb, err = 0;
	struct ranked *s = malloc((size_t)n * sizeof(*s));
	int *r = malloc((size_t)n * sizeof(*r));
	long sum = 0;
	double ties = 0.0;

	if (!s || !r) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < n; i++)
		s[i] = (struct ranked){ .v = x[i], .in_b = i >= na };
	qsort(s, (size_t)n, sizeof(*s), cmp_ranked);
	for (int i = 0, j; i < n; i = j + 1) {
		for (j = i; j + 1 < n && s[j + 1].v == s[i].v; j++)
			;
		for (int m = i; m <= j; m++) {
			r[m] = i + j + 2;
			if (s[m].in_b == (k == nb))
				sum += r[m];
		}
		ties += (double)(j - i + 1) * (j - i + 1) * (j - i + 1) - (j - i + 1);
	}
	/* the doubled sum's distance from its mean k(n+1), integers compared exactly */
	if (n <= EXACT_MAX)
		err = exact_p(r, n, k, labs(sum - (long)k * (n + 1)), p);
	else
		*p = normal_p(n, k, fabs((double)sum - (double)k * (n + 1)) / 2, ties);
out:
	free(s);
	free(r);
	return err;
}

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
	int *r;

	if (na < 1 || nb < 1)
		return 0;
	if (n > EXACT_MAX) {
		/* P(U <= c - 1) ~ Phi((c - 1/2 - na nb / 2) / sd), with continuity correction */
		double mean = (double)na * nb / 2, sd = sqrt((double)na * nb * (n + 1) / 12.0);

		c = (int)floor(mean + 0.5 - normal_quantile(1.0 - alpha) * sd);
		return c > 0 ? c : 0;
	}
	r = malloc((size_t)n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		r[i] = 2 * (i + 1);
	/* U is below its mean k(n-k)/2 at the interval's ends: the lower half will do */
	cnt = rank_sum_counts(r, n, k, (long)k * (n - k) + 1);
	free(r);
	if (!cnt)
		return -ENOMEM;
	all = choose(n, k);
	/* counts are exact up to 2^53: 1/40 against 0.025 must compare as equal */
	for (long u = 0; 2 * u <= (long)k * (n - k); u++) {
		below += cnt[2 * u];
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
	m = median_of(v, n);
	free(v);
	return m;
}

/*
 * The Hodges-Lehmann shift of B from A, the median of the na * nb
 * differences, and its interval, as ratios. On log(values) when all are
 * positive: a latency's passes spread in proportion to it, and exp(shift)
 * is B's typical ratio to A. When a value can be 0 (a count, a %), on raw
 * differences, read as ratio (median(a) + shift) / median(a).
 */
static int hodges_lehmann(const double *x, int na, int nb, struct shift_test *t)
{
	long m = (long)na * nb;
	bool logs = true, nonneg = true;
	double *d, *v, shift, lo = 0.0, hi = 0.0, base = 1.0;
	int c = shift_rank(na, nb), err = 0;

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
	shift = median_of(d, m);
	if (c >= 1) {
		lo = select_kth(d, m, c - 1);
		hi = select_kth(d, m, m - c);
	}
	free(d);
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

int shift_test(const double *a, int na, const double *b, int nb, struct shift_test *t)
{
	double *x;
	int err;

	*t = (struct shift_test){ .ratio = NAN, .ratio_low = NAN, .ratio_high = NAN, .p = NAN,
				  .p_min = 1.0 };
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
		err = rank_sum_p(x, t->na, t->nb, &t->p);
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
 * 2 / C(na + nb, na): the two most extreme splits (all of B above all of A,
 * or below) out of all the equally likely ones.
 */
double mw_p_min(int na, int nb)
{
	if (na < 1 || nb < 1)
		return 1.0;
	return fmin(2.0 / choose(na + nb, na < nb ? na : nb), 1.0);
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
