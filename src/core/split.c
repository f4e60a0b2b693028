// SPDX-License-Identifier: GPL-2.0-or-later
/* core/split.c - where a wake-up's latency went, and who ran instead, as pure arithmetic on
 * text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/defs.h"
#include "core/period.h"
#include "core/sched_events.h"
#include "core/split.h"

/* ---- the split, pure ---- */

/*
 * The run delay grows from the moment the task is enqueued (on a remote
 * wake-up, after the interrupt reached its CPU) until it is switched in; a
 * preemption between the read before blocking and the one after running
 * (both outside t_wake..t_run) would add to it too, hence the clip: the queue
 * wait never exceeds the latency, and the wake path is exactly the rest.
 */
void split_of(uint64_t lat, uint64_t rd_before, uint64_t rd_after, uint64_t *queue,
	      uint64_t *path)
{
	uint64_t q = rd_after > rd_before ? rd_after - rd_before : 0;

	*queue = q < lat ? q : lat;
	*path = lat - *queue;
}

/* "<cpu time> <run delay> <times run>\n" of /proc/.../schedstat; 0, or -1 if not that. */
int parse_schedstat(const char *text, uint64_t *run_delay, uint64_t *runs)
{
	unsigned long long c, d, n;
	int used = 0;

	if (sscanf(text, "%llu %llu %llu%n", &c, &d, &n, &used) != 3 || !used)
		return -1;
	*run_delay = d;
	*runs = n;
	return 0;
}

/*
 * The CPUs of one wake-up: woken from another CPU (where the waking CPU is
 * known: -1 for the task's own timer), and moved since the previous one.
 */
void split_count(struct split_result *r, int wake_cpu, int run_cpu, int prev_cpu)
{
	if (run_cpu < 0)
		return;
	if (wake_cpu >= 0) {
		r->cpu_known++;
		r->cross_cpu += wake_cpu != run_cpu;
	}
	if (prev_cpu >= 0 && prev_cpu != run_cpu)
		r->migrations++;
}

/* ---- the kernel's own stamp of a wake-up by the task's own timer, pure ---- */

#define HALF_US (NSEC_PER_USEC / 2)	/* the trace prints the nearest microsecond */

/*
 * The kernel's sched_waking of record p's wake-up by the task's own timer
 * (PREC_TIMER), from the task's events tr: the last one between the instant
 * it asked for (t_wake) and its run (t_run), each bound widened by the
 * trace's rounding and the stamp then held within them; 0 when the trace
 * does not hold it. *cpu: the CPU it was woken on, where the timer's
 * interrupt ran.
 */
uint64_t kernel_waking(const struct sched_trace *tr, const struct period_rec *p, int *cpu)
{
	const struct sched_ev *hit = NULL;
	uint64_t lo = p->t_wake > HALF_US ? p->t_wake - HALF_US : 0;

	*cpu = -1;
	if (!tr || !tr->read || !(p->flags & PREC_WOKEN) || !(p->flags & PREC_TIMER))
		return 0;
	for (size_t i = sched_trace_from(tr, lo); i < tr->n && tr->ev[i].ts <= p->t_run + HALF_US;
	     i++)
		if (tr->ev[i].type == SE_WAKING)
			hit = &tr->ev[i];
	if (!hit)
		return 0;
	*cpu = hit->cpu;
	return hit->ts < p->t_wake ? p->t_wake : hit->ts > p->t_run ? p->t_run : hit->ts;
}

/*
 * The wake-ups among n records (oldest first) that the trace tr stamped:
 * each one's timer and scheduler parts into ks (initialised by the caller),
 * and where it was woken against where it ran.
 */
void kernel_split_of(const struct sched_trace *tr, const struct period_rec *rec, size_t n,
		     struct kernel_split *ks)
{
	for (size_t i = 0; i < n; i++) {
		const struct period_rec *p = &rec[i];
		int cpu;
		uint64_t w = kernel_waking(tr, p, &cpu);

		if (!w)
			continue;
		latency_add(&ks->timer, w - p->t_wake);
		latency_add(&ks->sched, p->t_run - w);
		if (cpu >= 0 && p->run_cpu >= 0) {
			ks->cpu_known++;
			ks->cross_cpu += cpu != p->run_cpu;
		}
	}
}

/* ---- who ran instead: one row's trace, pure ---- */

void ran_tally_init(struct ran_tally *t, int pid, uint64_t t0, uint64_t max_wait)
{
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->t0 = t0;
	t->max_wait = max_wait;
}

static void tally_add(struct ran_tally *t, const struct sched_ev *ev, uint64_t wait)
{
	int i;

	t->total += wait;
	t->matched++;
	for (i = 0; i < t->n; i++)
		if (t->slot[i].pid == ev->pid && !strcmp(t->slot[i].comm, ev->comm))
			break;
	if (i == t->n) {
		if (t->n == RAN_SLOTS)
			return;		/* counted in the total: the others' shares stay true */
		t->n++;
		snprintf(t->slot[i].comm, RAN_COMM, "%s", ev->comm);
		t->slot[i].pid = ev->pid;
		t->slot[i].prio = ev->prio;
	}
	t->slot[i].ns += wait;
	if (ev->state == 'R')
		t->slot[i].preempted_ns += wait;
}

/*
 * One event of the task. A sched_wakeup opens a wake-up; the sched_switch
 * that next puts it on a CPU closes it, and the task that switch took the
 * CPU from (prev_*) is charged the time between them: its queue wait as the
 * trace saw it. A switch-in with no wake-up before it (after a preemption)
 * is not a wake-up and is not counted; nor are its switches out.
 */
void ran_tally_event(struct ran_tally *t, const struct sched_ev *ev)
{
	if (ev->ts < t->t0)
		return;
	if (ev->type == SE_WAKEUP) {
		t->woken = ev->ts ? ev->ts : 1;
	} else if (ev->type == SE_SWITCH_IN) {
		if (t->woken && ev->ts >= t->woken && ev->ts - t->woken <= t->max_wait)
			tally_add(t, ev, ev->ts - t->woken);
		t->woken = 0;
	}
}

/* One line of the instance's trace file: an event of the task, or one that says events were lost. */
void ran_tally_line(struct ran_tally *t, const char *line)
{
	struct sched_tids ids = { .n = 1, .tid = { t->pid } };
	struct sched_ev ev[SE_PER_LINE];
	int n;

	if (sched_trace_says_lost(line)) {
		t->lost = true;
		return;
	}
	n = sched_ev_parse(line, &ids, ev);
	for (int i = 0; i < n; i++)
		ran_tally_event(t, &ev[i]);
}

/* A name's share: the threads of one load share it, each per-CPU kworker has its own. */
struct ran_group {
	uint64_t ns, preempted_ns;
	int top;			/* its slot with the most wait */
	int threads;
};

/* The slots named like slot i, summed; false when an earlier slot has that name. */
static bool group_of(const struct ran_tally *t, int i, struct ran_group *g)
{
	memset(g, 0, sizeof(*g));
	g->top = i;
	for (int j = 0; j < t->n; j++) {
		if (strcmp(t->slot[j].comm, t->slot[i].comm))
			continue;
		if (j < i)
			return false;
		g->ns += t->slot[j].ns;
		g->preempted_ns += t->slot[j].preempted_ns;
		g->threads++;
		if (t->slot[j].ns > t->slot[g->top].ns)
			g->top = j;
	}
	return g->ns > 0;
}

/* The RAN_TOP names with the most queue wait, largest first. */
void ran_tally_result(const struct ran_tally *t, struct ran_instead *out)
{
	struct ran_group g[RAN_SLOTS];
	bool used[RAN_SLOTS] = { false };

	memset(out, 0, sizeof(*out));
	out->state = RAN_OK;
	out->matched = t->matched;
	out->lost = t->lost;
	for (int i = 0; i < t->n; i++)
		used[i] = !group_of(t, i, &g[i]);
	while (t->total && out->n < RAN_TOP) {
		struct ran_task *o = &out->top[out->n];
		int best = -1;

		for (int i = 0; i < t->n; i++)
			if (!used[i] && (best < 0 || g[i].ns > g[best].ns))
				best = i;
		if (best < 0)
			break;
		used[best] = true;
		snprintf(o->comm, RAN_COMM, "%s", t->slot[best].comm);
		o->pid = t->slot[g[best].top].pid;
		o->prio = t->slot[g[best].top].prio;
		o->threads = g[best].threads;
		o->share = (double)g[best].ns / (double)t->total;
		o->preempted = (double)g[best].preempted_ns / (double)g[best].ns;
		out->n++;
	}
}

