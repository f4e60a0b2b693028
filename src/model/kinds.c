// SPDX-License-Identifier: GPL-2.0-or-later
/* model/kinds.c - the registry of the kinds of benchmark: each one's ops are in its own file
 * (kind_periodic.c, kind_flat.c, kind_chain.c, kind_rtapp.c); a benchmark names its kind in
 * the registry of workloads. */
#include "core/frames.h"
#include "model/kinds.h"
#include "model/metrics.h"
#include "model/result.h"
#include "model/plan.h"
#include "model/workloads.h"

const struct bench_kind *const bench_kinds[] = {
	&kind_periodic, &kind_sweep, &kind_flat, &kind_render, &kind_game, &kind_audiograph,
	&kind_rtapp,
};
const size_t nr_bench_kinds = ARRAY_SIZE(bench_kinds);

/* A load's row, which measures nothing, has the periodic kind's ops: it has none of its own. */
const struct bench_kind *kind_of(int bench)
{
	return workloads[bench].kind ? workloads[bench].kind : &kind_periodic;
}

bool kind_has(int bench, unsigned want)
{
	return (kind_of(bench)->metrics & want) == want;
}

bool has_metrics(const struct workload *wl, unsigned want)
{
	return wl->kind && (wl->kind->metrics & want) == want;
}

bool kinds_have(uint32_t benches, unsigned want)
{
	for (size_t i = 0; i < nr_workloads; i++)
		if ((benches & (1u << i)) && kind_has((int)i, want))
			return true;
	return false;
}

/* The name a cell's kind gives its table (an rt-app file's: the file's); NULL: none of its own. */
const char *cell_kind_table_name(const struct config *cfg, const struct cell *c)
{
	const struct bench_kind *k = kind_of(c->bench);

	return k->table_name ? k->table_name(cfg, c) : NULL;
}

enum table_shape cell_table(const struct cell *c)
{
	return cell_is_rtapp_file(c) ? TABLE_THREADS : c->group ? TABLE_GROUP : TABLE_BENCH;
}

/* An rt-app workload file's cell: one process, a result per thread object (child/rtapp_child.c). */
bool cell_is_rtapp_file(const struct cell *c)
{
	return kind_of(c->bench) == &kind_rtapp;
}

/* Which kind of benchmark measured r, as the metric table names kinds (MF_ flags). */
unsigned result_kind(const struct result *r)
{
	if (r->rtapp)
		return MF_RTAPP;
	if (r->chain && r->chain->kind != CHAIN_NONE)
		return r->chain->kind == CHAIN_GAME ? MF_GAME : MF_AUDIO;
	return MF_TASK;
}
