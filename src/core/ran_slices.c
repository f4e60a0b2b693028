// SPDX-License-Identifier: GPL-2.0-or-later
/* core/ran_slices.c - a task's scheduler events paired into the waits it spent behind others. */
#include <string.h>

#include "core/ran_slices.h"

void ran_walk_init(struct ran_walk *w, const struct sched_ev *ev, size_t n)
{
	*w = (struct ran_walk){ .ev = ev, .n = ev ? n : 0 };
}

/*
 * The wait that the switch-in in closes, into s; false when it closes none:
 * nothing open, the idle task (pid 0: it ran no one instead, the wait was
 * the wake-up's path), or a switch-in before its opening event (the trace
 * lost some).
 */
static bool close_wait(const struct sched_ev *open, const struct sched_ev *in,
		       struct ran_slice *s)
{
	const struct sched_ev *who = open->type == SE_WAKEUP ? in : open;

	if (in->ts < open->ts || who->pid == 0)
		return false;
	*s = (struct ran_slice){ .t0 = open->ts, .t1 = in->ts, .cpu = who->cpu,
				 .pid = who->pid, .prio = who->prio,
				 .preempted = open->type == SE_SWITCH_OUT };
	memcpy(s->comm, who->comm, sizeof(s->comm));
	s->comm[sizeof(s->comm) - 1] = '\0';
	return true;
}

/*
 * The next wait, in time order. A wake-up or a preemption opens a wait (a
 * later one replaces an open one: its switch-in was lost); a switch-out in
 * any other state (asleep, blocked) ends it unpaired; migrations only move
 * the task.
 */
bool ran_walk_next(struct ran_walk *w, struct ran_slice *s)
{
	while (w->i < w->n) {
		const struct sched_ev *e = &w->ev[w->i++];
		const struct sched_ev *open = w->open;

		switch (e->type) {
		case SE_WAKEUP:
			w->open = e;
			break;
		case SE_SWITCH_OUT:
			w->open = e->state == 'R' ? e : NULL;
			break;
		case SE_SWITCH_IN:
			w->open = NULL;
			if (open && close_wait(open, e, s))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}
