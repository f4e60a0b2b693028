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

/* A histogram's min, mean, p50, p90, p99 and max into out[CS_COUNT]; NAN when it is empty. */
void chain_stats_of(const struct latency *l, double *out)
{
	struct summary s;

	for (int i = 0; i < CS_COUNT; i++)
		out[i] = NAN;
	if (!l->r.n)
		return;
	latency_summary(l, &s);
	out[CS_MIN] = s.min;
	out[CS_MEAN] = s.mean;
	out[CS_P50] = s.p50;
	out[CS_P90] = s.p90;
	out[CS_P99] = s.p99;
	out[CS_MAX] = s.max;
}

/*
 * Copy a pooled into m: its histograms merged into mh, its counts added.
 * The rates that follow (fps, xruns a minute) are then per copy, over the
 * copies' summed time: see chain_summarise(). m keeps its own marks (the
 * frames named are the first copy's) and its hops' names.
 */
void chain_pool(struct chain_summary *m, struct chain_hists *mh, const struct chain_summary *a,
		const struct chain_hists *ah)
{
	latency_merge(&mh->time, &ah->time);
	latency_merge(&mh->input, &ah->input);
	for (int h = 0; h < m->nhops && h < CHAIN_HOPS_MAX; h++) {
		latency_merge(&mh->hop[h], &ah->hop[h]);
		mh->split[h] = mh->split[h] && ah->split[h];
		running_merge(&mh->queue[h], &mh->queue[h], &ah->queue[h]);
		running_merge(&mh->path[h], &mh->path[h], &ah->path[h]);
	}
	mh->span_ns += ah->span_ns;
	mh->dsp_sum += ah->dsp_sum;
	mh->dsp_n += ah->dsp_n;
	m->done += a->done;
	m->on_time += a->on_time;
	m->stutters += a->stutters;
	m->xruns += a->xruns;
	if (isnan(m->dsp_max) || a->dsp_max > m->dsp_max)
		m->dsp_max = a->dsp_max;
}

/*
 * The summary's figures from its histograms and counts: the times', each
 * hop's, and for Game the fps over its span with 1 % low capped at one
 * frame (with vsync no frame is shown faster), for AudioGraph the mean DSP
 * load and the xruns a minute.
 */
void chain_summarise(struct chain_summary *c, const struct chain_hists *h)
{
	chain_stats_of(&h->time, c->time);
	chain_stats_of(&h->input, c->input);
	for (int i = 0; i < c->nhops && i < CHAIN_HOPS_MAX; i++) {
		struct hop_stats *hs = &c->hop[i];

		chain_stats_of(&h->hop[i], hs->lat);
		hs->n = h->hop[i].r.n;
		hs->queue_mean = h->split[i] && h->queue[i].n ? h->queue[i].mean : NAN;
		hs->path_mean = h->split[i] && h->path[i].n ? h->path[i].mean : NAN;
	}
	if (c->kind == CHAIN_GAME) {
		double p99 = c->time[CS_P99];

		c->fps = fps_of(c->done, h->span_ns);
		c->fps_low = fps_1pct_low(p99 > (double)h->period_ns ? p99 : (double)h->period_ns);
	} else {
		c->dsp_mean = h->dsp_n ? h->dsp_sum / (double)h->dsp_n : NAN;
		c->xruns_per_min = xruns_per_min(c->xruns, h->span_ns);
	}
}
