// SPDX-License-Identifier: GPL-2.0-or-later
/* child/rtapp_child.c - a workload file's bench process: its threads run by the rt-app engine, a
 * result per thread object sent, then each one's records; which threads --explain traces. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/sched_events.h"
#include "lib/util.h"
#include "loads/loads.h"
#include "model/kinds.h"
#include "model/workloads.h"
#include "child/child.h"
#include "child/protocol.h"
#include "cli/derive.h"
#include "child/row_child.h"
#include "sys/trace_instance.h"
#include "task/rtapp_run.h"

/* What the bench process holds for the run: the engine's result, a ring per thread object. */
struct rtapp_bench {
	struct rtapp_result *res;
	struct bench_result *b;		/* [n]: what is sent, in file order */
	struct period_ring *rings;	/* [n], or NULL: the row keeps no periods */
	int n;
};

static void bench_free(struct rtapp_bench *rb)
{
	for (int j = 0; rb->rings && j < rb->n; j++)
		free(rb->rings[j].rec);
	free(rb->rings);
	free(rb->b);
	free(rb->res);
}

/*
 * Each thread object's ring: its share of RTAPP_RECS_PER_ROW, within what
 * the orchestrator takes (period_cap), touched now so that recording into
 * it never faults in the measured path.
 */
static int rings_setup(const struct row_env *env, struct rtapp_bench *rb)
{
	uint64_t cap = RTAPP_RECS_PER_ROW / (uint64_t)rb->n;

	if (!env->period_cap)
		return 0;
	cap = cap < env->period_cap ? cap : env->period_cap;
	rb->rings = calloc((size_t)rb->n, sizeof(*rb->rings));
	if (!rb->rings)
		return -ENOMEM;
	for (int j = 0; j < rb->n; j++) {
		rb->rings[j].rec = calloc(cap, sizeof(struct period_rec));
		if (!rb->rings[j].rec)
			return -ENOMEM;
		memset(rb->rings[j].rec, 0, cap * sizeof(struct period_rec));
		rb->rings[j].cap = cap;
	}
	return 0;
}

/*
 * --period swept given: every duration of the file shortened so that its
 * timers' wake-ups drift one tick against it over the row, as a task's
 * periods do (core/tickphase.h), a drift over an eighth of the row cut.
 */
static void sweep_of(const struct config *cfg, struct rtapp_run_params *p)
{
	uint64_t row = (uint64_t)llround(cfg->seconds * 1e9), drift = cfg->period_drift_ns;

	if (!cfg->rtapp.swept || !row)
		return;
	if (drift > row / 8)
		drift = row / 8;
	p->time_num = row - drift;
	p->time_den = row;
}

/*
 * The engine's parameters from the row's configuration: the file's own
 * scheduling unless -r, --policy, -B, --slice or --uclamp-* were given,
 * which then hold for every thread; memory locked as -r locks it.
 */
static int params_of(const struct row_ctx *rc, struct rtapp_bench *rb,
		     struct rtapp_run_params *p, char *why, size_t len)
{
	const struct config *cfg = rc->cfg;

	*p = (struct rtapp_run_params){ .work = cfg->work, .loops_per_ms = cfg->loops_per_ms,
					.wake = (enum wake_mode)cfg->wake,
					.slack_ns = cfg->timer_slack_ns,
					.sched_set = cfg->sched_given, .split = !cfg->no_split,
					.rings = rb->rings };
	task_sched_of(cfg, 0, 0, 0, &p->sched);
	if (rc->env->waker_rt)
		p->waker_prio = cfg->rt_priority + 1;
	sweep_of(cfg, p);
	if (policy_is_rt(cfg->policy) && cfg->sched_given &&
	    mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
		return set_err(why, len, "mlockall: %s", strerror(errno));
	return 0;
}

/* Thread object o's figures as a task's result, the run's status and reason its own. */
static void thread_result(const struct rtapp_result *res, const struct rtapp_obj_result *o,
			  struct bench_result *b)
{
	b->status = res->status;
	snprintf(b->reason, sizeof(b->reason), "%s", res->reason);
	b->wake = o->wake;
	b->timer = o->timer;
	b->split = o->split;
	b->acct.met = o->periods.met;
	b->acct.missed = o->periods.missed;
	b->pct_deadlines = o->periods.met + o->periods.missed ? acct_pct_deadlines(&b->acct) : -1;
	b->pct_cpu = NAN;
	b->task_cpu_ns = o->cpu_ns;
	b->work_ns = o->work_ns;
	b->loops = o->loops;
	b->burn_cpu_ns = o->burn_cpu_ns;
	b->wall_ns = res->wall_ns;
	b->timers = o->periods;
	b->timer_wakeups = o->timer_wakeups;
	b->timer_slack_ns = o->timer_slack_ns;
	b->resume_wakeups = o->resume_wakeups;
	b->period_log = (struct period_log){ .start0 = res->start_ns, .tid_task = o->tid,
				       .tid_waker = o->tid_waker };
}

/* Every thread object's result, then (when the row keeps them) each one's records. */
static void send_all(int res, struct rtapp_bench *rb)
{
	static const struct stage_set none;

	for (int j = 0; j < rb->n; j++) {
		thread_result(rb->res, &rb->res->obj[j], &rb->b[j]);
		if (pipe_send(res, TAG_BENCH_RESULT, &rb->b[j], sizeof(rb->b[j])))
			return;
	}
	for (int j = 0; rb->rings && j < rb->n; j++)
		send_periods(res, &rb->b[j], &rb->rings[j], &none);
}

/*
 * The bench process of a workload file's row: the file (read and checked
 * by the orchestrator before it forked us) run for the row's seconds, a
 * result per thread object. A failure to set up is the row's reason; one
 * of the run (a deadlock, a thread that cannot be scheduled as asked, one
 * left behind) is in every thread's result, and what is left of the
 * process goes with it when it exits.
 */
int rtapp_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	const struct config *cfg = rc->cfg;
	struct rtapp_bench rb = { .n = (int)cfg->rtapp.model->nthreads };
	struct rtapp_run_params p;
	char why[REASON_LEN];

	child_drop_inherited(rc->env);
	load_close_files(rc->env->load_ctx);
	if (confine(rc, res))
		return 1;
	rb.res = calloc(1, sizeof(*rb.res));
	rb.b = calloc((size_t)rb.n, sizeof(*rb.b));
	if (!rb.res || !rb.b || rings_setup(rc->env, &rb)) {
		child_fail(res, "out of memory for a workload of %d thread objects", rb.n);
		return 1;
	}
	if (params_of(rc, &rb, &p, why, sizeof(why))) {
		child_fail(res, "%s", why);
		return 1;
	}
	if (child_ready(res) || child_next(ctl) != MSG_GO)
		return 1;	/* the orchestrator is ending the row */
	rtapp_run(cfg->rtapp.model, &p, (uint64_t)llround(cfg->seconds * 1e9), NULL, rb.res);
	send_all(res, &rb);
	bench_free(&rb);
	return 0;
}

/*
 * Which thread objects --explain traces, by name (their comm, the name cut
 * to 15 bytes; a name with a glob's or a filter's special characters cannot
 * be matched), at most
 * SE_TIDS_MAX of them in file order: those that wait on a timer or a
 * condition, whose wake-ups there are to explain.
 */
void rtapp_traced(const struct config *cfg, bool *traced)
{
	const struct rtapp_file *f = cfg->rtapp.model;
	int n = 0;
	size_t filter = 0;

	for (size_t j = 0; j < f->nthreads && j < RTAPP_RUN_MAX_OBJS; j++) {
		const char *name = f->threads[j].name;
		size_t cost = 2 * 15 + 48;	/* its part of the filters: its comm twice */

		traced[j] = n < SE_TIDS_MAX && rtapp_woken(&f->threads[j]) &&
			    !strpbrk(name, "*?[]\\\"") && filter + cost < TRACE_FILTER_LEN - 64;
		if (traced[j]) {
			n++;
			filter += cost;
		}
	}
}
