/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/accounting.h - the accounting rule of periods and Gaming units, pure: timestamps in, counts
 * out. */
#ifndef CORE_ACCOUNTING_H
#define CORE_ACCOUNTING_H

/* Nothing of the run here: no config, no threads, no clocks read. */
#include <stdbool.h>
#include <stdint.h>

/*
 * a * b / c rounded down (up), the product kept whole: a period's k * num
 * passes 2^64 for a swept period of a long row (core/tickphase.h).
 */
#ifdef __SIZEOF_INT128__
static inline uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	return (uint64_t)((unsigned __int128)a * b / c);
}

static inline uint64_t mul_div_up(uint64_t a, uint64_t b, uint64_t c)
{
	return (uint64_t)(((unsigned __int128)a * b + c - 1) / c);
}
#else	/* 32-bit targets: long double's 64 bits of mantissa */
static inline uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	return (uint64_t)((long double)a * b / c);
}

static inline uint64_t mul_div_up(uint64_t a, uint64_t b, uint64_t c)
{
	long double q = (long double)a * b / c;
	uint64_t f = (uint64_t)q;

	return f + (q > (long double)f);
}
#endif

struct period_clock {		/* period k starts at start0 + ceil(k * num / den) */
	uint64_t start0;
	uint64_t num, den;
	uint64_t nperiods;	/* periods in the run (UINT64_MAX: until stopped) */
};

struct acct {			/* every period counts once */
	uint64_t met, missed, dropped;
};

uint64_t period_start(const struct period_clock *c, uint64_t k);
uint64_t period_index_at(const struct period_clock *c, uint64_t t);
uint64_t acct_start(struct acct *a, const struct period_clock *c, uint64_t k,
		    uint64_t t_run);
uint64_t acct_finish(struct acct *a, const struct period_clock *c, uint64_t k,
		     uint64_t t_done);
double acct_pct_cpu(const struct acct *a);
double acct_pct_deadlines(const struct acct *a);

#define GAMING_UNIT_NS 100000000ULL	/* 100 ms of work */
struct gaming_acct {
	uint64_t units;			/* whole units of work done */
	uint64_t cpu_ns, wall_ns;	/* of the units, and of a unit cut by the row's end */
};
uint64_t gaming_account(struct gaming_acct *g, uint64_t wall_ns, uint64_t cpu_ns);
void gaming_partial(struct gaming_acct *g, uint64_t wall_ns, uint64_t cpu_ns);
double gaming_pct_cpu(const struct gaming_acct *g);

bool wake_latency(uint64_t t_wake, uint64_t t_run, uint64_t *lat);

/*
 * What one wake-up measures. Woken by its own timer (--wake timer), a
 * task's latency runs from the instant it asked for to t_run, its first
 * stamp: what it experiences, as cyclictest and rt-app count it. Woken by
 * the waker (--wake waker, 0.31's), from the waker's stamp t_wake, and the
 * waker's own delay past the instant is kept apart as timer latency.
 */
struct wake_sample {
	bool ok;			/* t_run at or after where it counts from: recorded */
	uint64_t lat;			/* t_run - the instant (own timer) or t_wake (waker) */
	bool has_timer;			/* the waker's delay is known: a timer's wake-up */
	uint64_t timer;			/* t_wake - the instant, 0 when the waker was early */
};
struct wake_sample wake_sample_of(bool own_timer, uint64_t instant, uint64_t t_wake,
				  uint64_t t_run);

#endif
