// SPDX-License-Identifier: GPL-2.0-or-later
/* model/kind_chain.c - the chains: Game's frame pipeline and AudioGraph's graph (task/chain.h,
 * game.c, audiograph.c), threads that wake one another; the head runs task/sim.c's loop. */
#include <math.h>
#include <stdlib.h>

#include "core/accounting.h"
#include "model/config.h"
#include "model/kinds.h"
#include "model/result.h"
#include "model/workloads.h"
#include "task/chain.h"

/* Game: frames at --fps, GAME_FPS without it. */
static void game_period(const struct workload *wl, const struct config *cfg, uint64_t *num,
			uint64_t *den)
{
	(void)wl;
	(void)num;
	*den = cfg->fps_given ? (uint64_t)cfg->fps : GAME_FPS;
}

/* Game's work share: main's logic, 15 % of a frame. */
static void game_params(struct sim_params *p, const struct workload *wl,
			const struct config *cfg)
{
	(void)wl;
	(void)cfg;
	p->work_ns = mul_div(p->period_num, 15, 100 * p->period_den);
	p->chain_ops = &game_ops;
}

/* AudioGraph: a cycle each --quantum frames at 48 kHz (256 without it). */
static void audiograph_period(const struct workload *wl, const struct config *cfg,
			      uint64_t *num, uint64_t *den)
{
	(void)wl;
	(void)den;
	*num = (uint64_t)(cfg->quantum ? cfg->quantum : 256) * NSEC_PER_SEC;
}

/* AudioGraph's work share: the driver does none; a node's 5 % for deadline's runtime. */
static void audiograph_params(struct sim_params *p, const struct workload *wl,
			      const struct config *cfg)
{
	(void)wl;
	(void)cfg;
	p->work_ns = mul_div(p->period_num, 5, 100 * p->period_den);
	p->chain_ops = &audiograph_ops;
}

/* Game's and AudioGraph's figures: the table's numbers, and the summary kept whole. */
static void chain_fill(struct result *r, const struct bench_result *b, const struct config *cfg,
		       int thread)
{
	static const int game[] = { RF_FRAME_P50, RF_FRAME_P99, RF_FRAME_MAX };
	static const int audio[] = { RF_CYCLE_P50, RF_CYCLE_P99, RF_CYCLE_MAX };
	static const int stat[] = { CS_P50, CS_P99, CS_MAX };
	const struct chain_summary *c = &b->chain;
	const int *f = c->kind == CHAIN_GAME ? game : audio;

	(void)cfg;
	(void)thread;
	if (c->kind == CHAIN_NONE)
		return;
	for (int i = 0; i < 3; i++)
		r->value[f[i]] = c->time[stat[i]];
	if (c->kind == CHAIN_GAME) {
		r->value[RF_FPS] = c->fps;
		r->value[RF_FPS_LOW] = c->fps_low;
		r->value[RF_STUTTERS] = (double)c->stutters;
	} else {
		r->value[RF_DSP_MEAN] = c->dsp_mean;
		r->value[RF_DSP_MAX] = c->dsp_max;
		r->value[RF_XRUNS] = (double)c->xruns;
		r->value[RF_XRUNS_PER_MIN] = c->xruns_per_min;
	}
	r->chain = malloc(sizeof(*r->chain));
	if (r->chain)
		*r->chain = *c;
}

/* One copy's chain figures, as the table's note and JSON's instance_results give them. */
static void chain_fill_instance(struct instance_fig *f, const struct bench_result *b)
{
	if (b->chain.kind == CHAIN_NONE)
		return;
	f->chain_done = (double)b->chain.done;
	f->chain_p99_ns = b->chain.time[CS_P99];
	if (b->chain.kind == CHAIN_GAME) {
		f->fps = b->chain.fps;
		f->stutters = (double)b->chain.stutters;
	} else {
		f->xruns = (double)b->chain.xruns;
	}
}

const struct bench_kind kind_game = {
	.name = "game",
	.metrics = KM_WAKEUPS | KM_DEADLINES | KM_CHAIN | KM_FPS | KM_FRAMES,
	.period = game_period,
	.params = game_params,
	.run = sim_run,
	.fill = chain_fill,
	.fill_instance = chain_fill_instance,
};

const struct bench_kind kind_audiograph = {
	.name = "audiograph",
	.metrics = KM_WAKEUPS | KM_DEADLINES | KM_CHAIN | KM_XRUNS,
	.period = audiograph_period,
	.params = audiograph_params,
	.run = sim_run,
	.fill = chain_fill,
	.fill_instance = chain_fill_instance,
};

/* ---- what the outputs and the orchestrator read of a chain ---- */

/* A result's hop, NULL when it has no chain or no such hop. */
const struct hop_stats *result_hop(const struct result *r, int hop)
{
	return r->chain && hop >= 0 && hop < r->chain->nhops ? &r->chain->hop[hop] : NULL;
}

/* What a chain's result counts: "frame" (Game), "cycle" (AudioGraph); NULL: one task's. */
const char *result_chain_unit(const struct result *r)
{
	return !r->chain ? NULL : r->chain->kind == CHAIN_GAME ? "frame" : "cycle";
}

static const struct chain_words chain_words[] = {
	[CHAIN_GAME] = { "frame_time_ns", "frames", "frames_on_time", "input_latency_ns",
			 "stutter_frames", "frame_time_p99_ns",
			 { { "fps", offsetof(struct instance_fig, fps) },
			   { "stutters", offsetof(struct instance_fig, stutters) } } },
	[CHAIN_AUDIO] = { "cycle_ns", "cycles", "cycles_in_time", NULL, "xrun_cycles",
			  "cycle_p99_ns", { { "xruns", offsetof(struct instance_fig, xruns) } } },
};

/* A result's chain's words and (c, unless NULL) its summary; NULL: no chain, one task's. */
const struct chain_words *result_chain_words(const struct result *r,
					     const struct chain_summary **c)
{
	if (c)
		*c = r->chain;
	return r->chain ? &chain_words[r->chain->kind] : NULL;
}

/* Whether a chain's summary has Game's input to present. */
bool chain_has_input(const struct chain_summary *c)
{
	return c->kind == CHAIN_GAME;
}

/* A bench's hops: none for a single task, or a chain that did not start. */
int bench_hops(const struct bench_result *b)
{
	return b->chain.kind == CHAIN_NONE ? 0 : b->chain.nhops;
}

/* A bench's hop's longest wake-up, ns; NAN: no such hop. */
double bench_hop_max(const struct bench_result *b, int hop)
{
	return hop >= 0 && hop < bench_hops(b) ? b->chain.hop[hop].lat[CS_MAX] : NAN;
}

/* A bench's chain summary: whether it has one (its chain ran). */
bool bench_has_chain(const struct bench_result *b)
{
	return b->chain.kind != CHAIN_NONE;
}

/* --instances: copy a's chain pooled into m's, and m's summary made of the pooled histograms. */
void bench_chain_pool(struct bench_result *m, struct chain_hists *mh,
		      const struct bench_result *a, const struct chain_hists *ah)
{
	chain_pool(&m->chain, mh, &a->chain, ah);
}

void bench_chain_summarise(struct bench_result *b, const struct chain_hists *h)
{
	chain_summarise(&b->chain, h);
}
