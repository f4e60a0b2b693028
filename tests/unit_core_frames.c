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

/* A Game copy of n frames of ms each (from ms0), over span_s, its hop 1 split or not. */
static struct chain_hists *game_copy(struct chain_summary *c, int n, uint64_t ms0, double span_s,
				     bool split)
{
	struct chain_hists *h = calloc(1, sizeof(*h));
	struct stutter_rule st;

	*c = (struct chain_summary){ .kind = CHAIN_GAME, .nhops = 2, .dsp_max = NAN };
	latency_init(&h->time);
	latency_init(&h->input);
	latency_init(&h->hop[0]);
	latency_init(&h->hop[1]);
	running_init(&h->queue[1]);
	running_init(&h->path[1]);
	stutter_init(&st);
	for (int i = 0; i < n; i++) {
		uint64_t ft = (ms0 + (uint64_t)(i % 7)) * MS + (i == n / 2 ? 60 * MS : 0);

		latency_add(&h->time, ft);
		latency_add(&h->input, ft + MS);
		latency_add(&h->hop[0], 10000 + (uint64_t)i);
		latency_add(&h->hop[1], 20000 + (uint64_t)i);
		running_add(&h->queue[1], 5000);
		running_add(&h->path[1], 15000);
		c->stutters += stutter_push(&st, ft);
		c->on_time += ft <= 17 * MS;
	}
	h->split[1] = split;
	c->done = (uint64_t)n;
	h->span_ns = (uint64_t)(span_s * 1e9);
	h->period_ns = 16666667;
	chain_summarise(c, h);
	return h;
}

/* Two copies pooled are one chain that ran both: merged times, summed counts, rates per copy. */
static bool test_chain_pool(void)
{
	struct chain_summary a, b, both;
	struct chain_hists *ha = game_copy(&a, 100, 16, 1.7, true);
	struct chain_hists *hb = game_copy(&b, 300, 30, 5.0, false);
	struct chain_hists *all = calloc(1, sizeof(*all));
	double t[CS_COUNT];

	latency_init(&all->time);
	latency_merge(&all->time, &ha->time);
	latency_merge(&all->time, &hb->time);
	chain_stats_of(&all->time, t);
	chain_pool(&a, ha, &b, hb);
	chain_summarise(&a, ha);
	both = a;
	for (int i = 0; i < CS_COUNT; i++)
		EXPECT(both.time[i] == t[i], "%s %g, one chain's %g", chain_stat_names[i],
		       both.time[i], t[i]);
	EXPECT(both.done == 400 && both.hop[0].n == 400 && both.hop[1].n == 400,
	       "frames %llu, hops %llu %llu", (unsigned long long)both.done,
	       (unsigned long long)both.hop[0].n, (unsigned long long)both.hop[1].n);
	EXPECT(both.stutters == 2 && b.stutters == 1, "stutters %llu", (unsigned long long)both.stutters);
	EXPECT(fabs(both.fps - 400 / 6.7) < 1e-9, "fps %g: a copy's, over their time", both.fps);
	EXPECT(both.time[CS_P99] > 16666667 && fabs(both.fps_low - 1e9 / both.time[CS_P99]) < 1e-9,
	       "1 %% low %g of p99 %g", both.fps_low, both.time[CS_P99]);
	EXPECT(isnan(both.hop[1].queue_mean) && isnan(both.hop[1].path_mean),
	       "a hop split in one copy only has no split: %g", both.hop[1].queue_mean);
	EXPECT(fabs(both.hop[0].lat[CS_MEAN] - (10000 + (99 * 100 / 2 + 299 * 300 / 2) / 400.0)) < 1e-6,
	       "hop mean %g", both.hop[0].lat[CS_MEAN]);
	free(ha);
	free(hb);
	free(all);
	return true;
}

/* AudioGraph's copies: the DSP load weighed by cycles, its max, xruns summed, a minute per copy. */
static bool test_chain_pool_audio(void)
{
	struct chain_summary a = { .kind = CHAIN_AUDIO, .nhops = 1, .done = 100, .xruns = 3,
				   .dsp_max = 0.5 },
			     b = { .kind = CHAIN_AUDIO, .nhops = 1, .done = 300, .xruns = 1,
				   .dsp_max = 1.2 };
	struct chain_hists *ha = calloc(1, sizeof(*ha)), *hb = calloc(1, sizeof(*hb));

	ha->dsp_sum = 100 * 0.2, ha->dsp_n = 100, ha->span_ns = 30 * 1000 * MS;
	hb->dsp_sum = 300 * 0.6, hb->dsp_n = 300, hb->span_ns = 30 * 1000 * MS;
	chain_pool(&a, ha, &b, hb);
	chain_summarise(&a, ha);
	EXPECT(fabs(a.dsp_mean - 0.5) < 1e-12 && a.dsp_max == 1.2, "DSP mean %g max %g",
	       a.dsp_mean, a.dsp_max);
	EXPECT(a.xruns == 4 && fabs(a.xruns_per_min - 4.0) < 1e-12, "xruns %llu, %g a minute",
	       (unsigned long long)a.xruns, a.xruns_per_min);
	EXPECT(a.done == 400, "cycles %llu", (unsigned long long)a.done);
	free(ha);
	free(hb);
	return true;
}

void unit_core_frames(void)
{
	check("instances: two Game copies pool as one chain of both", test_chain_pool());
	check("instances: AudioGraph's DSP load and xruns pooled", test_chain_pool_audio());
	check("stutters: CapFrameX's 2.5 x the average of the previous 20", test_stutter_rule());
	check("stutters: a long frame raises the average of the ones after it",
	      test_stutter_window());
	check("1 % low: the fps of the p99 frame time, through the histogram", test_fps_1pct_low());
	check("fps: frames over seconds", test_fps());
	check("DSP load and xruns: a cycle done after its quantum's end", test_dsp_xruns());
	check("a chain names its first stutter frames or xrun cycles", test_chain_marks());
}
