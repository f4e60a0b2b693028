/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/stats.h - pure statistics: running mean and variance, the latency histogram,
 * percentiles, CIs. */
#ifndef STATS_H
#define STATS_H

/* Nothing of the run here: no config, no threads, no I/O; numbers in, numbers out. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Log-linear histogram: values below HIST_SUB are exact; above, each power
 * of two is split into HIST_SUB buckets, so a bucket is never wider than
 * 1/HIST_SUB (0.8 %) of its lower bound. Values beyond the last bucket land
 * in it; min and max stay exact.
 */
#define HIST_SUB_BITS 7
#define HIST_SUB (1U << HIST_SUB_BITS)
#define HIST_MAX_BITS 38			/* 2^38 ns = 275 s */
#define HIST_BUCKETS ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB)

struct running {		/* Welford: no loss of precision at 1e9 ns */
	uint64_t n;
	double mean;
	double m2;		/* sum of squared deviations from the mean */
	uint64_t min, max;
};

struct latency {
	struct running r;
	uint64_t hist[HIST_BUCKETS];
};

void running_init(struct running *r);
void running_add(struct running *r, uint64_t v);
double running_sd(const struct running *r);	/* sample SD, 0 for n < 2 */
void running_merge(struct running *m, const struct running *a, const struct running *b);
void latency_init(struct latency *l);
void latency_add(struct latency *l, uint64_t ns);
void latency_merge(struct latency *m, const struct latency *add);	/* m += add */
unsigned hist_bucket(uint64_t v);
uint64_t hist_lower(unsigned b);
uint64_t hist_upper(unsigned b);		/* exclusive */
uint64_t latency_percentile(const struct latency *l, double q);

/*
 * A histogram as a finished row keeps it (sparse_hist.c): its non-empty buckets
 * only, in order, with the exact running numbers (min, max, mean and SD stay
 * exact). An entry is 32 bits, the bucket (>> shift) in the top
 * HIST_INDEX_BITS and its count below; a bucket with more than
 * HIST_COUNT_MAX samples takes several entries in a row. A histogram that
 * would need more than HIST_KEEP_MAX entries is kept coarser: shift 1 pairs
 * neighbouring buckets (each then <= 1.6 % wide), 2 takes fours, ..., the
 * least that fits, so that no row keeps more than 5 KiB of buckets. Below
 * that (rows of up to 1280 distinct latencies, i.e. all but the longest
 * and widest), it holds exactly what the dense one did.
 */
#define HIST_INDEX_BITS 12
#define HIST_COUNT_BITS (32 - HIST_INDEX_BITS)
#define HIST_COUNT_MAX ((1u << HIST_COUNT_BITS) - 1)
#define HIST_KEEP_MAX 1280

struct latency_compact {
	struct running r;		/* exact, as the dense histogram's */
	unsigned shift;			/* an entry covers 2^shift buckets */
	unsigned nent;			/* entries in ent[] */
	uint32_t ent[];			/* (bucket >> shift) << HIST_COUNT_BITS | count */
};

struct hist_span {		/* one bucket of a compact histogram, as read */
	uint64_t lower, upper;		/* [lower, upper) in ns */
	uint64_t count;
	bool last;			/* holds the last bucket: upper is then max + 1 */
};

struct latency_compact *latency_compact(const struct latency *l);	/* malloc'd; NULL */
struct latency_compact *latency_compact_merge(const struct latency_compact *a,
					      const struct latency_compact *b);
size_t latency_compact_size(const struct latency_compact *c);		/* bytes */
bool latency_compact_next(const struct latency_compact *c, unsigned *pos,
			  struct hist_span *s);
uint64_t latency_compact_percentile(const struct latency_compact *c, double q);
size_t latency_compact_cdf(const struct latency_compact *c, double *x, double *y,
			   size_t max);

struct summary {		/* one set of numbers, as reported */
	uint64_t n;
	double min, mean, sd, max;
	double p50, p90, p99, p999;
};
void latency_summary(const struct latency *l, struct summary *s);
void latency_compact_summary(const struct latency_compact *c, struct summary *s);

/* Student's t confidence interval of a set of values */
void mean_ci95(const double *v, int n, double *mean, double *half);

#endif
