/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/miss_explain.h - every missed deadline explained: a missed period's story from its
 * records and the task's scheduler events, and in a chain the stage that made it late. */
#ifndef CORE_MISS_EXPLAIN_H
#define CORE_MISS_EXPLAIN_H

/*
 * A missed period's story, from its period's start to the end of its work
 * (t_done): the timer (its wake-up came late by woke), the wait from the
 * wake-up to its run (t_run - t_wake), and from t_run to t_done, when the
 * trace holds its events, the time it ran, the times it was switched out
 * runnable ('R': preempted, until it ran again) and asleep (S, D: blocked,
 * until it ran again). Without the trace, what the records say: woke,
 * waited, and from its run to its end as ran.
 *
 * Times are kept to the microsecond (the trace's resolution), so that a
 * kept row's report stays small (core/miss_explain.c checks the size).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/period.h"
#include "core/sched_events.h"

#define MISS_WORST 5			/* misses explained per row: the worst, by how late */

enum miss_flag {
	MISS_TRACED = 1u << 0,		/* the trace told its story: ran, preempted and blocked */
	MISS_OVERRAN = 1u << 1,		/* no wake-up: it began when the period before ended */
	MISS_CUT = 1u << 2,		/* its work never ended: cut by the row's end */
	MISS_NO_SWITCH_IN = 1u << 3,	/* traced, but its wake-up's switch-in is not in the */
					/* trace: who had the CPU is not known */
	MISS_UNSTAMPED = 1u << 4,	/* woken by its own timer, no kernel stamp of it in the */
					/* trace: woke is its timer's instant, waited counts */
					/* from there (the timer's part in it) */
};

struct miss_task {		/* who had the CPU */
	char comm[SE_COMM];
	int32_t pid;			/* -1: not known */
	int32_t prio;			/* as the kernel prints it (120: nice 0) */
};

struct miss {
	uint64_t at_ns;			/* its deadline, from the row's start */
	uint32_t period;		/* the period it missed (its work's), from the row's first */
	uint32_t late_us;		/* missed by: its work's end past the deadline */
	uint32_t woke_us;		/* its wake-up (or start) past its period's start */
	uint32_t waited_us;		/* wake-up to run: t_run - t_wake */
	uint32_t ran_us;		/* on the CPU from its run to its end (all of it, untraced) */
	uint32_t preempted_us;		/* switched out runnable, until it ran again */
	uint32_t blocked_us;		/* switched out asleep, until it ran again */
	uint16_t npreempt;		/* times preempted */
	int16_t cpu;			/* the CPU it ran on after its wake-up; -1 */
	uint8_t flags;			/* enum miss_flag */
	int8_t hop;			/* a chain's: the stage that made it late, by its hop (an */
					/* index into the chain's hops); its story is that */
					/* stage's. -1: the task's own story */
	struct miss_task behind;	/* who had the CPU until it ran (traced, woken) */
	struct miss_task by;		/* who took the CPU at its longest preemption */
};

enum miss_share {		/* of the misses' time from their wake-up to their work's end */
	MS_QUEUED,			/* wake-up to run */
	MS_RUNNING,
	MS_PREEMPTED,
	MS_BLOCKED,
	MS_COUNT,
};

struct miss_report {		/* a row's misses: a kept row holds it (model/result.h) */
	struct miss worst[MISS_WORST];	/* the most late first */
	int n;				/* in worst */
	bool partial;			/* the ring dropped the row's oldest periods */
	uint64_t missed;		/* missed periods among the records */
	uint64_t traced;		/* of them, told by the trace: the shares' */
	double share[MS_COUNT];		/* 0..1; NAN unknown (no misses; untraced, but queued) */
};

/*
 * A chain's stage, for its part in the head's missed frames or cycles: its
 * records (k the frame, t_wake its hop's stamp, t_done its work's end) and
 * its thread's events. The head is the first, with the head's records.
 */
#define MISS_STAGES_MAX STAGES_MAX	/* a chain's stages besides its head */

struct missx_stage {
	const struct period_rec *rec;	/* oldest first */
	size_t n;
	const struct sched_trace *tr;	/* NULL or unread: none */
	int hop;			/* its wake-ups' hop, as struct miss's */
};

void missx_explain(const struct period_log *h, const struct period_rec *rec, size_t n,
		   const struct sched_trace *tr, uint64_t t0, struct miss_report *out);
void missx_blame(const struct period_log *h, const struct missx_stage *st, int nst,
		 struct miss_report *r);

#endif
