// SPDX-License-Identifier: GPL-2.0-or-later
/* child/bench_child.c - the row's children, their side: the load process and the bench process
 * of a simulated task, set up, measured, their results sent. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/kinds.h"
#include "model/workloads.h"
#include "child/child.h"
#include "child/protocol.h"
#include "cli/options.h"
#include "cli/derive.h"
#include "child/row_child.h"

/* A child's first act: what it must not keep of the orchestrator's closed. */
void child_drop_inherited(const struct row_env *env)
{
	if (env->drop_inherited)
		env->drop_inherited();
}

/* --ncpus: the child, before any thread or process of its own, to the row's CPUs. */
int confine(const struct row_ctx *rc, int res)
{
	char err[REASON_LEN];

	if (!rc->ncpus || !cpus_confine(rc->ncpus, err, sizeof(err)))
		return 0;
	child_fail(res, "%s", err);
	return -1;
}

int load_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	char name[16];

	child_drop_inherited(rc->env);
	snprintf(name, sizeof(name), "ibload-%s", workloads[rc->load].name);
	prctl(PR_SET_NAME, name);
	if (confine(rc, res))
		return 1;
	if (setpriority(PRIO_PROCESS, 0, rc->cfg->load_nice) < 0) {
		child_fail(res, "load setpriority %d: %s", rc->cfg->load_nice, strerror(errno));
		return 1;
	}
	if (sched_load_policy(rc->cfg->load_policy)) {
		child_fail(res, "--load-policy %s: %s", load_policy_names[rc->cfg->load_policy],
			   strerror(errno));
		return 1;
	}
	sim_params_init_beside(&rc->env->load_ctx->par.sim, &workloads[rc->load], rc->cfg);
	return load_process(&workloads[rc->load], rc->env->load_ctx, ctl, res) ? 1 : 0;
}

/* The bench's scheduling; a failure is the row's reason, sent with the result. */
static void bench_setup(struct row_ctx *rc, struct sim_params *p, struct bench_result *b)
{
	const struct config *cfg = rc->cfg;

	if (rc->proc)		/* beside the first: its phase walks against the first's */
		sim_params_init_beside(p, &workloads[rc->bench], cfg);
	else
		sim_params_init(p, &workloads[rc->bench], cfg);
	p->sched_set = !task_sched_is_default(&p->sched);
	if (policy_is_rt(cfg->policy)) {
		if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
			b->status = ROW_FAILED;
			snprintf(b->reason, sizeof(b->reason), "mlockall: %s", strerror(errno));
		}
	} else if (setpriority(PRIO_PROCESS, 0, cfg->bench_nice) < 0) {
		b->status = ROW_FAILED;
		snprintf(b->reason, sizeof(b->reason), "setpriority %d: %s", cfg->bench_nice,
			 strerror(errno));
	}
	if (rc->env->waker_rt)
		p->waker_prio = cfg->rt_priority + 1;
	p->split = !cfg->no_split;
	if (cfg->trace_above_us > 0) {
		p->trace_above_ns = (uint64_t)cfg->trace_above_us * NSEC_PER_USEC;
		p->trace_fd = rc->env->trace_fd;
		p->tracing_on_fd = rc->env->tracing_on_fd;
	}
	latency_init(&b->wake);
	latency_init(&b->timer);
	b->timer_slack_ns = -1;
}

/*
 * The bench's period ring, allocated and touched before the row so that
 * recording into it never faults in the measured path.
 */
int ring_setup(const struct row_env *env, struct period_ring *ring)
{
	*ring = (struct period_ring){ 0 };
	if (!env->period_cap)
		return 0;
	ring->rec = calloc(env->period_cap, sizeof(*ring->rec));
	if (!ring->rec)
		return -ENOMEM;
	memset(ring->rec, 0, env->period_cap * sizeof(*ring->rec));
	ring->cap = env->period_cap;
	return 0;
}

/* After the head's records: a chain's stages, each its log, then its records (protocol.h). */
static void send_stages(int res, const struct stage_set *st)
{
	for (uint32_t i = 0; i < st->n; i++) {
		const struct stage_periods *sp = &st->s[i];

		if (pipe_send(res, TAG_STAGE_LOG, &sp->h, sizeof(sp->h)) ||
		    (sp->h.nrec && pipe_send(res, TAG_STAGE_PERIODS, sp->rec,
					     sp->h.nrec * sizeof(*sp->rec))))
			return;
	}
}

/* After the result: the ring's log, then its records, oldest first, then the stages'. */
void send_periods(int res, struct bench_result *b, const struct period_ring *ring,
			 const struct stage_set *st)
{
	struct period_rec *out = NULL;

	b->period_log.nrec = period_ring_kept(ring);
	b->period_log.lost = period_ring_lost(ring);
	b->period_log.nstages = b->period_log.nrec ? st->n : 0;
	if (b->period_log.nrec && ring->pushed > ring->cap) {
		out = malloc(b->period_log.nrec * sizeof(*out));
		if (!out)
			b->period_log.nrec = 0;
	}
	if (pipe_send(res, TAG_PERIOD_LOG, &b->period_log, sizeof(b->period_log)) ||
	    !b->period_log.nrec) {
		free(out);
		return;
	}
	if (out)
		period_ring_copy(ring, out);
	if (!pipe_send(res, TAG_PERIODS, out ? out : ring->rec,
		       b->period_log.nrec * sizeof(*out)) &&
	    b->period_log.nstages)
		send_stages(res, st);
	free(out);
}

/* A chain's histograms: its summary is made of them, and --instances' copies send them. */
static bool bench_chained(const struct row_ctx *rc)
{
	return kind_has(rc->bench, KM_CHAIN);
}

/* Whether the orchestrator pools this bench's chain: then it sends its histograms on. */
bool chain_pooled(const struct row_ctx *rc, const struct bench_result *b)
{
	return rc->cfg->instances > 1 && bench_has_chain(b);
}

int bench_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	const struct config *cfg = rc->cfg;
	struct bench_result *b = calloc(1, sizeof(*b));
	struct chain_hists *hists = bench_chained(rc) ? calloc(1, sizeof(*hists)) : NULL;
	struct period_ring ring;
	struct stage_set stages = { 0 };
	struct sim_params p;
	int ret;

	child_drop_inherited(rc->env);
	load_close_files(rc->env->load_ctx);
	if (confine(rc, res)) {
		free(b);
		return 1;
	}
	if (!b || (bench_chained(rc) && !hists) || ring_setup(rc->env, &ring)) {
		child_fail(res, "out of memory for the bench result");
		return 1;
	}
	bench_setup(rc, &p, b);
	p.hists = hists;
	p.ring = ring.cap ? &ring : NULL;
	p.stages = ring.cap ? &stages : NULL;
	if (child_ready(res) || child_next(ctl) != MSG_GO)
		return 1;	/* the orchestrator is ending the row */
	if (b->status == ROW_OK) {
		ret = kind_of(rc->bench)->run(&p, (uint64_t)llround(cfg->seconds * 1e9), NULL, b,
					      NULL);
		if (ret) {
			b->status = ROW_FAILED;
			if (!b->reason[0])	/* else the knobs' refusal, in its words */
				snprintf(b->reason, sizeof(b->reason), "waker: %s", strerror(-ret));
		}
	}
	if (!pipe_send(res, TAG_BENCH_RESULT, b, sizeof(*b)) && chain_pooled(rc, b))
		pipe_send(res, TAG_CHAIN_HISTS, hists, sizeof(*hists));
	send_periods(res, b, &ring, &stages);
	stage_set_free(&stages);
	return 0;
}
