// SPDX-License-Identifier: GPL-2.0-or-later
/* core/accounting.c - the accounting of periods and Gaming units: pure functions of timestamps. */
#include "core/accounting.h"

/*
 * The rule, the same for every periodic task: every period counts once. A
 * period that had already ended when the task got to run is dropped (no
 * work is done for it); otherwise the task does its work, and the period's
 * deadline is met if the work finished by the period's end, else missed,
 * and the periods that passed entirely during the overrun are dropped.
 * % Desired CPU = achieved / (achieved + dropped), achieved = met + missed;
 * % Deadlines Met = met / (met + missed + dropped).
 */

/* Rounding up keeps period_index_at() exact for fractional periods (Video). */
uint64_t period_start(const struct period_clock *c, uint64_t k)
{
	return c->start0 + mul_div_up(k, c->num, c->den);
}

/* The period that contains instant t. */
uint64_t period_index_at(const struct period_clock *c, uint64_t t)
{
	if (t <= c->start0)
		return 0;
	return mul_div(t - c->start0, c->den, c->num);
}

static uint64_t clip(const struct period_clock *c, uint64_t k)
{
	return k < c->nperiods ? k : c->nperiods;
}

/*
 * The task starts running at t_run for period k. Periods that ended before
 * t_run are dropped; it works for the one in progress, whose index is
 * returned (nperiods when the run is over).
 */
uint64_t acct_start(struct acct *a, const struct period_clock *c, uint64_t k,
		    uint64_t t_run)
{
	uint64_t j = clip(c, period_index_at(c, t_run));

	if (j > k) {
		a->dropped += j - k;
		return j;
	}
	return k;
}

/*
 * The work of period k finished at t_done: met when by the period's end,
 * else missed, and the periods that passed entirely meanwhile are dropped.
 * Returns the next period to run.
 */
uint64_t acct_finish(struct acct *a, const struct period_clock *c, uint64_t k,
		     uint64_t t_done)
{
	uint64_t j;

	if (t_done <= period_start(c, k + 1)) {
		a->met++;
		return k + 1;
	}
	a->missed++;
	j = clip(c, period_index_at(c, t_done));
	if (j > k + 1)
		a->dropped += j - (k + 1);
	return j > k + 1 ? j : k + 1;
}

double acct_pct_cpu(const struct acct *a)
{
	uint64_t achieved = a->met + a->missed;

	if (!(achieved + a->dropped))
		return 0.0;
	return 100.0 * (double)achieved / (double)(achieved + a->dropped);
}

double acct_pct_deadlines(const struct acct *a)
{
	uint64_t all = a->met + a->missed + a->dropped;

	return all ? 100.0 * (double)a->met / (double)all : 0.0;
}

/*
 * One Gaming unit of work took wall_ns and got cpu_ns of CPU: its latency
 * sample is the time it was runnable or waiting but not running, wall - cpu,
 * whatever the CPU's speed (never clipped at the unit's nominal 100 ms).
 */
uint64_t gaming_account(struct gaming_acct *g, uint64_t wall_ns, uint64_t cpu_ns)
{
	g->units++;
	gaming_partial(g, wall_ns, cpu_ns);
	return wall_ns > cpu_ns ? wall_ns - cpu_ns : 0;
}

/* A unit the row's end cut short: its CPU and wall time count, it is no sample. */
void gaming_partial(struct gaming_acct *g, uint64_t wall_ns, uint64_t cpu_ns)
{
	g->cpu_ns += cpu_ns;
	g->wall_ns += wall_ns;
}

/* % desired CPU: the CPU time it got over the wall time it wanted it all (at most 100). */
double gaming_pct_cpu(const struct gaming_acct *g)
{
	if (!g->wall_ns)
		return 0.0;
	if (g->cpu_ns >= g->wall_ns)
		return 100.0;
	return 100.0 * (double)g->cpu_ns / (double)g->wall_ns;
}

/*
 * The wakeup latency t_run - t_wake; false when t_run is before t_wake (two
 * CPUs' clocks, or a stamp taken too early), which is never recorded.
 */
bool wake_latency(uint64_t t_wake, uint64_t t_run, uint64_t *lat)
{
	if (t_run < t_wake)
		return false;
	*lat = t_run - t_wake;
	return true;
}

/*
 * A wake-up at instant (0: none, a resume's) by the task's own timer
 * (own_timer: t_wake is not used) or stamped t_wake by its waker, run at
 * t_run: its samples (core/accounting.h).
 */
struct wake_sample wake_sample_of(bool own_timer, uint64_t instant, uint64_t t_wake,
				  uint64_t t_run)
{
	struct wake_sample w = { 0 };

	if (own_timer)
		t_wake = instant;
	w.ok = wake_latency(t_wake, t_run, &w.lat);
	w.has_timer = !own_timer && instant;
	if (w.has_timer)
		w.timer = t_wake > instant ? t_wake - instant : 0;
	return w;
}
