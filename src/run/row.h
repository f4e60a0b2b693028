/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/row.h - a row: its children (bench, load), what they send, how it ends, its result,
 * --instances' copies pooled. */
#ifndef RUN_ROW_H
#define RUN_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "core/defs.h"
#include "core/period.h"
#include "core/sched_events.h"
#include "core/split.h"
#include "child/row_child.h"
#include "loads/loads.h"
#include "model/kinds.h"
#include "model/workloads.h"
#include "model/config.h"
#include "sys/proc_scan.h"
#include "task/task.h"

struct instance_set;
struct knob_values;
struct machine;
struct plan;
struct result;
struct run_record;

/* One row while it runs; its result goes to the run record once it ends. */
struct row {
	int bench, load;		/* registry indices */
	int pass;			/* 0-based, with --repeat */
	int variant;			/* --vary's value, 0-based */
	int ncpus;			/* --ncpus: the CPUs it was confined to; 0: all */
	int group;			/* -W A+B: 1 + its index in cfg->groups; 0: none */
	int thread;			/* a workload file's: its thread object, file order */
	char knob_value[VARIANT_VALUE_LEN];	/* a system knob as read back before the row */
	char variant_scx[64];		/* scx=: sched_ext as the row began, "enabled: lavd" */
	int variant_pid;		/* scx=, exec=: its program's pid, 0: none */
	int status;			/* enum row_status */
	char reason[REASON_LEN];	/* why it failed or was marked */
	struct bench_result *bench_res;	/* NULL when the bench gave nothing */
	struct load_result load_res;	/* the load's, as its process sent it */
	uint64_t load_stop_ns;		/* stop request to the last process gone */
	double load_due;		/* CPUs the load's CPU side should have kept busy; NAN */
	struct foreign foreign;		/* what tasks not of the run used over the row */
	struct ran_instead ran;		/* --explain: who ran instead */
	uint64_t t_go;			/* CLOCK_MONOTONIC: the measurement's start */
	struct period_log period_log;	/* the bench's period ring, as sent: */
	struct period_rec *periods;	/* period_log.nrec records, oldest first; NULL: none */
	struct stage_set stages;	/* a chain's stages' records, after the head's */
	struct sched_trace trace;	/* --explain: the task's scheduler events */
	struct sched_trace stage_trace[STAGES_MAX];	/* and each of stages' */
	struct ran_instead stage_ran[STAGES_MAX];	/* who ran instead while it waited */
	struct instance_set *inst;	/* --instances: each copy's figures (model/result.h) */
	struct chain_hists *hists;	/* --instances of a chain: what its copies pool; NULL */
};

void row_free(struct row *row);

struct cell;

/* row.c, row_result.c: a row and its result (the signals that end or redo it:
 * row_signals.h) */
void run_row(const struct row_env *env, const struct cell *c, struct row *rows);	/* [members] */
struct result *row_result(struct run_record *rec, const struct row *row,
			  const struct config *row_cfg);	/* NULL: no memory */

/* instances.c: --instances, a row's copies pooled */
void bench_pool(struct bench_result *m, const struct bench_result *a);
void instances_pool(struct row *rows, struct row *all, int n, int ni);

#endif
