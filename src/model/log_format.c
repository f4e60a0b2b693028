// SPDX-License-Identifier: GPL-2.0-or-later
/* model/log_format.c - the log's format as data: the markers of its lines and the columns of its
 * tables, for its writer and its reader. */
#include <stdbool.h>
#include <string.h>

#include "model/record.h"
#include "model/log_format.h"

/* ---- the columns of a log's table, after the load's name ---- */

const struct log_column log_columns[] = {
	{ "Latency +/- SD", "", 7, RF_MEAN, LC_LATENCY | LC_UNIT | LC_SINGLE, "Latency +/-" },
	{ "", " +/- ", -8, RF_SD, LC_LATENCY | LC_SINGLE, "Latency +/-" },
	{ "  Max Latency", "", 12, RF_MAX, LC_LATENCY | LC_SINGLE, "Max Latency" },
	{ "   % Desired CPU", "", 16, RF_CPU, LC_PCT, NULL },
	{ "  % Deadlines Met", "", 17, RF_DEADLINES_MET_PCT, LC_PCT | LC_DEADLINE, "Deadlines" },
	{ "       p99", "", 10, RF_P99, LC_LATENCY | LC_PERCENTILE | LC_SINGLE, "p99.9" },
	{ "     p99.9", "", 10, RF_P999, LC_LATENCY | LC_PERCENTILE | LC_SINGLE, "p99.9" },
	/* Game's: its frames (doc/chains.md) */
	{ "  Frame p50", "", 11, RF_FRAME_P50, LC_LATENCY | LC_UNIT | LC_GAME, "Frame p50" },
	{ "    p99", "", 7, RF_FRAME_P99, LC_LATENCY | LC_GAME, "Frame p50" },
	{ "    max", "", 7, RF_FRAME_MAX, LC_LATENCY | LC_GAME, "Frame p50" },
	{ "    fps", "", 7, RF_FPS, LC_GAME, "Frame p50" },
	{ "  1% low", "", 8, RF_FPS_LOW, LC_GAME, "Frame p50" },
	{ "  Stutters", "", 10, RF_STUTTERS, LC_GAME | LC_COUNT, "Frame p50" },
	/* AudioGraph's: its cycles */
	{ "  Cycle p50", "", 11, RF_CYCLE_P50, LC_LATENCY | LC_UNIT | LC_AUDIO, "Cycle p50" },
	{ "    p99", "", 7, RF_CYCLE_P99, LC_LATENCY | LC_AUDIO, "Cycle p50" },
	{ "    max", "", 7, RF_CYCLE_MAX, LC_LATENCY | LC_AUDIO, "Cycle p50" },
	{ "  DSP mean", "", 10, RF_DSP_MEAN, LC_AUDIO, "Cycle p50" },
	{ "    max", "", 7, RF_DSP_MAX, LC_AUDIO, "Cycle p50" },
	{ "  Xruns", "", 7, RF_XRUNS, LC_AUDIO | LC_COUNT, "Cycle p50" },
	{ "  Xruns/min", "", 11, RF_XRUNS_PER_MIN, LC_AUDIO, "Cycle p50" },
};
const size_t nr_log_columns = ARRAY_SIZE(log_columns);

const struct log_column thread_columns[] = {
	{ "  Latency +/- SD", "", 9, RF_MEAN, LC_LATENCY | LC_UNIT, "Latency +/-" },
	{ "", " +/- ", -8, RF_SD, LC_LATENCY, "Latency +/-" },
	{ "  Max Latency", "", 12, RF_MAX, LC_LATENCY, "Max Latency" },
	{ "  Wake-ups: timer", "", 17, RF_TIMER_WAKEUPS, LC_COUNT, "Wake-ups" },
	{ " / resume", " / ", -6, RF_RESUME_WAKEUPS, LC_COUNT, "Wake-ups" },
	{ "  % Deadlines Met", "", 17, RF_DEADLINES_MET_PCT, LC_PCT, "Deadlines" },
	{ "       p99", "", 10, RF_P99, LC_LATENCY | LC_PERCENTILE, "p99.9" },
	{ "     p99.9", "", 10, RF_P999, LC_LATENCY | LC_PERCENTILE, "p99.9" },
};
const size_t nr_thread_columns = ARRAY_SIZE(thread_columns);
_Static_assert(ARRAY_SIZE(thread_columns) <= LOG_COLUMNS_MAX, "the reader's has[] holds them");
_Static_assert(ARRAY_SIZE(log_columns) <= LOG_COLUMNS_MAX, "the reader's has[] holds them");

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
