// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_sim.c - unit tests of the core: accounting on synthetic timelines,
 * statistics, Render's sweep. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/accounting.h"
#include "core/defs.h"
#include "core/stats.h"
#include "core/render_work.h"

#include "tests/unit.h"

/* ---- accounting on synthetic timelines ---- */

#define MS NSEC_PER_MSEC

struct acct_case {
	const char *name;
	uint64_t t_run;		/* offset from the period's start */
	uint64_t t_done;	/* offset from the period's start; 0: never started work */
	uint64_t want_work_k;	/* the period the work is done for */
	uint64_t want_next;
	struct acct want;
};

/* Period 0 of a 50 ms clock that starts at 1 s, 20 periods. */
static const struct acct_case acct_cases[] = {
	{ "on time", 10 * 1000, 2500 * 1000, 0, 1, { 1, 0, 0 } },
	{ "late start within the period", 30 * MS, 45 * MS, 0, 1, { 1, 0, 0 } },
	{ "late start, work ends exactly at the deadline", 40 * MS, 50 * MS, 0, 1, { 1, 0, 0 } },
	{ "late start, overrun by a fraction", 40 * MS, 60 * MS, 0, 1, { 0, 1, 0 } },
	{ "start after the period ended", 75 * MS, 80 * MS, 1, 2, { 1, 0, 1 } },
	{ "start three periods late", 170 * MS, 175 * MS, 3, 4, { 1, 0, 3 } },
	{ "overrun by exactly one period", 0, 100 * MS, 0, 2, { 0, 1, 1 } },
	{ "overrun by one period and a bit", 0, 120 * MS, 0, 2, { 0, 1, 1 } },
	{ "overrun by several periods", 1 * MS, 260 * MS, 0, 5, { 0, 1, 4 } },
	{ "overrun past the end of the run", 0, 5000 * MS, 0, 20, { 0, 1, 19 } },
};

static bool test_acct_case(const struct acct_case *c)
{
	struct period_clock clk = { .start0 = NSEC_PER_SEC, .num = 50 * MS, .den = 1,
				    .nperiods = 20 };
	struct acct a = { 0 };
	uint64_t k, next;

	k = acct_start(&a, &clk, 0, clk.start0 + c->t_run);
	EXPECT(k == c->want_work_k, "worked for period %llu, want %llu",
	       (unsigned long long)k, (unsigned long long)c->want_work_k);
	next = acct_finish(&a, &clk, k, clk.start0 + c->t_done);
	EXPECT(next == c->want_next, "next period %llu, want %llu", (unsigned long long)next,
	       (unsigned long long)c->want_next);
	EXPECT(a.met == c->want.met && a.missed == c->want.missed &&
	       a.dropped == c->want.dropped,
	       "met/missed/dropped %llu/%llu/%llu, want %llu/%llu/%llu",
	       (unsigned long long)a.met, (unsigned long long)a.missed,
	       (unsigned long long)a.dropped, (unsigned long long)c->want.met,
	       (unsigned long long)c->want.missed, (unsigned long long)c->want.dropped);
	return true;
}

static bool test_acct_percentages(void)
{
	struct acct a = { .met = 6, .missed = 2, .dropped = 2 };

	EXPECT(fabs(acct_pct_cpu(&a) - 80.0) < 1e-9, "pct cpu %g", acct_pct_cpu(&a));
	EXPECT(fabs(acct_pct_deadlines(&a) - 60.0) < 1e-9, "pct deadlines %g",
	       acct_pct_deadlines(&a));
	a = (struct acct){ 0 };
	EXPECT(acct_pct_cpu(&a) == 0.0 && acct_pct_deadlines(&a) == 0.0, "empty not 0");
	return true;
}

/* Video's 1/60 s period: starts and the index of an instant must agree. */
static bool test_fractional_period(void)
{
	struct period_clock c = { .start0 = 12345, .num = NSEC_PER_SEC, .den = 60,
				  .nperiods = UINT64_MAX };

	for (uint64_t k = 0; k < 100000; k++) {
		uint64_t s = period_start(&c, k), e = period_start(&c, k + 1);

		EXPECT(period_index_at(&c, s) == k, "start of %llu maps to %llu",
		       (unsigned long long)k, (unsigned long long)period_index_at(&c, s));
		EXPECT(period_index_at(&c, e - 1) == k, "end of %llu", (unsigned long long)k);
		EXPECT(e - s == 16666666 || e - s == 16666667, "length %llu",
		       (unsigned long long)(e - s));
	}
	EXPECT(period_start(&c, 60) - c.start0 == NSEC_PER_SEC, "60 periods are not 1 s");
	return true;
}

/* X: frame k needs k ms of a 100 ms frame. k = 0 wakes and trivially meets. */
static bool test_x_frames(void)
{
	struct period_clock c = { .start0 = 0, .num = 100 * MS, .den = 1, .nperiods = 202 };
	struct acct a = { 0 };
	uint64_t k;

	k = acct_start(&a, &c, 0, 20000);	/* frame 0: 20 us late, no work */
	k = acct_finish(&a, &c, k, 20000);
	EXPECT(k == 1 && a.met == 1, "frame 0 not met");
	/* frame 100 starts on time and needs the whole frame: met exactly */
	k = acct_start(&a, &c, 100, period_start(&c, 100));
	k = acct_finish(&a, &c, k, period_start(&c, 100) + 100 * MS);
	EXPECT(k == 101 && a.met == 2 && a.missed == 0, "frame 100 on time not met");
	/* frame 201 (k % 101 = 100) 1 ms late: misses, and drops nothing */
	k = acct_start(&a, &c, 201, period_start(&c, 201) + MS);
	k = acct_finish(&a, &c, k, period_start(&c, 201) + 101 * MS);
	EXPECT(a.missed == 1 && a.dropped == 0 && k == 202, "late frame 100: %llu/%llu",
	       (unsigned long long)a.missed, (unsigned long long)a.dropped);
	return true;
}

/* Gaming: latency is wall - CPU of a unit, unclipped; % CPU is CPU over wall time. */
static bool test_gaming_units(void)
{
	struct gaming_acct g = { 0 };

	EXPECT(gaming_account(&g, 100 * MS, 100 * MS) == 0, "unit that ran throughout has latency");
	EXPECT(gaming_account(&g, 90 * MS, 92 * MS) == 0, "CPU past wall (clock grain) not 0");
	/* a slow loop took 120 ms of CPU for its unit: only the 30 ms not running count */
	EXPECT(gaming_account(&g, 150 * MS, 120 * MS) == 30 * MS, "slow-CPU unit latency");
	gaming_partial(&g, 60 * MS, 8 * MS);		/* cut by the row's end: no sample */
	EXPECT(g.units == 3, "units %llu", (unsigned long long)g.units);
	EXPECT(fabs(gaming_pct_cpu(&g) - 100.0 * 320 / 400) < 1e-9, "pct %g", gaming_pct_cpu(&g));
	g = (struct gaming_acct){ 0 };
	gaming_partial(&g, 2000 * MS, 10 * MS);		/* starved: no whole unit, still an answer */
	EXPECT(fabs(gaming_pct_cpu(&g) - 0.5) < 1e-9, "starved pct %g", gaming_pct_cpu(&g));
	g = (struct gaming_acct){ .cpu_ns = 5, .wall_ns = 4 };
	EXPECT(gaming_pct_cpu(&g) == 100.0, "pct above 100: %g", gaming_pct_cpu(&g));
	return true;
}

/* t_run before t_wake (clocks of two CPUs, or a stamp taken early) is never a sample. */
static bool test_wake_latency(void)
{
	uint64_t lat = 7;

	EXPECT(!wake_latency(1000, 999, &lat) && lat == 7, "negative latency recorded");
	EXPECT(wake_latency(1000, 1000, &lat) && lat == 0, "zero latency lost");
	EXPECT(wake_latency(1000, 4500, &lat) && lat == 3500, "latency %llu",
	       (unsigned long long)lat);
	return true;
}

/*
 * What a wake-up measures, by how it was woken: from the instant asked for
 * (its own timer: a waker's stamp, were one given, plays no part), or from
 * the waker's stamp with the waker's delay apart (0 when early); a resume
 * (no instant) has no timer's part; a run before the start is no sample.
 */
static bool test_wake_sample(void)
{
	static const struct {
		bool own;
		uint64_t instant, t_wake, t_run;
		bool ok, has_timer;
		uint64_t lat, timer;
	} cases[] = {
		{ true, 1000, 0, 1250, true, false, 250, 0 },
		{ true, 1000, 1200, 1250, true, false, 250, 0 },	/* no waker's stamp counts */
		{ true, 1000, 0, 1000, true, false, 0, 0 },
		{ true, 1000, 0, 999, false, false, 0, 0 },
		{ false, 1000, 1200, 1250, true, true, 50, 200 },
		{ false, 1000, 990, 1250, true, true, 260, 0 },	/* an early waker: no negative */
		{ false, 1000, 1200, 1100, false, true, 0, 200 },	/* the timer's part stays */
		{ false, 0, 1200, 1250, true, false, 50, 0 },	/* a resume: no instant */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct wake_sample w = wake_sample_of(cases[i].own, cases[i].instant,
						      cases[i].t_wake, cases[i].t_run);

		EXPECT(w.ok == cases[i].ok && (!w.ok || w.lat == cases[i].lat) &&
		       w.has_timer == cases[i].has_timer &&
		       (!w.has_timer || w.timer == cases[i].timer),
		       "case %zu: ok %d lat %llu, timer %d %llu", i, w.ok,
		       (unsigned long long)w.lat, w.has_timer, (unsigned long long)w.timer);
	}
	return true;
}

/* A random timeline run to the end: every period is met, missed or dropped. */
static bool test_acct_invariant(void)
{
	struct period_clock c = { .start0 = 1000, .num = 50 * MS, .den = 3, .nperiods = 5000 };
	struct acct a = { 0 };
	uint64_t k = 0, t = c.start0;

	srand(42);
	while (k < c.nperiods) {
		uint64_t s = period_start(&c, k);

		t = (t > s ? t : s) + (uint64_t)(rand() % 20) * MS;	/* wake-up delay */
		k = acct_start(&a, &c, k, t);
		if (k >= c.nperiods)
			break;
		t += (uint64_t)(rand() % 40) * MS;			/* work */
		k = acct_finish(&a, &c, k, t);
	}
	EXPECT(a.met + a.missed + a.dropped == c.nperiods, "%llu+%llu+%llu != %llu",
	       (unsigned long long)a.met, (unsigned long long)a.missed,
	       (unsigned long long)a.dropped, (unsigned long long)c.nperiods);
	EXPECT(a.missed > 0 && a.dropped > 0 && a.met > 0, "timeline too tame");
	return true;
}

/* ---- statistics ---- */

static void two_pass(const uint64_t *v, int n, double *mean, double *sd)
{
	long double m = 0, ss = 0;

	for (int i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (int i = 0; i < n; i++)
		ss += ((long double)v[i] - m) * ((long double)v[i] - m);
	*mean = (double)m;
	*sd = n > 1 ? (double)sqrtl(ss / (n - 1)) : 0.0;
}

static bool stats_against_two_pass(const uint64_t *v, int n)
{
	struct running r;
	double mean, sd;

	running_init(&r);
	for (int i = 0; i < n; i++)
		running_add(&r, v[i]);
	two_pass(v, n, &mean, &sd);
	EXPECT(fabs(r.mean - mean) <= 1e-9 * fabs(mean) + 1e-9, "mean %.17g vs %.17g",
	       r.mean, mean);
	EXPECT(fabs(running_sd(&r) - sd) <= 1e-7 * sd + 1e-9, "sd %.17g vs %.17g",
	       running_sd(&r), sd);
	return true;
}

static bool test_stats_small(void)
{
	static const uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct running r;

	running_init(&r);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		running_add(&r, v[i]);
	EXPECT(r.mean == 5.0, "mean %g", r.mean);
	EXPECT(fabs(running_sd(&r) - sqrt(32.0 / 7.0)) < 1e-12, "sd %g", running_sd(&r));
	EXPECT(r.min == 2 && r.max == 9 && r.n == 8, "min/max/n");
	return stats_against_two_pass(v, (int)ARRAY_SIZE(v));
}

/* Values near 1e9 ns with a tiny spread: sum-of-squares formulas cancel here. */
static bool test_stats_large(void)
{
	static uint64_t v[10000];

	for (int i = 0; i < 10000; i++)
		v[i] = 1000000000ULL + (uint64_t)(i % 7) * 3 + (uint64_t)(i % 13);
	return stats_against_two_pass(v, 10000);
}

static bool test_stats_constant(void)
{
	struct running r;

	running_init(&r);
	for (int i = 0; i < 100000; i++)
		running_add(&r, 999999937ULL);
	EXPECT(running_sd(&r) == 0.0, "constant series sd %g", running_sd(&r));
	EXPECT(r.mean == 999999937.0, "mean %.17g", r.mean);
	running_init(&r);
	running_add(&r, 5);
	EXPECT(running_sd(&r) == 0.0 && r.mean == 5.0, "single sample");
	return true;
}

static bool test_hist_buckets(void)
{
	uint64_t prev_upper = 0;

	for (unsigned b = 0; b < HIST_BUCKETS - 1; b++) {
		uint64_t lo = hist_lower(b), hi = hist_upper(b);

		EXPECT(lo == prev_upper, "bucket %u starts at %llu, previous ended at %llu", b,
		       (unsigned long long)lo, (unsigned long long)prev_upper);
		EXPECT(hist_bucket(lo) == b && hist_bucket(hi - 1) == b, "bucket %u bounds", b);
		EXPECT(lo < HIST_SUB || (double)(hi - lo) / (double)lo <= 0.01,
		       "bucket %u is %.3f %% wide", b, 100.0 * (double)(hi - lo) / (double)lo);
		prev_upper = hi;
	}
	EXPECT(hist_bucket(UINT64_MAX) == HIST_BUCKETS - 1, "huge value");
	return true;
}

static bool percentile_close(const struct latency *l, double q, double want)
{
	double got = (double)latency_percentile(l, q);

	EXPECT(fabs(got - want) <= 0.01 * want, "p%g = %.0f, want %.0f", q * 100, got, want);
	return true;
}

static bool test_percentiles(void)
{
	static struct latency l;
	bool ok = true;

	latency_init(&l);
	for (uint64_t v = 1; v <= 1000000; v++)		/* uniform 1 ns .. 1 ms */
		latency_add(&l, v);
	ok = ok && percentile_close(&l, 0.5, 500000) && percentile_close(&l, 0.9, 900000) &&
	     percentile_close(&l, 0.99, 990000) && percentile_close(&l, 0.999, 999000);
	latency_init(&l);
	for (int i = 0; i < 200000; i++) {		/* exponential, mean 50 us */
		double u = (i + 0.5) / 200000.0;

		latency_add(&l, (uint64_t)(-50000.0 * log(1.0 - u)));
	}
	ok = ok && percentile_close(&l, 0.5, 50000 * log(2.0)) &&
	     percentile_close(&l, 0.99, 50000 * log(100.0)) &&
	     percentile_close(&l, 0.999, 50000 * log(1000.0));
	latency_init(&l);
	latency_add(&l, 7);
	EXPECT(latency_percentile(&l, 0.5) == 7 && latency_percentile(&l, 0.999) == 7,
	       "single sample");
	return ok;
}

static bool test_ci95(void)
{
	double v[] = { 10, 12, 11, 13, 9 }, m, h;

	mean_ci95(v, 5, &m, &h);
	EXPECT(fabs(m - 11.0) < 1e-12, "mean %g", m);
	/* sd = sqrt(2.5), t(4) = 2.776 */
	EXPECT(fabs(h - 2.776 * sqrt(2.5) / sqrt(5.0)) < 1e-9, "half %g", h);
	mean_ci95(v, 1, &m, &h);
	EXPECT(m == 10 && h == 0, "one value");
	return true;
}

static bool test_render_sweep(void)
{
	static const struct { uint64_t k, want; } cases[] = {
		{ 0, 1388888 }, { 1, 1458333 }, { 30, 3472222 }, { 60, 5555555 },
		{ 61, 5486111 }, { 119, 1458333 }, { 120, 1388888 }, { 180, 5555555 },
	};
	uint64_t sum = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t w = render_work_ns(NSEC_PER_SEC, 144, cases[i].k);

		EXPECT(w == cases[i].want, "frame %llu: %llu ns, want %llu",
		       (unsigned long long)cases[i].k, (unsigned long long)w,
		       (unsigned long long)cases[i].want);
	}
	for (uint64_t k = 0; k < RENDER_SWEEP; k++)
		sum += render_work_ns(NSEC_PER_SEC, 100, k);	/* 10 ms frames: exact */
	EXPECT(sum == 60 * 10 * NSEC_PER_MSEC, "a sweep at 100 fps needs %llu ns, want 0.6 s",
	       (unsigned long long)sum);
	return true;
}

void unit_core_sim(void)
{
	char name[160];

	for (size_t i = 0; i < ARRAY_SIZE(acct_cases); i++) {
		snprintf(name, sizeof(name), "accounting: %s", acct_cases[i].name);
		check(name, test_acct_case(&acct_cases[i]));
	}
	check("accounting: percentages", test_acct_percentages());
	check("accounting: fractional period (Video)", test_fractional_period());
	check("accounting: X frames k=0 and k=100", test_x_frames());
	check("accounting: Gaming units", test_gaming_units());
	check("accounting: a negative wakeup latency is never recorded", test_wake_latency());
	check("accounting: a wake-up's latency from the instant (own timer) or the waker's stamp",
	      test_wake_sample());
	check("accounting: every period counted once", test_acct_invariant());
	check("stats: small set against two-pass", test_stats_small());
	check("stats: values near 1e9 ns against two-pass", test_stats_large());
	check("stats: constant series has SD 0", test_stats_constant());
	check("stats: histogram buckets contiguous, <= 1 % wide", test_hist_buckets());
	check("stats: percentiles of known distributions within 1 %", test_percentiles());
	check("stats: 95 % confidence interval", test_ci95());
	check("sweep: Render's work per frame sweeps 20-80-20 % over 120 frames", test_render_sweep());
}

/* Render at 144 fps: 20 % -> 80 % -> 20 % of the frame over 120 frames, whole ns. */
