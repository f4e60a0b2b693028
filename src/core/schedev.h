/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/schedev.h - the scheduler's events about one task, parsed from a trace instance's text:
 * its wake-ups, switches in and out, migrations. */
#ifndef CORE_SCHEDEV_H
#define CORE_SCHEDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sched_ev_type {
	SE_WAKEUP,			/* sched_wakeup of the task: cpu is its target CPU */
	SE_SWITCH_IN,			/* sched_switch to the task: other is prev, who had the CPU */
	SE_SWITCH_OUT,			/* sched_switch from the task: other is next, who took it; */
					/* state is the task's prev_state ('R': preempted) */
	SE_MIGRATE,			/* sched_migrate_task: cpu is dest_cpu */
};

#define SE_COMM 16

struct sched_ev {
	uint64_t ts;			/* CLOCK_MONOTONIC ns (the instance's trace_clock mono) */
	int32_t cpu;			/* the CPU the event names (see the types) */
	int32_t pid, prio;		/* the other task's: prev at a switch-in, next at a switch-out */
	char comm[SE_COMM];		/* its comm, cut to fit */
	uint8_t type;			/* enum sched_ev_type */
	char state;			/* SE_SWITCH_OUT: the task's state as it left ('R', 'S', 'D') */
};

struct sched_trace {		/* one row's events, in time order, bounded */
	struct sched_ev *ev;
	size_t n, cap;
	bool lost;			/* the kernel or the bound dropped some */
};

bool sched_ev_parse(const char *line, int pid, struct sched_ev *ev);
void sched_trace_free(struct sched_trace *t);

#endif
