// SPDX-License-Identifier: GPL-2.0-or-later
/* task/sim.c - the simulated interactive tasks: the periodic loop and Gaming's flat one
 * (core/accounting.c counts, wake.c wakes). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/chain.h"
#include "task/task.h"
#include "task/wake.h"

static bool stopping(atomic_int *stop)
{
	return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/* The task's burner: its mode, and where every burn stops (the row's end, or *stop). */
static void burner_init(struct burner *b, const struct sim_params *p, uint64_t end_ns,
			atomic_int *stop)
{
	*b = (struct burner){ .mode = p->work, .loops_per_ms = p->loops_per_ms,
			      .end_ns = end_ns, .stop = stop };
}

static void burner_result(const struct burner *b, struct bench_result *res)
{
	if (!res)
		return;
	res->loops = b->loops;
	res->burn_cpu_ns = b->cpu_ns;
}

static uint64_t work_of(const struct sim_params *p, uint64_t k)
{
	return p->frame_work ? p->frame_work(p, k) : p->work_ns;
}

static void trace_sample(const struct sim_params *p, struct bench_result *res,
			 uint64_t lat)
{
	char msg[160];
	int len;

	if (!p->trace_above_ns || lat <= p->trace_above_ns || res->traced_ns)
		return;
	res->traced_ns = lat;
	len = snprintf(msg, sizeof(msg),
		       "interbench: %s %s %llu ns above %llu ns\n", p->name,
		       p->wake == WAKE_TIMER ? "latency" : "wakeup latency", (unsigned long long)lat,
		       (unsigned long long)p->trace_above_ns);
	if (p->trace_fd >= 0 && write(p->trace_fd, msg, (size_t)len) < 0)
		res->traced_ns = lat;	/* the stop below still matters */
	if (p->tracing_on_fd >= 0 && write(p->tracing_on_fd, "0", 1) < 0)
		res->traced_ns = lat;
}

/*
 * One wake-up's samples: its latency from ws->t_wake (the instant asked
 * for, or the waker's stamp; never a negative one) and the waker's timer
 * latency. Whether the latency was recorded.
 */
static bool record_wakeup(const struct sim_params *p, struct bench_result *res, uint64_t s,
			  const struct wake_src *ws, uint64_t t_run)
{
	struct wake_sample w = wake_sample_of(ws->mode == WAKE_TIMER, s, ws->t_wake, t_run);

	if (w.ok) {
		latency_add(&res->wake, w.lat);
		trace_sample(p, res, w.lat);
	}
	if (w.has_timer)
		latency_add(&res->timer, w.timer);
	return w.ok;
}

/*
 * A test-only stall: INTERBENCH_TEST_STALL=K:MS makes period K's work sleep
 * MS ms more after it is done (blocked, not running), so tests know which
 * period misses and by how much. Anything malformed is no stall.
 */
struct stall {
	uint64_t k, ns;
	bool on;
};

static struct stall stall_from_env(void)
{
	const char *s = getenv("INTERBENCH_TEST_STALL"), *colon;
	char k[24];
	long kv, ms;

	if (!s || !(colon = strchr(s, ':')) || (size_t)(colon - s) >= sizeof(k))
		return (struct stall){ 0 };
	memcpy(k, s, (size_t)(colon - s));
	k[colon - s] = '\0';
	if (parse_long(k, 0, LONG_MAX, &kv) || parse_long(colon + 1, 1, 10000, &ms))
		return (struct stall){ 0 };
	return (struct stall){ .k = (uint64_t)kv, .ns = (uint64_t)ms * NSEC_PER_MSEC, .on = true };
}

/* The period's record, once its work is done (or cut): into the ring, if there is one. */
static void record_period(const struct sim_params *p, struct period_rec *pr, uint64_t k_worked,
			  uint64_t t_done, bool cut)
{
	if (!p->ring)
		return;
	pr->skipped = k_worked - pr->k > UINT16_MAX ? UINT16_MAX : (uint16_t)(k_worked - pr->k);
	pr->t_done = t_done;
	if (!cut)
		pr->flags |= PREC_DONE;
	period_ring_push(p->ring, pr);
}

static void publish(struct sim_live *live, const struct acct *a)
{
	if (!live)
		return;
	atomic_store(&live->achieved, a->met + a->missed);
	atomic_store(&live->dropped, a->dropped);
}

/* A period's work: the task's own, or its chain's frame; its end in *t_done. */
static uint64_t period_work(const struct sim_params *p, struct chain *ch, struct burner *bn,
			    const struct stall *st, uint64_t k, uint64_t s, bool *cut,
			    uint64_t *t_done)
{
	uint64_t done;

	if (ch)
		return ch->ops->frame(ch, bn, k, s, cut, t_done);
	done = burn_work(bn, work_of(p, k), cut);
	if (st->on && k == st->k && !*cut)
		sleep_ns(st->ns);
	*t_done = now_ns();
	return done;
}

/*
 * The periodic task. Its work stops at the end of its last period wherever
 * it is, so even a starved task answers on time with what it got: a period
 * cut short there is missed, and only the work it did counts in work_ns.
 */
static void run_periodic(const struct sim_params *p, struct wake_src *ws, struct chain *ch,
			 uint64_t duration_ns, atomic_int *stop,
			 struct bench_result *res, struct sim_live *live)
{
	struct period_clock c = {
		.start0 = now_ns() + NSEC_PER_MSEC,
		.num = p->period_num,
		.den = p->period_den,
		.nperiods = UINT64_MAX,
	};
	struct acct a = { 0 };
	struct burner bn;
	struct split_probe pr;
	uint64_t k = 0, k0, s, t_run, t_done, work_sum = 0, cpu0;
	struct stall st = stall_from_env();
	bool cut = false;
	int cpu;

	split_probe_open(&pr, res && p->split ? &res->split : NULL, c.start0);
	if (duration_ns)
		c.nperiods = mul_div(duration_ns, c.den, c.num);
	burner_init(&bn, p, duration_ns ? period_start(&c, c.nperiods) : 0, stop);
	cpu0 = thread_cpu_ns();		/* the periods' CPU time, not the set-up's */
	bn.end_cpu = cpu0;		/* CPU mode: the first period's work counts from here */
	while (k < c.nperiods && !stopping(stop) && !cut) {
		struct period_rec rec = { .k = (uint32_t)k, .wake_cpu = -1, .run_cpu = -1 };

		s = period_start(&c, k);
		if (s > now_ns()) {
			split_before(&pr);
			t_run = wake_src_wait(ws, s, k + 1 < c.nperiods ?
					      period_start(&c, k + 1) : 0);
			if (!t_run)
				break;		/* a stop, before its instant */
			rec.t_wake = ws->t_wake;
			if (res && record_wakeup(p, res, s, ws, t_run)) {
				uint64_t q = split_after(&pr, t_run - ws->t_wake, ws->wake_cpu,
							 &cpu);

				rec.flags = PREC_WOKEN | (q <= UINT32_MAX ? PREC_QUEUE : 0) |
					    (ws->mode == WAKE_TIMER ? PREC_TIMER : 0);
				rec.queue_ns = q <= UINT32_MAX ? (uint32_t)q : 0;
				rec.wake_cpu = (int16_t)ws->wake_cpu;
				rec.run_cpu = (int16_t)cpu;
			}
		} else {
			t_run = now_ns();	/* overran into it: no wake-up */
			rec.t_wake = t_run;
		}
		rec.t_run = t_run;
		k0 = k;
		k = acct_start(&a, &c, k, t_run);
		if (ch && k > k0)	/* it started after its period's end */
			ch->ops->late(ch, k0);
		if (k >= c.nperiods) {
			rec.flags |= PREC_NOWORK;
			record_period(p, &rec, k0, t_run, true);
			break;
		}
		bn.from_cpu = bn.end_cpu;	/* CPU mode: from the last period's end */
		work_sum += period_work(p, ch, &bn, &st, k, period_start(&c, k), &cut, &t_done);
		record_period(p, &rec, k, t_done, cut);
		k = acct_finish(&a, &c, k, t_done);
		publish(live, &a);
	}
	if (res) {
		res->task_cpu_ns = thread_cpu_ns() - cpu0;
		res->acct = a;
		res->work_ns = work_sum;
		res->pct_cpu = acct_pct_cpu(&a);
		res->pct_deadlines = acct_pct_deadlines(&a);
		res->wall_ns = now_ns() - c.start0;
		res->period_log = (struct period_log){ .start0 = c.start0, .num = c.num,
						       .den = c.den,
						       .counted = a.met + a.missed + a.dropped };
		burner_result(&bn, res);
	}
	split_probe_close(&pr);
}

/*
 * Gaming: units of 100 ms of work back to back. A unit's latency is its
 * wall time less the CPU time it got; % desired CPU is CPU time over wall
 * time, a unit cut short by the row's end included.
 */
static void run_flat(const struct sim_params *p, uint64_t duration_ns,
		     atomic_int *stop, struct bench_result *res,
		     struct sim_live *live)
{
	uint64_t start = now_ns(), cpu0;
	struct gaming_acct g = { 0 };
	struct burner bn;
	bool cut = false;

	burner_init(&bn, p, duration_ns ? start + duration_ns : 0, stop);
	cpu0 = thread_cpu_ns();
	while (!stopping(stop) && !cut) {
		uint64_t w0 = now_ns(), c0 = thread_cpu_ns(), wall, cpu, lat;

		burn_work(&bn, GAMING_UNIT_NS, &cut);
		wall = now_ns() - w0;
		cpu = thread_cpu_ns() - c0;
		if (cut) {
			gaming_partial(&g, wall, cpu);
			break;
		}
		lat = gaming_account(&g, wall, cpu);
		if (p->ring) {
			struct period_rec rec = { .t_wake = w0, .t_run = w0, .t_done = w0 + wall,
						  .k = (uint32_t)(g.units - 1),
						  .queue_ns = lat < UINT32_MAX ? (uint32_t)lat :
							      UINT32_MAX,
						  .flags = PREC_UNIT | PREC_DONE, .wake_cpu = -1,
						  .run_cpu = (int16_t)sched_getcpu() };

			period_ring_push(p->ring, &rec);
		}
		if (res) {
			latency_add(&res->wake, lat);
			trace_sample(p, res, lat);
		}
		if (live)
			atomic_store(&live->achieved, g.units);
	}
	if (res) {
		res->task_cpu_ns = thread_cpu_ns() - cpu0;
		res->gaming = g;
		res->period_log = (struct period_log){ .start0 = start, .counted = g.units };
		res->pct_cpu = gaming_pct_cpu(&g);
		res->pct_deadlines = -1.0;
		res->wall_ns = now_ns() - start;
		burner_result(&bn, res);
	}
}

/*
 * The task's scheduling knobs, after its waker is started (a deadline task
 * cannot fork); then, when it sleeps on its own timer, that timer's slack,
 * as the kernel keeps it (none for a real-time task).
 */
static int apply_sched(const struct sim_params *p, bool own_timer, struct bench_result *res)
{
	char why[REASON_LEN];
	long slack = -1;
	int ret = 0;

	if (p->sched_set)
		ret = sched_apply(&p->sched, p->name, why, sizeof(why));
	if (ret && res)
		snprintf(res->reason, sizeof(res->reason), "%s", why);
	if (!ret && own_timer)
		slack = timer_slack_set(p->slack_ns);
	if (res)
		res->timer_slack_ns = slack;
	return ret;
}

/* Game and AudioGraph: their chain, started before the waker; NULL for a single task. */
static struct chain *chain_of(const struct sim_params *p, struct chain *ch,
			      struct bench_result *res, int *ret)
{
	char why[REASON_LEN] = "";

	*ret = 0;
	if (!p->chain_ops)
		return NULL;
	*ch = (struct chain){ .ops = p->chain_ops, .p = p };
	*ret = ch->ops->start(ch, why);
	if (!*ret)
		return ch;
	if (res)
		snprintf(res->reason, sizeof(res->reason), "%s chain: %.150s", p->name,
			 why[0] ? why : strerror(-*ret));
	ch->ops->finish(ch, NULL);
	return NULL;
}

/* The task's name, as its thread's. */
static void name_thread(const struct sim_params *p)
{
	char name[16];

	snprintf(name, sizeof(name), "ib-%s", p->name);
	pthread_setname_np(pthread_self(), name);
}

/*
 * Run the periodic simulation (a chain's head, with its chain) in the
 * calling thread for duration_ns (0: until *stop), measuring into res when
 * it is not NULL, publishing progress into live.
 */
int sim_run(const struct sim_params *p, uint64_t duration_ns, atomic_int *stop,
	    struct bench_result *res, struct sim_live *live)
{
	struct chain chs, *ch;
	struct wake_src ws;
	int ret;

	name_thread(p);
	ch = chain_of(p, &chs, res, &ret);
	if (!ret)
		ret = wake_src_start(&ws, p->wake, p->waker_prio, p->slack_ns, stop);
	if (!ret && (ret = apply_sched(p, p->wake == WAKE_TIMER, res)))
		wake_src_stop(&ws);
	if (ret) {
		if (ch)
			ch->ops->finish(ch, NULL);
		return ret;
	}
	run_periodic(p, &ws, ch, duration_ns, stop, res, live);
	wake_src_stop(&ws);
	if (ch)
		ch->ops->finish(ch, res);
	if (res) {
		res->period_log.tid_waker = wake_src_waker_tid(&ws);
		res->period_log.tid_task = (int32_t)syscall(SYS_gettid);
	}
	return 0;
}

/* Gaming's run: units of work back to back, as sim_run() is called; it sleeps on no timer. */
int sim_run_flat(const struct sim_params *p, uint64_t duration_ns, atomic_int *stop,
		 struct bench_result *res, struct sim_live *live)
{
	int ret;

	name_thread(p);
	ret = apply_sched(p, false, res);
	if (ret)
		return ret;
	run_flat(p, duration_ns, stop, res, live);
	if (res)
		res->period_log.tid_task = (int32_t)syscall(SYS_gettid);
	return 0;
}
