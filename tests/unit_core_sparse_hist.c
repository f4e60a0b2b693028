// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_sparse_hist.c - unit tests of the core: the sparse histogram a row keeps,
 * against the dense one it is made from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/defs.h"
#include "core/stats.h"
#include "tests/unit.h"

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* Latencies of a few shapes: uniform, exponential, two modes, a long tail, one value. */
static void fill(struct latency *l, int shape, int n, uint64_t seed)
{
	latency_init(l);
	for (int i = 0; i < n; i++) {
		double u = ((double)lcg(&seed) + 0.5) / 2147483648.0;
		uint64_t v;

		switch (shape) {
		case 0: v = 1 + lcg(&seed) % 1000000; break;
		case 1: v = (uint64_t)(-50000.0 * log(u)); break;
		case 2: v = (i % 2 ? 3000 : 900000) + lcg(&seed) % 700; break;
		case 3: v = (uint64_t)(2000.0 / (u * u)); break;
		default: v = 4242; break;
		}
		latency_add(l, v);
	}
}

static const double qs[] = { 0.0001, 0.25, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0 };

/* At shift 0 the compact form holds exactly the dense buckets, so every percentile is equal. */
static bool test_same_as_dense(void)
{
	static struct latency l;

	for (int shape = 0; shape < 5; shape++) {
		struct latency_compact *c;
		struct hist_span s;
		unsigned pos = 0, b = 0;
		uint64_t n = 0;

		fill(&l, shape, shape == 3 ? 3000 : shape == 1 ? 8000 : 20000, 7 + (uint64_t)shape);
		c = latency_compact(&l);
		EXPECT(c, "out of memory");
		EXPECT(c->r.n == l.r.n && c->r.min == l.r.min && c->r.max == l.r.max &&
		       c->r.mean == l.r.mean && c->r.m2 == l.r.m2, "shape %d: running numbers", shape);
		for (size_t i = 0; c->shift == 0 && i < ARRAY_SIZE(qs); i++)
			EXPECT(latency_compact_percentile(c, qs[i]) == latency_percentile(&l, qs[i]),
			       "shape %d p%g: %llu, dense %llu", shape, qs[i] * 100,
			       (unsigned long long)latency_compact_percentile(c, qs[i]),
			       (unsigned long long)latency_percentile(&l, qs[i]));
		while (latency_compact_next(c, &pos, &s)) {
			while (b < HIST_BUCKETS && !l.hist[b])
				b++;
			EXPECT(c->shift || (s.lower == hist_lower(b) && s.count == l.hist[b] &&
			       s.upper == (b == HIST_BUCKETS - 1 ? l.r.max + 1 : hist_upper(b))),
			       "shape %d: bucket %u", shape, b);
			n += s.count;
			b++;
		}
		EXPECT(n == l.r.n, "shape %d: buckets hold %llu of %llu samples", shape,
		       (unsigned long long)n, (unsigned long long)l.r.n);
		EXPECT(c->shift == 0, "shape %d kept at shift %u", shape, c->shift);
		free(c);
	}
	return true;
}

/* One sample in every bucket: too many to keep, so coarser, within its size and error bound. */
static bool test_coarse(void)
{
	static struct latency l;
	struct latency_compact *c;
	struct hist_span s;
	unsigned pos = 0;
	uint64_t n = 0, prev = 0;

	latency_init(&l);
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		latency_add(&l, hist_lower(b));
	c = latency_compact(&l);
	EXPECT(c, "out of memory");
	EXPECT(c->nent <= HIST_KEEP_MAX && c->shift == 2, "%u entries at shift %u", c->nent,
	       c->shift);
	EXPECT(latency_compact_size(c) <= sizeof(*c) + 4 * HIST_KEEP_MAX, "%zu bytes",
	       latency_compact_size(c));
	while (latency_compact_next(c, &pos, &s)) {
		EXPECT(s.lower == prev, "a span starts at %llu after one that ended at %llu",
		       (unsigned long long)s.lower, (unsigned long long)prev);
		EXPECT(s.last || s.lower < 4 * HIST_SUB ||
		       (double)(s.upper - s.lower) <= 0.032 * (double)s.lower, "span %llu..%llu",
		       (unsigned long long)s.lower, (unsigned long long)s.upper);
		prev = s.upper;
		n += s.count;
	}
	EXPECT(n == HIST_BUCKETS, "%llu samples", (unsigned long long)n);
	for (size_t i = 0; i < ARRAY_SIZE(qs) - 1; i++) {
		double want = (double)latency_percentile(&l, qs[i]);
		double got = (double)latency_compact_percentile(c, qs[i]);

		EXPECT(fabs(got - want) <= 0.032 * want + 4, "p%g %.0f, dense %.0f", qs[i] * 100,
		       got, want);
	}
	free(c);
	return true;
}

/* A bucket with more samples than an entry counts takes several entries, read back as one. */
static bool test_big_count(void)
{
	static struct latency l;
	struct latency_compact *c;
	struct hist_span s;
	unsigned pos = 0;

	latency_init(&l);
	latency_add(&l, 1000);
	l.hist[hist_bucket(1000)] = 3ULL * HIST_COUNT_MAX + 5;
	l.r.n = l.hist[hist_bucket(1000)];
	c = latency_compact(&l);
	EXPECT(c && c->nent == 4, "%u entries", c ? c->nent : 0);
	EXPECT(latency_compact_next(c, &pos, &s) && s.count == l.r.n && pos == 4 &&
	       !latency_compact_next(c, &pos, &s), "read back as one bucket");
	free(c);
	return true;
}

static bool close_rel(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-9;
}

/* Two rows merged are the histogram of their samples together (what --plot draws). */
static bool test_merge(void)
{
	static struct latency a, b, both;
	struct latency_compact *ca, *cb, *m, *want, *self;

	fill(&a, 1, 5000, 1);
	fill(&b, 2, 3000, 2);
	both = a;
	for (unsigned k = 0; k < HIST_BUCKETS; k++)
		both.hist[k] += b.hist[k];
	running_merge(&both.r, &a.r, &b.r);
	ca = latency_compact(&a);
	cb = latency_compact(&b);
	m = latency_compact_merge(ca, cb);
	want = latency_compact(&both);
	self = latency_compact_merge(NULL, cb);
	EXPECT(ca && cb && m && want && self, "out of memory");
	EXPECT(m->nent == want->nent && !memcmp(m->ent, want->ent, m->nent * 4),
	       "entries differ: %u, want %u", m->nent, want->nent);
	EXPECT(m->r.n == 8000 && m->r.min == (a.r.min < b.r.min ? a.r.min : b.r.min) &&
	       m->r.max == (a.r.max > b.r.max ? a.r.max : b.r.max), "n, min, max");
	EXPECT(close_rel(m->r.mean, (a.r.mean * 5000 + b.r.mean * 3000) / 8000), "mean %.17g",
	       m->r.mean);
	EXPECT(self->nent == cb->nent && !memcmp(self->ent, cb->ent, cb->nent * 4) &&
	       self->r.n == cb->r.n && self->r.mean == cb->r.mean, "merged into nothing");
	free(ca);
	free(cb);
	free(m);
	free(want);
	free(self);
	return true;
}

/* The SD of two rows merged equals the two-pass SD of all their samples. */
static bool test_merge_sd(void)
{
	static const uint64_t x[] = { 5, 9, 13, 1000, 1000000, 7, 7, 8 };
	struct running a, b, m, all;
	double mean = 0, ss = 0;

	running_init(&a);
	running_init(&b);
	running_init(&all);
	for (size_t i = 0; i < ARRAY_SIZE(x); i++) {
		running_add(i < 3 ? &a : &b, x[i]);
		running_add(&all, x[i]);
		mean += (double)x[i] / ARRAY_SIZE(x);
	}
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		ss += ((double)x[i] - mean) * ((double)x[i] - mean);
	running_merge(&m, &a, &b);
	EXPECT(m.n == all.n && m.min == 5 && m.max == 1000000, "n, min, max");
	EXPECT(close_rel(running_sd(&m), sqrt(ss / (ARRAY_SIZE(x) - 1))), "sd %.17g, want %.17g",
	       running_sd(&m), sqrt(ss / (ARRAY_SIZE(x) - 1)));
	return true;
}

/* Merging histograms kept at different shifts gives the coarser one, every sample kept. */
static bool test_merge_shifts(void)
{
	static struct latency wide, narrow;
	struct latency_compact *cw, *cn, *m;
	struct hist_span s;
	unsigned pos = 0;
	uint64_t n = 0;

	latency_init(&wide);
	for (unsigned k = 0; k < HIST_BUCKETS; k++)
		latency_add(&wide, hist_lower(k));
	fill(&narrow, 0, 1000, 5);
	cw = latency_compact(&wide);
	cn = latency_compact(&narrow);
	m = cw && cn ? latency_compact_merge(cn, cw) : NULL;
	EXPECT(m, "out of memory");
	EXPECT(m->shift == cw->shift && cn->shift == 0, "shift %u", m->shift);
	while (latency_compact_next(m, &pos, &s))
		n += s.count;
	EXPECT(n == HIST_BUCKETS + 1000 && m->r.n == n, "%llu samples", (unsigned long long)n);
	free(cw);
	free(cn);
	free(m);
	return true;
}

/* The CDF's points rise from (min, 0) to (max, 1), never back. */
static bool test_cdf(void)
{
	static struct latency l;
	struct latency_compact *c;
	double *x, *y;
	size_t n;

	fill(&l, 3, 2000, 11);
	c = latency_compact(&l);
	EXPECT(c, "out of memory");
	x = calloc(2 * c->nent + 1, sizeof(*x));
	y = calloc(2 * c->nent + 1, sizeof(*y));
	EXPECT(x && y, "out of memory");
	n = latency_compact_cdf(c, x, y, 2 * c->nent + 1);
	EXPECT(n == 2 * c->nent + 1, "%zu points for %u buckets", n, c->nent);
	EXPECT(x[0] == (double)l.r.min && y[0] == 0 && x[n - 1] == (double)l.r.max &&
	       y[n - 1] == 1.0, "ends (%g, %g) (%g, %g)", x[0], y[0], x[n - 1], y[n - 1]);
	for (size_t i = 1; i < n; i++)
		EXPECT(x[i] >= x[i - 1] && y[i] >= y[i - 1], "point %zu goes back", i);
	EXPECT(latency_compact_cdf(c, x, y, 4) <= 4, "more points than room");
	free(x);
	free(y);
	free(c);
	return true;
}

static bool test_empty(void)
{
	static struct latency l;
	struct latency_compact *c;
	struct summary s;
	unsigned pos = 0;
	struct hist_span sp;
	double x, y;

	latency_init(&l);
	c = latency_compact(&l);
	EXPECT(c && c->nent == 0 && c->shift == 0, "entries of an empty histogram");
	EXPECT(latency_compact_percentile(c, 0.5) == 0 && !latency_compact_next(c, &pos, &sp) &&
	       latency_compact_cdf(c, &x, &y, 1) == 0, "read as empty");
	latency_compact_summary(c, &s);
	EXPECT(s.n == 0 && s.max == 0, "summary");
	free(c);
	return true;
}

void unit_core_sparse_hist(void)
{
	check("compact histogram: equals the dense one, bucket by bucket and percentile by "
	      "percentile", test_same_as_dense());
	check("compact histogram: too many buckets kept coarser, within 5 KiB and 3.2 %",
	      test_coarse());
	check("compact histogram: a bucket's count beyond an entry's", test_big_count());
	check("compact histogram: merged rows are the histogram of all their samples", test_merge());
	check("stats: merged running numbers give the two-pass SD", test_merge_sd());
	check("compact histogram: merged across shifts, every sample kept", test_merge_shifts());
	check("compact histogram: CDF points from (min, 0) to (max, 1)", test_cdf());
	check("compact histogram: empty", test_empty());
}
