// SPDX-License-Identifier: GPL-2.0-or-later
/* model/log_format.c - the log's format as data: the markers of its lines and the columns of its
 * tables, for its writer and its reader. */
#include <stdbool.h>
#include <string.h>

#include "model/log_format.h"
#include "model/metrics.h"

/* ---- the columns of a log's tables: the metrics' (model/metrics.c) ---- */

static const struct log_column *column_of(const struct metric *m, enum log_table_id t)
{
	return t == LT_TASK ? &m->log : &m->thread;
}

/* Table t in its columns' order, each at its pos; *n as many as the highest pos. */
const struct log_column *log_table_columns(enum log_table_id t, size_t *n)
{
	static struct log_column cols[LT_COUNT][LOG_COLUMNS_MAX];
	static size_t ncols[LT_COUNT];
	static bool made[LT_COUNT];

	for (size_t i = 0; !made[t] && i < nr_metrics; i++) {
		const struct log_column *c = column_of(&metrics[i], t);

		if (c->pos < 1 || c->pos > LOG_COLUMNS_MAX)
			continue;
		cols[t][c->pos - 1] = *c;
		cols[t][c->pos - 1].field = metrics[i].field;
		if ((size_t)c->pos > ncols[t])
			ncols[t] = (size_t)c->pos;
	}
	made[t] = true;
	*n = ncols[t];
	return cols[t];
}

/* ---- the markers of a log's lines ---- */

const struct log_marker log_markers[LM_COUNT] = {
	[LM_LOADSET] = { "Load set to ", true },
	[LM_USING] = { "Using ", true },
	[LM_LOOPS] = { " loops per ms", false },
	[LM_CPU_WORK] = { "CPU time as work", false },
	[LM_EVERY] = { ", running every load for ", false },
	[LM_PERIODS] = { "Periods: ", true },
	[LM_WAKE] = { "Wake-ups: ", true },
	[LM_KERNEL] = { "Benchmarking kernel ", true },
	[LM_DATESTAMP] = { " at datestamp ", false },
	[LM_SCHEDULING] = { "Scheduling: ", true },
	[LM_SETTINGS] = { "Settings:", true },
	[LM_COMMENT] = { "Comment: ", true },
	[LM_VARIANTS] = { "Variants: ", true },
	[LM_SWITCHING] = { "Switching: ", true },
	[LM_VARIANT_STATE] = { "Variant ", true },
	[LM_PREEMPTION] = { "Preemption: ", true },
	[LM_CPUS] = { "CPUs: ", true },
	[LM_CPU_MODEL] = { "CPU model: ", true },
	[LM_CMDLINE] = { "Kernel command line: ", true },
	[LM_HEADING] = { "--- Benchmarking simulated cpu of ", true },
	[LM_GROUP] = { "in group ", false },
	[LM_REALTIME] = { "real time ", false },
	[LM_PRESENCE] = { "in the presence of simulated ", false },
	[LM_NCPUS] = { "--- (", false },
	[LM_INTENSITY] = { "  Load intensity", false },
	[LM_FAILED] = { "failed", false },
	[LM_MEMORY_NOTE] = { "[memory, not a disk]", false },
	[LM_CACHE_NOTE] = { "[page cache, not the disk: the drop did not work]", false },
	[LM_INTERRUPTED] = { "Interrupted by signal ", true },
	[LM_WORKLOAD_HEADING] = { "--- Benchmarking rt-app workload ", true },
	[LM_WORKLOAD] = { "Workload: ", true },
	[LM_NOTE] = { "Note: ", true },
	[LM_THREAD] = { "Thread", false },
	[LM_LOAD_CMD] = { "Load command: ", true },
};

int log_mark_of(const char *line)
{
	for (int m = 0; m < LM_COUNT; m++)
		if (log_markers[m].starts_line &&
		    !strncmp(line, log_markers[m].text, strlen(log_markers[m].text)))
			return m;
	return -1;
}
