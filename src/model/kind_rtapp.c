// SPDX-License-Identifier: GPL-2.0-or-later
/* model/kind_rtapp.c - an rt-app workload file (-W FILE.json): its threads in one process, a
 * result per thread object; its rows are child/rtapp_child.c's, its engine task/rtapp*.c. */
#include <math.h>
#include <stdio.h>

#include "model/config.h"
#include "model/kinds.h"
#include "model/plan.h"
#include "model/result.h"

/* The records its threads keep together. */
static uint64_t rtapp_wakeups(const struct config *cfg)
{
	(void)cfg;
	return RTAPP_RECS_PER_ROW;
}

/* A result per thread object of the file, named as in the file; its table is the file's. */
static int rtapp_nresults(const struct config *cfg, const struct cell *c)
{
	(void)c;
	return cfg->rtapp.model ? (int)cfg->rtapp.model->nthreads : 0;
}

static const char *rtapp_result_name(const struct config *cfg, const struct cell *c, int k)
{
	(void)c;
	return cfg->rtapp.model->threads[k].name;
}

static const char *rtapp_table_name(const struct config *cfg, const struct cell *c)
{
	(void)c;
	return cfg->rtapp.name;
}

/* A thread's result: named as in the file, in the file's group. */
static void rtapp_names(struct result *r, const struct config *cfg, int thread)
{
	r->rtapp = cfg->rtapp.model && thread >= 0;
	if (!r->rtapp)
		return;
	snprintf(r->bench, sizeof(r->bench), "%s", cfg->rtapp.model->threads[thread].name);
	snprintf(r->group, sizeof(r->group), "%s", cfg->rtapp.name);
}

/*
 * A workload file's thread: its wake-ups by kind, its timer periods (none,
 * and no deadlines, for a thread without a timer) with rt-app's slack and
 * wu_lat; no desired CPU, its run being the CPU time it asked for.
 */
static void rtapp_fill(struct result *r, const struct bench_result *b, const struct config *cfg,
		       int thread)
{
	const struct timer_periods *tp = &b->timers;

	if (!r->rtapp)
		return;
	r->value[RF_CPU] = NAN;
	r->value[RF_TIMER_WAKEUPS] = (double)b->timer_wakeups;
	r->value[RF_RESUME_WAKEUPS] = (double)b->resume_wakeups;
	if (!rtapp_timed(&cfg->rtapp.model->threads[thread]))
		return;
	r->value[RF_MET] = (double)tp->met;
	r->value[RF_MISSED] = (double)tp->missed;
	r->value[RF_DROPPED] = 0;
	if (b->pct_deadlines >= 0)
		r->value[RF_DEADLINES_MET_PCT] = b->pct_deadlines;
	if (tp->slack.n) {
		r->value[RF_SLACK_MEAN] = span_mean(&tp->slack);
		r->value[RF_SLACK_MIN] = (double)tp->slack.min;
	}
	if (tp->wu_lat.n)
		r->value[RF_WU_LAT_MEAN] = span_mean(&tp->wu_lat);
}

const struct bench_kind kind_rtapp = {
	.name = "rtapp",
	.metrics = KM_WAKEUPS | KM_THREADS,
	.wakeups = rtapp_wakeups,
	.nresults = rtapp_nresults,
	.result_name = rtapp_result_name,
	.table_name = rtapp_table_name,
	.names = rtapp_names,
	.fill = rtapp_fill,
};
