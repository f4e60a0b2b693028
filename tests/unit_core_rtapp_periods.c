// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_rtapp_periods.c - unit tests of the core: rt-app's timer rule (shared, unique,
 * absolute, relative) and its periods' accounting (slack, met or missed, wu_lat). */
#include <stdint.h>

#include "core/defs.h"
#include "core/rtapp_periods.h"

#include "tests/unit.h"

#define BASE 1000000ULL

struct use_case {
	int timer;			/* which of the case's timers */
	uint64_t period, reached;
	bool absolute;
	uint64_t expiry;		/* expected */
	int64_t slack;
	bool wait;
};

struct timer_case {
	const char *what;
	struct use_case use[6];
	int n;
};

/* Relative unless said; every timer's base is BASE. */
static const struct timer_case timer_cases[] = {
	{ "the first expiry is the base plus the period, then one period after the other",
	  { { 0, 100, BASE + 50, false, BASE + 100, 50, true },
	    { 0, 100, BASE + 170, false, BASE + 200, 30, true } }, 2 },
	{ "two threads sharing a timer take its expiries in turn",
	  { { 0, 100, BASE + 10, false, BASE + 100, 90, true },
	    { 0, 100, BASE + 20, false, BASE + 200, 180, true },
	    { 0, 100, BASE + 110, false, BASE + 300, 190, true },
	    { 0, 100, BASE + 210, false, BASE + 400, 190, true } }, 4 },
	{ "unique timers (one each) do not",
	  { { 0, 100, BASE + 10, false, BASE + 100, 90, true },
	    { 1, 100, BASE + 20, false, BASE + 100, 80, true },
	    { 0, 100, BASE + 110, false, BASE + 200, 90, true },
	    { 1, 100, BASE + 120, false, BASE + 200, 80, true } }, 4 },
	{ "absolute: an overrun keeps the schedule, so the next use may be late too",
	  { { 0, 100, BASE + 50, true, BASE + 100, 50, true },
	    { 0, 100, BASE + 450, true, BASE + 200, -250, false },
	    { 0, 100, BASE + 460, true, BASE + 300, -160, false },
	    { 0, 100, BASE + 470, true, BASE + 400, -70, false },
	    { 0, 100, BASE + 480, true, BASE + 500, 20, true } }, 5 },
	{ "relative: an overrun starts the timer again from the instant it was reached",
	  { { 0, 100, BASE + 50, false, BASE + 100, 50, true },
	    { 0, 100, BASE + 450, false, BASE + 200, -250, false },
	    { 0, 100, BASE + 460, false, BASE + 550, 90, true } }, 3 },
	{ "reached at its expiry: met, and no wake-up",
	  { { 0, 100, BASE + 100, false, BASE + 100, 0, false },
	    { 0, 100, BASE + 150, false, BASE + 200, 50, true } }, 2 },
	{ "each use adds its own period (a timer shared by phases of different periods)",
	  { { 0, 100, BASE + 10, false, BASE + 100, 90, true },
	    { 0, 300, BASE + 110, false, BASE + 400, 290, true } }, 2 },
};

static bool test_timer_case(const struct timer_case *c)
{
	struct rtapp_timer t[2] = { { 0 }, { 0 } };

	for (int i = 0; i < c->n; i++) {
		const struct use_case *u = &c->use[i];
		struct timer_use got = rtapp_timer_reach(&t[u->timer], BASE, u->period, u->reached,
							 u->absolute);

		EXPECT(got.expiry == u->expiry && got.slack == u->slack && got.wait == u->wait,
		       "%s: use %d: expiry +%lld slack %lld wait %d, want +%lld %lld %d", c->what,
		       i, (long long)(got.expiry - BASE), (long long)got.slack, got.wait,
		       (long long)(u->expiry - BASE), (long long)u->slack, u->wait);
	}
	return true;
}

static bool test_timers(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(timer_cases); i++)
		if (!test_timer_case(&timer_cases[i]))
			return false;
	return true;
}

/* Uses closed: on time (woken 7 late), reached at its expiry, late by 30, woken 2 late. */
static bool test_periods(void)
{
	struct timer_periods tp = { 0 }, sum = { 0 };
	const struct timer_use on = { .expiry = 500, .slack = 40, .wait = true };
	const struct timer_use exact = { .expiry = 600, .slack = 0, .wait = false };
	const struct timer_use late = { .expiry = 700, .slack = -30, .wait = false };

	timer_period_close(&tp, &on, 507);
	timer_period_close(&tp, &exact, 0);
	timer_period_close(&tp, &late, 0);
	timer_period_close(&tp, &on, 502);
	EXPECT(tp.met == 3 && tp.missed == 1, "met %llu missed %llu, want 3 and 1",
	       (unsigned long long)tp.met, (unsigned long long)tp.missed);
	EXPECT(tp.slack.n == 4 && tp.slack.min == -30 && tp.slack.max == 40 &&
	       span_mean(&tp.slack) == 12.5, "slack n %llu min %lld max %lld mean %g",
	       (unsigned long long)tp.slack.n, (long long)tp.slack.min, (long long)tp.slack.max,
	       span_mean(&tp.slack));
	EXPECT(tp.wu_lat.n == 4 && tp.wu_lat.min == 0 && tp.wu_lat.max == 7 &&
	       span_mean(&tp.wu_lat) == 2.25, "wu_lat n %llu min %lld max %lld mean %g",
	       (unsigned long long)tp.wu_lat.n, (long long)tp.wu_lat.min,
	       (long long)tp.wu_lat.max, span_mean(&tp.wu_lat));
	timer_periods_merge(&sum, &(struct timer_periods){ 0 });
	EXPECT(sum.slack.n == 0 && span_mean(&sum.slack) == 0.0, "an empty merge added");
	timer_periods_merge(&sum, &tp);
	timer_periods_merge(&sum, &tp);
	EXPECT(sum.met == 6 && sum.missed == 2 && sum.slack.n == 8 && sum.slack.min == -30 &&
	       sum.wu_lat.max == 7 && span_mean(&sum.wu_lat) == 2.25, "two merged: %llu met",
	       (unsigned long long)sum.met);
	return true;
}

void unit_core_rtapp_periods(void)
{
	check("rt-app timer: shared in turn, unique apart, absolute and relative overruns",
	      test_timers());
	check("rt-app periods: met by slack >= 0, slack and wu_lat spans, merged", test_periods());
}
