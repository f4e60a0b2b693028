// SPDX-License-Identifier: GPL-2.0-or-later
/* core/stats.c - pure maths, no I/O: running mean and variance, histogram, percentiles. */
#include <math.h>
#include <string.h>

#include "core/stats.h"

void running_init(struct running *r)
{
	memset(r, 0, sizeof(*r));
	r->min = UINT64_MAX;
}

/* Welford's update: stable where sum-of-squares formulas cancel badly. */
void running_add(struct running *r, uint64_t v)
{
	double x = (double)v, delta;

	r->n++;
	delta = x - r->mean;
	r->mean += delta / (double)r->n;
	r->m2 += delta * (x - r->mean);
	if (v < r->min)
		r->min = v;
	if (v > r->max)
		r->max = v;
}

double running_sd(const struct running *r)
{
	if (r->n < 2)
		return 0.0;
	return sqrt(r->m2 / (double)(r->n - 1));
}

void latency_init(struct latency *l)
{
	running_init(&l->r);
	memset(l->hist, 0, sizeof(l->hist));
}

static unsigned ilog2_u64(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

unsigned hist_bucket(uint64_t v)
{
	unsigned e, b;

	if (v < HIST_SUB)
		return (unsigned)v;
	e = ilog2_u64(v);
	if (e >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	b = (e - HIST_SUB_BITS + 1) * HIST_SUB +
	    (unsigned)((v >> (e - HIST_SUB_BITS)) - HIST_SUB);
	return b;
}

uint64_t hist_lower(unsigned b)
{
	unsigned e, sub;

	if (b < HIST_SUB)
		return b;
	e = b / HIST_SUB - 1 + HIST_SUB_BITS;
	sub = b % HIST_SUB;
	return (uint64_t)(HIST_SUB + sub) << (e - HIST_SUB_BITS);
}

uint64_t hist_upper(unsigned b)
{
	if (b + 1 >= HIST_BUCKETS)
		return UINT64_MAX;
	return hist_lower(b + 1);
}

void latency_add(struct latency *l, uint64_t ns)
{
	running_add(&l->r, ns);
	l->hist[hist_bucket(ns)]++;
}

/*
 * The q-quantile (0 < q <= 1) as the middle of the bucket that holds the
 * sample of rank ceil(q * n), clamped to the exact min and max.
 */
uint64_t latency_percentile(const struct latency *l, double q)
{
	uint64_t rank, seen = 0, v;
	unsigned b;

	if (!l->r.n)
		return 0;
	rank = (uint64_t)ceil(q * (double)l->r.n);
	if (rank < 1)
		rank = 1;
	for (b = 0; b < HIST_BUCKETS; b++) {
		seen += l->hist[b];
		if (seen >= rank)
			break;
	}
	if (b >= HIST_BUCKETS)
		return l->r.max;
	if (b < HIST_SUB)
		v = b;
	else if (b == HIST_BUCKETS - 1)
		v = l->r.max;
	else
		v = hist_lower(b) + (hist_upper(b) - hist_lower(b)) / 2;
	if (v < l->r.min)
		v = l->r.min;
	if (v > l->r.max)
		v = l->r.max;
	return v;
}

void latency_summary(const struct latency *l, struct summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = l->r.n;
	if (!s->n)
		return;
	s->min = (double)l->r.min;
	s->max = (double)l->r.max;
	s->mean = l->r.mean;
	s->sd = running_sd(&l->r);
	s->p50 = (double)latency_percentile(l, 0.50);
	s->p90 = (double)latency_percentile(l, 0.90);
	s->p99 = (double)latency_percentile(l, 0.99);
	s->p999 = (double)latency_percentile(l, 0.999);
}

/* Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom. */
static const double t95[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

static double t_quantile95(int df)
{
	if (df < 1)
		return 0.0;
	if (df <= (int)(sizeof(t95) / sizeof(t95[0])))
		return t95[df - 1];
	if (df <= 40)
		return 2.021;
	if (df <= 60)
		return 2.000;
	if (df <= 120)
		return 1.980;
	return 1.960;
}

/* Mean of v[0..n) and the half-width of its 95 % confidence interval. */
void mean_ci95(const double *v, int n, double *mean, double *half)
{
	double m = 0.0, ss = 0.0;
	int i;

	*mean = 0.0;
	*half = 0.0;
	if (n < 1)
		return;
	for (i = 0; i < n; i++)
		m += (v[i] - m) / (i + 1);
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	if (n > 1)
		*half = t_quantile95(n - 1) * sqrt(ss / (n - 1)) / sqrt((double)n);
}
