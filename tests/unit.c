// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit.c - the unit tests' harness: a line per check, and the exit status. */
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

/* Each test program has its suites (unit_main.c: the program's, unit_core.c: the core's). */
int main(void)
{
	unit_suites();
	return failed ? 1 : 0;
}
