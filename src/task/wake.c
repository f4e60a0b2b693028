// SPDX-License-Identifier: GPL-2.0-or-later
/* task/wake.c - a task's wake-ups at the instants it asks for: its own absolute timer, or the
 * waker's. */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

#include "lib/util.h"
#include "task/wake.h"

const char *const wake_mode_names[] = { "timer", "waker", NULL };

static bool stopping(atomic_int *stop)
{
	return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/*
 * Sleep on the calling thread's own absolute CLOCK_MONOTONIC timer until
 * t, then stamp t_run: nothing but the return from the system call lies
 * between the kernel running the thread and the stamp. A signal cuts the
 * sleep short only for a stop (*stop set): 0, no wake-up.
 */
uint64_t timer_wait(uint64_t t, atomic_int *stop)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NSEC_PER_SEC),
			       .tv_nsec = (long)(t % NSEC_PER_SEC) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (stopping(stop))
			return 0;
	return now_ns();
}

/*
 * The calling thread's timer slack set to ns (> 0: 0 would mean its
 * default), and read back: the kernel keeps none for a real-time or
 * deadline thread, whatever was asked.
 */
long timer_slack_set(long ns)
{
	prctl(PR_SET_TIMERSLACK, (unsigned long)ns, 0UL, 0UL, 0UL);
	return (long)prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
}

/*
 * The waker started in waker mode, its timer at slack_ns; in timer mode
 * the calling thread sleeps, and sets its own slack once it is scheduled
 * as asked (timer_slack_set()).
 */
int wake_src_start(struct wake_src *ws, enum wake_mode mode, int waker_prio, long slack_ns,
		   atomic_int *stop)
{
	*ws = (struct wake_src){ .mode = mode, .stop = stop, .wake_cpu = -1 };
	return mode == WAKE_WAKER ? waker_start(&ws->w, waker_prio, slack_ns, stop) : 0;
}

/*
 * Sleep until t, the next wait most likely being for next (0: none, a hint
 * for the waker); t_run, or 0 when a stop ended the wait with no wake-up.
 */
uint64_t wake_src_wait(struct wake_src *ws, uint64_t t, uint64_t next)
{
	uint64_t t_run;

	if (ws->mode == WAKE_TIMER) {
		ws->t_wake = t;
		return timer_wait(t, ws->stop);
	}
	t_run = wait_for_waker(&ws->w, t, next);
	if (stopping(ws->stop))
		return 0;
	ws->t_wake = ws->w.t_wake;
	ws->wake_cpu = ws->w.wake_cpu;
	return t_run;
}

void wake_src_stop(struct wake_src *ws)
{
	if (ws->mode == WAKE_WAKER)
		waker_stop(&ws->w);
}

/* The waker thread's id, 0 when there is none (the task's own timer). */
int32_t wake_src_waker_tid(const struct wake_src *ws)
{
	return ws->mode == WAKE_WAKER ? atomic_load(&ws->w.tid) : 0;
}
