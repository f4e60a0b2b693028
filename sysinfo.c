// SPDX-License-Identifier: GPL-2.0-or-later
/* sysinfo.c - what describes the machine and the kernel for the report. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "interbench.h"
#include "sysinfo.h"

/* The first "model name" (x86), "cpu model" (mips) or "Processor" line. */
void sysinfo_cpu_model(char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "cpu model", "Processor", "cpu" };
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		size_t kl = strlen(keys[k]);

		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (strncmp(line, keys[k], kl) || !colon ||
			    strspn(line + kl, " \t") != (size_t)(colon - line - (long)kl))
				continue;
			colon += 1 + strspn(colon + 1, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			fclose(f);
			return;
		}
	}
	fclose(f);
}

void sysinfo_kernel_release(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u) < 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s", u.release);
}
