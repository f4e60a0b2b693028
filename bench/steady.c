// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/steady.c - how steady is this CPU: time charged to a spinning thread that it did not run, and how much the speed of a fixed loop moves. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SLICE_NS 100000000ULL	/* one measurement */
#define GAP_NS 10000ULL		/* a pause this long did not come from the loop */
#define CHUNK 1000		/* loop iterations between two clock reads */
#define MAX_SLICES 600

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The same kind of loop as interbench's unit of work. */
static void spin(uint64_t loops)
{
	for (uint64_t i = 0; i < loops; i++)
		__asm__ __volatile__("" : "+r"(i));
}

struct slice {
	double unseen_pct;	/* charged CPU time in which the loop did not run */
	double rate;		/* loops per charged CPU ns */
	double true_rate;	/* loops per ns the loop really ran */
	uint64_t max_gap;
};

/*
 * Spin for one slice, reading CLOCK_MONOTONIC between chunks. A pause longer
 * than GAP_NS means the loop was not running: either the guest ran something
 * else (then the thread's CPU clock stood still) or the time was taken from
 * under it (a hypervisor's steal it does not report, or an interrupt) and
 * charged to the thread anyway. The second kind is gaps - (wall - cpu).
 */
static void measure(struct slice *s)
{
	uint64_t w0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t last = w0, now, gaps = 0, loops = 0, wall, cpu, unseen;

	s->max_gap = 0;
	while ((now = clock_ns(CLOCK_MONOTONIC)) - w0 < SLICE_NS) {
		if (now - last > GAP_NS) {
			gaps += now - last;
			if (now - last > s->max_gap)
				s->max_gap = now - last;
		}
		last = now;
		spin(CHUNK);
		loops += CHUNK;
	}
	wall = now - w0;
	cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	unseen = gaps > wall - cpu ? gaps - (wall - cpu) : 0;
	if (unseen >= cpu)
		unseen = cpu - 1;
	s->unseen_pct = 100.0 * (double)unseen / (double)cpu;
	s->rate = (double)loops / (double)cpu;
	s->true_rate = (double)loops / (double)(cpu - unseen);
}

static void summarise(const double *v, int n, double *mean, double *cv, double *lo, double *hi)
{
	double sum = 0, sq = 0;

	*lo = *hi = v[0];
	for (int i = 0; i < n; i++) {
		sum += v[i];
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
	*mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	*cv = n > 1 && *mean ? 100.0 * sqrt(sq / (n - 1)) / *mean : 0.0;
}

int main(int argc, char **argv)
{
	static struct slice s[MAX_SLICES];
	static double unseen[MAX_SLICES], rate[MAX_SLICES], true_rate[MAX_SLICES];
	double secs = argc > 1 ? strtod(argv[1], NULL) : 3.0;
	int n = (int)(secs * 1e9 / SLICE_NS);
	double um, ucv, ulo, uhi, rm, rcv, rlo, rhi, tm, tcv, tlo, thi;
	uint64_t max_gap = 0;

	if (n < 2 || n > MAX_SLICES) {
		fprintf(stderr, "usage: steady SECONDS (0.2 to 60)\n");
		return 2;
	}
	spin(20000000);		/* let the clock frequency settle */
	for (int i = 0; i < n; i++) {
		measure(&s[i]);
		unseen[i] = s[i].unseen_pct;
		rate[i] = s[i].rate;
		true_rate[i] = s[i].true_rate;
		max_gap = s[i].max_gap > max_gap ? s[i].max_gap : max_gap;
	}
	summarise(unseen, n, &um, &ucv, &ulo, &uhi);
	summarise(rate, n, &rm, &rcv, &rlo, &rhi);
	summarise(true_rate, n, &tm, &tcv, &tlo, &thi);
	printf("slices=%d unseen_mean_pct=%.1f unseen_min_pct=%.1f unseen_max_pct=%.1f "
	       "rate_per_us=%.0f rate_cv_pct=%.1f rate_range_pct=%.1f true_rate_per_us=%.0f "
	       "true_rate_cv_pct=%.1f true_rate_range_pct=%.1f max_gap_us=%.0f\n",
	       n, um, ulo, uhi, rm * 1e3, rcv, 100.0 * (rhi - rlo) / rm, tm * 1e3, tcv,
	       100.0 * (thi - tlo) / tm, (double)max_gap / 1e3);
	return 0;
}
