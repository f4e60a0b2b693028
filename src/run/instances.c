// SPDX-License-Identifier: GPL-2.0-or-later
/* run/instances.c - --instances: a row's copies of each benchmark pooled into one result. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/accounting.h"
#include "core/stats.h"
#include "model/kinds.h"
#include "model/record.h"
#include "run/row.h"

/* One copy's own figures, as the table's note and JSON's instance_results give them. */
static void instance_fig_of(int bench, const struct bench_result *b, struct instance_fig *f)
{
	bool any = b->wake.r.n > 0;

	f->samples = (double)b->wake.r.n;
	f->mean_ns = any ? b->wake.r.mean : NAN;
	f->p99_ns = any ? (double)latency_percentile(&b->wake, 0.99) : NAN;
	f->max_ns = any ? (double)b->wake.r.max : NAN;
	f->pct_deadlines = b->pct_deadlines >= 0 ? b->pct_deadlines : NAN;
	f->pct_cpu = b->pct_cpu;
	if (kind_of(bench)->fill_instance)
		kind_of(bench)->fill_instance(f, b);
}

/* The split of two copies: measured as far as both measured it. */
static void split_pool(struct split_result *m, const struct split_result *a)
{
	if (a->state < m->state)
		m->state = a->state;
	if (m->state == SPLIT_ON) {
		latency_merge(&m->queue, &a->queue);
		latency_merge(&m->path, &a->path);
		m->queued += a->queued;
	}
	m->cpu_known += a->cpu_known;
	m->cross_cpu += a->cross_cpu;
	m->migrations += a->migrations;
}

/*
 * Copy a's measurement pooled into m, as if one task had done both: the
 * histograms merged, the counts and CPU times summed, the percentages
 * from the sums (so a copy that ran more periods weighs more), the wall
 * time the longer one's. A chain's summary is pooled by chain_pool(), from
 * the histograms its copies send.
 */
void bench_pool(struct bench_result *m, const struct bench_result *a)
{
	latency_merge(&m->wake, &a->wake);
	latency_merge(&m->timer, &a->timer);
	m->acct.met += a->acct.met;
	m->acct.missed += a->acct.missed;
	m->acct.dropped += a->acct.dropped;
	m->gaming.units += a->gaming.units;
	m->gaming.cpu_ns += a->gaming.cpu_ns;
	m->gaming.wall_ns += a->gaming.wall_ns;
	m->task_cpu_ns += a->task_cpu_ns;
	m->work_ns += a->work_ns;
	m->loops += a->loops;
	m->burn_cpu_ns += a->burn_cpu_ns;
	if (a->wall_ns > m->wall_ns)
		m->wall_ns = a->wall_ns;
	if (!m->traced_ns)
		m->traced_ns = a->traced_ns;
	split_pool(&m->split, &a->split);
	timer_periods_merge(&m->timers, &a->timers);
	m->timer_wakeups += a->timer_wakeups;
	m->resume_wakeups += a->resume_wakeups;
	if (m->pct_deadlines >= 0) {
		m->pct_cpu = acct_pct_cpu(&m->acct);
		m->pct_deadlines = acct_pct_deadlines(&m->acct);
	} else {
		m->pct_cpu = gaming_pct_cpu(&m->gaming);
	}
}

/* What makes a copy the worst: its chain's p99 frame or cycle time, else its p99 wake-up. */
static double worst_key(const struct instance_fig *f)
{
	return isnan(f->chain_p99_ns) ? f->p99_ns : f->chain_p99_ns;
}

/* The copy with the highest of worst_key() (the first of equals); 0 when none has one. */
static int instance_worst(const struct instance_set *s)
{
	int w = 0;

	for (int i = 1; i < s->n; i++)
		if (isfinite(worst_key(&s->f[i])) &&
		    (!isfinite(worst_key(&s->f[w])) || worst_key(&s->f[i]) > worst_key(&s->f[w])))
			w = i;
	return w;
}

static struct instance_set *instance_set_new(int ni)
{
	struct instance_set *s = malloc(sizeof(*s) + (size_t)ni * sizeof(s->f[0]));

	if (!s)
		return NULL;
	s->n = ni;
	s->worst = 0;
	for (int i = 0; i < ni; i++)
		s->f[i] = (struct instance_fig){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	return s;
}

/*
 * A row's n members, ni copies of each, pooled: all[i * n + k] is copy i
 * of member k, and rows[k] becomes copy 0 of it (its periods and trace
 * with it: the timeline and --explain look at that copy) with every other
 * copy's measurement pooled in, and each copy's own figures in rows[k].inst.
 * A copy that failed fails the member, naming it. The caller frees all's
 * other copies (all[n..n * ni)), whose measurements are pooled now.
 */
void instances_pool(struct row *rows, struct row *all, int n, int ni)
{
	for (int k = 0; k < n; k++) {
		struct row *p = &rows[k];
		struct instance_set *s = instance_set_new(ni);

		*p = all[k];
		for (int i = 0; i < ni; i++) {
			struct row *c = &all[i * n + k];

			if (c->status == ROW_FAILED && p->status != ROW_FAILED) {
				snprintf(p->reason, sizeof(p->reason), "instance #%d: %.160s",
					 i + 1, c->reason);
				p->status = ROW_FAILED;
			}
			if (s && c->bench_res)
				instance_fig_of(c->bench, c->bench_res, &s->f[i]);
			if (i && p->bench_res && c->bench_res)
				bench_pool(p->bench_res, c->bench_res);
			if (i && p->hists && c->hists)
				bench_chain_pool(p->bench_res, p->hists, c->bench_res, c->hists);
		}
		if (p->hists) {		/* every copy's came, or the member failed */
			bench_chain_summarise(p->bench_res, p->hists);
			free(p->hists);
			p->hists = NULL;
		}
		if (s)
			s->worst = instance_worst(s);
		else if (p->status == ROW_OK) {
			p->status = ROW_FAILED;
			snprintf(p->reason, sizeof(p->reason), "out of memory for the instances");
		}
		p->inst = s;
	}
}
