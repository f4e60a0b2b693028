/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/period.h - each period of a row as its task lived it, kept in a ring for the timeline,
 * the misses and the latency strip. */
#ifndef CORE_PERIOD_H
#define CORE_PERIOD_H

/*
 * The bench process records one period_rec per wake-up (per unit of work
 * for Gaming) into a ring of fixed size, a few stores in the measured path,
 * and sends the ring after its result: a period_log, then its records,
 * oldest first. Nothing is kept of it past the row: what outlives the row
 * (the strip, the misses) is made from it once, after the row.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/accounting.h"

enum period_flag {
	PREC_WOKEN = 1u << 0,		/* woken: t_wake is where its latency counts from */
					/* (else it overran into the period: t_wake = t_run) */
	PREC_DONE = 1u << 1,		/* its work finished at t_done (else cut by the row's end) */
	PREC_QUEUE = 1u << 2,		/* queue_ns is the wake-up's queue wait (core/split.h) */
	PREC_UNIT = 1u << 3,		/* Gaming: a unit of work, run back to back, no wake-up */
	PREC_NOWORK = 1u << 4,		/* it ran after the row's last period: no work, the */
					/* periods from k on were dropped */
	PREC_RTAPP = 1u << 5,		/* an rt-app workload thread's, which has no period */
					/* clock (its log's num is 0) and no work: k numbers its */
					/* records; with PREC_WOKEN a wake-up, t_done its timer's */
					/* expiry (0: a resume's); without, a timer period */
					/* missed: reached at t_run, past its expiry t_done */
	PREC_TIMER = 1u << 6,		/* with PREC_WOKEN: woken by its own timer (--wake timer), */
					/* t_wake the instant it asked for, no stamp of ours; */
					/* the kernel's sched_waking in the trace splits it */
};

struct period_rec {		/* 40 bytes */
	uint64_t t_wake;		/* CLOCK_MONOTONIC ns: the waker's stamp before the wake; */
					/* PREC_TIMER: the instant the timer was set to */
	uint64_t t_run;			/* the task's first stamp after it */
	uint64_t t_done;		/* the end of its work (of the row, when cut) */
	uint32_t k;			/* the period the wake-up was asked for: period_start(k) */
	uint32_t queue_ns;		/* with PREC_QUEUE; the wake path is the rest of t_run - t_wake */
					/* (PREC_UNIT: the unit's latency, wall - CPU, saturated) */
	uint16_t skipped;		/* periods dropped at its start: its work was for k + skipped */
	int16_t wake_cpu, run_cpu;	/* the waker's CPU at t_wake, the task's after t_run; -1 */
					/* (PREC_TIMER: wake_cpu not known to the task) */
	uint8_t flags;			/* enum period_flag */
};

struct period_log {		/* sent before the records, as bytes */
	uint64_t start0, num, den;	/* the row's period clock (core/accounting.h); num 0: Gaming */
	uint64_t counted;		/* periods the row counted: met + missed + dropped */
	uint64_t nrec;			/* records that follow */
	uint64_t lost;			/* records before those, dropped from the ring as the oldest */
	int32_t tid_task, tid_waker;	/* the threads' ids (0: none), for their tracks */
	uint32_t nstages;		/* a chain's stages whose records follow the head's */
	uint32_t pad;
};

/*
 * A chain's stage (Game's jobs, render, compositor; AudioGraph's nodes and
 * mixer) records its frames or cycles as the head does, one period_rec per
 * wake-up (k the frame, t_wake its hop's stamp, t_done its work's end), in
 * a ring of its own. They are sent after the head's records: per stage a
 * stage_log, then its records, oldest first.
 */
#define STAGES_MAX 8

struct stage_log {		/* sent before a stage's records, as bytes */
	char comm[16];			/* its thread's name: its track's */
	int32_t tid;			/* its thread's id (0: not known) */
	int32_t hop;			/* its wake-ups' hop: an index into the chain's hops */
	uint64_t nrec;			/* records that follow */
	uint64_t lost;			/* records before those, dropped from its ring */
};

struct stage_periods {		/* a stage's records, as received */
	struct stage_log h;
	struct period_rec *rec;		/* h.nrec, oldest first (malloc'd), or NULL */
};

struct stage_set {		/* a chain's stages' records, as the bench or a row holds them */
	uint32_t n;
	struct stage_periods s[STAGES_MAX];
};

struct period_ring {		/* the bench process's, preallocated */
	struct period_rec *rec;
	uint64_t cap;			/* 0: nothing is recorded */
	uint64_t pushed;		/* records pushed in all */
};

void period_ring_push(struct period_ring *r, const struct period_rec *p);
uint64_t period_ring_kept(const struct period_ring *r);
uint64_t period_ring_lost(const struct period_ring *r);
void period_ring_copy(const struct period_ring *r, struct period_rec *out);
void stage_set_free(struct stage_set *s);

/* What a record says, with its row's clock. */
struct period_clock period_log_clock(const struct period_log *h);
uint64_t period_rec_start(const struct period_log *h, const struct period_rec *p);
uint64_t period_rec_deadline(const struct period_log *h, const struct period_rec *p);
bool period_rec_missed(const struct period_log *h, const struct period_rec *p);
_Static_assert(sizeof(struct period_rec) == 40, "a record's size is part of the budget");
uint64_t period_rec_late_ns(const struct period_log *h, const struct period_rec *p);

#endif
