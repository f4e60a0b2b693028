/* SPDX-License-Identifier: GPL-2.0-or-later */
/* formats/csv_columns.h - our CSV's columns, which its writer (csv.c) and its reader
 * (csv_read.c) both walk. */
#ifndef FORMATS_CSV_COLUMNS_H
#define FORMATS_CSV_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

struct metric;

#define CSV_MAX_FIELDS 256

enum csv_text {			/* a column that is not a metric's */
	CT_METRIC,			/* it is one: m */
	CT_KERNEL, CT_COMMENT, CT_START, CT_PASS, CT_REALTIME, CT_BENCH, CT_LOAD, CT_STATUS,
	CT_REASON,
	CT_RAN_INSTEAD,			/* "comm:share" of the top three, space-separated */
	/* the run's context on every line, so lines of several runs can be mixed */
	CT_KEY,				/* a run key: field is its enum run_key */
	CT_WORK, CT_LOOPS, CT_INTERRUPTED, CT_PM_QOS, CT_HOSTNAME, CT_CPUS_ONLINE,
	CT_MACHINE,			/* a machine key: field is its enum machine_key */
	CT_KNOB,			/* a scheduling knob: field is its enum knob */
	CT_SCHED_EXT, CT_AUTOGROUP,
	CT_VARIANT, CT_VARIANT_INDEX, CT_VARIANT_VALUE,	/* --vary's, empty without */
	CT_VARIANT_PID, CT_VARIANT_SCX,	/* scx=, exec=: its program, sched_ext as the row began */
	CT_NCPUS,			/* --ncpus: the row's CPU count, empty without */
	CT_INSTANCES,			/* --instances: the copies pooled, empty without */
	CT_COUNT,
};

struct csv_column {
	const char *name;		/* CT_METRIC in csv_layout[]: the first of a run of */
	enum csv_text text;		/* metrics[]' columns, to the one named last */
	int field;			/* enum run_key, machine_key or knob, by text */
	bool required;			/* --compare cannot read a file without it */
	const char *last;		/* NULL: to the end of metrics[] */
	const struct metric *m;		/* CT_METRIC, in the columns made of the layout */
};

const struct csv_column *csv_columns_of(size_t *n);	/* made at the first call */
const char *csv_col_name(const struct csv_column *c);

#endif
