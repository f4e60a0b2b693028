// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_exec.c - one event of an rt-app workload's thread, done as rt-app does it and
 * measured as interbench measures: timers and resumes as stamped wake-ups, work as CPU time. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "task/rtapp_engine.h"

static void set_doing(struct rt_thread *thr, enum rt_state s, int kind, int res)
{
	atomic_store_explicit(&thr->doing, rt_doing(s, kind, res), memory_order_relaxed);
}

/*
 * Into the thread's ring, if it keeps one: a record of PREC_RTAPP's shape
 * (core/period.h), numbered in the order made. One thread writes a ring.
 */
static void push_record(struct rt_thread *thr, struct period_rec *rec)
{
	if (!thr->ring)
		return;
	rec->k = thr->nrec++;
	rec->flags |= PREC_RTAPP;
	period_ring_push(thr->ring, rec);
}

/*
 * One wake-up from t_wake (the waker's stamp, from wake_cpu; or its own
 * timer's expiry, wake_cpu -1) to t_run (the thread's stamp): its latency,
 * the waker's timer latency when it was a timer's (expiry, else 0), and its
 * split, into the thread object's histograms, which its instances share.
 */
static void record_wakeup(struct rt_thread *thr, uint64_t t_wake, uint64_t t_run, int wake_cpu,
			  uint64_t expiry)
{
	struct rtapp_obj_result *o = &thr->run->obj[thr->obj];
	pthread_mutex_t *lock = &thr->run->obj_lock[thr->obj];
	bool own_timer = expiry && !thr->w;
	struct period_rec rec = { .t_wake = t_wake, .t_run = t_run, .t_done = expiry,
				  .wake_cpu = (int16_t)wake_cpu, .run_cpu = -1,
				  .flags = PREC_WOKEN | (own_timer ? PREC_TIMER : 0) };
	struct wake_sample w = wake_sample_of(own_timer, expiry, t_wake, t_run);
	uint64_t q = UINT64_MAX;
	int cpu = -1;

	if (!w.ok)
		return;
	pthread_mutex_lock(lock);
	latency_add(&o->wake, w.lat);
	if (w.has_timer)
		latency_add(&o->timer, w.timer);
	if (thr->probing)
		q = split_after(&thr->probe, w.lat, wake_cpu, &cpu);
	pthread_mutex_unlock(lock);
	if (expiry)
		thr->c.timer_wakeups++;
	else
		thr->c.resume_wakeups++;
	rec.run_cpu = (int16_t)cpu;
	if (q <= UINT32_MAX) {
		rec.queue_ns = (uint32_t)q;
		rec.flags |= PREC_QUEUE;
	}
	push_record(thr, &rec);
}

static void prepare_split(struct rt_thread *thr)
{
	if (thr->probing)
		split_before(&thr->probe);
}

/* ---- mutexes ---- */

/* false, the thread failed with its reason, if the mutex could not be taken. */
static bool lock_mutex(struct rt_thread *thr, int m, int kind)
{
	struct rt_res *r = &thr->run->rs[m];
	int ret;

	set_doing(thr, RT_LOCK, kind, m);
	ret = pthread_mutex_lock(&r->lock);
	set_doing(thr, RT_BUSY, kind, m);
	if (ret || thr->nheld == RT_MAX_HELD) {
		if (!ret)
			pthread_mutex_unlock(&r->lock);
		snprintf(thr->reason, sizeof(thr->reason), "tasks.%s: pthread_mutex_lock of '%s': "
			 "%s", thr->t->name, thr->run->f->res[m].name,
			 ret ? strerror(ret) : "too many mutexes held at once");
		thr->err = ret ? -ret : -ENOLCK;
		return false;
	}
	atomic_store(&r->holder, thr->idx);
	thr->held[thr->nheld++] = m;
	return true;
}

/* Only a mutex it holds: the row's end may have left a wait without taking it back. */
static void unlock_mutex(struct rt_thread *thr, int m)
{
	struct rt_res *r = &thr->run->rs[m];

	for (int i = thr->nheld - 1; i >= 0; i--) {
		if (thr->held[i] != m)
			continue;
		memmove(&thr->held[i], &thr->held[i + 1],
			(size_t)(thr->nheld - i - 1) * sizeof(thr->held[0]));
		thr->nheld--;
		atomic_store(&r->holder, -1);
		pthread_mutex_unlock(&r->lock);
		return;
	}
}

/* At its end, wherever the row's end found it: what it still holds, last taken first. */
void rt_release_all(struct rt_thread *thr)
{
	while (thr->nheld)
		unlock_mutex(thr, thr->held[thr->nheld - 1]);
}

/* ---- conditions ---- */

/*
 * A wait on condition c (already queued), mutex m given up while it waits
 * and, unless the row ended, taken back after, as pthread_cond_wait() does.
 * The wake-up is measured when a resume delivered it or when it was a
 * suspend's: t_run is stamped before the mutex is taken back.
 */
static void cond_wait(struct rt_thread *thr, const struct rtapp_event *ev, int c, int m)
{
	struct rt_waiter *w = &thr->wt;
	uint64_t t_run;

	prepare_split(thr);
	unlock_mutex(thr, m);
	set_doing(thr, RT_COND, ev->kind, c);
	t_run = rt_block(thr, &thr->run->rs[c]);
	set_doing(thr, RT_BUSY, ev->kind, c);
	if (!t_run)
		return;
	if (w->by == RTAPP_RESUME || ev->kind == RTAPP_SUSPEND)
		record_wakeup(thr, w->t_wake, t_run, w->wake_cpu, 0);
	lock_mutex(thr, m, ev->kind);	/* a failure ends the thread after the event */
}

/* suspend: rt-app's lock, wait, unlock on the condition and mutex of its name. */
static void do_suspend(struct rt_thread *thr, const struct rtapp_event *ev)
{
	if (!lock_mutex(thr, ev->mutex, ev->kind))
		return;
	rt_enqueue(&thr->run->rs[ev->res], thr);
	cond_wait(thr, ev, ev->res, ev->mutex);
	unlock_mutex(thr, ev->mutex);	/* not held if the row ended while it waited */
}

/* resume: the condition broadcast with its mutex held; nobody waiting, it is lost. */
static void do_resume(struct rt_thread *thr, const struct rtapp_event *ev)
{
	if (!lock_mutex(thr, ev->mutex, ev->kind))
		return;
	rt_wake_all(&thr->run->rs[ev->res], RTAPP_RESUME);
	unlock_mutex(thr, ev->mutex);
}

/* wait, and sync after its signal: the mutex is held (rtapp_check() makes sure). */
static void do_wait(struct rt_thread *thr, const struct rtapp_event *ev)
{
	rt_enqueue(&thr->run->rs[ev->res], thr);
	cond_wait(thr, ev, ev->res, ev->mutex);
}

/* ---- timers ---- */

static struct rtapp_timer *timer_of(struct rt_thread *thr, int res, pthread_mutex_t **lock)
{
	*lock = NULL;
	for (int i = 0; i < thr->nunique; i++)
		if (thr->unique[i].res == res)
			return &thr->unique[i].timer;
	*lock = &thr->run->rs[res].lock;
	return &thr->run->rs[res].timer;
}

/*
 * The instant its waker will most likely be asked for next: the expiry of
 * the phase's next use of the same timer, which comes no earlier than one
 * period on (a shared timer's other users only push it later). A later
 * hint would make the waker oversleep, so anything less sure is 0.
 */
static uint64_t next_hint(const struct rt_thread *thr, const struct rtapp_phase *ph, size_t e,
			  uint64_t expiry, bool last_round)
{
	for (size_t i = 1; i <= ph->nevents; i++) {
		size_t k = (e + i) % ph->nevents;
		const struct rtapp_event *ev = &ph->events[k];

		if (ev->kind != RTAPP_TIMER)
			continue;
		if (ev->res != ph->events[e].res || (k <= e && last_round))
			return 0;
		return expiry + rt_ns(thr->run, ev->usec);
	}
	return 0;
}

/*
 * Sleep to a timer's expiry: on the thread's own timer, or its waker's.
 * t_run, or 0 when the row's end cut the sleep short; the wake-up's start
 * (the expiry, or the waker's stamp) and its CPU (-1: not known).
 */
static uint64_t timer_sleep(struct rt_thread *thr, const struct rtapp_phase *ph, size_t e,
			    uint64_t expiry, bool last_round, uint64_t *t_wake, int *wake_cpu)
{
	uint64_t t_run;

	if (!thr->w) {
		*t_wake = expiry;
		*wake_cpu = -1;
		t_run = timer_wait(expiry, &thr->run->quit);
	} else {
		t_run = wait_for_waker(thr->w, expiry, next_hint(thr, ph, e, expiry, last_round));
		*t_wake = thr->w->t_wake;
		*wake_cpu = thr->w->wake_cpu;
	}
	return rt_quit(thr->run) ? 0 : t_run;
}

/* A timer use: its expiry by rt-app's rule, a wake-up by its timer unless it is past. */
static void do_timer(struct rt_thread *thr, const struct rtapp_phase *ph, size_t e,
		     bool last_round)
{
	const struct rtapp_event *ev = &ph->events[e];
	const struct rtapp_res *m = &thr->run->f->res[ev->res];
	pthread_mutex_t *lock;
	struct rtapp_timer *tm = timer_of(thr, ev->res, &lock);
	struct timer_use u;
	uint64_t t_run = 0, t_wake, reached = now_ns();
	int wake_cpu;

	if (lock)
		pthread_mutex_lock(lock);
	u = rtapp_timer_reach(tm, thr->base, rt_ns(thr->run, ev->usec), reached, m->absolute);
	if (lock)
		pthread_mutex_unlock(lock);
	if (u.wait) {
		set_doing(thr, RT_TIMED, ev->kind, ev->res);
		prepare_split(thr);
		t_run = timer_sleep(thr, ph, e, u.expiry, last_round, &t_wake, &wake_cpu);
		if (!t_run)
			return;		/* let go at the row's end: no wake-up, no period */
		record_wakeup(thr, t_wake, t_run, wake_cpu, u.expiry);
	} else if (u.slack < 0) {	/* reached late: its period missed, no wake-up */
		push_record(thr, &(struct period_rec){ .t_wake = u.expiry, .t_run = reached,
						       .t_done = u.expiry, .wake_cpu = -1,
						       .run_cpu = -1 });
	}
	timer_period_close(&thr->c.periods, &u, t_run);
}

/* ---- work ---- */

/* run: CPU time (CPU mode counts from the last burn's end: what lies between is work too). */
static void do_run(struct rt_thread *thr, const struct rtapp_event *ev)
{
	bool cut;

	thr->bn.from_cpu = thr->bn.end_cpu;
	thr->c.work_ns += burn_work(&thr->bn, rt_ns(thr->run, ev->usec), &cut);
}

/* runtime: rt-app's meaning, wall time spinning, preempted or not. */
static void do_runtime(struct rt_thread *thr, const struct rtapp_event *ev)
{
	uint64_t t0 = now_ns(), end = t0 + rt_ns(thr->run, ev->usec), t = t0;

	while (t < end && !rt_quit(thr->run)) {
		burn_loops(256);
		t = now_ns();
	}
	thr->c.work_ns += (t < end ? t : end) - t0;
	thr->bn.end_cpu = thread_cpu_ns();	/* the next run's work counts from here */
}

void rt_exec(struct rt_thread *thr, const struct rtapp_phase *ph, size_t e, bool last_round)
{
	const struct rtapp_event *ev = &ph->events[e];
	struct rt_res *r = ev->res >= 0 ? &thr->run->rs[ev->res] : NULL;

	set_doing(thr, RT_BUSY, ev->kind, ev->res);
	switch (ev->kind) {
	case RTAPP_RUN:
		do_run(thr, ev);
		break;
	case RTAPP_RUNTIME:
		do_runtime(thr, ev);
		break;
	case RTAPP_SLEEP:
		set_doing(thr, RT_TIMED, ev->kind, -1);
		rt_sleep_until(thr, now_ns() + rt_ns(thr->run, ev->usec));
		break;
	case RTAPP_TIMER:
		do_timer(thr, ph, e, last_round);
		break;
	case RTAPP_SUSPEND:
		do_suspend(thr, ev);
		break;
	case RTAPP_RESUME:
		do_resume(thr, ev);
		break;
	case RTAPP_LOCK:
		lock_mutex(thr, ev->res, ev->kind);
		break;
	case RTAPP_UNLOCK:
		unlock_mutex(thr, ev->res);
		break;
	case RTAPP_WAIT:
		do_wait(thr, ev);
		break;
	case RTAPP_SYNC:
		rt_wake_first(r, RTAPP_SIGNAL);
		do_wait(thr, ev);
		break;
	case RTAPP_SIGNAL:
		rt_wake_first(r, RTAPP_SIGNAL);
		break;
	case RTAPP_BROAD:
		rt_wake_all(r, RTAPP_BROAD);
		break;
	case RTAPP_BARRIER:
		set_doing(thr, RT_BARRIER, ev->kind, ev->res);
		rt_barrier(thr, r, thr->run->f->res[ev->res].users);
		break;
	case RTAPP_YIELD:
		sched_yield();
		break;
	}
	set_doing(thr, RT_BUSY, ev->kind, -1);
	thr->c.events++;
	atomic_fetch_add_explicit(&thr->progress, 1, memory_order_relaxed);
}
