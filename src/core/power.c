// SPDX-License-Identifier: GPL-2.0-or-later
/* core/power.c - how many passes would find a given change: the passes' own spread resampled,
 * and the rank test's power at the table's level. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ranksum.h"
#include "core/verdict_stats.h"

/*
 * The model: B's passes brought to A's (on logs when all values are > 0,
 * less the Hodges-Lehmann shift between them, the median of all their
 * differences, which stays put where a median of bimodal passes would jump
 * from one mode to the other; counts and shares by the ratio of their
 * means, so that a 0 stays 0) and pooled, so that what is left is the
 * passes' spread, whatever its shape. A run of n passes per variant is
 * then resampled: A's from the pool, B's from the pool times (1 + change),
 * on logs each smoothed by a normal of the pool's median gap (a smoothed
 * bootstrap, whose smoothing fades as passes grow). Its rank sum's mean and
 * variance over all such runs are sums over the pool's pairs
 * (model_moments()), distinct pairs only: in a real run no pass of B is a
 * pass of A times 1.1, and counting a value against its own copy would
 * make the change look surer than it is. The power is then the normal
 * law's at the test's critical values, exact for untied values up to
 * CRIT_EXACT passes, normal beyond or with ties: instead of simulating
 * runs, their sums, within 0.03 of the exact test's share found in runs
 * simulated from known laws (lognormal, bimodal, counts) from 6 passes on,
 * and mostly below. Over random sets of 5 to 20 passes of such laws, the n
 * named found the change 0.77 to 0.84 of the time on average
 * (tests/unit_core_power.c holds it to runs of known laws).
 */
#define CRIT_EXACT 60
/*
 * The search aims this much above the power asked, the normal model's
 * error (up to 0.015 above the share found, for tied counts), so that the
 * passes named find the change at least as often as asked: 560 bimodal
 * passes found it 0.829 +- 0.006 of the time, where 532 would do 0.811.
 */
#define POWER_MARGIN 0.02

struct power_model {
	double *p, *y;		/* the pool, sorted; y[i]: p[i] changed (so sorted too) */
	int n;
	bool logs, untied;	/* on logs; no value twice among the p and y */
	double h;		/* on logs, the smoothing's sd; 0: none */
	double level, theta;	/* theta: P(B > A) + P(B = A) / 2 - 1/2 */
	double z10, z01, z11;	/* the U-statistic's variance terms */
	double kappa;		/* the pooled values' share of ties: sum of shares cubed */
};

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* a value changed: (1 + change) times it, or log(1 + change) more on logs */
static double changed(const struct power_model *m, double v, double change)
{
	return m->logs ? v + log1p(change) : (1.0 + change) * v;
}

/*
 * psi(a, b) for an A value a and a B value b: [b > a] + [b = a] / 2, or on
 * logs, each smoothed by a normal of sd h, P(b + h e > a + h e'): a few
 * passes spread wider than the change would otherwise show none of it, no
 * two of them being as close. Past 8 sd, 0 or 1 to 1e-15.
 */
static double psi(const struct power_model *m, double a, double b)
{
	double z;

	if (!(m->h > 0.0))
		return (b > a) + 0.5 * (b == a);
	z = (b - a) / (m->h * M_SQRT2);
	return z > 8.0 ? 1.0 : z < -8.0 ? 0.0 : normal_cdf(z);
}

/*
 * Of psi over the pairs of distinct pool values a = p[i], b = y[j] (j != i:
 * a run never has a pass of B that is a pass of A times 1.1): theta = E psi
 * - 1/2, z01 = Var over j of E psi, z10 = Var over i, z11 = Var psi
 * (Lehmann's Nonparametrics, 5.1: Var U = n^2 ((n-1)(z10 + z01) + z11)).
 * g[] is scratch for n values.
 */
static void model_moments(struct power_model *m, double *g)
{
	double s = 0, sq = 0, s2 = 0, t = 0, tq = 0;
	int n = m->n;

	memset(g, 0, (size_t)n * sizeof(*g));
	for (int j = 0; j < n; j++) {
		double f = 0.0, f2 = 0.0;

		for (int i = 0; i < n; i++) {
			double v = i == j ? 0.0 : psi(m, m->p[i], m->y[j]);

			f += v;
			f2 += m->h > 0.0 ? v : (m->y[j] > m->p[i]) + 0.25 * (m->y[j] == m->p[i]);
			g[i] += v;
		}
		f2 -= m->h > 0.0 ? 0.0 : (m->y[j] > m->p[j]) + 0.25 * (m->y[j] == m->p[j]);
		f /= n - 1;
		s += f;
		sq += f * f;
		s2 += f2 / (n - 1);
	}
	for (int i = 0; i < n; i++) {
		t += g[i] / (n - 1);
		tq += g[i] / (n - 1) * g[i] / (n - 1);
	}
	m->theta = s / n - 0.5;
	m->z01 = fmax(sq / n - (s / n) * (s / n), 0.0);
	m->z10 = fmax(tq / n - (t / n) * (t / n), 0.0);
	m->z11 = fmax(s2 / n - (m->theta + 0.5) * (m->theta + 0.5), 0.0);
}

/*
 * The sum over distinct values of their share cubed, in the mix of A's
 * draws (from p) and B's (from y), both sorted; *untied: no value twice.
 */
static double tie_share(const double *x, const double *y, int n, bool *untied)
{
	double kappa = 0.0;

	*untied = true;
	for (int i = 0, j = 0; i < n || j < n;) {
		double v = j >= n || (i < n && x[i] < y[j]) ? x[i] : y[j], h = 0.0;
		int seen = 0;

		for (; i < n && x[i] == v; i++, seen++)
			h += 0.5 / n;
		for (; j < n && y[j] == v; j++, seen++)
			h += 0.5 / n;
		kappa += h * h * h;
		*untied = *untied && seen == 1;
	}
	return kappa;
}

/* The median of y[j] - x[i] over all pairs; NAN: out of memory. */
static double hl_shift(const double *x, int nx, const double *y, int ny)
{
	long n = (long)nx * ny;
	double *d = malloc((size_t)n * sizeof(*d)), shift;

	if (!d)
		return NAN;
	for (int i = 0; i < nx; i++)
		for (int j = 0; j < ny; j++)
			d[(long)i * ny + j] = y[j] - x[i];
	shift = median_inplace(d, n);
	free(d);
	return shift;
}

static double mean_of(const double *v, int n)
{
	double sum = 0.0;

	for (int i = 0; i < n; i++)
		sum += v[i];
	return sum / n;
}

/*
 * B's na.. values brought to A's: multiplied by the ratio of the means for
 * values >= 0, else less the HL shift. Then the pool's deviations widened
 * by sqrt(n / (n - 2)), about 0 or A's median: a pool of two samples, each
 * about its own place, spreads (n - 2) / n as much as what it was drawn
 * from, on average. 0 or -ENOMEM.
 */
static int bring_to_a(struct power_model *m, int na, bool nonneg, double *scratch)
{
	double *a = m->p, *b = m->p + na, ma = mean_of(a, na), mb = mean_of(b, m->n - na);
	double shift, centre = 0.0, f = sqrt((double)m->n / (m->n - 2));

	if (!m->logs && nonneg && ma > 0.0 && mb > 0.0) {
		for (int j = 0; j < m->n - na; j++)
			b[j] *= ma / mb;
	} else {
		shift = hl_shift(a, na, b, m->n - na);
		if (isnan(shift))
			return -ENOMEM;
		for (int j = 0; j < m->n - na; j++)
			b[j] -= shift;
		centre = median_inplace(scratch, (long)na);	/* a copy of A's */
	}
	for (int i = 0; i < m->n; i++)
		m->p[i] = centre + f * (m->p[i] - centre);
	return 0;
}

/* The median gap between neighbours of sorted v[0..n): the smoothing's sd. */
static double median_gap(const double *v, int n, double *gaps)
{
	for (int i = 1; i < n; i++)
		gaps[i - 1] = v[i] - v[i - 1];
	return median_inplace(gaps, n - 1);
}

/* The pool and its changed values, sorted; scratch holds n doubles. 0 or -ENOMEM. */
static int model_values(struct power_model *m, int na, double change, double *scratch)
{
	bool nonneg = true;

	m->logs = true;
	for (int i = 0; i < m->n; i++) {
		m->logs = m->logs && m->p[i] > 0.0;
		nonneg = nonneg && m->p[i] >= 0.0;
	}
	for (int i = 0; m->logs && i < m->n; i++)
		m->p[i] = log(m->p[i]);
	memcpy(scratch, m->p, (size_t)na * sizeof(*scratch));
	if (bring_to_a(m, na, nonneg, scratch))
		return -ENOMEM;
	qsort(m->p, (size_t)m->n, sizeof(*m->p), cmp_double);
	for (int i = 0; i < m->n; i++)
		m->y[i] = changed(m, m->p[i], change);
	if (m->logs)
		m->h = median_gap(m->p, m->n, scratch);
	return 0;
}

/* 0, -EINVAL (fewer than 2 finite values in a sample), -ENOMEM */
static int model_make(struct power_model *m, const double *a, int na, const double *b, int nb,
		      double change, double level)
{
	int n = 0, used_a, err = -EINVAL;

	*m = (struct power_model){ .level = level };
	m->p = malloc(3 * ((size_t)na + nb + 1) * sizeof(*m->p));
	if (!m->p)
		return -ENOMEM;
	for (int i = 0; i < na; i++)
		if (isfinite(a[i]))
			m->p[n++] = a[i];
	used_a = n;
	for (int j = 0; j < nb; j++)
		if (isfinite(b[j]))
			m->p[n++] = b[j];
	m->n = n;
	m->y = m->p + n;
	if (used_a >= 2 && n - used_a >= 2)
		err = model_values(m, used_a, change, m->y + n);
	if (err) {
		free(m->p);
		return err;
	}
	model_moments(m, m->y + n);
	m->untied = true;	/* smoothed: no ties */
	if (!(m->h > 0.0))
		m->kappa = tie_share(m->p, m->y, m->n, &m->untied);
	return 0;
}

/* The largest c with P(U <= c) <= level / 2 for n vs n untied values; -1: none. -2: no memory. */
static long untied_critical(int n, double level)
{
	long w = (long)n * n / 2 + 1, c = -1;
	double *cnt = untied_u_counts(n, n, w), all = binom(2 * n, n), below = 0.0;

	if (!cnt)
		return -2;
	for (long u = 0; u < w; u++) {
		below += cnt[u];
		if (below > level / 2 * all * (1 + 1e-9))
			break;
		c = u;
	}
	free(cnt);
	return c;
}

/*
 * Where the test rejects: U <= c or U >= n^2 - c. Exact for few untied
 * values, with half a rank of continuity; else the normal null's, whose
 * variance n^2 (2n + 1) / 12 loses the ties' share (their expected
 * sum(t^3 - t), (2n)^3 kappa, over 2n (2n - 1)). NAN: out of memory.
 */
static double critical(const struct power_model *m, int n)
{
	double nn = (double)n * n, var0;

	if (m->untied && n <= CRIT_EXACT) {
		long c = untied_critical(n, m->level);

		return c == -2 ? NAN : c + 0.5;
	}
	var0 = nn / 12.0 * ((2.0 * n + 1) - m->kappa * 4.0 * nn / (2.0 * n - 1));
	return nn / 2 - normal_quantile(1.0 - m->level / 2) * sqrt(fmax(var0, 0.0)) - 0.5;
}

/* With n per variant U is about normal: mean n^2 (theta + 1/2), variance as model_moments(). */
static double power_normal(const struct power_model *m, int n)
{
	double nn = (double)n * n, mu = nn * (m->theta + 0.5), c = critical(m, n);
	double sd = sqrt(nn * ((n - 1) * (m->z10 + m->z01) + m->z11));

	if (isnan(c))
		return NAN;
	if (!(sd > 0.0))
		return mu <= c || mu >= nn - c ? 1.0 : 0.0;
	return normal_cdf((c - mu) / sd) + normal_cdf((mu - (nn - c)) / sd);
}

/*
 * The least n (from `from`) with power_normal(n) >= power, by doubling then
 * bisection; POWER_CAP + 1 when even POWER_CAP falls short; -ENOMEM.
 */
static int search(const struct power_model *m, int from, double power)
{
	int lo = from - 1, hi = from;
	double got;

	while ((got = power_normal(m, hi)) < power) {
		if (hi == POWER_CAP)
			return POWER_CAP + 1;
		lo = hi;
		hi = 2 * hi < POWER_CAP ? 2 * hi : POWER_CAP;
	}
	while (!isnan(got) && hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		got = power_normal(m, mid);
		if (got >= power)
			hi = mid;
		else
			lo = mid;
	}
	return isnan(got) ? -ENOMEM : hi;
}

double power_at_passes(const double *a, int na, const double *b, int nb, double change,
		       double level, int n)
{
	struct power_model m;
	double got;

	if (n < 2 || model_make(&m, a, na, b, nb, change, level))
		return NAN;
	got = power_normal(&m, n);
	free(m.p);
	return got;
}

int passes_for_change(const double *a, int na, const double *b, int nb, double change,
		      double power, double level)
{
	struct power_model m;
	int least = 2, n, err;

	if (!(change > -1.0 && change != 0.0 && isfinite(change)) ||
	    !(power > 0.0 && power < 1.0) || !(level > 0.0 && level < 1.0))
		return -1;
	err = model_make(&m, a, na, b, nb, change, level);
	if (err)
		return err == -EINVAL ? -1 : err;
	while (mw_p_min(least, least) > level * (1 + 1e-12))
		least++;	/* fewer could never pass, whatever the change */
	n = search(&m, least, fmin(power + POWER_MARGIN, 0.999));
	free(m.p);
	return n;
}
