/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/rtapp_run.h - the engine that runs an rt-app workload's model in the calling (bench)
 * process, measured as interbench measures a task, and what it measured, as plain data. */
#ifndef TASK_RTAPP_RUN_H
#define TASK_RTAPP_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/defs.h"
#include "core/period.h"
#include "core/rtapp_periods.h"
#include "core/split.h"
#include "core/stats.h"
#include "task/rtapp.h"
#include "task/task.h"
#include "task/work.h"

/*
 * Every thread of the file (each instance of each thread object) runs its
 * phases in order with their loop counts, for the row's length (the
 * file's global.duration is not used). Two kinds of wake-up are measured
 * as interbench's tasks are, t_run stamped by the wakee first thing:
 *  - a timer's: by default (--wake timer) the thread sleeps on its own
 *    absolute timer until the expiry, as rt-app's threads do; latency
 *    t_run - expiry, rt-app's wu_lat. With --wake waker it posts the
 *    expiry to its own waker and blocks; latency t_run - t_wake, timer
 *    latency t_wake - expiry;
 *  - a condition's, when a resume wakes it, or when it was a suspend that
 *    waited (whoever woke it): wakeup latency only.
 * Both go into one wakeup latency histogram per thread object (its
 * "Latency"), counted apart; each is split into queue wait and wake path.
 * Each timer use closes a timer period, met when the thread reached it by
 * its expiry (core/rtapp_periods.h).
 */

#define RTAPP_RUN_MAX_OBJS 64		/* thread objects a run takes; more is refused */
#define RTAPP_RUN_NAME_LEN 128		/* a thread object's name, in full, and its NUL */
#define RTAPP_RUN_STACK (256 * 1024)	/* each thread's stack: rtapp_limits.stack_bytes */
#define RTAPP_RUN_WATCHDOG_NS (2 * NSEC_PER_SEC)	/* no progress this long, all */
							/* blocked: a deadlock */

struct rtapp_run_params {
	enum work_mode work;		/* how "run" burns its work (task/work.h) */
	unsigned long loops_per_ms;	/* loops mode */
	enum wake_mode wake;		/* --wake: a timer's thread sleeps on its own timer, */
					/* or its waker wakes it */
	long slack_ns;			/* --timer-slack, of the thread's (or waker's) timer */
	int waker_prio;			/* a SCHED_OTHER thread's waker's SCHED_FIFO priority; */
					/* 0: an ordinary waker */
	bool sched_set;			/* sched replaces every thread's own, in every phase */
	struct task_sched sched;	/* --policy, -B, --slice, --uclamp-* */
	bool split;			/* split each wake-up (core/split.h) */
	uint64_t watchdog_ns;		/* 0: RTAPP_RUN_WATCHDOG_NS */
	struct period_ring *rings;	/* [the file's thread objects]: each one's first */
					/* instance records its wake-ups and its late timer */
					/* periods here (core/period.h's PREC_RTAPP); NULL: none */
	uint64_t time_num, time_den;	/* every duration of the file (run, runtime, sleep, a */
					/* timer's period, delay) scaled by num / den: */
					/* --period swept's (core/tickphase.h); 0: as written */
};

/* How a thread object's threads ended: the worst of its instances. */
enum rtapp_end {
	RTAPP_END_NONE,			/* never began */
	RTAPP_END_DONE,			/* its loops ran out before the row's end */
	RTAPP_END_STOPPED,		/* the row ended it: the ordinary end */
	RTAPP_END_DEADLOCK,		/* blocked in the deadlock that ended the row */
	RTAPP_END_FAILED,		/* it could not go on (its scheduling, its CPUs) */
	RTAPP_END_HUNG,			/* it did not end when told: left behind */
};

struct rtapp_obj_result {	/* one thread object, its instances pooled */
	char name[RTAPP_RUN_NAME_LEN];
	int instances;
	int end;			/* enum rtapp_end */
	char waits_on[64];		/* in a deadlock: what its first blocked instance waited on */
	int32_t tid, tid_waker;		/* its first instance's thread and waker ids (0: none), */
					/* for the trace and the timeline */
	long timer_slack_ns;		/* its first instance's, as read back; -1: none (no */
					/* timer, or the waker sleeps) */
	uint64_t timer_wakeups;		/* measured wake-ups by kind */
	uint64_t resume_wakeups;
	struct latency wake;		/* t_run - t_wake of every measured wake-up */
	struct latency timer;		/* t_wake - expiry of the timer's */
	struct split_result split;	/* their queue wait and wake path, their CPUs */
	struct timer_periods periods;	/* met, missed, rt-app's slack and wu_lat */
	uint64_t dropped;		/* always 0: every timer use is met or missed */
	uint64_t events;		/* events done */
	uint64_t cpu_ns;		/* CPU time its threads used */
	uint64_t work_ns;		/* the work its run and runtime events asked, as done */
	uint64_t loops, burn_cpu_ns;	/* what the burner spun, and in what CPU time */
};

struct rtapp_result {
	int status;			/* enum row_status */
	char reason[REASON_LEN];	/* why it failed */
	uint64_t start_ns;		/* CLOCK_MONOTONIC of the use case's start */
	uint64_t wall_ns;		/* from there to the last thread's end */
	int nobjs;			/* the file's thread objects, in file order */
	struct rtapp_obj_result obj[RTAPP_RUN_MAX_OBJS];
};

/*
 * Run the checked model f (rtapp_check()) for duration_ns (0: until *stop)
 * or until every thread has ended, whichever comes first; *stop (may be
 * NULL) ends it early. Every thread is ended promptly at the end, whatever
 * it waits on; a deadlock the checks could not see, a thread that cannot
 * apply its scheduling or CPUs, or one that does not end, ends the run with
 * res->reason naming the threads and what failed. 0, or -errno with the
 * reason (also for a file refused before anything starts: too many thread
 * objects, a name too long). For the run's length WAKER_SIGNAL (SIGURG,
 * ignored by default) has a handler that does nothing (task/waker.h): it
 * cuts the timers' sleeps (the threads' own, or their wakers') short at
 * the end. After -ETIMEDOUT with a thread
 * left behind (RTAPP_END_HUNG), f must stay as it is until the process
 * exits: that thread may still read it.
 */
int rtapp_run(const struct rtapp_file *f, const struct rtapp_run_params *p, uint64_t duration_ns,
	      atomic_int *stop, struct rtapp_result *res);

const char *rtapp_end_name(enum rtapp_end e);		/* "stopped" */
double rtapp_work_ratio(const struct rtapp_obj_result *o);	/* cpu / work, 0: no work */

#endif
