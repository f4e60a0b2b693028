/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timeline/timeline.h - --timeline: the run in the Chrome JSON trace event format (Perfetto UI
 * opens it), grown by each row, bounded by --timeline-max. */
#ifndef TIMELINE_TIMELINE_H
#define TIMELINE_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/period.h"
#include "core/sched_events.h"
#include "core/series.h"
#include "lib/livefile.h"
#include "lib/sbuf.h"

struct run_record;

/* What a row leaves for the timeline, as the orchestrator has it once the row has ended. */
struct timeline_row {
	uint64_t t_go;			/* CLOCK_MONOTONIC: the measurement's start */
	const struct period_log *period_log;	/* or NULL: the row recorded no periods */
	const struct period_rec *periods;	/* period_log->nrec, oldest first, or NULL */
	const struct stage_set *stages;	/* a chain's stages' records, or NULL */
	unsigned metrics;		/* a chain's kind's (model/kinds.h): Game's frames */
					/* (KM_FRAMES), AudioGraph's cycles (KM_XRUNS); 0: none */
	const struct sched_trace *trace;	/* --explain's events of the task, or NULL */
	const struct series *persec;	/* the load's intensity each second, or NULL */
};

#define TL_CPUS 4096			/* CPU tracks the file can name */

struct tl_names {		/* the CPU tracks named so far in the file */
	bool proc;			/* the "CPUs" process */
	uint64_t cpu[TL_CPUS / 64];	/* a bit per CPU */
};

/* The file as it grows: a live file (lib/livefile.h), each version a head, the rows' events
 * and a tail. */
struct timeline {
	struct livefile lf;		/* path NULL: no --timeline */
	long long last[2];		/* where each of lf's files' newest row begins */
	bool failed;			/* an error was said: the file stays as it was */
	uint64_t budget;		/* events a row may have: --timeline-max / rows */
	uint64_t events;		/* events in the file */
	uint64_t dropped;		/* periods the rows left out of it */
	int rows, rows_out;		/* rows in it; rows with no room for even their names */
	struct tl_names named;
};

int timeline_begin(struct timeline *tl, const struct run_record *rec);
void timeline_add_row(struct timeline *tl, const struct run_record *rec,
		      const struct timeline_row *row);
int timeline_end(struct timeline *tl, const struct run_record *rec);
void timeline_abort(struct timeline *tl);

/* timeline_ev.c: a row's events, counted exactly, written in batches */
struct tl_emit {		/* where events go */
	struct sbuf *sb;		/* NULL: only counted */
	uint64_t n;			/* events emitted */
	bool comma;			/* an event is before the next one in the file */
	void (*flush)(void *arg);	/* called when sb holds a batch; or NULL */
	void *arg;
};

struct tl_row {			/* a row as the timeline draws it */
	int pid;			/* its process: the row's number, from 1 */
	int cpus_pid;			/* the "CPUs" process's (after every row's) */
	const char *name;		/* "Video / Burn pass 1", with its variant */
	const char *bench;		/* its thread is "ib-" bench (a workload file's: bench) */
	bool rtapp;			/* a workload file's thread: records of PREC_RTAPP */
	const char *unit;		/* of the load's intensity, "" when none */
	const char *status;		/* "ok", "failed" */
	const char *reason;		/* why, or "" */
	const struct timeline_row *d;
};

struct tl_cut {			/* what of a row fits its budget */
	uint64_t first;			/* the first record kept; period_log->nrec: none */
	uint64_t dropped;		/* its periods left out: all before first */
	uint64_t events;		/* what it writes */
	bool out;			/* not even its names fit: nothing is written */
};

void tl_row_cut(const struct tl_row *r, const struct tl_names *named, uint64_t budget,
		struct tl_cut *cut);
void tl_row_events(const struct tl_row *r, const struct tl_cut *cut, struct tl_names *named,
		   struct tl_emit *e);

#endif
