// SPDX-License-Identifier: GPL-2.0-or-later
/* task/audiograph.c - AudioGraph: a PipeWire-shaped graph of a driver, two nodes in a client
 * process and a mixer in another, woken through eventfds, each hop stamped. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/chain.h"

#define A_NODES 2

enum { A_DRIVER, A_CLIENT, A_NODE0, A_MIXER = A_NODE0 + A_NODES, A_NSTAGE };
enum { AH_NODE0, AH_MIXER = AH_NODE0 + A_NODES, AH_BACK, AH_COUNT };

static const char *const stage_comm[A_NSTAGE] = {
	"ib-AG-driver", "ib-AG-client", "ib-AG-node0", "ib-AG-node1", "ib-AG-mixer",
};
static const char *const stage_stall[A_NSTAGE] = { "driver", "client", "node0", "node1",
						   "mixer" };
static const unsigned stage_pct[A_NSTAGE] = { 0, 0, 5, 5, 5 };
static const char *const hop_name[AH_COUNT] = {
	"driver>node0", "driver>node1", "node>mixer", "mixer>driver",
};

struct audiograph {			/* shared memory: the nodes and the mixer are other processes */
	struct chain_base base;
	struct stage st[A_NSTAGE];
	struct hop_meas hop[AH_COUNT];
	struct wake_slot node_slot[A_NODES], mixer_slot, done_slot;
	_Atomic int pending;		/* nodes of this cycle not done yet */
	int efd_node[A_NODES], efd_mixer, efd_done;
	struct latency cycle;		/* quantum start to the mixer's completion */
	struct dsp_acc dsp;
	struct chain_summary sum;
	uint64_t start0, quantum_ns;
	pid_t client_pid, mixer_pid;
	struct stage_rings rings;	/* the stages drawn: the nodes, the mixer */
};

struct node_arg {
	struct audiograph *a;
	int i;
};
static struct node_arg node_args[A_NODES];

static void *node_main(void *arg)
{
	struct node_arg *na = arg;
	struct audiograph *a = na->a;
	int i = na->i;
	struct stage *st = &a->st[A_NODE0 + i];
	struct wake_slot *s = &a->node_slot[i];
	uint64_t t_run;

	stage_begin(st, &a->base);
	for (;;) {
		split_before(&st->probe);
		if (!(t_run = efd_wait(a->efd_node[i], &a->base.quit)))
			break;
		hop_record(st, s, t_run);
		stage_work(st, s->k);
		stage_record(st, s->k);
		if (atomic_fetch_sub(&a->pending, 1) == 1)	/* the second done wakes the mixer */
			efd_post(&a->mixer_slot, a->efd_mixer, s->k);
	}
	stage_end(st);
	return NULL;
}

/* The client process: its main thread and its two nodes. */
static int client_main(void *arg)
{
	struct audiograph *a = arg;
	pthread_t th[A_NODES];
	bool have[A_NODES] = { false };

	stage_begin(&a->st[A_CLIENT], &a->base);
	for (int i = 0; i < A_NODES; i++)
		have[i] = !pthread_create(&th[i], NULL, node_main, &node_args[i]);
	for (int i = 0; i < A_NODES; i++)
		if (have[i])
			pthread_join(th[i], NULL);
	stage_end(&a->st[A_CLIENT]);
	return 0;
}

/* The mixer's process: woken once both nodes are done, it completes the cycle. */
static int mixer_main(void *arg)
{
	struct audiograph *a = arg;
	struct stage *st = &a->st[A_MIXER];
	uint64_t t_run;

	stage_begin(st, &a->base);
	for (;;) {
		split_before(&st->probe);
		if (!(t_run = efd_wait(a->efd_mixer, &a->base.quit)))
			break;
		hop_record(st, &a->mixer_slot, t_run);
		stage_work(st, a->mixer_slot.k);
		stage_record(st, a->mixer_slot.k);
		efd_post(&a->done_slot, a->efd_done, a->mixer_slot.k);	/* the cycle's end */
	}
	stage_end(st);
	return 0;
}

static void audiograph_stages(struct audiograph *a, const struct sim_params *p)
{
	uint64_t q = p->period_num / p->period_den;

	a->quantum_ns = q;
	for (int i = 0; i < A_NSTAGE; i++) {
		struct hop_meas *h = i == A_DRIVER ? &a->hop[AH_BACK] :
				     i == A_MIXER ? &a->hop[AH_MIXER] :
				     i >= A_NODE0 && i < A_MIXER ? &a->hop[AH_NODE0 + i - A_NODE0] :
				     NULL;

		stage_init(&a->st[i], p, stage_comm[i], q * stage_pct[i] / 100, &a->base, h);
		stage_stall_from_env(&a->st[i], stage_stall[i]);
	}
	a->st[A_DRIVER].sched_set = false;	/* the driver is the task: sim.c applies them */
	for (int i = 0; i < A_NODES; i++)
		node_args[i] = (struct node_arg){ .a = a, .i = i };
	latency_init(&a->cycle);
	dsp_init(&a->dsp);
	a->sum.kind = CHAIN_AUDIO;
}

static int audiograph_start(struct chain *c, char *why)
{
	struct audiograph *a = shared_alloc(sizeof(*a));
	struct stage *drawn[A_NSTAGE - A_NODE0];
	int ret;

	if (!a)
		return -ENOMEM;
	c->impl = a;
	audiograph_stages(a, c->p);
	for (int i = A_NODE0; i < A_NSTAGE; i++)	/* the client's main thread does no work */
		drawn[i - A_NODE0] = &a->st[i];
	if (stage_rings_open(&a->rings, c->p, drawn, A_NSTAGE - A_NODE0, a->hop))
		return -ENOMEM;
	for (int i = 0; i < A_NODES; i++)
		a->efd_node[i] = eventfd(0, EFD_CLOEXEC);
	a->efd_mixer = eventfd(0, EFD_CLOEXEC);
	a->efd_done = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (a->efd_node[0] < 0 || a->efd_node[1] < 0 || a->efd_mixer < 0 || a->efd_done < 0)
		return -errno;
	a->client_pid = chain_fork(stage_comm[A_CLIENT], client_main, a);
	if (a->client_pid < 0)
		return -errno;
	a->mixer_pid = chain_fork(stage_comm[A_MIXER], mixer_main, a);
	if (a->mixer_pid < 0)
		return -errno;
	ret = chain_ready(&a->base, A_NSTAGE - 1);	/* all but the driver */
	if (ret && a->base.reason[0])
		snprintf(why, REASON_LEN, "%s", a->base.reason);
	return ret;
}

/* The driver's cycle k of the quantum starting at s: the nodes, then the mixer's completion. */
static uint64_t audiograph_cycle(struct chain *c, struct burner *bn, uint64_t k, uint64_t s,
			     bool *cut, uint64_t *t_done)
{
	struct audiograph *a = c->impl;
	struct stage *d = &a->st[A_DRIVER];
	uint64_t t_run, done, cycle;

	if (!a->start0) {
		a->start0 = s;
		stage_begin(d, &a->base);	/* the driver's own probe, for the mixer's hop */
	}
	a->base.end_ns = bn->end_ns;
	stage_work(d, (uint32_t)k);		/* no work: a test's stall only */
	atomic_store(&a->pending, A_NODES);
	for (int i = 0; i < A_NODES; i++)
		efd_post(&a->node_slot[i], a->efd_node[i], (uint32_t)k);
	split_before(&d->probe);
	if (efd_wait_for(a->efd_done, bn->end_ns + NSEC_PER_SEC, &t_run)) {
		*cut = true;		/* a node that never answered: the row ends here */
		*t_done = now_ns();
		return 0;
	}
	hop_record(d, &a->done_slot, t_run);
	done = a->done_slot.t_wake;
	*t_done = done;
	if (done >= bn->end_ns) {
		*cut = true;		/* the row's end cut a node's work: not a cycle */
		return 0;
	}
	cycle = done > s ? done - s : 0;
	latency_add(&a->cycle, cycle);
	a->sum.done++;
	if (dsp_add(&a->dsp, cycle, a->quantum_ns))
		chain_mark(&a->sum, k);
	else
		a->sum.on_time++;
	return 0;
}

/* A quantum whose driver woke after its end: no cycle ran in it, an xrun all the same. */
static void audiograph_late(struct chain *c, uint64_t k)
{
	struct audiograph *a = c->impl;

	dsp_xrun(&a->dsp);
	chain_mark(&a->sum, k);
}

static void audiograph_stop(struct audiograph *a)
{
	uint64_t one = 1;
	int fds[] = { a->efd_node[0], a->efd_node[1], a->efd_mixer, a->efd_done };

	atomic_store(&a->base.quit, 1);
	for (int i = 0; i < 3; i++)
		if (fds[i] > 0 && write(fds[i], &one, sizeof(one)) < 0)
			fds[i] = fds[i];	/* they die with us all the same */
	chain_reap(a->client_pid, now_ns() + NSEC_PER_SEC);
	chain_reap(a->mixer_pid, now_ns() + NSEC_PER_SEC);
	for (int i = 0; i < 4; i++)
		if (fds[i] > 0)
			close(fds[i]);
}

static void audiograph_finish(struct chain *c, struct bench_result *res)
{
	struct audiograph *a = c->impl;
	struct chain_summary *sum = &a->sum;
	struct chain_hists *h;

	if (!a)
		return;
	audiograph_stop(a);
	stage_rings_close(&a->rings, c->p);
	if (res && (h = c->p->hists)) {
		const struct chain_parts cp = {
			.base = &a->base, .st = a->st, .nstage = A_NSTAGE, .hop = a->hop,
			.nhop = AH_COUNT, .hop_name = hop_name, .head_hop = "quantum>driver",
			.start0 = a->start0, .sum = sum, .head_works = false,
		};

		h->time = a->cycle;
		h->dsp_sum = a->dsp.sum;
		h->dsp_n = a->dsp.n;
		sum->dsp_max = a->dsp.n ? a->dsp.max : NAN;
		sum->xruns = a->dsp.xruns;
		chain_summary_end(&cp, h, res);
	}
	shared_free(a, sizeof(*a));
	c->impl = NULL;
}

const struct chain_ops audiograph_ops = {
	.start = audiograph_start, .frame = audiograph_cycle, .late = audiograph_late,
	.finish = audiograph_finish,
};
