/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/wake.h - how a task is woken at the instants it asks for: by its own timer (--wake
 * timer, the default) or by the waker thread (--wake waker, interbench 0.31's design). */
#ifndef TASK_WAKE_H
#define TASK_WAKE_H

#include <stdatomic.h>
#include <stdint.h>

#include "task/waker.h"

/*
 * A real audio, video or game thread is woken by its own timer or by an
 * interrupt, not by another thread. So by default the task sleeps on an
 * absolute CLOCK_MONOTONIC timer (clock_nanosleep, TIMER_ABSTIME, as
 * cyclictest and rt-app do) set to the instant it asked for, with no
 * thread of ours between that instant and its first stamp: its latency is
 * t_run - the instant. The waker keeps 0.31's design for comparison: a
 * thread of higher priority sleeps to the instant, stamps t_wake and wakes
 * the task through a futex; its latency is then t_run - t_wake.
 */
enum wake_mode {
	WAKE_TIMER,			/* the task's own timer: latency from the instant */
	WAKE_WAKER,			/* the waker thread's futex wake: latency from t_wake */
};
extern const char *const wake_mode_names[];	/* "timer", "waker", NULL */

/* The timer's slack by default: none to speak of, so it fires at the instant asked for. */
#define TIMER_SLACK_DEFAULT_NS 1L

struct wake_src {		/* a periodic task's wake-ups, either way */
	enum wake_mode mode;
	struct waker w;			/* WAKE_WAKER: its thread */
	atomic_int *stop;		/* a wait ends, with no wake-up, once this is set */
	uint64_t t_wake;		/* the last wake-up's start: the waker's stamp, or the */
					/* instant asked for (the task's own timer) */
	int wake_cpu;			/* the waker's CPU at t_wake; -1: the task's own timer */
};

int wake_src_start(struct wake_src *ws, enum wake_mode mode, int waker_prio, long slack_ns,
		   atomic_int *stop);
uint64_t wake_src_wait(struct wake_src *ws, uint64_t t, uint64_t next);
void wake_src_stop(struct wake_src *ws);
int32_t wake_src_waker_tid(const struct wake_src *ws);

uint64_t timer_wait(uint64_t t, atomic_int *stop);
long timer_slack_set(long ns);

#endif
