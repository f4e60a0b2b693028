// SPDX-License-Identifier: GPL-2.0-or-later
/* core/frames.c - the frame and cycle rules of games and audio: stutters, fps, 1 % low, DSP
 * load, xruns. */
#include <math.h>

#include "core/frames.h"

const char *const chain_stat_names[CS_COUNT] = {
	[CS_MIN] = "min", [CS_MEAN] = "mean", [CS_P50] = "p50",
	[CS_P90] = "p90", [CS_P99] = "p99", [CS_MAX] = "max",
};

void stutter_init(struct stutter_rule *s)
{
	*s = (struct stutter_rule){ 0 };
}

/*
 * Whether this frame is a stutter by the frames before it; then it joins
 * them. frame x WINDOW > FACTOR x sum is frame > FACTOR x their mean,
 * with no division.
 */
bool stutter_push(struct stutter_rule *s, uint64_t frame_ns)
{
	bool stutter = s->n == STUTTER_WINDOW &&
		       (double)frame_ns * STUTTER_WINDOW > STUTTER_FACTOR * (double)s->sum;

	if (s->n < STUTTER_WINDOW) {
		s->ring[s->n++] = frame_ns;
	} else {
		s->sum -= s->ring[s->at];
		s->ring[s->at] = frame_ns;
		s->at = (s->at + 1) % STUTTER_WINDOW;
	}
	s->sum += frame_ns;
	return stutter;
}

/* The stutters of a series of frame times; the index of the first in *first (n: none). */
size_t stutters_of(const uint64_t *frame_ns, size_t n, size_t *first)
{
	struct stutter_rule s;
	size_t count = 0;

	stutter_init(&s);
	*first = n;
	for (size_t i = 0; i < n; i++) {
		if (!stutter_push(&s, frame_ns[i]))
			continue;
		if (!count)
			*first = i;
		count++;
	}
	return count;
}

double fps_of(uint64_t frames, uint64_t wall_ns)
{
	return wall_ns ? (double)frames * 1e9 / (double)wall_ns : 0.0;
}

/*
 * 1 % low, as MangoHud and most overlays give it: the frame rate of the
 * 99th-percentile frame time (the slowest 1 % of frames are at least this
 * slow). A percentile needs no per-frame storage, and the histogram's
 * bucket error (< 1 %) is the figure's.
 */
double fps_1pct_low(double p99_frame_ns)
{
	return p99_frame_ns > 0 ? 1e9 / p99_frame_ns : NAN;
}

void dsp_init(struct dsp_acc *d)
{
	*d = (struct dsp_acc){ 0 };
}

/* A cycle of cycle_ns (from its quantum's start) in a quantum of quantum_ns: whether an xrun. */
bool dsp_add(struct dsp_acc *d, uint64_t cycle_ns, uint64_t quantum_ns)
{
	double load = quantum_ns ? (double)cycle_ns / (double)quantum_ns : 0.0;
	bool xrun = cycle_ns > quantum_ns;

	d->sum += load;
	d->max = load > d->max ? load : d->max;
	d->n++;
	d->xruns += xrun;
	return xrun;
}

void dsp_xrun(struct dsp_acc *d)
{
	d->xruns++;
}

double dsp_mean(const struct dsp_acc *d)
{
	return d->n ? d->sum / (double)d->n : NAN;
}

double xruns_per_min(uint64_t xruns, uint64_t wall_ns)
{
	return wall_ns ? (double)xruns * 60e9 / (double)wall_ns : NAN;
}

/* Name frame or cycle k among the first CHAIN_MARKS_MAX. */
void chain_mark(struct chain_summary *c, uint64_t k)
{
	if (c->nmarks < CHAIN_MARKS_MAX)
		c->marks[c->nmarks++] = k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}
