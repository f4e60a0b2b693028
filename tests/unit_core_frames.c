// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_frames.c - unit tests of the core: the frame and cycle rules (stutters, 1 %
 * low, fps, DSP load, xruns) on synthetic series. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/defs.h"
#include "core/frames.h"
#include "core/stats.h"

#include "tests/unit.h"

#define MS 1000000ULL
#define NFR 200

/* A series of n frames of base ns, frame at (if < n) taking extra ns more. */
static void series(uint64_t *ft, size_t n, uint64_t base, size_t at, uint64_t extra)
{
	for (size_t i = 0; i < n; i++)
		ft[i] = base + (i == at ? extra : 0);
}

static bool test_stutter_rule(void)
{
	static const struct {
		uint64_t base, extra;
		size_t at, count, first;	/* first: NFR for none */
	} cases[] = {
		{ 16 * MS, 0, NFR, 0, NFR },			/* steady: none */
		{ 16 * MS, 30 * MS, 50, 1, 50 },		/* 46 ms > 2.5 x 16: one */
		{ 16 * MS, 24 * MS, 50, 0, NFR },		/* 40 ms = 2.5 x 16: not over */
		{ 16 * MS, 24 * MS + 1, 50, 1, 50 },		/* just over */
		{ 16 * MS, 100 * MS, 10, 0, NFR },		/* before 20 frames: no average */
		{ 16 * MS, 100 * MS, 20, 1, 20 },		/* the 21st frame has one */
	};
	uint64_t ft[NFR];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t first, n;

		series(ft, NFR, cases[i].base, cases[i].at, cases[i].extra);
		n = stutters_of(ft, NFR, &first);
		EXPECT(n == cases[i].count && first == cases[i].first,
		       "case %zu: %zu stutters, the first at %zu", i, n, first);
	}
	return true;
}

/* After a long frame, the next ones are judged against an average that holds it. */
static bool test_stutter_window(void)
{
	uint64_t ft[NFR];
	size_t first;

	series(ft, NFR, 10 * MS, NFR, 0);
	ft[30] = 200 * MS;		/* a stutter: the window's mean is 10 ms */
	ft[31] = 50 * MS;		/* mean of 19 x 10 + 200 = 19.5 ms: 50 > 48.75: one more */
	ft[40] = 60 * MS;		/* mean now (18 x 10 + 200 + 50) / 20 = 21.5: 60 > 53.75 */
	EXPECT(stutters_of(ft, NFR, &first) == 3 && first == 30, "stutters %zu",
	       stutters_of(ft, NFR, &first));
	ft[40] = 53 * MS;		/* 53 < 53.75: not one */
	EXPECT(stutters_of(ft, NFR, &first) == 2, "stutters %zu", stutters_of(ft, NFR, &first));
	return true;
}

/* 1 % low is the fps of the p99 frame time, here through the histogram the run uses. */
static bool test_fps_1pct_low(void)
{
	static const struct {
		uint64_t base, slow;
		size_t nslow;		/* of 1000 frames, the last nslow take slow ns */
		double want;
	} cases[] = {
		{ 10 * MS, 10 * MS, 0, 100.0 },
		{ 10 * MS, 20 * MS, 20, 50.0 },		/* 2 % slow: p99 is a slow one */
		{ 10 * MS, 20 * MS, 5, 100.0 },		/* 0.5 % slow: p99 is not */
		{ 16666667, 33333333, 11, 30.0 },
	};
	struct latency *l = malloc(sizeof(*l));

	if (!l)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		double low;

		latency_init(l);
		for (size_t k = 0; k < 1000; k++)
			latency_add(l, k >= 1000 - cases[i].nslow ? cases[i].slow : cases[i].base);
		low = fps_1pct_low((double)latency_percentile(l, 0.99));
		if (fabs(low - cases[i].want) > cases[i].want * 0.01) {
			free(l);
			EXPECT(0, "case %zu: 1 %% low %.3f, want %.3f", i, low, cases[i].want);
		}
	}
	free(l);
	EXPECT(isnan(fps_1pct_low(0)), "1 %% low of no frames");
	return true;
}

static bool test_fps(void)
{
	EXPECT(fabs(fps_of(300, 5 * 1000 * MS) - 60.0) < 1e-9, "fps %g", fps_of(300, 5000 * MS));
	EXPECT(fps_of(10, 0) == 0.0, "fps of no time");
	return true;
}

/* DSP load and xruns on a synthetic series of cycle times, quantum 5.333 ms. */
static bool test_dsp_xruns(void)
{
	static const struct {
		uint64_t cycle;		/* every cycle's time, but cycle K's */
		uint64_t slow;		/* cycle K's */
		uint64_t xruns;
		double mean, max;
	} cases[] = {
		{ 1000000, 1000000, 0, 0.1875, 0.1875 },
		{ 1000000, 5333333, 0, 0.26875, 1.0 },		/* exactly at its end: in time */
		{ 1000000, 5333334, 1, 0.26875, 1.0 },		/* 1 ns after: an xrun */
		{ 1000000, 20000000, 1, 0.54375, 3.75 },
	};
	const uint64_t q = 5333333;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct dsp_acc d;
		uint64_t x = 0, at = 0;

		dsp_init(&d);
		for (uint64_t k = 0; k < 10; k++)
			if (dsp_add(&d, k == 7 ? cases[i].slow : cases[i].cycle, q)) {
				x++;
				at = k;
			}
		EXPECT(d.xruns == cases[i].xruns && x == cases[i].xruns && (!x || at == 7),
		       "case %zu: %llu xruns", i, (unsigned long long)d.xruns);
		EXPECT(fabs(dsp_mean(&d) - cases[i].mean) < 1e-4 && fabs(d.max - cases[i].max) < 1e-4,
		       "case %zu: DSP load mean %.5f max %.5f", i, dsp_mean(&d), d.max);
	}
	EXPECT(fabs(xruns_per_min(3, 30 * 1000 * MS) - 6.0) < 1e-9, "xruns per minute");
	return true;
}

static bool test_chain_marks(void)
{
	struct chain_summary c = { 0 };

	for (uint64_t k = 0; k < CHAIN_MARKS_MAX + 4; k++)
		chain_mark(&c, k * 10);
	EXPECT(c.nmarks == CHAIN_MARKS_MAX && c.marks[1] == 10, "marks %d", c.nmarks);
	return true;
}

void unit_core_frames(void)
{
	check("stutters: CapFrameX's 2.5 x the average of the previous 20", test_stutter_rule());
	check("stutters: a long frame raises the average of the ones after it",
	      test_stutter_window());
	check("1 % low: the fps of the p99 frame time, through the histogram", test_fps_1pct_low());
	check("fps: frames over seconds", test_fps());
	check("DSP load and xruns: a cycle done after its quantum's end", test_dsp_xruns());
	check("a chain names its first stutter frames or xrun cycles", test_chain_marks());
}
