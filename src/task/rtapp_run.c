// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_run.c - the rt-app engine's controller: a run's state, its threads and wakers
 * started together, watched, ended promptly whatever they wait on, and their results. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/rtapp_engine.h"

#define READY_NS (5 * NSEC_PER_SEC)	/* every thread set up, or the run fails */
#define LEAD_NS NSEC_PER_MSEC		/* from the gate's opening to the use case's start */
#define WATCH_NS (100 * NSEC_PER_MSEC)	/* the controller looks at least this often */
#define END_NS (2 * NSEC_PER_SEC)	/* told to end, every thread has ended by then */

static int fail(struct rtapp_result *res, int err, const char *fmt, ...) PRINTF(3, 4);
static int fail(struct rtapp_result *res, int err, const char *fmt, ...)
{
	va_list ap;

	res->status = ROW_FAILED;
	if (res->reason[0])
		return err;
	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
	return err;
}

/* What a run's plain-data result cannot hold is refused before anything starts. */
static int refuse(const struct rtapp_file *f, struct rtapp_result *res)
{
	if (!f->nthreads)
		return fail(res, -EINVAL, "%s: no threads to run", f->path);
	if (f->nthreads > RTAPP_RUN_MAX_OBJS)
		return fail(res, -E2BIG, "%s: %zu thread objects: more than the %d a run takes",
			    f->path, f->nthreads, RTAPP_RUN_MAX_OBJS);
	if (rtapp_nthreads(f) > RTAPP_MAX_THREADS)
		return fail(res, -E2BIG, "%s: %d threads: more than the %d a run takes", f->path,
			    rtapp_nthreads(f), RTAPP_MAX_THREADS);
	for (size_t t = 0; t < f->nthreads; t++) {
		const struct rtapp_thread *th = &f->threads[t];

		if (strlen(th->name) >= RTAPP_RUN_NAME_LEN)
			return fail(res, -ENAMETOOLONG, "%s:%d: tasks.%.40s...: a name of %zu "
				    "bytes: longer than the %d a result keeps", f->path, th->line,
				    th->name, strlen(th->name), RTAPP_RUN_NAME_LEN - 1);
		if (!th->nphases)
			return fail(res, -EINVAL, "%s:%d: tasks.%s: no phases to run", f->path,
				    th->line, th->name);
	}
	return 0;
}

static void init_results(const struct rtapp_file *f, struct rtapp_result *res)
{
	memset(res, 0, sizeof(*res));
	res->status = ROW_OK;
	res->nobjs = f->nthreads <= RTAPP_RUN_MAX_OBJS ? (int)f->nthreads : 0;
	for (int i = 0; i < res->nobjs; i++) {
		struct rtapp_obj_result *o = &res->obj[i];

		snprintf(o->name, sizeof(o->name), "%s", f->threads[i].name);
		o->instances = f->threads[i].instances;
		latency_init(&o->wake);
		latency_init(&o->timer);
		o->split.state = SPLIT_OFF;
		o->timer_slack_ns = -1;
	}
}

/* The thread's own "unique" timers, one each however often it names them. */
static int unique_timers(struct rt_thread *thr, const struct rtapp_file *f)
{
	const struct rtapp_thread *t = thr->t;
	size_t most = 0;

	for (size_t p = 0; p < t->nphases; p++)
		most += t->phases[p].nevents;
	thr->unique = calloc(most ? most : 1, sizeof(*thr->unique));
	if (!thr->unique)
		return -ENOMEM;
	for (size_t p = 0; p < t->nphases; p++) {
		for (size_t e = 0; e < t->phases[p].nevents; e++) {
			const struct rtapp_event *ev = &t->phases[p].events[e];
			int i = 0;

			if (ev->kind != RTAPP_TIMER || !f->res[ev->res].unique)
				continue;
			while (i < thr->nunique && thr->unique[i].res != ev->res)
				i++;
			if (i == thr->nunique)
				thr->unique[thr->nunique++].res = ev->res;
		}
	}
	return 0;
}

/* Every instance of every thread object, in file order, with its waker if it has timers. */
static int make_threads(struct rt_run *run)
{
	const struct rtapp_file *f = run->f;
	int n = 0, nw = 0;

	for (size_t t = 0; t < f->nthreads; t++) {
		for (int i = 0; i < f->threads[t].instances; i++, n++) {
			struct rt_thread *thr = &run->thr[n];

			*thr = (struct rt_thread){ .run = run, .t = &f->threads[t], .obj = (int)t,
						   .inst = i, .idx = n, .timer_slack = -1 };
			thr->wt.thr = thr;
			if (i == 0 && run->p->rings)
				thr->ring = &run->p->rings[t];
			thr->timed = rtapp_timed(thr->t);
			if (thr->timed && run->p->wake == WAKE_WAKER) {
				thr->w = &run->wakers[nw++];
				thr->waker_prio = rt_waker_prio(thr->t, run->p);
			}
			if (unique_timers(thr, f))
				return -ENOMEM;
		}
	}
	run->nwakers = nw;
	return 0;
}

static void run_free(struct rt_run *run)
{
	for (size_t r = 0; run->rs && r < run->f->nres; r++)
		rt_res_destroy(&run->rs[r], &run->f->res[r]);
	for (int i = 0; run->thr && i < run->nthr; i++)
		free(run->thr[i].unique);
	for (int i = 0; i < RTAPP_RUN_MAX_OBJS; i++)
		pthread_mutex_destroy(&run->obj_lock[i]);
	free(run->obj);
	free(run->rs);
	free(run->thr);
	free(run->wakers);
	free(run);
}

static struct rt_run *run_alloc(const struct rtapp_file *f, const struct rtapp_run_params *p,
				struct rtapp_result *res)
{
	struct rt_run *run = calloc(1, sizeof(*run));
	int ret = 0;

	if (!run)
		return NULL;
	*run = (struct rt_run){ .f = f, .p = p, .res = res, .nthr = rtapp_nthreads(f) };
	for (int i = 0; i < RTAPP_RUN_MAX_OBJS; i++)
		pthread_mutex_init(&run->obj_lock[i], NULL);
	run->obj = malloc(f->nthreads * sizeof(*run->obj));
	if (run->obj)
		memcpy(run->obj, res->obj, f->nthreads * sizeof(*run->obj));
	run->rs = calloc(f->nres + 1, sizeof(*run->rs));
	run->thr = calloc((size_t)run->nthr, sizeof(*run->thr));
	run->wakers = calloc((size_t)run->nthr, sizeof(*run->wakers));
	for (size_t r = 0; run->rs && !ret && r < f->nres; r++)
		ret = rt_res_init(&run->rs[r], &f->res[r], f->global.pi_enabled);
	if (!run->obj || !run->rs || !run->thr || !run->wakers || ret || make_threads(run) ||
	    sched_getaffinity(0, sizeof(run->allowed), &run->allowed)) {
		run_free(run);
		return NULL;
	}
	return run;
}

/* ---- start ---- */

/* The wakers first: a thread may become SCHED_DEADLINE, which could not start one. */
static int start_threads(struct rt_run *run)
{
	pthread_attr_t attr;
	int ret = 0;

	for (int i = 0; !ret && i < run->nthr; i++) {
		struct rt_thread *thr = &run->thr[i];

		if (thr->w && (ret = waker_start(thr->w, thr->waker_prio, run->p->slack_ns,
						 &run->quit)))
			return fail(run->res, ret, "tasks.%s: pthread_create of its waker: %s",
				    thr->t->name, strerror(-ret));
		thr->waker_on = thr->w != NULL;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, RTAPP_RUN_STACK);
	for (int i = 0; !ret && i < run->nthr; i++) {
		struct rt_thread *thr = &run->thr[i];

		ret = -pthread_create(&thr->pt, &attr, rt_thread_main, thr);
		thr->created = !ret;
		if (ret)
			fail(run->res, ret, "tasks.%s (instance %d): pthread_create: %s",
			     thr->t->name, thr->inst, strerror(-ret));
	}
	pthread_attr_destroy(&attr);
	return ret;
}

static void wait_news(struct rt_run *run, uint32_t seen, uint64_t until_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(until_ns / NSEC_PER_SEC),
			       .tv_nsec = (long)(until_ns % NSEC_PER_SEC) };

	syscall(SYS_futex, &run->news, FUTEX_WAIT_BITSET_PRIVATE, seen, &ts, NULL,
		FUTEX_BITSET_MATCH_ANY);
}

/* The first thread that failed, its reason the run's; NULL: none. */
static const struct rt_thread *failed_thread(const struct rt_run *run)
{
	for (int i = 0; i < run->nthr; i++)
		if (atomic_load(&run->thr[i].end) == RTAPP_END_FAILED)
			return &run->thr[i];
	return NULL;
}

/* Every thread set up and waiting for the start, or the first refusal as the reason. */
static int wait_ready(struct rt_run *run)
{
	uint64_t until = now_ns() + READY_NS;
	const struct rt_thread *bad;

	for (;;) {
		uint32_t seen = atomic_load(&run->news);
		int n = 0;

		for (int i = 0; i < run->nthr; i++)
			n += atomic_load(&run->thr[i].ready) || atomic_load(&run->thr[i].end);
		if ((bad = failed_thread(run)))
			return fail(run->res, bad->err ? bad->err : -EIO, "%s", bad->reason);
		if (n == run->nthr)
			return 0;
		if (now_ns() >= until)
			return fail(run->res, -ETIMEDOUT, "%s: %d of %d threads were not set up "
				    "within %llu s", run->f->path, run->nthr - n, run->nthr,
				    READY_NS / NSEC_PER_SEC);
		wait_news(run, seen, until);
	}
}

static void release_gate(struct rt_run *run)
{
	atomic_store(&run->gate, 1);
	syscall(SYS_futex, &run->gate, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

/* The use case starts a moment after the gate opens: every thread is there by then. */
static void open_gate(struct rt_run *run, uint64_t duration_ns)
{
	run->t0 = now_ns() + LEAD_NS;
	run->end_ns = duration_ns ? run->t0 + duration_ns : 0;
	run->res->start_ns = run->t0;
	for (int i = 0; i < run->res->nobjs; i++)
		run->obj[i].split.t_first = run->t0;
	release_gate(run);
}

/* ---- the run, watched ---- */

static bool all_ended(const struct rt_run *run)
{
	for (int i = 0; i < run->nthr; i++)
		if (run->thr[i].created && !atomic_load(&run->thr[i].end))
			return false;
	return true;
}

static uint64_t progress(const struct rt_run *run)
{
	uint64_t sum = 0;

	for (int i = 0; i < run->nthr; i++)
		sum += atomic_load_explicit(&run->thr[i].progress, memory_order_relaxed);
	return sum;
}

/*
 * Until the row's end, *stop, every thread's end, a thread's failure or a
 * deadlock: threads that all wait on each other, none having done anything
 * for the watchdog's time (a moment when all seem blocked is not enough: a
 * woken one may not have run yet).
 */
static int watch(struct rt_run *run, atomic_int *stop)
{
	uint64_t dog = run->p->watchdog_ns ? run->p->watchdog_ns : RTAPP_RUN_WATCHDOG_NS;
	uint64_t last = progress(run), since = now_ns();
	const struct rt_thread *bad;

	for (;;) {
		uint32_t seen = atomic_load(&run->news);
		uint64_t now = now_ns(), sum = progress(run), until = now + WATCH_NS;

		if ((bad = failed_thread(run)))
			return fail(run->res, bad->err ? bad->err : -EIO, "%s", bad->reason);
		if ((run->end_ns && now >= run->end_ns) || (stop && atomic_load(stop)) ||
		    all_ended(run))
			return 0;
		if (sum != last) {
			last = sum;
			since = now;
		} else if (now - since >= dog && rt_all_blocked(run)) {
			rt_say_deadlock(run, now - since);
			run->res->status = ROW_FAILED;
			return -EDEADLK;
		}
		wait_news(run, seen, run->end_ns && run->end_ns < until ? run->end_ns : until);
	}
}

/* ---- the end ---- */

/*
 * The wakers ended first, their sleeps cut short; then every thread told,
 * again and again until it has ended (one may be between its look at quit
 * and its wait): its own word for its conditions, barriers and sleeps, its
 * waker's for a timer, or WAKER_SIGNAL for its own timer's sleep. A mutex
 * waiter is let go by the holder's own end.
 * By until_ns, or what is left is left behind.
 */
static void end_threads(struct rt_run *run, uint64_t until_ns)
{
	atomic_store(&run->quit, 1);
	release_gate(run);
	for (int i = 0; i < run->nthr; i++) {
		struct rt_thread *thr = &run->thr[i];

		if (thr->waker_on && waker_end(thr->w, until_ns))
			fail(run->res, -ETIMEDOUT, "tasks.%s: its waker did not end within %llu s "
			     "of the row's end", thr->t->name, END_NS / NSEC_PER_SEC);
		else
			thr->waker_on = false;
	}
	for (;;) {
		for (int i = 0; i < run->nthr; i++) {
			struct rt_thread *thr = &run->thr[i];

			if (!thr->created || atomic_load(&thr->end))
				continue;
			rt_kick(thr);
			if (thr->w)
				waker_let_go(thr->w);
			else if (thr->timed)	/* its own timer's sleep cut short */
				pthread_kill(thr->pt, WAKER_SIGNAL);
		}
		if (all_ended(run) || now_ns() >= until_ns)
			return;
		sleep_ns(NSEC_PER_MSEC);
	}
}

static int join_by(pthread_t t, uint64_t until_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(until_ns / NSEC_PER_SEC),
			       .tv_nsec = (long)(until_ns % NSEC_PER_SEC) };

	return -pthread_clockjoin_np(t, NULL, CLOCK_MONOTONIC, &ts);
}

/* "lock 'M'": what a thread left behind was last seen doing. */
static void last_doing(const struct rt_run *run, const struct rt_thread *thr, char *buf,
		       size_t len)
{
	int d = atomic_load(&thr->doing), r = rt_doing_res(d);

	snprintf(buf, len, "%s%s%s%s", rtapp_kind_name((enum rtapp_kind)rt_doing_kind(d)),
		 r >= 0 ? " '" : "", r >= 0 ? run->f->res[r].name : "", r >= 0 ? "'" : "");
}

/*
 * Every thread and waker joined by until_ns; one that is not is left
 * behind (and with it the run's memory, which it may still touch): true
 * when none was.
 */
static bool join_all(struct rt_run *run, uint64_t until_ns)
{
	bool all = true;
	char what[160];

	for (int i = 0; i < run->nthr; i++) {
		struct rt_thread *thr = &run->thr[i];

		if (thr->created && join_by(thr->pt, until_ns)) {
			all = false;
			last_doing(run, thr, what, sizeof(what));
			fail(run->res, -ETIMEDOUT, "tasks.%s (instance %d) did not end within %llu "
			     "s of the row's end (last seen in %s)", thr->t->name, thr->inst,
			     END_NS / NSEC_PER_SEC, what);
			atomic_store(&thr->end, RTAPP_END_HUNG);
		}
		all &= !thr->waker_on;		/* end_threads() joined those it could */
	}
	return all;
}

/* Once every thread is gone: a mutex that cannot be taken is still held. */
static int check_mutexes(struct rt_run *run)
{
	for (size_t m = 0; m < run->f->nres; m++) {
		struct rt_res *r = &run->rs[m];
		int h;

		if (run->f->res[m].type != RTAPP_RES_MUTEX || !r->inited)
			continue;
		if (!pthread_mutex_trylock(&r->lock)) {
			pthread_mutex_unlock(&r->lock);
			continue;
		}
		h = atomic_load(&r->holder);
		return fail(run->res, -EBUSY, "%s: mutex '%s' is still held at the end%s%s",
			    run->f->path, run->f->res[m].name, h >= 0 ? " by tasks." : "",
			    h >= 0 ? run->thr[h].t->name : "");
	}
	return 0;
}

/* Each thread's figures into its object's: counts added, ends the worst of its instances. */
static void pool(struct rt_run *run)
{
	uint64_t last = run->t0;

	for (int i = 0; i < run->nthr; i++) {
		struct rt_thread *thr = &run->thr[i];
		struct rtapp_obj_result *o = &run->obj[thr->obj];
		int end = thr->deadlocked ? RTAPP_END_DEADLOCK : atomic_load(&thr->end);

		o->timer_wakeups += thr->c.timer_wakeups;
		o->resume_wakeups += thr->c.resume_wakeups;
		o->events += thr->c.events;
		timer_periods_merge(&o->periods, &thr->c.periods);
		o->cpu_ns += thr->c.cpu_ns;
		o->work_ns += thr->c.work_ns;
		o->loops += thr->bn.loops;
		o->burn_cpu_ns += thr->bn.cpu_ns;
		if (thr->inst == 0) {
			o->tid = thr->tid;
			o->tid_waker = thr->w ? atomic_load(&thr->w->tid) : 0;
			o->timer_slack_ns = thr->timer_slack;
		}
		if (end > o->end)
			o->end = end;
	}
	if (run->t0 && now_ns() > last)
		last = now_ns();
	run->res->wall_ns = run->t0 ? last - run->t0 : 0;
	memcpy(run->res->obj, run->obj, (size_t)run->res->nobjs * sizeof(*run->obj));
}

int rtapp_run(const struct rtapp_file *f, const struct rtapp_run_params *p, uint64_t duration_ns,
	      atomic_int *stop, struct rtapp_result *res)
{
	struct sigaction old;
	struct rt_run *run;
	int ret;

	init_results(f, res);
	ret = refuse(f, res);
	if (ret)
		return ret;
	ret = waker_interrupts_on(&old);
	if (ret)
		return fail(res, ret, "sigaction %s for the wakers: %s", strsignal(WAKER_SIGNAL),
			    strerror(-ret));
	run = run_alloc(f, p, res);
	if (!run) {
		waker_interrupts_off(&old);
		return fail(res, -ENOMEM, "%s: out of memory for %d threads", f->path,
			    rtapp_nthreads(f));
	}
	ret = start_threads(run);
	if (!ret)
		ret = wait_ready(run);
	if (!ret) {
		open_gate(run, duration_ns);
		ret = watch(run, stop);
	}
	end_threads(run, now_ns() + END_NS);
	if (!join_all(run, now_ns() + END_NS)) {
		pool(run);
		/* the run's memory, and the handler, stay for the threads left behind */
		return ret ? ret : -ETIMEDOUT;
	}
	waker_interrupts_off(&old);
	pool(run);
	if (!ret)
		ret = check_mutexes(run);
	run_free(run);
	return ret;
}

const char *rtapp_end_name(enum rtapp_end e)
{
	static const char *const names[] = {
		[RTAPP_END_NONE] = "none", [RTAPP_END_DONE] = "done",
		[RTAPP_END_STOPPED] = "stopped", [RTAPP_END_DEADLOCK] = "deadlock",
		[RTAPP_END_FAILED] = "failed", [RTAPP_END_HUNG] = "hung",
	};

	return (unsigned)e < ARRAY_SIZE(names) ? names[e] : "?";
}

double rtapp_work_ratio(const struct rtapp_obj_result *o)
{
	return o->work_ns ? (double)o->cpu_ns / (double)o->work_ns : 0.0;
}
