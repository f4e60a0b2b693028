/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/stop.h - what three clocks say of a stop that no signal told of: a suspend, a paused
 * VM, a wall clock set. */
#ifndef CORE_STOP_H
#define CORE_STOP_H

#include <stdint.h>

/*
 * CLOCK_MONOTONIC stands still while the machine is suspended, CLOCK_BOOTTIME
 * does not, and CLOCK_REALTIME goes on with it but moves when it is set.
 * Sampled together at a row's start and again later:
 *  - boot - mono grew: the machine was suspended that long;
 *  - a wait that ended later than it asked (on the monotonic clock): we did
 *    not run that long, as in a VM paused with its clocks running on;
 *  - real - boot moved: the wall clock was set, as after a VM paused with
 *    its clocks frozen, then told the time (or by hand, or NTP stepping it).
 * Less than STOP_MIN_NS is taken for scheduling, not a stop.
 */
#define STOP_MIN_NS 1000000000ULL

struct clock_sample {		/* ns, read one after the other */
	uint64_t mono, boot, real;
};

enum stop_kind { STOP_NONE, STOP_SUSPEND, STOP_GAP, STOP_WALL };

enum stop_kind stop_judge(const struct clock_sample *start, const struct clock_sample *now,
			  uint64_t late_ns, uint64_t *len_ns);

#endif
