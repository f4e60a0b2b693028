/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/stats.h - pure statistics: running mean and variance, the latency histogram,
 * percentiles, CIs. */
#ifndef STATS_H
#define STATS_H

/* Nothing of the run here: no config, no threads, no I/O; numbers in, numbers out. */
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
void latency_init(struct latency *l);
void latency_add(struct latency *l, uint64_t ns);
unsigned hist_bucket(uint64_t v);
uint64_t hist_lower(unsigned b);
uint64_t hist_upper(unsigned b);		/* exclusive */
uint64_t latency_percentile(const struct latency *l, double q);

struct summary {		/* one set of numbers, as reported */
	uint64_t n;
	double min, mean, sd, max;
	double p50, p90, p99, p999;
};
void latency_summary(const struct latency *l, struct summary *s);

/* Student's t confidence interval of a set of values */
void mean_ci95(const double *v, int n, double *mean, double *half);

#endif
