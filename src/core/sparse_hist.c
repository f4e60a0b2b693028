// SPDX-License-Identifier: GPL-2.0-or-later
/* core/sparse_hist.c - a row's histogram as it is kept: its non-empty buckets, merged over passes,
 * read as buckets, percentiles and CDF points. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

_Static_assert(HIST_BUCKETS <= 1u << HIST_INDEX_BITS, "a bucket's index fits its entry");
_Static_assert(HIST_BUCKETS == 1u << HIST_INDEX_BITS, "every shift splits the buckets evenly");

static unsigned ent_index(uint32_t e)
{
	return e >> HIST_COUNT_BITS;
}

static uint32_t ent_count(uint32_t e)
{
	return e & HIST_COUNT_MAX;
}

static uint64_t coarse_sum(const struct latency *l, unsigned first, unsigned shift)
{
	uint64_t sum = 0;

	for (unsigned b = first; b < first + (1u << shift); b++)
		sum += l->hist[b];
	return sum;
}

/* The entries the dense histogram needs with its buckets taken 2^shift at a time. */
static size_t entries_at(const struct latency *l, unsigned shift)
{
	size_t n = 0;

	for (unsigned k = 0; k < HIST_BUCKETS; k += 1u << shift)
		n += (coarse_sum(l, k, shift) + HIST_COUNT_MAX - 1) / HIST_COUNT_MAX;
	return n;
}

static struct latency_compact *compact_alloc(size_t nent)
{
	struct latency_compact *c = malloc(sizeof(*c) + nent * sizeof(c->ent[0]));

	if (c) {
		running_init(&c->r);
		c->shift = 0;
		c->nent = 0;
	}
	return c;
}

/* Append count samples of the (coarse) bucket idx, HIST_COUNT_MAX at most per entry. */
static void put(struct latency_compact *c, unsigned idx, uint64_t count)
{
	while (count) {
		uint32_t n = count > HIST_COUNT_MAX ? HIST_COUNT_MAX : (uint32_t)count;

		c->ent[c->nent++] = (uint32_t)idx << HIST_COUNT_BITS | n;
		count -= n;
	}
}

/* The compact form of l: at shift 0 unless that takes more than HIST_KEEP_MAX entries. */
struct latency_compact *latency_compact(const struct latency *l)
{
	struct latency_compact *c;
	unsigned shift = 0;
	size_t need;

	while ((need = entries_at(l, shift)) > HIST_KEEP_MAX && shift < HIST_INDEX_BITS)
		shift++;
	c = compact_alloc(need);
	if (!c)
		return NULL;
	c->r = l->r;
	c->shift = shift;
	for (unsigned k = 0; k < HIST_BUCKETS; k += 1u << shift)
		put(c, k >> shift, coarse_sum(l, k, shift));
	return c;
}

/* Chan's pairwise update: the running numbers of a and b's samples together. */
void running_merge(struct running *m, const struct running *a, const struct running *b)
{
	double n, delta;

	if (!a->n || !b->n) {
		*m = a->n ? *a : *b;
		return;
	}
	n = (double)a->n + (double)b->n;
	delta = b->mean - a->mean;
	m->n = a->n + b->n;
	m->mean = a->mean + delta * (double)b->n / n;
	m->m2 = a->m2 + b->m2 + delta * delta * (double)a->n * (double)b->n / n;
	m->min = a->min < b->min ? a->min : b->min;
	m->max = a->max > b->max ? a->max : b->max;
}

/* add into m, as if each of its samples had been added: buckets summed, moments merged */
void latency_merge(struct latency *m, const struct latency *add)
{
	struct running r;

	running_merge(&r, &m->r, &add->r);
	m->r = r;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		m->hist[b] += add->hist[b];
}

/* Entry i of c's bucket index at the coarser shift, UINT_MAX past the end. */
static unsigned index_at(const struct latency_compact *c, unsigned i, unsigned shift)
{
	return i < c->nent ? ent_index(c->ent[i]) >> (shift - c->shift) : UINT_MAX;
}

/*
 * a and b's samples in one new histogram, at the coarser of their two
 * shifts (a NULL a is empty: a copy of b). Not bounded by HIST_KEEP_MAX: a
 * merge is read, not kept. NULL when out of memory.
 */
struct latency_compact *latency_compact_merge(const struct latency_compact *a,
					      const struct latency_compact *b)
{
	static const struct latency_compact empty = { .r = { .min = UINT64_MAX } };
	struct latency_compact *m;
	unsigned shift, i = 0, j = 0;

	a = a ? a : &empty;
	shift = a->shift > b->shift ? a->shift : b->shift;
	m = compact_alloc((size_t)a->nent + b->nent);	/* ceil(x + y) <= ceil(x) + ceil(y) */
	if (!m)
		return NULL;
	running_merge(&m->r, &a->r, &b->r);
	m->shift = shift;
	while (i < a->nent || j < b->nent) {
		unsigned ia = index_at(a, i, shift), ib = index_at(b, j, shift);
		unsigned idx = ia < ib ? ia : ib;
		uint64_t sum = 0;

		for (; index_at(a, i, shift) == idx; i++)
			sum += ent_count(a->ent[i]);
		for (; index_at(b, j, shift) == idx; j++)
			sum += ent_count(b->ent[j]);
		put(m, idx, sum);
	}
	return m;
}

size_t latency_compact_size(const struct latency_compact *c)
{
	return c ? sizeof(*c) + c->nent * sizeof(c->ent[0]) : 0;
}

/* The bucket at *pos (its entries added up) into s, *pos moved past it; false at the end. */
bool latency_compact_next(const struct latency_compact *c, unsigned *pos, struct hist_span *s)
{
	unsigned idx, first, last;

	if (*pos >= c->nent)
		return false;
	idx = ent_index(c->ent[*pos]);
	s->count = 0;
	while (*pos < c->nent && ent_index(c->ent[*pos]) == idx)
		s->count += ent_count(c->ent[(*pos)++]);
	first = idx << c->shift;
	last = first + (1u << c->shift) - 1;
	s->lower = hist_lower(first);
	s->last = last == HIST_BUCKETS - 1;
	s->upper = s->last ? c->r.max + 1 : hist_upper(last);
	return true;
}

/*
 * As latency_percentile(), and equal to it at shift 0: the middle of the
 * bucket that holds the sample of rank ceil(q * n), clamped to min and max.
 */
uint64_t latency_compact_percentile(const struct latency_compact *c, double q)
{
	struct hist_span s = { .last = true };
	uint64_t rank, seen = 0, v;
	unsigned pos = 0;

	if (!c->r.n)
		return 0;
	rank = (uint64_t)ceil(q * (double)c->r.n);
	if (rank < 1)
		rank = 1;
	while (seen < rank && latency_compact_next(c, &pos, &s))
		seen += s.count;
	if (seen < rank || s.last)
		return c->r.max;
	v = s.lower + (s.upper - s.lower) / 2;
	if (v < c->r.min)
		v = c->r.min;
	if (v > c->r.max)
		v = c->r.max;
	return v;
}

/*
 * The CDF as steps, a point where each bucket starts (not before min) and
 * one where it ends (not after max), after a first point (min, 0): at most
 * 2 * nent + 1 points into x and y (up to max of them); how many.
 */
size_t latency_compact_cdf(const struct latency_compact *c, double *x, double *y, size_t max)
{
	struct hist_span s;
	uint64_t cum = 0, lo = c->r.min, hi = c->r.max;
	double n = (double)c->r.n;
	unsigned pos = 0;
	size_t k = 0;

	if (!c->r.n || max < 1)
		return 0;
	x[k] = (double)lo;
	y[k++] = 0.0;
	while (k + 2 <= max && latency_compact_next(c, &pos, &s)) {
		x[k] = (double)(s.lower > lo ? s.lower : lo);
		y[k++] = (double)cum / n;
		cum += s.count;
		x[k] = (double)(s.last || s.upper > hi ? hi : s.upper);
		y[k++] = (double)cum / n;
	}
	return k;
}

void latency_compact_summary(const struct latency_compact *c, struct summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = c->r.n;
	if (!s->n)
		return;
	s->min = (double)c->r.min;
	s->max = (double)c->r.max;
	s->mean = c->r.mean;
	s->sd = running_sd(&c->r);
	s->p50 = (double)latency_compact_percentile(c, 0.50);
	s->p90 = (double)latency_compact_percentile(c, 0.90);
	s->p99 = (double)latency_compact_percentile(c, 0.99);
	s->p999 = (double)latency_compact_percentile(c, 0.999);
}
