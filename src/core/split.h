/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/split.h - where each wake-up's latency went (queue wait, wake path, CPUs) and who ran
 * instead. */
#ifndef CORE_SPLIT_H
#define CORE_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/stats.h"

/*
 * Each wake-up's latency (t_run - t_wake) is split in two. The queue wait is
 * the growth of the task's schedstat run delay (the time it was runnable but
 * not running) from just before it blocked to just after it ran, clipped to
 * [0, latency]; the wake path is the rest, latency - queue wait, so the two
 * add up to the latency exactly, sample by sample.
 */
enum split_state {
	SPLIT_OFF,			/* not measured: --no-split, Gaming, no result */
	SPLIT_NO_SCHEDSTAT,		/* CPUs only: the kernel has no schedstat */
	SPLIT_ON,
};

struct split_result {		/* in struct bench_result: plain data */
	int state;			/* enum split_state */
	struct latency queue;		/* queue wait per wake-up (SPLIT_ON) */
	struct latency path;		/* wake path per wake-up (SPLIT_ON) */
	uint64_t cpu_known;		/* wake-ups whose waking CPU was known: a waker's or a */
					/* chain's stage's (a timer's is the trace's) */
	uint64_t cross_cpu;		/* of them, woken from another CPU than the one it ran on */
	uint64_t migrations;		/* ran on another CPU than at its previous wake-up */
	uint64_t queued;		/* queue wait longer than the wake path (SPLIT_ON) */
	uint64_t t_first;		/* CLOCK_MONOTONIC of the first period: the trace's window */
};

/* The arithmetic of one wake-up. */
void split_of(uint64_t lat, uint64_t rd_before, uint64_t rd_after, uint64_t *queue,
	      uint64_t *path);
int parse_schedstat(const char *text, uint64_t *run_delay, uint64_t *runs);
void split_count(struct split_result *r, int wake_cpu, int run_cpu, int prev_cpu);

/*
 * --wake timer: a wake-up by the task's own timer has no stamp of ours
 * between the instant it asked for and its run. As root with the trace,
 * the kernel's own stamp splits it: the task's sched_waking, the start of
 * its wake-up in the timer's interrupt, parts the timer's delay (the
 * instant to sched_waking: hrtimer, interrupt, idle exit) from the
 * scheduler's (sched_waking to its run: enqueue, the wait behind other
 * tasks, the switch). The trace prints whole microseconds: each part is
 * within half of one, and the two add up to the latency exactly.
 */
struct sched_trace;
struct period_rec;

struct kernel_split {		/* the wake-ups by the task's own timer the trace held */
	struct latency timer;		/* the instant asked for to sched_waking */
	struct latency sched;		/* sched_waking to t_run */
	uint64_t cross_cpu;		/* of them, woken on another CPU than the one it ran on */
	uint64_t cpu_known;		/* of them, with the CPU it ran on known */
};

uint64_t kernel_waking(const struct sched_trace *tr, const struct period_rec *p, int *cpu);
void kernel_split_of(const struct sched_trace *tr, const struct period_rec *rec, size_t n,
		     struct kernel_split *ks);

/* ---- who ran instead: from the private trace instance, per row ---- */

#define RAN_TOP 3			/* tasks named per row */
#define RAN_SLOTS 64			/* tasks told apart while reading a trace */
#define RAN_COMM 32

struct ran_task {		/* a name that had the CPU while the task waited */
	char comm[RAN_COMM];
	int pid, prio;			/* of its thread that had it longest; prio as the */
					/* kernel prints it (120: nice 0, 58: FIFO 41) */
	int threads;			/* threads of that name seen */
	double share;			/* of the queue wait the trace saw, 0..1 */
	double preempted;		/* of its own share: it was still runnable (R) */
};

enum ran_state {
	RAN_UNKNOWN,			/* not asked for, or no trace instance */
	RAN_OK,				/* the trace was read */
	RAN_FAILED,			/* the trace could not be read */
	RAN_NOT_TRACED,			/* a workload file's thread the row did not trace */
};

struct ran_instead {		/* in struct row */
	int state;			/* enum ran_state */
	int n;				/* of top */
	struct ran_task top[RAN_TOP];
	uint64_t matched;		/* wake-ups whose switch-in the trace holds */
	bool lost;			/* the trace lost events: shares of what it kept */
};

struct ran_tally {		/* reading one row's trace, line by line */
	int pid;			/* the task */
	uint64_t t0;			/* events before it are not the simulation's */
	uint64_t max_wait;		/* a longer wait is not one of its wake-ups */
	uint64_t woken;			/* the pending sched_wakeup's time, 0: none */
	uint64_t total;			/* ns of queue wait attributed */
	uint64_t matched;
	bool lost;
	int n;
	struct {
		char comm[RAN_COMM];
		int pid, prio;
		uint64_t ns, preempted_ns;
	} slot[RAN_SLOTS];
};

void ran_tally_init(struct ran_tally *t, int pid, uint64_t t0, uint64_t max_wait);
struct sched_ev;
void ran_tally_event(struct ran_tally *t, const struct sched_ev *ev);
void ran_tally_line(struct ran_tally *t, const char *line);
void ran_tally_result(const struct ran_tally *t, struct ran_instead *out);

#endif
