// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_tickphase.c - unit tests of the core: swept periods cover the tick evenly,
 * keep their share and deadlines, and exact ones are 0.31's. */
#include <stdint.h>

#include "core/accounting.h"
#include "core/defs.h"
#include "core/tickphase.h"

#include "tests/unit.h"

struct sweep_case {
	const char *name;
	uint64_t num, den;		/* the nominal period */
};

/* Every periodic task's period: Audio, Video, X, ProAudio, Render, Input, a 50.1 ms Custom. */
static const struct sweep_case periods[] = {
	{ "Audio", 50 * NSEC_PER_MSEC, 1 }, { "Video", NSEC_PER_SEC, 60 },
	{ "X", 100 * NSEC_PER_MSEC, 1 }, { "ProAudio", 128 * NSEC_PER_SEC, 48000 },
	{ "Render", NSEC_PER_SEC, 144 }, { "Input", NSEC_PER_MSEC, 1 },
	{ "AudioGraph", 256 * NSEC_PER_SEC, 48000 }, { "Custom 50.1 ms", 50100000, 1 },
};
static const uint64_t rows_ns[] = { 200 * NSEC_PER_MSEC, NSEC_PER_SEC, 2 * NSEC_PER_SEC,
				    30 * NSEC_PER_SEC };
static const uint64_t ticks_ns[] = { 10 * NSEC_PER_MSEC, 4 * NSEC_PER_MSEC, 3333333,
				     NSEC_PER_MSEC, TICKPHASE_DRIFT_ASSUMED };

static uint64_t gcd(uint64_t a, uint64_t b)
{
	return b ? gcd(b, a % b) : a;
}

#define BINS 8

/*
 * The wake-ups' phases against a tick of drift ns over the n periods of a
 * row, counted in BINS bins of the tick: stratified, each bin holds its
 * share n / BINS give or take b + 1, b being the phases an exact period
 * already visits (Audio's 50 ms against 4 ms: 2; Video's 1/60 s: 6). An
 * exact period gives a bin either n / b or nothing.
 */
static bool phases_even(const struct period_scale *s, uint64_t drift, uint64_t nom_num,
			uint64_t nom_den)
{
	struct period_clock c = { .start0 = 123456789, .num = s->num, .den = s->den,
				  .nperiods = UINT64_MAX };
	uint64_t n = s->periods, bins[BINS] = { 0 }, b = nom_den * drift / gcd(nom_num,
									      nom_den * drift);

	for (uint64_t k = 0; k < n; k++)
		bins[(period_start(&c, k) - c.start0) % drift * BINS / drift]++;
	for (int i = 0; i < BINS; i++) {
		double off = (double)bins[i] - (double)n / BINS;

		EXPECT(off <= (double)b + 1 && off >= -(double)b - 1, "%llu/%llu ns against %llu: "
		       "bin %d holds %llu of %llu phases (b = %llu)",
		       (unsigned long long)nom_num, (unsigned long long)nom_den,
		       (unsigned long long)drift, i, (unsigned long long)bins[i],
		       (unsigned long long)n, (unsigned long long)b);
	}
	return true;
}

/* The share of each period and its total drift: within 0.1 % (here 10 ppm: a ns of rounding), one
 * drift over the row, and the row's periods fit in the row. */
static bool share_and_drift(const struct period_scale *s, const struct sweep_case *p,
			    uint64_t row, uint64_t drift)
{
	uint64_t work = p->num / p->den / 4, sw = scale_work(s, work);
	double share = (double)sw * (double)s->den / (double)s->num;
	double nominal = (double)work * (double)p->den / (double)p->num;
	struct period_clock c = { .num = s->num, .den = s->den, .nperiods = UINT64_MAX };
	struct period_clock e = { .num = p->num, .den = p->den, .nperiods = UINT64_MAX };
	uint64_t moved = period_start(&e, s->periods) - period_start(&c, s->periods);
	uint64_t eighth = period_start(&e, s->periods) / 8;	/* the cut of a short row */

	drift = drift < eighth ? drift : eighth;

	EXPECT(share / nominal - 1 < 1e-5 && share / nominal - 1 > -1e-5,
	       "%s: share %.9f against %.9f", p->name, share, nominal);
	EXPECT(moved + 1 >= drift && moved <= drift + 1, "%s: %llu periods drift %llu ns, not %llu",
	       p->name, (unsigned long long)s->periods, (unsigned long long)moved,
	       (unsigned long long)drift);
	EXPECT(s->periods == row * p->den / p->num, "%s: %llu periods in a row of %llu ns",
	       p->name, (unsigned long long)s->periods, (unsigned long long)row);
	EXPECT(period_start(&c, s->periods) + drift <= row + 1, "%s: %llu periods end past the "
	       "row less the drift", p->name, (unsigned long long)s->periods);
	return true;
}

static bool test_swept(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(periods); i++)
		for (size_t r = 0; r < ARRAY_SIZE(rows_ns); r++)
			for (size_t t = 0; t < ARRAY_SIZE(ticks_ns); t++) {
				const struct sweep_case *p = &periods[i];
				struct period_scale s;

				period_swept(p->num, p->den, rows_ns[r], ticks_ns[t], &s);
				if (!share_and_drift(&s, p, rows_ns[r], ticks_ns[t]) ||
				    !phases_even(&s, ticks_ns[t], p->num, p->den))
					return false;
			}
	return true;
}

/* Audio's 50 ms at HZ 250 in a 30 s row: 600 periods of 50 ms - 4/600 ms; the work with them. */
static bool test_audio(void)
{
	struct period_scale s;

	period_swept(50 * NSEC_PER_MSEC, 1, 30 * NSEC_PER_SEC, 4 * NSEC_PER_MSEC, &s);
	EXPECT(s.periods == 600, "%llu periods", (unsigned long long)s.periods);
	EXPECT(s.num == 149980000 && s.den == 3, "period %llu/%llu",
	       (unsigned long long)s.num, (unsigned long long)s.den);
	EXPECT(s.wnum == 7499 && s.wden == 7500, "work factor %llu/%llu",
	       (unsigned long long)s.wnum, (unsigned long long)s.wden);
	EXPECT(scale_work(&s, 2500000) == 2499666, "work %llu",
	       (unsigned long long)scale_work(&s, 2500000));
	/* a row of one period: the drift is cut to an eighth of it, 6.25 ms */
	period_swept(50 * NSEC_PER_MSEC, 1, 60 * NSEC_PER_MSEC, 20 * NSEC_PER_MSEC, &s);
	EXPECT(s.periods == 1 && s.num == 43750000 && s.den == 1, "one period: %llu/%llu",
	       (unsigned long long)s.num, (unsigned long long)s.den);
	return true;
}

/* --period exact: the nominal period in lowest terms, work as it is. */
static bool test_exact(void)
{
	struct period_scale s;

	period_exact(128 * NSEC_PER_SEC, 48000, &s);
	EXPECT(s.num == 8000000 && s.den == 3 && !s.periods, "%llu/%llu",
	       (unsigned long long)s.num, (unsigned long long)s.den);
	EXPECT(scale_work(&s, 666667) == 666667, "work scaled");
	period_swept(50 * NSEC_PER_MSEC, 1, 30 * NSEC_PER_SEC, 0, &s);
	EXPECT(s.num == 50 * NSEC_PER_MSEC && s.den == 1, "no drift is exact");
	/* the lottery the sweep ends: 599 exact wake-ups of Audio visit 2 phases of the tick */
	s.periods = 599;
	EXPECT(!phases_even(&s, 4 * NSEC_PER_MSEC, 50 * NSEC_PER_MSEC, 1),
	       "exact periods pass the evenness check");
	return true;
}

/* A swept period's k * num passes 2^64 in a day's row of ProAudio: period_start keeps it whole. */
static bool test_long_row(void)
{
	struct period_scale s;
	struct period_clock c;
	uint64_t k;

	period_swept(128 * NSEC_PER_SEC, 48000, 86400 * NSEC_PER_SEC, 3333333, &s);	/* HZ 300 */
	c = (struct period_clock){ .num = s.num, .den = s.den, .nperiods = UINT64_MAX };
	k = s.periods;
	EXPECT((double)k * (double)s.num > 1.9e19, "k * num is only %g", (double)k * (double)s.num);
	EXPECT(period_start(&c, k) == 86400 * NSEC_PER_SEC - 3333333,
	       "period %llu starts at %llu",
	       (unsigned long long)k, (unsigned long long)period_start(&c, k));
	EXPECT(period_index_at(&c, period_start(&c, k)) == k, "index of its start");
	return true;
}

void unit_core_tickphase(void)
{
	check("swept periods: every task's period, rows of 0.2-30 s, ticks of HZ 100-1000 and the "
	      "assumed 20 ms: phases even, share kept, one drift a row", test_swept());
	check("swept periods: Audio's 50 ms at HZ 250 in a 30 s row", test_audio());
	check("--period exact: the nominal period in lowest terms", test_exact());
	check("swept periods: a day's row of ProAudio keeps period_start whole",
	      test_long_row());
}
