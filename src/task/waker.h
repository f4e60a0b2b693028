/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/waker.h - the waker: a thread of higher priority that sleeps until the instant a task
 * asked for, stamps t_wake and wakes it (--wake waker; doc/design.md: how a wake-up is timed). */
#ifndef TASK_WAKER_H
#define TASK_WAKER_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

/*
 * The task posts each request (the instant it wants its wake-up, and the
 * instant it expects to ask for after that) with plain stores, and blocks.
 * The waker, once it has woken the task, sleeps straight on to that expected
 * instant instead of blocking until the task's next request, so in a period
 * the task did not overrun neither side makes a system call for the other:
 * the task only blocks, the waker only sleeps and wakes. Only when the waker
 * finds no request (the task overran) does it block on req and ask, through
 * waiting, to be woken.
 */
struct waker {
	_Atomic uint32_t req;		/* 1: a request is posted; 2: quit */
	_Atomic uint32_t go;		/* 1: the task may run */
	_Atomic uint32_t waiting;	/* 1: the waker blocks on req */
	uint64_t intended;		/* written by the task before req */
	uint64_t next;			/* the request expected after it, 0: none */
	uint64_t t_wake;		/* written by the waker before go */
	int wake_cpu;			/* the waker's CPU at t_wake */
	_Atomic int tid;		/* the waker thread's id, once it runs */
	long slack_ns;			/* its timer's slack (--timer-slack) */
	atomic_int *stop;
	pthread_t thread;
};

/* prio: SCHED_FIFO's, 0 (or not allowed) for an ordinary waker; 0 or -errno. */
int waker_start(struct waker *w, int prio, long slack_ns, atomic_int *stop);
uint64_t wait_for_waker(struct waker *w, uint64_t t, uint64_t next);
void waker_stop(struct waker *w);

/*
 * For a task that is told to stop at any instant (an rt-app workload's
 * thread, whose next expiry may be seconds away). While the interrupts are
 * on (a handler that does nothing, without SA_RESTART, for WAKER_SIGNAL,
 * which is ignored by default), waker_end() cuts the waker's sleep short,
 * as a stop signal does, whatever it was doing, until it has ended, by
 * until_ns (CLOCK_MONOTONIC): 0, or -ETIMEDOUT with the waker left behind.
 * waker_let_go() lets a task still blocked on it return, with no wake-up
 * to measure: it must look at its stop.
 */
#define WAKER_SIGNAL SIGURG
int waker_interrupts_on(struct sigaction *old);
void waker_interrupts_off(const struct sigaction *old);
int waker_end(struct waker *w, uint64_t until_ns);
void waker_let_go(struct waker *w);

#endif
