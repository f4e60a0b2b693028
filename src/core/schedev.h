/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/schedev.h - the scheduler's events about one task, parsed from a trace instance's text:
 * its wake-ups, switches in and out, migrations. */
#ifndef CORE_SCHEDEV_H
#define CORE_SCHEDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sched_ev_type {
	SE_WAKEUP,			/* sched_wakeup of the task: cpu is its target CPU, */
					/* other the task that woke it (prio -1) */
	SE_SWITCH_IN,			/* sched_switch to the task: other is prev, who had the CPU; */
					/* state is prev's as it left */
	SE_SWITCH_OUT,			/* sched_switch from the task: other is next, who took it; */
					/* state is the task's prev_state ('R': preempted) */
	SE_MIGRATE,			/* sched_migrate_task: cpu is dest_cpu, other the mover */
};

#define SE_COMM 16

struct sched_ev {
	uint64_t ts;			/* CLOCK_MONOTONIC ns (the instance's trace_clock mono), */
					/* as printed: whole microseconds, rounded down */
	int32_t cpu;			/* the CPU the event names (see the types) */
	int32_t pid, prio;		/* the other task's: prev at a switch-in, next at a switch-out */
	char comm[SE_COMM];		/* its comm, cut to fit */
	uint8_t type;			/* enum sched_ev_type */
	char state;			/* at a switch: 'R' (also "R+"), 'S', 'D', ... */
};

struct sched_trace {		/* one row's events, in time order, bounded */
	struct sched_ev *ev;
	size_t n, cap;
	bool lost;			/* the kernel or the bound dropped some */
	bool read;			/* the row's trace was read: what is not here did not happen */
					/* (but for lost events) */
};

bool sched_ev_parse(const char *line, int pid, struct sched_ev *ev);
bool sched_trace_says_lost(const char *line);
bool sched_trace_add(struct sched_trace *t, const struct sched_ev *ev, size_t most);
void sched_trace_free(struct sched_trace *t);

#endif
