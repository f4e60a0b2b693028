// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_main.c - the suites of tests/unit, which links the whole program but main(). */
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "tests/unit.h"

/* argv from words split on spaces, parsed as the command line would be: a parse_status. */
int unit_parse_words(const char *words, struct config *cfg, char *err, size_t errlen)
{
	static char buf[256];
	char *argv[32] = { "interbench" }, *save = NULL;
	int argc = 1;

	snprintf(buf, sizeof(buf), "%s", words);
	for (char *t = strtok_r(buf, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	return parse_options(argc, argv, cfg, err, errlen);
}

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
	unit_periods();
	unit_golden();
	unit_contain();
	unit_explain();
	unit_vary();
	unit_verdict();
	unit_timeline();
	unit_livefile();
	unit_ncpus();
	unit_groups();
	unit_instances();
	unit_json_read();
	unit_rtapp();
	unit_rtapp_check();
	unit_rtapp_examples();
	unit_rtapp_run();
	unit_workload();
}
