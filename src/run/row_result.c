// SPDX-License-Identifier: GPL-2.0-or-later
/* run/row_result.c - a row as a result of the run record: the numbers of what its children sent. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/miss_explain.h"
#include "lib/util.h"
#include "model/workloads.h"
#include "model/record.h"
#include "run/row.h"
#include "cli/derive.h"
#include "sys/machine.h"


/* A latency's numbers into v[base..base+8), in struct summary's order; none without samples. */
static void set_latency(struct result *r, int base, const struct latency *l)
{
	struct summary s;

	if (!l || !l->r.n)
		return;
	latency_summary(l, &s);
	r->value[base + 0] = s.min;
	r->value[base + 1] = s.mean;
	r->value[base + 2] = s.sd;
	r->value[base + 3] = s.max;
	r->value[base + 4] = s.p50;
	r->value[base + 5] = s.p90;
	r->value[base + 6] = s.p99;
	r->value[base + 7] = s.p999;
}

static double known_u64(uint64_t v)	/* 0 is "did not happen" */
{
	return v ? (double)v : NAN;
}

/*
 * Where the latency went: null where not measured (--no-split, Gaming, no
 * schedstat). A wake-up by the task's own timer has the CPU it was woken
 * on, and its timer's and the scheduler's parts, where the trace held its
 * kernel stamp (ks, or NULL).
 */
static void result_from_split(struct result *r, const struct split_result *s,
			      const struct ran_instead *ran, const struct kernel_split *ks)
{
	uint64_t known = s->cpu_known + (ks ? ks->cpu_known : 0);

	r->ran = *ran;
	if (ks && ks->timer.r.n) {
		r->value[RF_STAMPED] = (double)ks->timer.r.n;
		set_latency(r, RF_TMIN, &ks->timer);
		set_latency(r, RF_SMIN, &ks->sched);
	}
	if (s->state == SPLIT_OFF)
		return;
	r->value[RF_CPU_KNOWN] = (double)known;
	if (known)
		r->value[RF_CROSS_CPU] = (double)(s->cross_cpu + (ks ? ks->cross_cpu : 0));
	r->value[RF_MIGRATIONS] = (double)s->migrations;
	if (s->state != SPLIT_ON)
		return;
	set_latency(r, RF_QMIN, &s->queue);
	set_latency(r, RF_PATH_MIN, &s->path);
	r->value[RF_QUEUED] = (double)s->queued;
}

/*
 * The row's wake-ups by the task's own timer split at the kernel's
 * sched_waking, where --explain's trace holds them; NULL when it holds
 * none (or no memory: the row is then only not split so).
 */
static struct kernel_split *kernel_split_new(const struct row *row)
{
	struct kernel_split *ks;

	if (!row->periods || !row->trace.read)
		return NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return NULL;
	latency_init(&ks->timer);
	latency_init(&ks->sched);
	kernel_split_of(&row->trace, row->periods, row->period_log.nrec, ks);
	if (ks->timer.r.n)
		return ks;
	free(ks);
	return NULL;
}

/* A chain's misses: each told as the story of the stage that made its frame or cycle late. */
static void blame_stages(const struct row *row, struct miss_report *m)
{
	struct missx_stage st[1 + MISS_STAGES_MAX];
	int n = 1;

	if (!row->stages.n || !row->bench_res || !bench_hops(row->bench_res))
		return;
	st[0] = (struct missx_stage){ .rec = row->periods, .n = row->period_log.nrec, .tr = &row->trace,
				      .hop = 0 };
	for (uint32_t i = 0; i < row->stages.n && i < MISS_STAGES_MAX; i++) {
		const struct stage_periods *sp = &row->stages.s[i];

		if (sp->h.hop > 0 && sp->h.hop < bench_hops(row->bench_res))
			st[n++] = (struct missx_stage){ .rec = sp->rec, .n = sp->h.nrec,
							.tr = &row->stage_trace[i],
							.hop = sp->h.hop };
	}
	missx_blame(&row->period_log, st, n, m);
}

/*
 * --explain: the row's missed periods explained from its records and the
 * task's events; their shares as numbers of the result, for every output.
 * Without memory for it, the row says nothing of its misses.
 */
static void result_misses(struct result *r, const struct row *row)
{
	static const int field[MS_COUNT] = {
		[MS_QUEUED] = RF_MISS_QUEUED, [MS_RUNNING] = RF_MISS_RUNNING,
		[MS_PREEMPTED] = RF_MISS_PREEMPTED, [MS_BLOCKED] = RF_MISS_BLOCKED,
	};
	struct miss_report *m = malloc(sizeof(*m));

	if (!m)
		return;
	missx_explain(&row->period_log, row->periods, row->period_log.nrec, &row->trace, row->t_go, m);
	blame_stages(row, m);
	r->misses = m;
	for (int i = 0; i < MS_COUNT; i++)
		r->value[field[i]] = m->share[i];
}

/*
 * --explain: who ran instead at each hop of a chain, by the thread it
 * wakes: a stage's own tally, and the head's at the first hop (the head's
 * other hops, its wake-ups after the chain's work, are in that tally too).
 */
static void result_hop_ran(struct result *r, const struct row *row)
{
	struct ran_instead *hr;

	if (!result_chain_unit(r) || row->ran.state == RAN_UNKNOWN)
		return;
	hr = calloc(CHAIN_HOPS_MAX, sizeof(*hr));
	if (!hr)
		return;
	hr[0] = row->ran;
	for (uint32_t i = 0; i < row->stages.n && i < STAGES_MAX; i++) {
		int32_t h = row->stages.s[i].h.hop;

		if (h > 0 && result_hop(r, h) && h < CHAIN_HOPS_MAX)
			hr[h] = row->stage_ran[i];
	}
	r->hop_ran = hr;
}

/* --instances: each copy's figures, in an allocation of their own; -ENOMEM. */
static int result_instances(struct result *r, const struct instance_set *s)
{
	size_t bytes = sizeof(*s) + (size_t)s->n * sizeof(s->f[0]);

	r->inst = malloc(bytes);
	if (!r->inst)
		return -ENOMEM;
	memcpy(r->inst, s, bytes);
	r->instances = s->n;
	return 0;
}

/*
 * What names a result: its benchmark (a workload file's thread, as in the
 * file), the group it ran in (or the file's name), its load, pass, variant.
 */
static void result_names(struct result *r, const struct run_record *rec, const struct row *row)
{
	const struct workload *bwl = &workloads[row->bench], *lwl = &workloads[row->load];
	const struct config *cfg = rec->cfg;

	snprintf(r->bench, sizeof(r->bench), "%s", bwl->name);
	snprintf(r->load, sizeof(r->load), "%s", lwl->name);
	snprintf(r->reason, sizeof(r->reason), "%s", row->reason);
	snprintf(r->unit, sizeof(r->unit), "%s", lwl->unit ? lwl->unit : "");
	r->pass = row->pass;
	r->variant_index = row->variant;
	r->ncpus = row->ncpus;
	if (row->group)
		snprintf(r->group, sizeof(r->group), "%s", cfg->groups[row->group - 1].name);
	if (kind_of(row->bench)->names)
		kind_of(row->bench)->names(r, cfg, row->thread);
}

/*
 * What ran beside the task: the rest of the load's work (its CPU side, a
 * command's restarts) and what tasks not of the run used.
 */
static void result_beside(struct result *r, const struct row *row)
{
	const struct load_result *l = &row->load_res;
	const struct foreign *f = &row->foreign;

	if (l->intensity >= 0 && l->cpus >= 0) {
		r->value[RF_LOAD_CPUS] = l->cpus;
		r->value[RF_LOAD_DUE] = row->load_due;
		r->value[RF_LOAD_SHORT] = load_short(l->cpus, row->load_due);
	}
	if (l->intensity >= 0 && l->restarts >= 0)
		r->value[RF_LOAD_RESTARTS] = l->restarts;
	if (f->pct >= 0) {
		r->value[RF_FOREIGN_CPU] = f->pct;
		if (f->top[0]) {
			r->value[RF_FOREIGN_TOP_CPU] = f->top_pct;
			snprintf(r->foreign_top, sizeof(r->foreign_top), "%s", f->top);
		}
	}
}

/*
 * The row as a result, built once and appended to the record: the numbers
 * of what the children sent, the wake-up histogram kept (the rest of the
 * bench's result is not). row_cfg: the configuration the row ran with, its
 * --vary value's or the run's. NULL when out of memory.
 */
struct result *row_result(struct run_record *rec, const struct row *row,
			  const struct config *row_cfg)
{
	const struct workload *lwl = &workloads[row->load];
	const struct bench_result *b = row->bench_res;
	bool periods = b && kind_has(row->bench, KM_DEADLINES);
	struct result *r = run_new_result(rec);
	struct kernel_split *ks;

	if (!r)
		return NULL;
	result_names(r, rec, row);
	if (rec->cfg->nvariants)
		snprintf(r->variant, sizeof(r->variant), "%s",
			 rec->cfg->variants[row->variant].label);
	snprintf(r->knob_value, sizeof(r->knob_value), "%s", row->knob_value);
	snprintf(r->variant_scx, sizeof(r->variant_scx), "%s", row->variant_scx);
	r->variant_pid = row->variant_pid;
	r->realtime = rec->cfg->realtime;
	r->status = row->status;
	if (lwl->intensity != INT_NONE && row->load_res.intensity >= 0)
		r->value[RF_INTENSITY] = row->load_res.intensity;
	if ((lwl->flags & WL_FILES) && rec->sys)
		snprintf(r->medium, sizeof(r->medium), "%s",
			 rec->sys->work_dir_in_memory == 1 ? RES_MEDIUM_MEMORY :
			 row->load_res.cache_kept ? RES_MEDIUM_CACHE : RES_MEDIUM_DISK);
	r->value[RF_LOAD_STOP] = known_u64(row->load_stop_ns);
	result_beside(r, row);
	if (!b)
		return r;
	r->wake = latency_compact(&b->wake);	/* a few KiB at most, not the dense 32 */
	if (!r->wake) {
		rec->nres--;
		return NULL;
	}
	if ((row->period_log.nrec || row->period_log.lost) &&
	    result_set_strip(r, &row->period_log, row->periods, row->period_log.nrec,
			     row->period_log.start0, rec->cfg->seconds)) {
		rec->nres--;
		return NULL;
	}
	r->value[RF_SAMPLES] = (double)b->wake.r.n;
	set_latency(r, RF_MIN, &b->wake);
	set_latency(r, RF_TMIN, &b->timer);
	if (b->timer_slack_ns >= 0)
		r->value[RF_TIMER_SLACK] = (double)b->timer_slack_ns;
	r->value[RF_CPU] = b->pct_cpu;
	if (periods && b->pct_deadlines >= 0)
		r->value[RF_DEADLINES_MET_PCT] = b->pct_deadlines;
	if (periods) {
		r->value[RF_MET] = (double)b->acct.met;
		r->value[RF_MISSED] = (double)b->acct.missed;
		r->value[RF_DROPPED] = (double)b->acct.dropped;
		r->value[RF_PERIOD] = (double)b->period_log.num / (double)b->period_log.den;
	}
	if (bench_frame_rate(row_cfg, row->bench))
		r->value[RF_FRAME_RATE] = bench_frame_rate(row_cfg, row->bench);
	r->value[RF_TASK_CPU] = (double)b->task_cpu_ns;
	r->value[RF_WALL] = (double)b->wall_ns;
	r->value[RF_TRACED] = known_u64(b->traced_ns);
	if (b->work_ns)
		r->value[RF_WORK_RATIO] = (double)b->task_cpu_ns / (double)b->work_ns;
	if (b->loops && b->burn_cpu_ns)
		r->value[RF_LOOP_SPEED] = (double)b->loops * 1e3 / (double)b->burn_cpu_ns;
	ks = kernel_split_new(row);
	result_from_split(r, &b->split, &row->ran, ks);
	free(ks);
	if (kind_of(row->bench)->fill)
		kind_of(row->bench)->fill(r, b, rec->cfg, row->thread);
	result_hop_ran(r, row);
	if (row->inst && result_instances(r, row->inst)) {
		rec->nres--;
		return NULL;
	}
	if (periods && rec->cfg->explain && row->periods)
		result_misses(r, row);
	return r;
}
