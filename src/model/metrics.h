/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/metrics.h - the numbers of a result as data: one row per metric, which the JSON, the CSV
 * and its reader, --compare and the verdicts walk. */
#ifndef MODEL_METRICS_H
#define MODEL_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/log_format.h"

struct result;

/*
 * What a row says besides its names. Which kinds of benchmark have the
 * metric (a result of another kind leaves it out of the JSON, and has it
 * NAN everywhere else), then how the outputs treat it.
 */
enum metric_flag {
	MF_TASK = 1u << 0,		/* a periodic task, Gaming's flat run */
	MF_GAME = 1u << 1,		/* Game's chain */
	MF_AUDIO = 1u << 2,		/* AudioGraph's chain */
	MF_RTAPP = 1u << 3,		/* a thread of an rt-app workload file */
	MF_ALL = MF_TASK | MF_GAME | MF_AUDIO | MF_RTAPP,
	MF_ROUND3 = 1u << 4,		/* the files keep it to 0.001: more digits are noise */
	MF_SIGNED = 1u << 5,		/* may be below 0: the readers take its sign */
	MF_BOOL = 1u << 6,		/* 1 or 0: JSON's true or false */
	MF_OR_NULL = 1u << 7,		/* JSON: its object is null when this value is not known */
	MF_PERIODS_OR_NULL = 1u << 8,	/* JSON: its object is null for a row without periods */
	MF_COUNT = 1u << 9,		/* a count: no unit, no scaling */
	MF_NULL_ELSE = 1u << 10,	/* JSON: null for another kind, rather than left out */
};
#define MF_KINDS MF_ALL

/*
 * Where in a JSON result a row goes, in this order: each place is written
 * whole (its rows in the table's order) between what JSON writes by hand
 * (the names, the histogram, who ran instead, the misses, a chain's frames).
 */
enum json_place {
	JP_NONE,			/* not in JSON's results */
	JP_GROUP,			/* after the names: the group, a file's thread's own */
	JP_LATENCY,			/* after "reason": samples, the latencies */
	JP_LOAD,			/* after the histogram: shares, the load, foreign tasks */
	JP_MEDIUM,
	JP_PERIODS,
	JP_SPLIT,			/* where the latency went (core/split.h): in five */
	JP_SPLIT_SCHED,			/* places, for JSON's order is not the CSV's */
	JP_SPLIT_QUEUED,
	JP_SPLIT_CPU,
	JP_SPLIT_CROSS,
	JP_MISSES,			/* after the misses */
	JP_CHAIN,			/* a chain's, after its frames or cycles */
	JP_COUNT,
};

/*
 * A metric's column in --compare's table, which shows the rows that have
 * one, in the table's order. A CSV without such a metric's column is not read.
 */
enum compare_col_flag {
	CC_JOINED = 1u << 0,		/* after the column before it, with " +/- " */
	CC_CHANGE = 1u << 1,		/* then its change against [1] (after those joined) */
	CC_IF_ANY = 1u << 2,		/* only when some cell of the table has it */
};

struct compare_column {
	const char *head;		/* "Mean", "%CPU"; NULL: not in the table */
	int sig;			/* a latency's significant digits; 0: a percentage */
	unsigned flags;			/* enum compare_col_flag */
};

struct metric {
	int field;			/* enum rfield; -1: a text of struct result */
	const char *json;		/* "latency_ns.p99": its key, after the objects it is in */
	enum json_place place;
	const char *csv;		/* its column; NULL: none */
	const char *unit;		/* "ns", "%", "" */
	unsigned flags;			/* enum metric_flag */
	const char *verdict;		/* the verdicts judge it, by this name; NULL: not */
	struct log_column log;		/* its column in a log's table (.pos 0: none) */
	struct log_column thread;	/* in a workload file's thread table (.pos 0: none) */
	struct compare_column compare;	/* in --compare's table (.head NULL: none) */
	size_t text, text_len;		/* field -1: the text's offset and size in struct result */
};

/*
 * In the CSV's order, which only grows at its end: a new metric is a row
 * at the end, the value set where the result is made (run/row_result.c).
 */
extern const struct metric metrics[];
extern const size_t nr_metrics;

const struct metric *metric_of(int field);	/* its row; NULL: none */
int metric_index(int field);			/* its row's index; -1: none */
double metric_value(const struct metric *m, const struct result *r);	/* as files keep it */
const char *metric_text(const struct metric *m, const struct result *r);	/* NULL: "" */
void metric_set_text(const struct metric *m, struct result *r, const char *s);

#endif
