/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/sched_events.h - the scheduler's events about a row's threads, parsed from a trace
 * instance's text: their wake-ups, switches in and out, migrations. */
#ifndef CORE_SCHED_EVENTS_H
#define CORE_SCHED_EVENTS_H

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
	SE_WAKING,			/* sched_waking of the task, the start of its wake-up (the */
					/* kernel's own stamp): cpu is the CPU it was woken on, */
					/* other what ran there (an interrupted task, or idle) */
};

#define SE_COMM 16

struct sched_ev {
	uint64_t ts;			/* CLOCK_MONOTONIC ns (the instance's trace_clock mono), */
					/* as printed: whole microseconds (the nearest) */
	int32_t cpu;			/* the CPU the event names (see the types) */
	int32_t pid, prio;		/* the other task's: prev at a switch-in, next at a switch-out */
	char comm[SE_COMM];		/* its comm, cut to fit */
	uint8_t type;			/* enum sched_ev_type */
	char state;			/* at a switch: 'R' (also "R+"), 'S', 'D', ... */
	uint8_t who;			/* the thread it is about: its index in the sched_tids */
};

/*
 * The threads a row's trace is about: each member's task (one without a
 * group), and a chain's head and its stages (a switch from one to another
 * is an event of each): -W Desktop needs 9.
 */
#define SE_TIDS_MAX 24
#define SE_PER_LINE 2			/* events one line can be: a switch out, then one in */

struct sched_tids {
	int n;
	int32_t tid[SE_TIDS_MAX];	/* > 0 */
};

struct sched_trace {		/* one row's events, in time order, bounded */
	struct sched_ev *ev;
	size_t n, cap;
	bool lost;			/* the kernel or the bound dropped some */
	bool read;			/* the row's trace was read: what is not here did not happen */
					/* (but for lost events) */
};

int sched_tids_find(const struct sched_tids *ids, int32_t tid);
size_t sched_trace_from(const struct sched_trace *tr, uint64_t ts);
int sched_ev_parse(const char *line, const struct sched_tids *ids, struct sched_ev ev[SE_PER_LINE]);
bool sched_trace_says_lost(const char *line);
bool sched_trace_add(struct sched_trace *t, const struct sched_ev *ev, size_t most);
void sched_trace_free(struct sched_trace *t);

#endif
