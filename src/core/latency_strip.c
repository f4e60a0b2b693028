// SPDX-License-Identifier: GPL-2.0-or-later
/* core/latency_strip.c - a row's wakeup latency over time, bin by bin, from its period records. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/latency_strip.h"

#define SLACK 1e-9		/* 2 s given as 2.0000000001 is still 2 bins */

/* Whole seconds per bin: 1, or as few as keep the row within STRIP_MAX bins. */
static double bin_seconds(double seconds)
{
	return seconds > STRIP_MAX ? ceil(seconds / STRIP_MAX - SLACK) : 1.0;
}

/* The bin of t (ns), or -1 outside the strip's bins. */
static int bin_of(const struct latency_strip *s, uint64_t start, uint64_t t)
{
	uint64_t bin_ns = (uint64_t)s->bin_s * 1000000000ULL, b;

	if (t < start)
		return -1;
	b = (t - start) / bin_ns;
	return b < (uint64_t)s->n ? (int)b : -1;
}

/*
 * A wake-up's bin and latency, or -1: not a wake-up (an overrun, Gaming's
 * unit), no sample (core/accounting.h's wake_latency), or outside the bins.
 */
static int woken_bin(const struct latency_strip *s, uint64_t start, const struct period_rec *p,
		     uint64_t *lat)
{
	if (!(p->flags & PREC_WOKEN) || (p->flags & PREC_UNIT) ||
	    !wake_latency(p->t_wake, p->t_run, lat))
		return -1;
	return bin_of(s, start, p->t_wake);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The value of rank ceil(n * num / den) (1-based) of n sorted values, in whole numbers. */
static uint64_t quantile(const uint64_t *v, size_t n, size_t num, size_t den)
{
	size_t rank = (n * num + den - 1) / den;

	return v[rank ? rank - 1 : 0];
}

/* The strip's bins, empty; the first known one. */
static void strip_init(const struct period_log *h, const struct period_rec *rec, size_t nrec,
		       uint64_t start, double seconds, struct latency_strip *s)
{
	double n;

	memset(s, 0, sizeof(*s));
	s->seconds = seconds > 0 ? (float)seconds : 0;
	s->bin_s = (float)bin_seconds(seconds);
	n = seconds > 0 ? ceil(seconds / s->bin_s - SLACK) : 0;
	s->n = n > STRIP_MAX ? STRIP_MAX : n > 0 ? (int)n : 0;
	for (int i = 0; i < STRIP_MAX; i++)
		s->p50[i] = s->p99[i] = s->max[i] = NAN;
	if (!h->lost)
		return;
	/* the ring kept the newest records: before the oldest kept, nothing is known */
	s->first = s->n;
	if (nrec) {
		int b = bin_of(s, start, rec[0].t_wake);

		s->first = rec[0].t_wake < start ? 0 : b < 0 ? s->n : b;
	}
}

int strip_of(const struct period_log *h, const struct period_rec *rec, size_t nrec,
	     uint64_t row_start_ns, double seconds, struct latency_strip *out)
{
	size_t at[STRIP_MAX + 1] = { 0 }, fill[STRIP_MAX], total;
	uint64_t *lat;

	strip_init(h, rec, nrec, row_start_ns, seconds, out);
	for (size_t i = 0; i < nrec; i++) {
		uint64_t l;
		int b = woken_bin(out, row_start_ns, &rec[i], &l);

		if (b >= 0)
			out->count[b]++;
	}
	for (int b = 0; b < out->n; b++)
		at[b + 1] = at[b] + out->count[b];
	total = at[out->n];
	lat = malloc((total ? total : 1) * sizeof(*lat));
	if (!lat) {
		out->n = 0;
		return -ENOMEM;
	}
	memcpy(fill, at, sizeof(fill));
	for (size_t i = 0; i < nrec; i++) {
		uint64_t l;
		int b = woken_bin(out, row_start_ns, &rec[i], &l);

		if (b >= 0)
			lat[fill[b]++] = l;
	}
	for (int b = 0; b < out->n; b++) {
		uint64_t *v = lat + at[b];
		size_t n = out->count[b];

		if (!n)
			continue;
		qsort(v, n, sizeof(*v), cmp_u64);
		out->p50[b] = (float)quantile(v, n, 1, 2);
		out->p99[b] = (float)quantile(v, n, 99, 100);
		out->max[b] = (float)v[n - 1];
	}
	free(lat);
	return 0;
}
