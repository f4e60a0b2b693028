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
 * from one mode to the other; shares and latencies with a 0 by the ratio
 * of their means, so that a 0 stays 0) and pooled, so that what is left is
 * the passes' spread, whatever its shape. A run of n passes per variant is
 * then resampled: A's from the pool, B's from the pool changed (each value
 * times 1 + change, on logs each smoothed by a normal of the pool's median
 * gap: a smoothed bootstrap, whose smoothing fades as passes grow). What
 * the change is depends on the metric (enum change_kind): a latency is
 * scaled; a count per pass (stutters, xruns) is events at a rate, and a
 * rate 10 % higher is each pass's count plus a Poisson draw of a tenth of
 * the pool's mean (exact for Poisson counts: Poisson(r) + Poisson(r / 10)
 * is Poisson(1.1 r); a count times 1.1 would leave every 0 at 0 and ask
 * for half the passes needed); a share in % (deadlines met) has its
 * shortfall from 100 % scaled, 10 % more misses, as 100 % cannot rise 10 %.
 * The rank sum's mean and variance over all such runs are sums over the
 * pool's pairs (model_moments()), distinct pairs only: in a real run no
 * pass of B is a pass of A changed, and counting a value against its own
 * copy would make the change look surer than it is. The power is then the
 * normal law's at the test's critical values, exact for untied values up
 * to CRIT_EXACT passes, normal beyond or with ties: instead of simulating
 * runs, their sums, within 0.03 of the exact test's share found in runs
 * simulated from known laws (lognormal, bimodal, counts) from 6 passes on,
 * and mostly below.
 *
 * A few passes know their own spread only roughly: from 5 passes each, the
 * n named for the spread they showed found the change less than 80 % of the
 * time for a third of them. The pool is therefore widened to the spread's
 * 80 % upper confidence bound, a chi-square's on the passes' degrees of
 * freedom (spread_margin()), and a rate's rise shrunk as much, so that
 * the n named keeps its word for about 80 % of the sets of passes it is
 * worked out from, not only on average (bench/verdictsim.c measures it;
 * tests/unit_core_power.c holds it to runs of known laws).
 */
#define CRIT_EXACT 60
/*
 * The search aims this much above the power asked, the normal model's
 * error (up to 0.015 above the share found, for tied counts), so that the
 * passes named find the change at least as often as asked: 560 bimodal
 * passes found it 0.829 +- 0.006 of the time, where 532 would do 0.811.
 */
#define POWER_MARGIN 0.02
#define SPREAD_CONFIDENCE 0.80	/* the spread's upper bound the effect is shrunk to */
#define RATE_TAIL 1e-12		/* the Poisson draws' tail left out */

struct power_model {
	double *p;		/* the pool, sorted */
	int n;
	double *y, *w;		/* B's values: y[k] with weight w[k] for a draw of p[owner[k]]; */
	int *owner, ny;		/* a pool value's weights sum to 1 */
	bool logs, untied;	/* on logs; no value twice among the p and y */
	double h;		/* on logs, the smoothing's sd; 0: none */
	double level, theta;	/* theta: P(B > A) + P(B = A) / 2 - 1/2 */
	double margin;		/* spread_margin(): the spread's upper bound, squared, over it */
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
 * logs, each smoothed by a normal of sd h, P(b + h e > a + h e'), a 0
 * (log -inf) below every other value and tied with another 0: a few
 * passes spread wider than the change would otherwise show none of it, no
 * two of them being as close. Past 8 sd, 0 or 1 to 1e-15.
 */
static double psi(const struct power_model *m, double a, double b)
{
	double z;

	if (!(m->h > 0.0) || a == b)	/* a == b: two zeros, on logs -inf */
		return (b > a) + 0.5 * (b == a);
	z = (b - a) / (m->h * M_SQRT2);
	return z > 8.0 ? 1.0 : z < -8.0 ? 0.0 : normal_cdf(z);
}

/*
 * Of psi over the pairs of an A value a = p[i] and a B value b = y[k] drawn
 * for another pool value (owner[k] != i: a run never has a pass of B that
 * is a pass of A changed): theta = E psi - 1/2, z01 = Var over B's draws of
 * E psi, z10 = Var over i, z11 = Var psi (Lehmann's Nonparametrics, 5.1:
 * Var U = n^2 ((n-1)(z10 + z01) + z11)). g[] is scratch for n values.
 */
static void model_moments(struct power_model *m, double *g)
{
	double s = 0, sq = 0, s2 = 0, t = 0, tq = 0;
	int n = m->n;

	memset(g, 0, (size_t)n * sizeof(*g));
	for (int k = 0; k < m->ny; k++) {
		double f = 0.0, f2 = 0.0, y = m->y[k], w = m->w[k];

		for (int i = 0; i < n; i++) {
			double v;

			if (i == m->owner[k])
				continue;
			v = psi(m, m->p[i], y);
			f += v;
			f2 += m->h > 0.0 && y != m->p[i] ? v : (y > m->p[i]) + 0.25 * (y == m->p[i]);
			g[i] += w * v;
		}
		f /= n - 1;
		s += w * f;
		sq += w * f * f;
		s2 += w * f2 / (n - 1);
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

struct share {
	double v, share;
};

static int cmp_share(const void *x, const void *y)
{
	return cmp_double(&((const struct share *)x)->v, &((const struct share *)y)->v);
}

/*
 * The sum over distinct values of their share cubed, in the mix of A's
 * draws (the pool's, 1/2n each) and B's (the y, w/2n each); m->untied: no
 * value twice. -ENOMEM or 0.
 */
static int tie_share(struct power_model *m)
{
	int all = m->n + m->ny;
	struct share *v = malloc((size_t)all * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (int i = 0; i < m->n; i++)
		v[i] = (struct share){ m->p[i], 0.5 / m->n };
	for (int k = 0; k < m->ny; k++)
		v[m->n + k] = (struct share){ m->y[k], 0.5 * m->w[k] / m->n };
	qsort(v, (size_t)all, sizeof(*v), cmp_share);
	m->kappa = 0.0;
	m->untied = true;
	for (int i = 0, j; i < all; i = j) {
		double h = 0.0;

		for (j = i; j < all && v[j].v == v[i].v; j++)
			h += v[j].share;
		m->kappa += h * h * h;
		m->untied = m->untied && j == i + 1;
	}
	free(v);
	return 0;
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

/* The median of v's finite values, copied to scratch; 0 when none. */
static double finite_median(const double *v, int n, double *scratch)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (isfinite(v[i]))
			scratch[k++] = v[i];
	return k ? median_inplace(scratch, k) : 0.0;
}

/*
 * B's na.. values brought to A's, then taken on logs where m->logs: with a
 * 0 among them (a share's shortfall, where a pass missed nothing),
 * multiplied by the ratio of the means, so that a 0 stays 0 (log -inf);
 * else less the Hodges-Lehmann shift (on logs when all are > 0). Then the
 * pool's deviations widened by sqrt(n / (n - 2)), about A's median: a pool
 * of two samples, each about its own place, spreads (n - 2) / n as much as
 * what it was drawn from, on average; and by the square root of m->margin
 * more, to the spread's upper bound. 0 or -ENOMEM.
 */
static int bring_to_a(struct power_model *m, int na, bool zeros, double *scratch)
{
	double *a = m->p, *b = m->p + na, ma = mean_of(a, na), mb = mean_of(b, m->n - na);
	double shift, centre, f = sqrt((double)m->n / (m->n - 2) * m->margin);

	if (zeros) {
		for (int j = 0; ma > 0.0 && mb > 0.0 && j < m->n - na; j++)
			b[j] *= ma / mb;
	}
	for (int i = 0; m->logs && i < m->n; i++)
		m->p[i] = log(m->p[i]);
	if (!zeros) {
		shift = hl_shift(a, na, b, m->n - na);
		if (isnan(shift))
			return -ENOMEM;
		for (int j = 0; j < m->n - na; j++)
			b[j] -= shift;
	}
	centre = finite_median(a, na, scratch);
	for (int i = 0; i < m->n; i++)
		m->p[i] = centre + f * (m->p[i] - centre);
	return 0;
}

/* The median gap between finite neighbours of sorted v[0..n): the smoothing's sd. */
static double median_gap(const double *v, int n, double *gaps)
{
	int k = 0;

	for (int i = 1; i < n; i++)
		if (isfinite(v[i - 1]))
			gaps[k++] = v[i] - v[i - 1];
	return k ? median_inplace(gaps, k) : 0.0;
}

/* Room for ny draws of B; 0 or -ENOMEM. */
static int alloc_draws(struct power_model *m, int ny)
{
	m->ny = ny;
	m->y = malloc(2 * (size_t)ny * sizeof(*m->y));
	m->owner = malloc((size_t)ny * sizeof(*m->owner));
	if (!m->y || !m->owner)
		return -ENOMEM;
	m->w = m->y + ny;
	return 0;
}

static void model_free(struct power_model *m)
{
	free(m->p);
	free(m->y);
	free(m->owner);
}

/*
 * A rate (1 + change) times: each sorted pool value p[j] plus k more events,
 * k = 0, 1, ... with Poisson(change x the pool's mean) weights, up to a
 * tail of RATE_TAIL; the change shrunk by the square root of m->margin, as
 * a wider spread would (the passes needed grow as its square). 0, -EINVAL (a negative count, or a fall: only rises
 * are modelled), -ENOMEM.
 */
static int rate_draws(struct power_model *m, double change)
{
	double extra = change * mean_of(m->p, m->n) / sqrt(m->margin), pmf = exp(-extra), cdf = pmf;
	int most = 0;

	if (!(change > 0.0) || m->p[0] < 0.0)
		return -EINVAL;
	while (cdf < 1.0 - RATE_TAIL && most < 100000) {
		pmf *= extra / ++most;
		cdf += pmf;
	}
	if (alloc_draws(m, m->n * (most + 1)))
		return -ENOMEM;
	for (int j = 0, k = 0; j < m->n; j++) {
		pmf = exp(-extra);
		for (int e = 0; e <= most; e++, k++) {
			m->y[k] = m->p[j] + e;
			m->w[k] = pmf / cdf;
			m->owner[k] = j;
			pmf *= extra / (e + 1);
		}
	}
	return 0;
}

/*
 * The pool sorted, and B's draws: each value changed (scaled, on logs or
 * not), or a rate raised; scratch holds n doubles. 0, -EINVAL, -ENOMEM.
 */
static int model_values(struct power_model *m, int na, int kind, double change, double *scratch)
{
	int zeros = 0, positive = 0;

	if (kind == CHANGE_RATE) {	/* the counts as they are, so that ties stay ties */
		qsort(m->p, (size_t)m->n, sizeof(*m->p), cmp_double);
		return rate_draws(m, change);
	}
	for (int i = 0; i < m->n; i++) {
		zeros += m->p[i] == 0.0;
		positive += m->p[i] > 0.0;
	}
	/* on logs, a 0 at -inf, while two values at least have a log */
	m->logs = zeros + positive == m->n && positive >= 2;
	if (bring_to_a(m, na, zeros && m->logs, scratch))
		return -ENOMEM;
	qsort(m->p, (size_t)m->n, sizeof(*m->p), cmp_double);
	if (alloc_draws(m, m->n))
		return -ENOMEM;
	for (int i = 0; i < m->n; i++) {
		m->y[i] = changed(m, m->p[i], change);
		m->w[i] = 1.0;
		m->owner[i] = i;
	}
	if (m->logs)
		m->h = median_gap(m->p, m->n, scratch);
	return 0;
}

/*
 * df over the lower 1 - SPREAD_CONFIDENCE quantile of a chi-square of df
 * degrees of freedom (Wilson and Hilferty's cube: 4.61 for 4.59 at df 8):
 * a spread's SPREAD_CONFIDENCE upper bound over its estimate, squared.
 */
static double spread_margin(int df)
{
	double k = 2.0 / (9.0 * df), z = normal_quantile(1.0 - SPREAD_CONFIDENCE);
	double c = 1.0 - k + z * sqrt(k);

	return c > 0.0 ? 1.0 / (c * c * c) : INFINITY;
}

/* The value as the model takes it: a share by its shortfall from 100 %. */
static double model_input(int kind, double v)
{
	return kind == CHANGE_SHORTFALL ? 100.0 - v : v;
}

/*
 * 0, -EINVAL (fewer than 2 finite values in a sample, or as rate_draws()),
 * -ENOMEM. a == b: the same passes standing for both, df n - 1.
 */
static int model_make(struct power_model *m, const double *a, int na, const double *b, int nb,
		      int kind, double change, double level)
{
	int n = 0, used_a, err = -EINVAL;

	*m = (struct power_model){ .level = level };
	m->p = malloc(2 * ((size_t)na + nb + 1) * sizeof(*m->p));
	if (!m->p)
		return -ENOMEM;
	for (int i = 0; i < na; i++)
		if (isfinite(a[i]))
			m->p[n++] = model_input(kind, a[i]);
	used_a = n;
	for (int j = 0; j < nb; j++)
		if (isfinite(b[j]))
			m->p[n++] = model_input(kind, b[j]);
	m->n = n;
	m->margin = spread_margin(a == b ? used_a - 1 : n - 2);
	if (used_a >= 2 && n - used_a >= 2)
		err = model_values(m, used_a, kind, change, m->p + n);
	m->untied = m->h > 0.0;	/* smoothed: no ties */
	if (!err && !m->untied)
		err = tie_share(m);
	if (err) {
		model_free(m);
		return err;
	}
	model_moments(m, m->p + n);
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
 * bisection; POWER_CAP + 1 when even POWER_CAP falls short; -ENOMEM. The
 * power rises with n where the critical values are the normal law's, but
 * the exact ones (untied, up to CRIT_EXACT) step up unevenly, and the power
 * zig-zags there: up to CRIT_EXACT + 1, the least n from which every n
 * passes, by walking them all.
 */
static int search(const struct power_model *m, int from, double power)
{
	int lo = from - 1, hi = from;
	double got;

	if (m->untied && from <= CRIT_EXACT + 1) {
		for (int n = from; n <= CRIT_EXACT + 1; n++) {
			got = power_normal(m, n);
			if (isnan(got))
				return -ENOMEM;
			lo = got < power ? n : lo;
		}
		if (lo <= CRIT_EXACT)
			return lo + 1;
		hi = lo + 1;
	}
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

double power_at_passes(const double *a, int na, const double *b, int nb, int kind, double change,
		       double level, int n)
{
	struct power_model m;
	double got;

	if (n < 2 || model_make(&m, a, na, b, nb, kind, change, level))
		return NAN;
	got = power_normal(&m, n);
	model_free(&m);
	return got;
}

int passes_for_change(const double *a, int na, const double *b, int nb, int kind, double change,
		      double power, double level)
{
	struct power_model m;
	int least = 2, n, err;

	if (!(change > -1.0 && change != 0.0 && isfinite(change)) ||
	    !(power > 0.0 && power < 1.0) || !(level > 0.0 && level < 1.0))
		return -1;
	err = model_make(&m, a, na, b, nb, kind, change, level);
	if (err)
		return err == -EINVAL ? -1 : err;
	while (mw_p_min(least, least) > level * (1 + 1e-12))
		least++;	/* fewer could never pass, whatever the change */
	n = search(&m, least, fmin(power + POWER_MARGIN, 0.999));
	model_free(&m);
	return n;
}
