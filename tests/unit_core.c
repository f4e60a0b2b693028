// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core.c - the suites of tests/unit-core, which links src/core/ alone (with libc
 * and libm). */
#include "tests/unit.h"

void unit_suites(void)
{
	unit_core_sim();
	unit_core_split();
	unit_core_verdict();
	unit_core_ranksum();
	unit_core_power();
	unit_core_sparse_hist();
	unit_core_stop();
	unit_core_period();
	unit_core_tickphase();
	unit_core_strip();
	unit_core_sched_events();
	unit_core_missx();
	unit_core_ranslice();
	unit_core_frames();
	unit_core_rtapp_periods();
	unit_core_proc_cpu();
}
