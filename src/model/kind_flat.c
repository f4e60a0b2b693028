// SPDX-License-Identifier: GPL-2.0-or-later
/* model/kind_flat.c - Gaming's flat run: units of CPU work back to back, no period, no
 * deadlines; its child runs task/sim.c's flat loop. */
#include "model/kinds.h"

/* No periods: no wake-ups to record. */
static uint64_t flat_wakeups(const struct config *cfg)
{
	(void)cfg;
	return 0;
}

const struct bench_kind kind_flat = {
	.name = "flat",
	.metrics = KM_UNITS,
	.wakeups = flat_wakeups,
	.run = sim_run_flat,
};
