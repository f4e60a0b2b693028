// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_latency_strip.c - unit tests of the core: the latency strip of a row, from synthetic
 * period records with known quantiles per bin. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/defs.h"
#include "core/latency_strip.h"
#include "tests/unit.h"

#define START 5000000000ULL	/* the row's start, CLOCK_MONOTONIC ns */
#define SEC 1000000000ULL

static struct period_rec woken(uint64_t at_ns, uint64_t lat_ns)
{
	return (struct period_rec){ .t_wake = START + at_ns, .t_run = START + at_ns + lat_ns,
				    .t_done = START + at_ns + lat_ns + 1000, .flags = PREC_WOKEN |
				    PREC_DONE, .wake_cpu = -1, .run_cpu = -1 };
}

/*
 * Three 1 s bins: the first holds latencies 1..100 us in a scrambled order
 * (p50 50 us, p99 99 us, max 100 us), the second none, the third one; an
 * overrun (not woken), one before the row and one after it count nowhere.
 */
static bool test_quantiles(void)
{
	static struct period_rec rec[120];
	const struct period_log h = { .start0 = START, .num = 50000000, .den = 1 };
	struct latency_strip s;
	size_t n = 0;

	rec[n++] = woken(0, 0);
	rec[n - 1].t_wake = START - 1000;	/* woken before the row began */
	for (uint64_t i = 0; i < 100; i++)
		rec[n++] = woken(i * 9000000, ((i * 37) % 100 + 1) * 1000);
	rec[n] = woken(950000000, 900000000);
	rec[n++].flags = PREC_DONE;		/* overran into its period: no wake-up */
	rec[n++] = woken(2 * SEC + 400000000, 7000);
	rec[n++] = woken(3 * SEC, 5000);	/* after the last bin */
	EXPECT(strip_of(&h, rec, n, START, 3.0, &s) == 0, "strip_of failed");
	EXPECT(s.n == 3 && s.bin_s == 1.0f && s.seconds == 3.0f && s.first == 0,
	       "%d bins of %g s, first %d", s.n, s.bin_s, s.first);
	EXPECT(s.count[0] == 100 && s.count[1] == 0 && s.count[2] == 1, "counts %u %u %u",
	       s.count[0], s.count[1], s.count[2]);
	EXPECT(s.p50[0] == 50000 && s.p99[0] == 99000 && s.max[0] == 100000,
	       "bin 0: p50 %g p99 %g max %g", s.p50[0], s.p99[0], s.max[0]);
	EXPECT(isnan(s.p50[1]) && isnan(s.p99[1]) && isnan(s.max[1]), "the gap has values");
	EXPECT(s.p50[2] == 7000 && s.p99[2] == 7000 && s.max[2] == 7000, "bin 2: %g %g %g",
	       s.p50[2], s.p99[2], s.max[2]);
	for (int b = s.n; b < STRIP_MAX; b++)
		EXPECT(!s.count[b] && isnan(s.max[b]), "bin %d past the row", b);
	return true;
}

/* Rows longer than STRIP_MAX s: whole seconds per bin, never more than STRIP_MAX bins. */
static bool test_bins(void)
{
	static const struct { double seconds, bin_s; int n; } cases[] = {
		{ 0.3, 1, 1 }, { 2, 1, 2 }, { 2.5, 1, 3 }, { 30, 1, 30 }, { 120, 1, 120 },
		{ 120.5, 2, 61 }, { 240, 2, 120 }, { 241, 3, 81 }, { 1200, 10, 120 }, { 0, 1, 0 },
	};
	const struct period_log h = { .start0 = START, .num = 1, .den = 1 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct latency_strip s;

		EXPECT(strip_of(&h, NULL, 0, START, cases[i].seconds, &s) == 0, "failed");
		EXPECT(s.bin_s == (float)cases[i].bin_s && s.n == cases[i].n,
		       "%g s: %d bins of %g s, want %d of %g", cases[i].seconds, s.n, s.bin_s,
		       cases[i].n, cases[i].bin_s);
	}
	return true;
}

/* 300 s in 3 s bins: a bin pools its three seconds; the last second lands in the last bin. */
static bool test_wide(void)
{
	static struct period_rec rec[8];
	const struct period_log h = { .start0 = START, .num = 1, .den = 1 };
	struct latency_strip s;
	size_t n = 0;

	rec[n++] = woken(0, 10000);
	rec[n++] = woken(1 * SEC, 30000);
	rec[n++] = woken(2 * SEC + 999999999, 20000);
	rec[n++] = woken(3 * SEC, 40000);
	rec[n++] = woken(299 * SEC + 500000000, 60000);
	EXPECT(strip_of(&h, rec, n, START, 300, &s) == 0, "failed");
	EXPECT(s.bin_s == 3 && s.n == 100, "%d bins of %g s", s.n, s.bin_s);
	EXPECT(s.count[0] == 3 && s.p50[0] == 20000 && s.p99[0] == 30000 && s.max[0] == 30000,
	       "bin 0: %u, %g %g %g", s.count[0], s.p50[0], s.p99[0], s.max[0]);
	EXPECT(s.count[1] == 1 && s.max[1] == 40000, "bin 1: %u, max %g", s.count[1], s.max[1]);
	EXPECT(s.count[99] == 1 && s.p50[99] == 60000, "bin 99: %u", s.count[99]);
	for (int b = 2; b < 99; b++)
		EXPECT(!s.count[b] && isnan(s.p50[b]), "bin %d not empty", b);
	return true;
}

/* Gaming's units of work are no wake-ups: bins, all empty. */
static bool test_gaming(void)
{
	static struct period_rec rec[20];
	const struct period_log h = { .start0 = START };
	struct latency_strip s;

	for (int i = 0; i < 20; i++) {
		rec[i] = woken((uint64_t)i * 100000000, 5000);
		rec[i].flags = PREC_UNIT | PREC_DONE;
	}
	EXPECT(strip_of(&h, rec, 20, START, 2, &s) == 0 && s.n == 2, "%d bins", s.n);
	EXPECT(!s.count[0] && !s.count[1] && isnan(s.p50[0]) && isnan(s.max[1]), "a unit counted");
	return true;
}

/* Records lost from the ring (the oldest): the bins before the oldest kept are unknown. */
static bool test_lost(void)
{
	static struct period_rec rec[4];
	struct period_log h = { .start0 = START, .num = 1, .den = 1, .lost = 900 };
	struct latency_strip s;

	rec[0] = woken(2 * SEC + 500000000, 3000);
	rec[1] = woken(3 * SEC + 100, 4000);
	EXPECT(strip_of(&h, rec, 2, START, 4, &s) == 0, "failed");
	EXPECT(s.first == 2 && s.count[2] == 1 && s.count[3] == 1, "first %d", s.first);
	EXPECT(strip_of(&h, rec, 0, START, 4, &s) == 0 && s.first == 4, "none kept: first %d",
	       s.first);
	h.lost = 0;
	EXPECT(strip_of(&h, rec, 2, START, 4, &s) == 0 && s.first == 0, "nothing lost: first %d",
	       s.first);
	return true;
}

void unit_core_strip(void)
{
	check("strip: exact p50, p99, max per bin; a gap is empty; only wake-ups in the row count",
	      test_quantiles());
	check("strip: 1 s bins, whole seconds wider past STRIP_MAX s, at most STRIP_MAX bins",
	      test_bins());
	check("strip: a wide bin pools its seconds", test_wide());
	check("strip: Gaming's units are no wake-ups", test_gaming());
	check("strip: bins before the records kept by the ring are unknown", test_lost());
}
