/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/latency_strip.h - a row's wakeup latency over time: p50, p99 and max per bin of seconds,
 * made once from its period records after the row. */
#ifndef CORE_LATENCY_STRIP_H
#define CORE_LATENCY_STRIP_H

/*
 * A histogram says how late a row's wake-ups were, not when: a row whose
 * first seconds were fine and whose last were not (the load reached its
 * steady state late, a timer went off) looks like one whose every second
 * was a little bad. The strip keeps that, at a fixed size: at most
 * STRIP_MAX bins of whole seconds (1 s, wider for longer rows), each with
 * the exact quantiles of the wake-ups woken in it.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/period.h"

#define STRIP_MAX 120		/* bins per row */

struct latency_strip {		/* ns; n bins of bin_s seconds from the row's start */
	float bin_s;			/* 1, or ceil(seconds / STRIP_MAX) for longer rows */
	int n;				/* bins: ceil(seconds / bin_s), at most STRIP_MAX */
	float p50[STRIP_MAX], p99[STRIP_MAX], max[STRIP_MAX];	/* NAN where count is 0 */
	uint32_t count[STRIP_MAX];	/* wake-ups woken in the bin */
	float seconds;			/* the row's length: the last bin may end after it */
	int first;			/* bins before it are unknown, not empty: their records */
					/* were lost from the ring (period_log's lost) */
};

/*
 * The strip of a row from its records (oldest first, as period_log sends
 * them): each woken record (PREC_WOKEN, not PREC_UNIT: Gaming has no wake-ups)
 * counts t_run - t_wake in the bin of its t_wake, from row_start_ns on;
 * one woken before the row or after its last bin is left out. 0, or
 * -ENOMEM (out then holds no bins).
 */
int strip_of(const struct period_log *h, const struct period_rec *rec, size_t nrec,
	     uint64_t row_start_ns, double seconds, struct latency_strip *out);

#endif
