// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_main.c - the suites of tests/unit, which links the whole program but main(). */
#include "tests/unit.h"

void unit_suites(void)
{
	unit_work();
	unit_options();
	unit_text();
	unit_loads();
	unit_child();
	unit_results();
	unit_settings();
	unit_knobs();
	unit_golden();
	unit_contain();
	unit_explain();
	unit_vary();
	unit_timeline();
	unit_ncpus();
	unit_groups();
	unit_instances();
}
