// SPDX-License-Identifier: GPL-2.0-or-later
/* core/render_work.c - the work of each frame of Render's sweep: a pure function, shared by the
 * task and its accounting. */
#include "core/accounting.h"
#include "core/render_work.h"

/*
 * Frame k needs (20 + t) % of its frame, t rising 0..60 over the first 60
 * frames of each 120 and falling back after: 20 % -> 80 % -> 20 %. Whole
 * nanoseconds, rounded down once, so the work burnt and the work counted
 * (work_ratio) are the same number.
 */
uint64_t render_work_ns(uint64_t period_num, uint64_t period_den, uint64_t k)
{
	uint64_t j = k % RENDER_SWEEP, t = j <= RENDER_SWEEP / 2 ? j : RENDER_SWEEP - j;

	return mul_div(period_num, 20 + t, period_den * 100);
}
