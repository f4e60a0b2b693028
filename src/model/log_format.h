/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/log_format.h - the log's markers and table columns, one table that its writer and its
 * reader walk. */
#ifndef MODEL_LOG_FORMAT_H
#define MODEL_LOG_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The words that mark a log's lines, in one table that the writer
 * (report/report.c, model/knob_text.c) prints with and the reader
 * (formats/log_read.c) walks: a marker that
 * starts a line tells the reader what the line is; the others are words
 * within one. A marker changed here changes both.
 */
enum log_mark {
	LM_LOADSET,			/* "Load set to N processors" */
	LM_USING,			/* "Using ... , running every load for S seconds": */
	LM_LOOPS,			/*   loops mode: "Using N loops per ms, ..." */
	LM_CPU_WORK,			/*   CPU mode: "Using CPU time as work, ..." */
	LM_EVERY,
	LM_PERIODS,			/* "Periods: swept, ..." (the Settings line's key) */
	LM_WAKE,			/* "Wake-ups: by each task's own timer, ..." (its key too) */
	LM_KERNEL,			/* "Benchmarking kernel R at datestamp D" */
	LM_DATESTAMP,
	LM_SCHEDULING,			/* the knobs (model/knob_text.c) */
	LM_SETTINGS,			/* the run keys, name=value; 1.0.0 wrote none */
	LM_COMMENT,
	LM_VARIANTS,			/* --vary: "Variants: A load-nice=0, B load-nice=19; ..." */
	LM_SWITCHING,			/* a system knob's or program's: what is switched, how */
	LM_VARIANT_STATE,		/* "Variant B: reads bfq": what it showed when tried */
	LM_PREEMPTION,			/* the machine keys' lines (machine_keys.c) */
	LM_CPUS,
	LM_CPU_MODEL,
	LM_CMDLINE,
	LM_HEADING,			/* a table: "--- Benchmarking simulated cpu of X ..." */
	LM_GROUP,			/* after the name: "in group Audio+Video " (-W A+B) */
	LM_REALTIME,
	LM_PRESENCE,
	LM_NCPUS,			/* the heading's end, then "(N CPUs)" with --ncpus */
	LM_INTENSITY,			/* the last column's head */
	LM_FAILED,			/* a row: "Load\tfailed: why" */
	LM_MEMORY_NOTE,			/* after a row's intensity */
	LM_CACHE_NOTE,
	LM_INTERRUPTED,			/* the run's last line after a signal */
	LM_WORKLOAD_HEADING,		/* a workload file's table: "--- Benchmarking rt-app */
					/* workload mp3.json in the presence of simulated ---" */
	LM_WORKLOAD,			/* the header's "Workload: NAME (PATH), sha256 ..." */
	LM_NOTE,			/* the header's "Note: FILE: accepted without effect: ..." */
	LM_THREAD,			/* a workload table's second column's head */
	LM_LOAD_CMD,			/* the header's "Load command: CMD" (--load-cmd) */
	LM_COUNT,
};

struct log_marker {
	const char *text;
	bool starts_line;		/* the reader knows a line by it */
};
extern const struct log_marker log_markers[LM_COUNT];
#define LOG_MARK(m) (log_markers[m].text)
int log_mark_of(const char *line);	/* the marker that starts line, or -1 */

/* The columns of a log's tables, written by report/report.c, read by formats/log_read.c. */
enum log_col_flag {
	LC_LATENCY = 1u << 0,		/* in the table's unit (ms, or us for -r) */
	LC_PCT = 1u << 1,		/* a percentage */
	LC_DEADLINE = 1u << 2,		/* not for Gaming */
	LC_PERCENTILE = 1u << 3,	/* with --percentiles */
	LC_UNIT = 1u << 4,		/* the head is followed by the table's unit: " (ms)" */
	LC_SINGLE = 1u << 5,		/* a single task's: not in a chain's table */
	LC_GAME = 1u << 6,		/* Game's table only */
	LC_AUDIO = 1u << 7,		/* AudioGraph's table only */
	LC_COUNT = 1u << 8,		/* a count: no decimals */
};

/*
 * A metric's column in a log's table, in its row of model/metrics.c: the
 * tables are built from those rows, each in the order of its columns' pos,
 * which is 0.31's and never changes (a log is read back by its columns).
 */
struct log_column {
	int pos;			/* its place in the table, from 1; 0: not in it */
	const char *head;		/* in the column line */
	const char *sep;		/* before the value in a row */
	int width;			/* of the value, as printf's: < 0 left-aligned */
	unsigned flags;			/* enum log_col_flag */
	const char *key;		/* the column line has it when the column is there */
	int field;			/* enum rfield: the metric's, set when the table is built */
};
#define LOG_COLUMNS_MAX 32		/* the reader's bound */

enum log_table_id {
	LT_TASK,			/* a benchmark's table, after the load's name */
	LT_THREAD,			/* a workload file's: under each load's line (its */
	LT_COUNT,			/* intensity), a line per thread, "\tNAME" padded */
};
/* Table t's columns in their order, *n of them: built from metrics[] at the first call. */
const struct log_column *log_table_columns(enum log_table_id t, size_t *n);
#define THREAD_NAME_WIDTH 16		/* the name's column at least; as wide as the longest */

#endif
