/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/tickphase.h - periods shortened so that a row's wake-ups sweep their phase against the
 * kernel's tick. */
#ifndef CORE_TICKPHASE_H
#define CORE_TICKPHASE_H

/*
 * A period that is a whole number of ticks (Audio's 50 ms at HZ 100, 250
 * or 1000) wakes at one phase against the tick for a whole row, drawn at
 * random when the row starts, and under a CPU hog that phase alone decides
 * whether a wake-up waits for the next tick. Real periodic work is clocked
 * by a device whose phase drifts against the tick. So by default a period
 * is shortened by drift / n, n the whole periods a row holds: the k-th
 * wake-up lands k * drift / n earlier against the tick than an exact
 * period's would, and over the row the phases step evenly across drift (a
 * whole number of ticks), stratified rather than left to chance. The row
 * keeps its n periods (they end one drift before it does); the work is
 * shortened by the same factor, so each period's CPU share is the nominal
 * one, and each deadline stays at its period's end.
 */
#include <stdint.h>

enum period_mode {
	PERIOD_SWEPT,			/* default: the phase sweeps the tick over each row */
	PERIOD_EXACT,			/* --period exact: 0.31's exact periods */
};
extern const char *const period_mode_names[];	/* "swept", "exact", NULL */

/* When HZ is not known: 20 ms is a whole number of ticks at HZ 100, 250, 300 and 1000. */
#define TICKPHASE_DRIFT_ASSUMED (20ULL * 1000 * 1000)

struct period_scale {
	uint64_t num, den;		/* the period: num / den ns, in lowest terms */
	uint64_t wnum, wden;		/* work scales by wnum / wden (1 / 1: exact periods) */
	uint64_t periods;		/* the row's periods, swept (0: exact) */
};

/* The exact period num / den, unscaled (--period exact). */
void period_exact(uint64_t num, uint64_t den, struct period_scale *s);
/* num / den ns shortened so that the periods of a row of row_ns drift by drift_ns. */
void period_swept(uint64_t num, uint64_t den, uint64_t row_ns, uint64_t drift_ns,
		  struct period_scale *s);
/* work_ns of a nominal period, scaled as the period was (rounded down to the ns). */
uint64_t scale_work(const struct period_scale *s, uint64_t work_ns);

#endif
