// SPDX-License-Identifier: GPL-2.0-or-later
/* model/kind_periodic.c - the periodic kinds: fixed work every period (Audio, Video, Custom,
 * ProAudio, Input), X's sweep and Render's frames; their child runs task/sim.c's loop. */
#include "core/accounting.h"
#include "core/render_work.h"
#include "core/tickphase.h"
#include "model/config.h"
#include "model/kinds.h"
#include "model/workloads.h"

/* Custom's period is -I microseconds. */
static void periodic_period(const struct workload *wl, const struct config *cfg, uint64_t *num,
			    uint64_t *den)
{
	if (wl->flags & WL_CUSTOM) {
		*num = (uint64_t)cfg->custom_interval_us * NSEC_PER_USEC;
		*den = 1;
	}
}

/* Custom's work is -C percent of its period as it runs. */
static void periodic_params(struct sim_params *p, const struct workload *wl,
			    const struct config *cfg)
{
	if (wl->flags & WL_CUSTOM)
		p->work_ns = mul_div(p->period_num, (uint64_t)cfg->custom_pct, 100 * p->period_den);
}

const struct bench_kind kind_periodic = {
	.name = "periodic",
	.metrics = KM_WAKEUPS | KM_DEADLINES,
	.period = periodic_period,
	.params = periodic_params,
	.run = sim_run,
};

/* X: frame k of a 101-frame sweep needs k ms, scaled with the period. */
static uint64_t sweep_work(const struct sim_params *p, uint64_t k)
{
	return scale_work(&p->scale, (k % 101) * NSEC_PER_MSEC);
}

static void sweep_params(struct sim_params *p, const struct workload *wl,
			 const struct config *cfg)
{
	(void)wl;
	(void)cfg;
	p->frame_work = sweep_work;
}

const struct bench_kind kind_sweep = {
	.name = "sweep",
	.metrics = KM_WAKEUPS | KM_DEADLINES,
	.params = sweep_params,
	.run = sim_run,
};

/* Render: frames at --fps, their work sweeping 20 % -> 80 % -> 20 % of a frame. */
static void render_period(const struct workload *wl, const struct config *cfg, uint64_t *num,
			  uint64_t *den)
{
	(void)wl;
	(void)num;
	if (cfg->fps)
		*den = (uint64_t)cfg->fps;
}

static uint64_t render_work(const struct sim_params *p, uint64_t k)
{
	return render_work_ns(p->period_num, p->period_den, k);
}

static void render_params(struct sim_params *p, const struct workload *wl,
			  const struct config *cfg)
{
	(void)wl;
	(void)cfg;
	p->frame_work = render_work;
}

const struct bench_kind kind_render = {
	.name = "render",
	.metrics = KM_WAKEUPS | KM_DEADLINES | KM_FPS,
	.period = render_period,
	.params = render_params,
	.run = sim_run,
};
