/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/plan.h - the cells of a run, built once from the configuration, walked by every loop. */
#ifndef MODEL_PLAN_H
#define MODEL_PLAN_H

/*
 * A run is a list of cells, in the order they run: for each pass, each
 * --ncpus count in the order given (the whole pass for the first count,
 * then for the next), each selected benchmark in registry order, each
 * selected load in registry order but the benchmark itself, then each
 * group (-W A+B) in the order given under each load that is not one of its
 * members (one cell: all members at once), and with
 * --vary each variant, back to back, in the balanced order of
 * plan_variant_at() (--vary-order blocks: a whole pass per variant, in
 * that order). --dry-run prints it, the progress line counts it,
 * the orchestrator runs it, and the summaries and JSON walk its first pass.
 * A new dimension of the matrix (a variant, a CPU count, a task group) is a
 * field of struct cell and one loop of plan_build().
 */
#include <stdbool.h>
#include <stdint.h>

#include "model/kinds.h"

struct config;

/*
 * One cell of the plan's matrix: a benchmark (or group, or workload file)
 * against one load, in one pass, variant and CPU count. Each cell runs as
 * one row, which gives one result, or one per member or thread.
 */
struct cell {
	int bench, load;		/* registry indices */
	int pass;			/* 0-based, with --repeat */
	int variant;			/* --vary's value, 0-based; 0 without */
	int ncpus;			/* --ncpus: the CPUs its row is confined to; 0 without */
	int group;			/* -W A+B: 1 + its index in cfg->groups, whose members */
					/* all run in this row (bench is the first); 0: none */
	bool table_start;		/* the first of its benchmark's table in this pass */
	bool table_end;			/* the last of it */
	int member;			/* for the summaries (each_cell_summary()): which of */
					/* its results, 0-based (cell_result_name()) */
};

struct plan {
	int ncells;
	struct cell *cells;		/* in the order they run */
	int per_pass;			/* cells of one pass: cells[0..per_pass) is pass 0 */
	bool blocks;			/* --vary-order blocks: a pass is nvariants blocks of */
					/* per_pass / nvariants cells, each of one variant */
};

#define PLAN_SETTLE_S 1.5		/* a row's cost beyond -t: the load's second alone, */
					/* the children's start and end */

/*
 * What a row costs the orchestrator's memory at most, for as long as the run
 * lasts: its result with its compact histogram (core/stats.h) and with
 * --explain its misses (core/miss_explain.h), its cell, the record's array as it
 * doubles, malloc's headers (a static assertion in
 * plan.c checks the sum). --repeat may ask for as many passes as fit a
 * quarter of the memory the run may use (the rest is the loads').
 */
#define ROW_MEM_MAX 8704
#define ROW_MEM_LOOK 3072		/* and its strip (--plot) and misses (--explain) */
#define ROW_MEM_CHAIN 1536		/* and a chain's summary (Game, AudioGraph) */
#define ROW_MEM_HOPS 1792		/* and who ran instead at each of its hops (--explain) */
#define ROW_MEM_INST 5760		/* and --instances' figures of each copy */
#define ROW_MEM_SHARE 4			/* the rows' share of the memory: a quarter */

int plan_build(struct plan *p, const struct config *cfg);	/* 0, or -ENOMEM */
int plan_variant_at(int pass, int slot, int n);	/* the balanced order of n variants */
int plan_cell_step(const struct config *cfg, const struct plan *p);	/* a cell's variants */
int plan_first_cells(const struct config *cfg, const struct plan *p);	/* and their span */
long plan_max_passes(int per_pass, uint64_t mem_bytes, size_t row_bytes);
size_t row_mem_max(const struct config *cfg);
int plan_check_memory(const struct config *cfg, char *err, size_t errlen);
void plan_free(struct plan *p);
void plan_idle_benches(const struct config *cfg, const struct plan *p, char *buf, size_t len);
int cell_members(const struct config *cfg, const struct cell *c, int *member);
int cell_nresults(const struct config *cfg, const struct cell *c);
const char *cell_result_name(const struct config *cfg, const struct cell *c, int k);
const char *cell_table_name(const struct config *cfg, const struct cell *c);

/* The shape of a cell's table: a benchmark's, a group's (-W A+B), a workload file's threads'. */
enum table_shape { TABLE_BENCH, TABLE_GROUP, TABLE_THREADS };
enum table_shape cell_table(const struct cell *c);	/* model/kinds.c */
int plan_results(const struct config *cfg, const struct plan *p);
double plan_seconds(const struct plan *p, double row_seconds);	/* the whole run, estimated */

#endif
