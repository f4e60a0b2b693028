/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/series.h - a value a second over a row in a fixed array, coarser as the row grows: the
 * load's intensity over time. */
#ifndef CORE_SERIES_H
#define CORE_SERIES_H

#include <stdint.h>

/*
 * Bins of equal width from t0, each the mean of the samples (one a second)
 * it holds. When all SERIES_BINS are full, neighbours are merged in pairs
 * (the mean of two bins of as many samples each is the mean of their
 * samples), so the bins hold twice the samples from then on: a row of any
 * length fits, at a second a bin up to 10 minutes, two seconds up to 20, and
 * so on. The last bin may hold fewer samples than the others (the row ended).
 */
#define SERIES_BINS 600

struct series {			/* plain data: sent as bytes inside struct load_result */
	uint64_t t0;			/* CLOCK_MONOTONIC ns: the first bin's start */
	uint64_t sample_ns;		/* one sample's time (a second) */
	uint32_t per_bin;		/* samples a full bin holds: 1, 2, 4, ... */
	uint32_t n;			/* bins filled */
	uint32_t pending;		/* samples in the bin being filled */
	double acc;			/* their sum */
	double v[SERIES_BINS];
};

void series_init(struct series *s, uint64_t t0, uint64_t sample_ns);
void series_add(struct series *s, double v);
void series_close(struct series *s);
uint64_t series_bin_start(const struct series *s, uint32_t i);

#endif
