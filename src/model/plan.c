// SPDX-License-Identifier: GPL-2.0-or-later
/* model/plan.c - the one place that turns the selected benchmarks and loads into the run's
 * cells. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>

#include "core/miss_explain.h"
#include "core/latency_strip.h"
#include "core/stats.h"
#include "lib/util.h"
#include "model/kinds.h"
#include "model/workloads.h"
#include "model/record.h"
#include "model/config.h"
#include "model/plan.h"
#include "sys/machine.h"

/* Does benchmark b run under load l: both selected, and a workload never loads itself. */
static bool in_matrix(const struct config *cfg, size_t b, size_t l)
{
	return (cfg->benches & (1u << b)) && (cfg->loads & (1u << l)) && l != b;
}

/*
 * The variant in slot s of a cell's pass p, of n: a Williams design. Pass
 * p runs the sequence 0, 1, n-1, 2, n-2, ... shifted by p, mirrored in the
 * second n passes when n is odd; over n passes (2n for odd n) each variant
 * runs in each slot equally often and follows each other variant equally
 * often, so a drift of the machine during the run, and what a row leaves
 * to the next, weigh on every variant alike. For two it is A B, B A, A B...
 */
int plan_variant_at(int pass, int slot, int n)
{
	int rows = n % 2 ? 2 * n : n, r = pass % rows;
	int j = n % 2 && r >= n ? n - 1 - slot : slot;
	int base = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : n - j / 2;

	return (base + r % n) % n;
}

/* Does group g (0-based) run under load l: selected, and not one of its members. */
static bool group_in_matrix(const struct config *cfg, int g, size_t l)
{
	return (cfg->loads & (1u << l)) && !(cfg->groups[g].mask & (1u << l));
}

/* The benchmarks a cell's row runs, into member[GROUP_MAX]; how many. */
int cell_members(const struct config *cfg, const struct cell *c, int *member)
{
	const struct task_group *g;

	if (!c->group) {
		member[0] = c->bench;
		return 1;
	}
	g = &cfg->groups[c->group - 1];
	for (int k = 0; k < g->n; k++)
		member[k] = g->member[k];
	return g->n;
}

/* What a cell's table is titled by: its group, its workload file, else its benchmark. */
const char *cell_table_name(const struct config *cfg, const struct cell *c)
{
	const char *own = cell_kind_table_name(cfg, c);

	if (own)
		return own;
	return c->group ? cfg->groups[c->group - 1].name : workloads[c->bench].name;
}

/* The results a cell's row gives: its kind's (a file's: per thread object), else one per
 * member of its group. */
int cell_nresults(const struct config *cfg, const struct cell *c)
{
	int member[GROUP_MAX];

	if (kind_of(c->bench)->nresults)
		return kind_of(c->bench)->nresults(cfg, c);
	return cell_members(cfg, c, member);
}

/* The benchmark its result k names: the member's, the thread's as in the file. */
const char *cell_result_name(const struct config *cfg, const struct cell *c, int k)
{
	int member[GROUP_MAX];

	if (kind_of(c->bench)->result_name)
		return kind_of(c->bench)->result_name(cfg, c, k);
	if (k >= cell_members(cfg, c, member))
		return workloads[c->bench].name;
	return workloads[member[k]].name;
}

/* The results the plan gives: one per cell, and per member of its group (-W A+B). */
int plan_results(const struct config *cfg, const struct plan *p)
{
	int n = 0;

	for (int i = 0; i < p->ncells; i++)
		n += cell_nresults(cfg, &p->cells[i]);
	return n;
}

/*
 * One table's cells: bench (or group, 1-based, with bench its first) under
 * each load, under variant (-1: each variant in turn, the pass's order).
 */
static int one_table(const struct config *cfg, int pass, int variant, int ncpus, int bench,
		     int group, struct cell *cells)
{
	int nv = variant < 0 && cfg->nvariants ? cfg->nvariants : 1, n = 0;

	for (size_t l = 0; l < nr_workloads; l++) {
		if (group ? !group_in_matrix(cfg, group - 1, l) : !in_matrix(cfg, (size_t)bench, l))
			continue;
		for (int s = 0; s < nv; s++, n++)
			if (cells)
				cells[n] = (struct cell){
					.bench = bench, .load = (int)l, .pass = pass,
					.variant = variant >= 0 ? variant :
						   plan_variant_at(pass, s, nv),
					.ncpus = ncpus, .group = group, .table_start = n == 0 };
	}
	if (cells && n)
		cells[n - 1].table_end = true;
	return n;
}

/* The cells of one pass under one CPU count, into cells (NULL: only counted); how many. */
static int one_count(const struct config *cfg, int pass, int variant, int ncpus,
		     struct cell *cells)
{
	int n = 0;

	for (size_t b = 0; b < nr_workloads; b++)
		n += one_table(cfg, pass, variant, ncpus, (int)b, 0, cells ? cells + n : NULL);
	for (int g = 0; g < cfg->ngroups; g++)
		n += one_table(cfg, pass, variant, ncpus, cfg->groups[g].member[0], g + 1,
			       cells ? cells + n : NULL);
	return n;
}

/*
 * The cells of one pass under variant (-1: each cell's in turn): the whole
 * matrix for each CPU count in turn, so that a pass's counts run close
 * together in time and each --repeat pass gives every count once (drift of
 * the machine weighs on each count alike).
 */
static int one_block(const struct config *cfg, int pass, int variant, struct cell *cells)
{
	int n = 0;

	if (!cfg->nncpus)
		return one_count(cfg, pass, variant, 0, cells);
	for (int k = 0; k < cfg->nncpus; k++)
		n += one_count(cfg, pass, variant, cfg->ncpus[k], cells ? cells + n : NULL);
	return n;
}

/*
 * The cells of one pass. --vary-order blocks runs the whole pass under one
 * variant, then under the next, in the balanced order of plan_variant_at()
 * for the pass: one switch per variant and pass (none between passes when
 * the last variant of one is the first of the next, as in A B, B A).
 */
static int one_pass(const struct config *cfg, int pass, struct cell *cells)
{
	int n = 0;

	if (!cfg->nvariants || cfg->vary_order != VORDER_BLOCKS)
		return one_block(cfg, pass, -1, cells);
	for (int s = 0; s < cfg->nvariants; s++)
		n += one_block(cfg, pass, plan_variant_at(pass, s, cfg->nvariants),
			       cells ? cells + n : NULL);
	return n;
}

int plan_build(struct plan *p, const struct config *cfg)
{
	p->per_pass = one_pass(cfg, 0, NULL);
	p->blocks = cfg->nvariants && cfg->vary_order == VORDER_BLOCKS;
	p->ncells = p->per_pass * cfg->repeat;
	p->cells = calloc((size_t)p->ncells + 1, sizeof(*p->cells));
	if (!p->cells)
		return -ENOMEM;
	for (int pass = 0; pass < cfg->repeat; pass++)
		one_pass(cfg, pass, p->cells + pass * p->per_pass);
	return 0;
}

_Static_assert(GROUP_NAME_LEN == RES_GROUP_LEN, "a result holds its group's name whole");
_Static_assert(2 * sizeof(struct result) + sizeof(struct latency_compact) +
	       HIST_KEEP_MAX * sizeof(uint32_t) + sizeof(struct cell) + 5 * 16 <= ROW_MEM_MAX,
	       "a row's memory fits ROW_MEM_MAX");
_Static_assert(sizeof(struct latency_strip) + sizeof(struct miss_report) + 2 * 16 <= ROW_MEM_LOOK,
	       "a row's strip and misses fit ROW_MEM_LOOK");

_Static_assert(sizeof(struct chain_summary) + 16 <= ROW_MEM_CHAIN,
	       "a chain row's summary fits ROW_MEM_CHAIN");
_Static_assert(CHAIN_HOPS_MAX * sizeof(struct ran_instead) + 16 <= ROW_MEM_HOPS,
	       "a chain row's hops' ran-instead tallies fit ROW_MEM_HOPS");

_Static_assert(sizeof(struct instance_set) + INSTANCES_MAX * sizeof(struct instance_fig) + 16 <=
	       ROW_MEM_INST, "a row's instances' figures fit ROW_MEM_INST");

/*
 * What a kept row may cost: more when it keeps what --plot and --explain
 * look at, a chain (and with --explain, who ran instead at its hops), or
 * the figures of --instances' copies.
 */
size_t row_mem_max(const struct config *cfg)
{
	bool look = cfg->plot_path || cfg->explain || cfg->timeline_path;
	bool chain = false;

	for (size_t i = 0; i < nr_workloads; i++)
		chain |= (cfg_benches(cfg) & (1u << i)) &&
			 kind_has((int)i, KM_CHAIN);
	return ROW_MEM_MAX + (look ? ROW_MEM_LOOK : 0) + (chain ? ROW_MEM_CHAIN : 0) +
	       (chain && cfg->explain ? ROW_MEM_HOPS : 0) + (cfg->instances > 1 ? ROW_MEM_INST : 0);
}

/*
 * The most passes of per_pass rows of row_bytes each whose memory fits the
 * rows' share of mem_bytes (0: any).
 */
long plan_max_passes(int per_pass, uint64_t mem_bytes, size_t row_bytes)
{
	uint64_t n;

	if (!mem_bytes || per_pass < 1)
		return LONG_MAX;
	n = mem_bytes / ROW_MEM_SHARE / row_bytes / (uint64_t)per_pass;
	return n > LONG_MAX ? LONG_MAX : (long)n;
}

/* The results of one pass: a group's cell gives one per member, a file's one per thread. */
static int pass_results(const struct config *cfg)
{
	int n = one_pass(cfg, 0, NULL), counts = cfg->nncpus ? cfg->nncpus : 1;
	int rt = workload_rtapp();

	for (int g = 0; g < cfg->ngroups; g++)
		n += (cfg->groups[g].n - 1) * counts *
		     one_table(cfg, 0, -1, 0, cfg->groups[g].member[0], g + 1, NULL);
	if (cfg->rtapp.model && (cfg->benches & (1u << rt)))
		n += ((int)cfg->rtapp.model->nthreads - 1) * counts *
		     one_table(cfg, 0, -1, 0, rt, 0, NULL);
	return n;
}

/* --repeat within what the memory allows (interbench(8), --repeat); an error of usage if not. */
int plan_check_memory(const struct config *cfg, char *err, size_t errlen)
{
	char what[192];
	uint64_t mem = sysinfo_memory(what, sizeof(what));
	int per_pass = pass_results(cfg);
	size_t row_bytes = row_mem_max(cfg);
	long most = plan_max_passes(per_pass, mem, row_bytes);

	if (cfg->repeat <= most)
		return 0;
	return set_err(err, errlen, "--repeat %d: %ld rows may need up to %llu MiB, more than "
		       "a quarter of the %llu MiB this run may use (%s); at most %ld passes fit",
		       cfg->repeat, (long)cfg->repeat * per_pass,
		       (unsigned long long)((uint64_t)cfg->repeat * (uint64_t)per_pass *
					    row_bytes / MIB),
		       (unsigned long long)(mem / MIB), what, most);
}

/* "Video": the selected benchmarks with no cell, every load selected being themselves. */
void plan_idle_benches(const struct config *cfg, const struct plan *p, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t b = 0; b < nr_workloads && n < len; b++) {
		bool has = false;

		for (int i = 0; i < p->per_pass && !has; i++)
			has = p->cells[i].bench == (int)b;
		if ((cfg->benches & (1u << b)) && !has)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      workloads[b].name);
	}
}

void plan_free(struct plan *p)
{
	free(p->cells);
	*p = (struct plan){ 0 };
}

double plan_seconds(const struct plan *p, double row_seconds)
{
	return p->ncells * (row_seconds + PLAN_SETTLE_S);
}

/*
 * How the first pass holds each cell's variants: back to back (step nv,
 * over the whole pass), or with --vary-order blocks one cell a step over
 * the first block, whose cells the other blocks repeat under the others.
 */
int plan_cell_step(const struct config *cfg, const struct plan *p)
{
	return p->blocks || !cfg->nvariants ? 1 : cfg->nvariants;
}

int plan_first_cells(const struct config *cfg, const struct plan *p)
{
	return p->blocks ? p->per_pass / cfg->nvariants : p->per_pass;
}
