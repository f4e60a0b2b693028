/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/frames.h - what game and audio users read of a chain's frames and cycles: fps, 1 % low,
 * stutters, DSP load, xruns, and the chain's summary that a result keeps. */
#ifndef CORE_FRAMES_H
#define CORE_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/stats.h"

/* ---- frames ---- */

/*
 * CapFrameX's stutter rule: a frame is a stutter when it takes more than
 * STUTTER_FACTOR times the average of the STUTTER_WINDOW frames before it;
 * the first STUTTER_WINDOW frames have no such average and never are.
 */
#define STUTTER_WINDOW 20
#define STUTTER_FACTOR 2.5

struct stutter_rule {
	uint64_t ring[STUTTER_WINDOW];	/* the previous frames' times, ns */
	uint64_t sum;			/* of ring */
	unsigned n;			/* frames seen, up to STUTTER_WINDOW */
	unsigned at;			/* the oldest in ring once full */
};

void stutter_init(struct stutter_rule *s);
bool stutter_push(struct stutter_rule *s, uint64_t frame_ns);
size_t stutters_of(const uint64_t *frame_ns, size_t n, size_t *first);

double fps_of(uint64_t frames, uint64_t wall_ns);	/* frames per second, 0: no time */
double fps_1pct_low(double p99_frame_ns);		/* the fps of the p99 frame time */

/* ---- audio cycles ---- */

struct dsp_acc {		/* cycle time / quantum, over the cycles */
	double sum, max;
	uint64_t n;
	uint64_t xruns;			/* cycles done after their quantum's end */
};

void dsp_init(struct dsp_acc *d);
bool dsp_add(struct dsp_acc *d, uint64_t cycle_ns, uint64_t quantum_ns);
void dsp_xrun(struct dsp_acc *d);	/* a quantum whose cycle started after its end */
double dsp_mean(const struct dsp_acc *d);
double xruns_per_min(uint64_t xruns, uint64_t wall_ns);

/* ---- a chain's summary: what a result keeps of its hops and frames ---- */

#define CHAIN_HOPS_MAX 8
#define CHAIN_HOP_NAME 16
#define CHAIN_MARKS_MAX 16		/* stutter frames or xrun cycles named */

enum chain_kind { CHAIN_NONE, CHAIN_GAME, CHAIN_AUDIO };

enum chain_stat { CS_MIN, CS_MEAN, CS_P50, CS_P90, CS_P99, CS_MAX, CS_COUNT };
extern const char *const chain_stat_names[CS_COUNT];	/* "min", "mean", ... */

struct hop_stats {		/* one hop's wake-up latency, ns; NAN: not known */
	char name[CHAIN_HOP_NAME];	/* "vsync>main" */
	char thread[CHAIN_HOP_NAME];	/* its wakee's name: "ib-Game" ("": not known) */
	double lat[CS_COUNT];
	double queue_mean, path_mean;	/* its split, NAN where not measured */
	uint64_t n;			/* wake-ups */
};

struct chain_summary {		/* plain data: sent by the bench, kept by the result */
	int kind;			/* enum chain_kind */
	int nhops;
	struct hop_stats hop[CHAIN_HOPS_MAX];
	double time[CS_COUNT];		/* frame time (vsync to present) or cycle time, ns */
	double input[CS_COUNT];		/* Game: input sample to present, ns */
	uint64_t done;			/* frames presented, cycles completed */
	uint64_t on_time;		/* of them: shown at their vsync, done in their quantum */
	double fps, fps_low;		/* Game */
	uint64_t stutters;		/* Game */
	double dsp_mean, dsp_max;	/* AudioGraph */
	uint64_t xruns;
	double xruns_per_min;
	int nmarks;			/* the first stutter frames or xrun cycles, by index */
	uint32_t marks[CHAIN_MARKS_MAX];
};

void chain_mark(struct chain_summary *c, uint64_t k);
void chain_stats_of(const struct latency *l, double *out);	/* out[CS_COUNT] */

/* ---- a chain's copies pooled (--instances) ---- */

/*
 * What a chain's summary is made of, beyond its counts: a copy sends it
 * after its result so that the copies' frames, cycles and hops pool as if
 * one chain had run them all (percentiles from the merged histograms).
 */
struct chain_hists {
	struct latency time, input;	/* frame or cycle time; Game's input to present */
	struct latency hop[CHAIN_HOPS_MAX];
	struct running queue[CHAIN_HOPS_MAX], path[CHAIN_HOPS_MAX];	/* the hops' split */
	uint8_t split[CHAIN_HOPS_MAX];	/* 1: queue and path measured for the hop */
	uint64_t span_ns;		/* from the first frame or cycle to the row's end */
	uint64_t period_ns;		/* a frame's (Game's 1 % low is capped there) */
	double dsp_sum;			/* AudioGraph: the cycles' DSP loads, summed */
	uint64_t dsp_n;
};

void chain_pool(struct chain_summary *m, struct chain_hists *mh, const struct chain_summary *a,
		const struct chain_hists *ah);
void chain_summarise(struct chain_summary *c, const struct chain_hists *h);

#endif
