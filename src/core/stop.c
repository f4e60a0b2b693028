// SPDX-License-Identifier: GPL-2.0-or-later
/* core/stop.c - the arithmetic that tells a stop from three clocks' samples (core/stop.h). */
#include "core/stop.h"

static int64_t offset(uint64_t a, uint64_t b)	/* a - b, of two clocks read together */
{
	return (int64_t)(a - b);
}

/*
 * What happened between start and now, late_ns being how much later than
 * asked the wait that ended at now did (0: not known): the first of a
 * suspend, a gap in our running, a wall clock set, that reached
 * STOP_MIN_NS, and how long (or how far) into *len_ns.
 */
enum stop_kind stop_judge(const struct clock_sample *start, const struct clock_sample *now,
			  uint64_t late_ns, uint64_t *len_ns)
{
	int64_t slept = offset(now->boot, now->mono) - offset(start->boot, start->mono);
	int64_t moved = offset(now->real, now->boot) - offset(start->real, start->boot);

	*len_ns = 0;
	if (slept >= (int64_t)STOP_MIN_NS) {
		*len_ns = (uint64_t)slept;
		return STOP_SUSPEND;
	}
	if (late_ns >= STOP_MIN_NS) {
		*len_ns = late_ns;
		return STOP_GAP;
	}
	if (moved >= (int64_t)STOP_MIN_NS || moved <= -(int64_t)STOP_MIN_NS) {
		*len_ns = (uint64_t)(moved < 0 ? -moved : moved);
		return STOP_WALL;
	}
	return STOP_NONE;
}
