// SPDX-License-Identifier: GPL-2.0-or-later
/* core/series.c - a row's value a second in fixed bins, merged in pairs when they are full. */
#include <string.h>

#include "core/series.h"

void series_init(struct series *s, uint64_t t0, uint64_t sample_ns)
{
	memset(s, 0, sizeof(*s));
	s->t0 = t0;
	s->sample_ns = sample_ns;
	s->per_bin = 1;
}

/* Every bin into one of twice the width: the bins hold twice the samples from now on. */
static void merge_pairs(struct series *s)
{
	for (uint32_t i = 0; i < s->n / 2; i++)
		s->v[i] = (s->v[2 * i] + s->v[2 * i + 1]) / 2;
	s->n /= 2;
	s->per_bin *= 2;
}

/*
 * One sample. A bin full when all are: they merge, and the new bin becomes
 * the first half of one of the new width, still open.
 */
void series_add(struct series *s, double v)
{
	if (!s->per_bin)
		return;			/* never initialised: nothing to fill */
	s->acc += v;
	if (++s->pending < s->per_bin)
		return;
	if (s->n == SERIES_BINS) {
		merge_pairs(s);
		return;
	}
	s->v[s->n++] = s->acc / s->pending;
	s->acc = 0;
	s->pending = 0;
}

/* The row has ended: the bin being filled, with the samples it has, is the last. */
void series_close(struct series *s)
{
	if (!s->pending)
		return;
	if (s->n == SERIES_BINS)
		merge_pairs(s);
	s->v[s->n++] = s->acc / s->pending;
	s->acc = 0;
	s->pending = 0;
}

uint64_t series_bin_start(const struct series *s, uint32_t i)
{
	return s->t0 + (uint64_t)i * s->per_bin * s->sample_ns;
}
