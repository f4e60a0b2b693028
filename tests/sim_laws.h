/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tests/sim_laws.h - draws from known laws and the rank test's large-sample p, for the checks of
 * n10% (tests/unit_core_power.c, bench/verdictsim.c). */
#ifndef TESTS_SIM_LAWS_H
#define TESTS_SIM_LAWS_H

#include <math.h>
#include <stdint.h>

#include "core/ranksum.h"

/* Uniform in (0, 1), never 0. */
static inline double sim_uniform(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) * 0x1p-53;
}

/* A standard normal draw: Box-Muller. */
static inline double sim_normal(uint64_t *s)
{
	double u = sim_uniform(s), v = sim_uniform(s);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* A Poisson draw by inversion (means up to a few hundred). */
static inline double sim_poisson(uint64_t *s, double mean)
{
	double u = sim_uniform(s), p = exp(-mean), cdf = p;
	int k = 0;

	while (u > cdf && k < 100000) {
		p *= mean / ++k;
		cdf += p;
	}
	return k;
}

/*
 * The two-sided p of the rank test by the normal law, with the ties'
 * variance correction and half a unit of continuity: within a few % of the
 * exact p beyond 60 passes each, where the exact one is slow with ties.
 * 1 when every value is the same. NAN: out of memory.
 */
static inline double sim_normal_p(const double *x, int na, int nb, int *direction)
{
	struct rank_groups g;
	double ties = 0.0, n = na + nb, var, z;
	long mean2;

	if (rank_groups_make(x, na, nb, &g))
		return NAN;
	for (int i = 0; i < g.ng; i++)
		ties += (double)g.size[i] * g.size[i] * g.size[i] - g.size[i];
	mean2 = (long)g.k * (g.n - g.k);
	*direction = rank_direction(&g);
	var = (double)na * nb / 12.0 * ((n + 1) - ties / (n * (n - 1)));
	z = (fabs((double)(g.u2 - mean2) / 2.0) - 0.5) / sqrt(var);
	rank_groups_free(&g);
	return var > 0 && z > 0 ? erfc(z / M_SQRT2) : 1.0;
}

#endif
