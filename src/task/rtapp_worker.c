// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_worker.c - the life of one rt-app workload thread: its name, scheduling, CPUs and
 * probe, the start, its phases in order with their loops, and its end. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/rtapp_engine.h"

/*
 * A phase's scheduling and CPUs; then, for a thread that sleeps on its own
 * timer, that timer's slack again: the kernel resets it when a thread
 * leaves a real-time class.
 */
static int apply_phase(struct rt_thread *thr, const struct rtapp_phase *ph)
{
	int ret = rt_apply_phase(thr, ph);

	if (!ret && thr->timed && thr->run->p->wake == WAKE_TIMER)
		thr->timer_slack = timer_slack_set(thr->run->p->slack_ns);
	return ret;
}

/*
 * Before the start, in the thread itself: its kernel name (the file's,
 * cut to 15 bytes), the first phase's scheduling and CPUs, so that a
 * refusal fails the run before it starts, and its probe (its schedstat),
 * opened under its object's lock since instances share one split.
 */
static int setup(struct rt_thread *thr)
{
	struct rt_run *run = thr->run;
	char comm[16];
	int ret;

	snprintf(comm, sizeof(comm), "%s", thr->t->name);
	pthread_setname_np(pthread_self(), comm);
	thr->tid = (int32_t)gettid();
	thr->bn = (struct burner){ .mode = run->p->work, .loops_per_ms = run->p->loops_per_ms,
				   .stop = &run->quit };
	ret = apply_phase(thr, &thr->t->phases[0]);
	if (ret)
		return thr->err = ret;
	if (run->p->split && rtapp_woken(thr->t)) {
		pthread_mutex_lock(&run->obj_lock[thr->obj]);
		split_probe_open(&thr->probe, &run->obj[thr->obj].split, now_ns());
		pthread_mutex_unlock(&run->obj_lock[thr->obj]);
		thr->probing = true;
	}
	return 0;
}

/* Until the controller opens the gate; false when the run ends before it starts. */
static bool wait_start(struct rt_thread *thr)
{
	struct rt_run *run = thr->run;

	atomic_store(&thr->ready, 1);
	rt_post_news(run);
	while (!atomic_load(&run->gate))
		syscall(SYS_futex, &run->gate, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return !rt_quit(run);
}

/* One phase, its loops in a row; false when the thread must end. */
static bool run_phase(struct rt_thread *thr, const struct rtapp_phase *ph)
{
	thr->err = apply_phase(thr, ph);
	if (thr->err)
		return false;
	for (long i = 0; (ph->loop < 0 || i < ph->loop) && !rt_quit(thr->run); i++) {
		bool last = ph->loop > 0 && i == ph->loop - 1;

		for (size_t e = 0; e < ph->nevents && !rt_quit(thr->run) && !thr->err; e++)
			rt_exec(thr, ph, e, last);
		if (thr->err)
			return false;
	}
	return !rt_quit(thr->run);
}

/* The thread's rounds of all its phases, from its start (the use case's plus its delay). */
static void run_phases(struct rt_thread *thr)
{
	const struct rtapp_thread *t = thr->t;
	struct rt_run *run = thr->run;

	thr->base = run->t0 + rt_ns(run, t->delay_us);
	thr->bn.end_ns = run->end_ns;
	thr->c.cpu0 = thread_cpu_ns();
	thr->bn.end_cpu = thr->c.cpu0;
	atomic_store(&thr->doing, rt_doing(RT_TIMED, 0, -1));
	if (!rt_sleep_until(thr, thr->base))
		return;
	for (long round = 0; t->loop < 0 || round < t->loop; round++)
		for (size_t p = 0; p < t->nphases; p++)
			if (!run_phase(thr, &t->phases[p]))
				return;
}

/*
 * Its end: every mutex it still holds let go (the row's end can find it in
 * a critical section; one left held when its loops ran out is a failure),
 * its figures, and its end stored last, for the controller. One that never
 * began was stopped by the run's failure to start.
 */
static void finish(struct rt_thread *thr, bool began)
{
	struct rt_run *run = thr->run;
	int end = RTAPP_END_STOPPED;

	if (!thr->reason[0] && !rt_quit(run) && thr->nheld) {
		snprintf(thr->reason, sizeof(thr->reason), "tasks.%s: its loops ended holding "
			 "mutex '%s'", thr->t->name, run->f->res[thr->held[0]].name);
		thr->err = -EBUSY;
	}
	rt_release_all(thr);
	if (began)
		thr->c.cpu_ns = thread_cpu_ns() - thr->c.cpu0;
	if (thr->probing)
		split_probe_close(&thr->probe);
	if (thr->reason[0])
		end = RTAPP_END_FAILED;
	else if (began && !rt_quit(run))
		end = RTAPP_END_DONE;
	atomic_store(&thr->doing, rt_doing(RT_ENDED, 0, -1));
	atomic_store(&thr->end, end);
	rt_post_news(run);
}

void *rt_thread_main(void *arg)
{
	struct rt_thread *thr = arg;
	bool began = false;

	if (!setup(thr) && wait_start(thr)) {
		began = true;
		run_phases(thr);
	}
	finish(thr, began);
	return NULL;
}
