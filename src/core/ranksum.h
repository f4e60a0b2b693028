/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/ranksum.h - the Mann-Whitney rank sum's null distribution given the ties: exact tails,
 * the smallest attainable p, a Monte Carlo p where exact would be too slow. */
#ifndef CORE_RANKSUM_H
#define CORE_RANKSUM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Two samples pooled and ranked: the runs of equal values (tie groups) in
 * ascending order, and how many of each run the counted sample has. The
 * counted sample is the smaller (B when they are as big); its statistic is
 * its doubled U, u2: over its values, 2 per value of the other sample below
 * and 1 per value of it tied, so that ties count a half and u2 is an
 * integer, 0 <= u2 <= 2k(n-k), of mean k(n-k) under the null.
 */
struct rank_groups {
	int n, k;		/* values in all; in the counted sample */
	bool counted_b;		/* the counted sample is B */
	int ng;			/* tie groups */
	int *size, *in_k;	/* each group's values; of them, the counted sample's */
	long u2;		/* the counted sample's doubled U */
};

/* x[0..na) is A, x[na..na+nb) B, all finite; 0 or -ENOMEM */
int rank_groups_make(const double *x, int na, int nb, struct rank_groups *g);
void rank_groups_free(struct rank_groups *g);
/* -1: B's values rank lower than A's (B's rank sum below its null mean), +1 higher, 0 at it */
int rank_direction(const struct rank_groups *g);

/*
 * The two-sided p, P(|U2 - mean| >= |u2 - mean|) under the permutation
 * null given the ties: exact while that is fast enough, else by Monte
 * Carlo (see ranksum.c); *exact says which. -ENOMEM or 0.
 */
int rank_sum_p(const struct rank_groups *g, double *p, bool *exact);
/* does rank_sum_p() compute p exactly for these values (else by Monte Carlo)? */
bool rank_p_is_exact(const struct rank_groups *g);
/* the same p, exact whatever the cost; NAN: out of memory */
double rank_p_exact(const struct rank_groups *g);
/* the smallest two-sided p any split of these values (these ties) can give */
double rank_p_min(const struct rank_groups *g);
#define RANK_MC_DRAWS 9999	/* Monte Carlo's permutations: its p is at least 1 / 10000 */
int rank_p_monte_carlo(const struct rank_groups *g, double *p);	/* 0 or -ENOMEM */

/*
 * cnt[0..w), cnt[u] = how many of the C(na+nb, na) splits of untied values
 * have U = u: the Gaussian binomial's coefficients, exact integers while
 * C(na+nb, na) < 2^53. NULL: out of memory.
 */
double *untied_u_counts(int na, int nb, long w);
/* the k-th smallest (0-based) of v[0..n), and the median, reordering v: O(n) on average */
double kth_smallest(double *v, long n, long k);
double median_inplace(double *v, long n);
double binom(int n, int k);		/* C(n, k) as a double */
double normal_quantile(double p);	/* Phi^-1(p) */

/* A small, fast, seedable generator (splitmix64) for Monte Carlo's splits. */
uint64_t rng_next(uint64_t *s);
uint32_t rng_below(uint64_t *s, uint32_t m);	/* uniform in [0, m), m >= 1 */
uint64_t rng_mix(uint64_t h, uint64_t v);	/* folds v into the hash h: seeds from data */

#endif
