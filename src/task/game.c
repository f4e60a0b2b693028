// SPDX-License-Identifier: GPL-2.0-or-later
/* task/game.c - Game: a frame pipeline of an input thread, a main thread, three jobs, a render
 * thread and a compositor process, every hand-over a stamped hop. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/chain.h"

#define G_JOBS 3

enum { G_MAIN, G_JOB0, G_RENDER = G_JOB0 + G_JOBS, G_COMP, G_INPUT, G_NSTAGE };
enum { GH_JOB0, GH_BACK = GH_JOB0 + G_JOBS, GH_RENDER, GH_COMP, GH_COUNT };

static const char *const stage_comm[G_NSTAGE] = {
	"ib-Game", "ib-Game-job0", "ib-Game-job1", "ib-Game-job2", "ib-Game-render",
	"ib-Game-comp", "ib-Game-input",
};
static const char *const stage_stall[G_NSTAGE] = {
	"main", "job0", "job1", "job2", "render", "comp", "input",
};
static const unsigned stage_pct[G_NSTAGE] = { 15, 10, 10, 10, 20, 5, 0 };
static const char *const hop_name[GH_COUNT] = {
	"main>job0", "main>job1", "main>job2", "job>main", "main>render", "render>comp",
};

struct game {			/* shared memory: the compositor is another process */
	struct chain_base base;
	struct stage st[G_NSTAGE];
	struct hop_meas hop[GH_COUNT];
	struct wake_slot job_slot[G_JOBS], back_slot, render_slot, comp_slot, done_slot;
	_Atomic int pending;		/* jobs of this frame not done yet */
	_Atomic uint64_t input_t;	/* the newest input sample's stamp */
	uint32_t back_seen;
	int efd_comp, efd_done;		/* render -> compositor, compositor -> main */
	struct latency frame, input;	/* vsync to present; input sample to present */
	struct stutter_rule stut;
	struct chain_summary sum;	/* the frames' counts, filled as they come */
	uint64_t start0, period_ns;
	uint64_t input_ns;		/* the input device's period: 1 ms, scaled as */
					/* the frames are, so it sweeps the tick too */
	pthread_t th[G_NSTAGE];
	bool have_th[G_NSTAGE];
	pid_t comp_pid;
	struct stage_rings rings;	/* the stages drawn: jobs, render, compositor */
};

struct job_arg {
	struct game *g;
	int i;
};
static struct job_arg job_args[G_JOBS];

static void *job_main(void *arg)
{
	struct job_arg *a = arg;
	struct game *g = a->g;
	struct stage *st = &g->st[G_JOB0 + a->i];
	struct wake_slot *s = &g->job_slot[a->i];
	uint32_t seen = 0;
	uint64_t t_run;

	stage_begin(st, &g->base);
	for (;;) {
		split_before(&st->probe);
		if (!(t_run = slot_wait(s, &seen, false, &g->base.quit)))
			break;
		hop_record(st, s, t_run);
		stage_work(st, s->k);
		stage_record(st, s->k);
		if (atomic_fetch_sub(&g->pending, 1) == 1)	/* the last one wakes main */
			slot_post(&g->back_slot, s->k, false);
	}
	stage_end(st);
	return NULL;
}

static void *render_main(void *arg)
{
	struct game *g = arg;
	struct stage *st = &g->st[G_RENDER];
	uint32_t seen = 0;
	uint64_t t_run;

	stage_begin(st, &g->base);
	for (;;) {
		split_before(&st->probe);
		if (!(t_run = slot_wait(&g->render_slot, &seen, false, &g->base.quit)))
			break;
		hop_record(st, &g->render_slot, t_run);
		stage_work(st, g->render_slot.k);
		stage_record(st, g->render_slot.k);
		efd_post(&g->comp_slot, g->efd_comp, g->render_slot.k);
	}
	stage_end(st);
	return NULL;
}

/* The input device: a sample stamped each millisecond (swept: a little more), by its own timer. */
static void *input_main(void *arg)
{
	struct game *g = arg;
	uint64_t t = now_ns();

	stage_begin(&g->st[G_INPUT], &g->base);
	while (!atomic_load(&g->base.quit)) {
		t += g->input_ns;
		sleep_until(t);
		atomic_store(&g->input_t, now_ns());
	}
	stage_end(&g->st[G_INPUT]);
	return NULL;
}

/* The compositor's process: it presents each frame render hands it. */
static int comp_main(void *arg)
{
	struct game *g = arg;
	struct stage *st = &g->st[G_COMP];
	uint64_t t_run;

	stage_begin(st, &g->base);
	for (;;) {
		split_before(&st->probe);
		if (!(t_run = efd_wait(g->efd_comp, &g->base.quit)))
			break;
		hop_record(st, &g->comp_slot, t_run);
		stage_work(st, g->comp_slot.k);
		stage_record(st, g->comp_slot.k);
		efd_post(&g->done_slot, g->efd_done, g->comp_slot.k);	/* the present */
	}
	stage_end(st);
	return 0;
}

static int spawn(struct game *g, int i, void *(*fn)(void *), void *arg)
{
	int ret = pthread_create(&g->th[i], NULL, fn, arg);

	g->have_th[i] = !ret;
	return -ret;
}

static void game_stages(struct game *g, const struct sim_params *p)
{
	uint64_t period = p->period_num / p->period_den;

	g->period_ns = period;
	g->input_ns = scale_work(&p->scale, NSEC_PER_MSEC);
	for (int i = 0; i < G_NSTAGE; i++) {
		struct hop_meas *h = i == G_MAIN ? &g->hop[GH_BACK] :
				     i == G_RENDER ? &g->hop[GH_RENDER] :
				     i == G_COMP ? &g->hop[GH_COMP] :
				     i >= G_JOB0 && i < G_RENDER ? &g->hop[GH_JOB0 + i - G_JOB0] :
				     NULL;

		stage_init(&g->st[i], p, stage_comm[i], period * stage_pct[i] / 100, &g->base, h);
		stage_stall_from_env(&g->st[i], stage_stall[i]);
	}
	g->st[G_MAIN].sched_set = false;	/* main is the task: sim.c applies its knobs */
	latency_init(&g->frame);
	latency_init(&g->input);
	stutter_init(&g->stut);
	g->sum.kind = CHAIN_GAME;
}

static int game_start(struct chain *c, char *why)
{
	struct game *g = shared_alloc(sizeof(*g));
	struct stage *drawn[G_COMP - G_JOB0 + 1];
	int ret = 0;

	if (!g)
		return -ENOMEM;
	c->impl = g;
	game_stages(g, c->p);
	for (int i = G_JOB0; i <= G_COMP; i++)	/* input's 1 kHz samples are not drawn */
		drawn[i - G_JOB0] = &g->st[i];
	if (stage_rings_open(&g->rings, c->p, drawn, G_COMP - G_JOB0 + 1, g->hop))
		return -ENOMEM;
	g->efd_comp = eventfd(0, EFD_CLOEXEC);
	g->efd_done = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (g->efd_comp < 0 || g->efd_done < 0)
		return -errno;
	g->comp_pid = chain_fork(stage_comm[G_COMP], comp_main, g);
	if (g->comp_pid < 0)
		return -errno;
	for (int i = 0; i < G_JOBS && !ret; i++) {
		job_args[i] = (struct job_arg){ .g = g, .i = i };
		ret = spawn(g, G_JOB0 + i, job_main, &job_args[i]);
	}
	if (!ret)
		ret = spawn(g, G_RENDER, render_main, g);
	if (!ret)
		ret = spawn(g, G_INPUT, input_main, g);
	if (!ret)
		ret = chain_ready(&g->base, G_NSTAGE - 1);	/* all but main */
	if (ret && g->base.reason[0])
		snprintf(why, REASON_LEN, "%s", g->base.reason);
	return ret;
}

/* The present of frame k that started at s: the frame's figures. */
static void game_present(struct game *g, uint64_t k, uint64_t s, uint64_t t_in, uint64_t present)
{
	uint64_t ft = present > s ? present - s : 0;

	latency_add(&g->frame, ft);
	if (t_in && present > t_in)
		latency_add(&g->input, present - t_in);
	g->sum.done++;
	g->sum.on_time += present <= s + g->period_ns;
	if (stutter_push(&g->stut, ft)) {
		g->sum.stutters++;
		chain_mark(&g->sum, k);
	}
}

/* Main's frame: logic, the jobs (waited for), render; done at the compositor's present. */
static uint64_t game_frame(struct chain *c, struct burner *bn, uint64_t k, uint64_t s,
			   bool *cut, uint64_t *t_done)
{
	struct game *g = c->impl;
	struct stage *m = &g->st[G_MAIN];
	uint64_t t_in = atomic_load(&g->input_t), work, t_run;

	if (!g->start0) {
		g->start0 = s;
		stage_begin(m, &g->base);	/* main's own probe, for the jobs' hop back */
	}
	g->base.end_ns = bn->end_ns;
	work = burn_work(bn, m->work_ns, cut);
	if (m->stall_k >= 0 && (uint64_t)m->stall_k == k && !*cut)
		sleep_ns(m->stall_ns);
	*t_done = now_ns();
	if (*cut)
		return work;
	atomic_store(&g->pending, G_JOBS);
	for (int i = 0; i < G_JOBS; i++)
		slot_post(&g->job_slot[i], (uint32_t)k, false);
	split_before(&m->probe);
	t_run = slot_wait(&g->back_slot, &g->back_seen, false, &g->base.quit);
	hop_record(m, &g->back_slot, t_run);
	slot_post(&g->render_slot, (uint32_t)k, false);
	if (efd_wait_for(g->efd_done, bn->end_ns + NSEC_PER_SEC, &t_run)) {
		*cut = true;		/* a stage that never answered: the row ends here */
		*t_done = now_ns();
		return work;
	}
	*t_done = g->done_slot.t_wake;
	if (*t_done >= bn->end_ns)
		*cut = true;		/* the row's end cut a stage's work: not a frame */
	else
		game_present(g, k, s, t_in, *t_done);
	return work;
}

static void game_late(struct chain *c, uint64_t k)
{
	(void)c;
	(void)k;			/* a dropped frame: the periods' accounting has it */
}

static void game_stop(struct game *g)
{
	uint64_t one = 1;

	atomic_store(&g->base.quit, 1);
	for (int i = 0; i < G_JOBS; i++)
		slot_kick(&g->job_slot[i], false);
	slot_kick(&g->render_slot, false);
	if (g->efd_comp >= 0 && write(g->efd_comp, &one, sizeof(one)) < 0)
		g->efd_comp = g->efd_comp;	/* it dies with us all the same */
	for (int i = 0; i < G_NSTAGE; i++)
		if (g->have_th[i])
			pthread_join(g->th[i], NULL);
	chain_reap(g->comp_pid, now_ns() + NSEC_PER_SEC);
	if (g->efd_comp >= 0)
		close(g->efd_comp);
	if (g->efd_done >= 0)
		close(g->efd_done);
}

static void game_finish(struct chain *c, struct bench_result *res)
{
	struct game *g = c->impl;
	struct chain_summary *sum = &g->sum;
	struct chain_hists *h;

	if (!g)
		return;
	game_stop(g);
	stage_rings_close(&g->rings, c->p);
	if (res && (h = c->p->hists)) {
		const struct chain_parts cp = {
			.base = &g->base, .st = g->st, .nstage = G_NSTAGE, .hop = g->hop,
			.nhop = GH_COUNT, .hop_name = hop_name, .head_hop = "vsync>main",
			.start0 = g->start0, .sum = sum, .head_works = true,
		};

		h->time = g->frame;
		h->input = g->input;
		h->period_ns = g->period_ns;
		chain_summary_end(&cp, h, res);
	}
	shared_free(g, sizeof(*g));
	c->impl = NULL;
}

const struct chain_ops game_ops = {
	.start = game_start, .frame = game_frame, .late = game_late, .finish = game_finish,
};
