// SPDX-License-Identifier: GPL-2.0-or-later
/* output/logfmt.c - the log's format as data: the markers of its lines and the columns of its
 * tables, for its writer and its reader. */
#include <stdbool.h>
#include <string.h>

#include "output/result.h"

/* ---- the columns of a log's table, after the load's name ---- */

const struct log_column log_columns[] = {
	{ "Latency +/- SD", "", 7, RF_MEAN, LC_LATENCY | LC_UNIT, NULL },
	{ "", " +/- ", -8, RF_SD, LC_LATENCY, NULL },
	{ "  Max Latency", "", 12, RF_MAX, LC_LATENCY, NULL },
	{ "   % Desired CPU", "", 16, RF_CPU, LC_PCT, NULL },
	{ "  % Deadlines Met", "", 17, RF_DL, LC_PCT | LC_DEADLINE, "Deadlines" },
	{ "       p99", "", 10, RF_P99, LC_LATENCY | LC_PERCENTILE, "p99" },
	{ "     p99.9", "", 10, RF_P999, LC_LATENCY | LC_PERCENTILE, "p99" },
};
const size_t nr_log_columns = ARRAY_SIZE(log_columns);

/* ---- the markers of a log's lines ---- */

const struct log_marker log_markers[LM_COUNT] = {
	[LM_LOADSET] = { "Load set to ", true },
	[LM_USING] = { "Using ", true },
	[LM_LOOPS] = { " loops per ms", false },
	[LM_CPU_WORK] = { "CPU time as work", false },
	[LM_EVERY] = { ", running every load for ", false },
	[LM_KERNEL] = { "Benchmarking kernel ", true },
	[LM_DATESTAMP] = { " at datestamp ", false },
	[LM_SCHEDULING] = { "Scheduling: ", true },
	[LM_SETTINGS] = { "Settings:", true },
	[LM_COMMENT] = { "Comment: ", true },
	[LM_VARIANTS] = { "Variants: ", true },
	[LM_PREEMPTION] = { "Preemption: ", true },
	[LM_CPUS] = { "CPUs: ", true },
	[LM_CPU_MODEL] = { "CPU model: ", true },
	[LM_CMDLINE] = { "Kernel command line: ", true },
	[LM_HEADING] = { "--- Benchmarking simulated cpu of ", true },
	[LM_REALTIME] = { "real time ", false },
	[LM_PRESENCE] = { "in the presence of simulated ", false },
	[LM_NCPUS] = { "--- (", false },
	[LM_INTENSITY] = { "  Load intensity", false },
	[LM_FAILED] = { "failed", false },
	[LM_MEMORY_NOTE] = { "[memory, not a disk]", false },
	[LM_CACHE_NOTE] = { "[page cache, not the disk: the drop did not work]", false },
	[LM_INTERRUPTED] = { "Interrupted by signal ", true },
};

int log_mark_of(const char *line)
{
	for (int m = 0; m < LM_COUNT; m++)
		if (log_markers[m].starts_line &&
		    !strncmp(line, log_markers[m].text, strlen(log_markers[m].text)))
			return m;
	return -1;
}
