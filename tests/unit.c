// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit.c - runs the table-driven unit tests of the pure parts, suite by suite. */
#include <stdio.h>

#include "tests/unit.h"

static int passed, failed;
char detail[1024];

void skip(const char *name, const char *why)
{
	printf("SKIP unit: %s: %s\n", name, why);
}

void check(const char *name, bool ok)
{
	if (ok) {
		printf("PASS unit: %s\n", name);
		passed++;
	} else {
		printf("FAIL unit: %s: %s\n", name, detail);
		failed++;
	}
	detail[0] = '\0';
}

int main(void)
{
	unit_sim();
	unit_work();
	unit_options();
	unit_text();
	unit_loads();
	unit_child();
	unit_results();
	unit_knobs();
	unit_golden();
	unit_contain();
	unit_explain();
	return failed ? 1 : 0;
}
