/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/rtapp_periods.h - an rt-app workload's timer periods, pure: rt-app's timer rule (shared,
 * unique, absolute, relative), each period met or missed by its slack, rt-app's own figures. */
#ifndef CORE_RTAPP_PERIODS_H
#define CORE_RTAPP_PERIODS_H

/* Nothing of the run here: no threads, no clocks read; instants in, counts out. */
#include <stdbool.h>
#include <stdint.h>

/*
 * rt-app's timer: each use adds its period to the timer's last expiry (at
 * first its base: the use case's start, after the thread's delay), so a
 * timer that several threads share (every use of one name, unless the name
 * starts with "unique") hands its expiries out in turn. A use that finds its
 * expiry already past (an overrun) does not wait: an absolute timer keeps
 * its schedule, so the uses after it may be late too; a relative one starts
 * again from the instant it was reached.
 */
struct rtapp_timer {
	bool used;
	uint64_t last;			/* its last expiry, CLOCK_MONOTONIC ns */
};

struct timer_use {		/* one use of a timer, reached at some instant */
	uint64_t expiry;		/* the instant it waits for */
	int64_t slack;			/* expiry - reached: rt-app's slack; >= 0: the */
					/* period's deadline is met */
	bool wait;			/* the expiry is ahead: a wake-up */
};

struct timer_use rtapp_timer_reach(struct rtapp_timer *t, uint64_t base, uint64_t period_ns,
				   uint64_t reached, bool absolute);

/* A signed figure's count, sum, least and greatest (ns). */
struct rtapp_span {
	uint64_t n;
	int64_t min, max;
	double sum;
};

void span_add(struct rtapp_span *s, int64_t v);
void span_merge(struct rtapp_span *m, const struct rtapp_span *add);	/* m += add */
double span_mean(const struct rtapp_span *s);				/* 0 when empty */

/*
 * A thread's timer periods: each use of a timer closes one, once its
 * wake-up (if it had one) came. Met when the thread reached the timer by
 * its expiry (slack >= 0), else missed; nothing is dropped, since every use
 * is reached and counted, however late.
 */
struct timer_periods {
	uint64_t met, missed;
	struct rtapp_span slack;	/* per use: expiry - reached */
	struct rtapp_span wu_lat;	/* rt-app's per use: woken - expiry, 0 for a late one */
};

void timer_period_close(struct timer_periods *tp, const struct timer_use *u, uint64_t t_run);
void timer_periods_merge(struct timer_periods *m, const struct timer_periods *add);

#endif
