/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys/trace_instance.h - --explain's private tracefs instance, one per run: who ran instead. */
#ifndef SYS_TRACE_INSTANCE_H
#define SYS_TRACE_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/period.h"
#include "core/sched_events.h"
#include "core/split.h"

int ran_trace_open(uint64_t row_wakeups, char *why, size_t len);
struct ran_thread {		/* one thread a row's trace is read for */
	int tid;			/* <= 0: not known */
	uint64_t t_first;		/* its first period's start: its waits are from then on */
	const struct period_rec *rec;	/* its records kept, oldest first: its events kept */
	size_t nrec;			/* from the first's wake-up (0: none kept) */
	struct sched_trace *trace;
	struct ran_instead *ran;	/* who ran instead while it waited, or NULL: not asked */
	uint64_t max_wait;		/* a longer wait is none of its wake-ups */
	bool chain;			/* a chain's thread: more events a record */
};

#define TRACE_FILTER_LEN 2048	/* a row's filter: its members' pids and chains' names */
void ran_trace_arm(const pid_t *pid, const char *const *threads, int n);
void ran_trace_collect(struct ran_thread *th, int n);
void ran_trace_close(void);
int ran_trace_remove_stale(const char *instances);

#endif
