/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/ran_slices.h - who had a CPU while the task waited: its scheduler events paired into
 * intervals, for the timeline's CPU tracks. */
#ifndef CORE_RAN_SLICES_H
#define CORE_RAN_SLICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sched_events.h"

/*
 * A wait of the task and who had the CPU meanwhile. After a wake-up: from
 * its SE_WAKEUP to the SE_SWITCH_IN that ran it, charged to that switch's
 * previous task, on the switch-in's CPU. After a preemption (SE_SWITCH_OUT
 * in state 'R'): from the switch-out to the next switch-in, charged to the
 * task that took the CPU, on the switch-out's CPU.
 */
struct ran_slice {
	uint64_t t0, t1;		/* CLOCK_MONOTONIC ns: the wait's start and the switch-in */
	int32_t cpu;			/* the CPU the other task had */
	int32_t pid, prio;		/* the other task's */
	char comm[SE_COMM];
	bool preempted;			/* after a preemption, else after a wake-up */
};

struct ran_walk {		/* a walk over one row's events, in time order */
	const struct sched_ev *ev;
	size_t n, i;
	const struct sched_ev *open;	/* the wake-up or preemption not yet switched in */
};

void ran_walk_init(struct ran_walk *w, const struct sched_ev *ev, size_t n);
bool ran_walk_next(struct ran_walk *w, struct ran_slice *s);

#endif
