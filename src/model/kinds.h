/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/kinds.h - the kinds of benchmark, one ops struct each (as fio's I/O engines are): its
 * parameters, its results, what its child runs, how it fills its results, its metrics. */
#ifndef MODEL_KINDS_H
#define MODEL_KINDS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "task/task.h"

struct config;
struct workload;
struct cell;
struct result;
struct instance_fig;

/* The metrics a kind has: what its results hold (the metric table reads these). */
enum kind_metric {
	KM_WAKEUPS = 1u << 0,		/* wake-ups: their latency, their split */
	KM_DEADLINES = 1u << 1,		/* periods with deadlines: met, missed, their records */
	KM_UNITS = 1u << 2,		/* Gaming: units of work back to back, % CPU */
	KM_CHAIN = 1u << 3,		/* a chain's frames or cycles and its hops (chain.h) */
	KM_FPS = 1u << 4,		/* frames at --fps: the frame rate */
	KM_FRAMES = 1u << 5,		/* Game: frames per second, their lows, stutters */
	KM_XRUNS = 1u << 6,		/* AudioGraph: the DSP load, xruns */
	KM_THREADS = 1u << 7,		/* a result per thread of an rt-app file: its timers */
};

typedef int kind_run_fn(const struct sim_params *p, uint64_t duration_ns, atomic_int *stop,
			struct bench_result *res, struct sim_live *live);

struct bench_kind {
	const char *name;
	unsigned metrics;		/* enum kind_metric */
	/* Its parameters: the nominal period of wl as cfg sets it, num / den ns (NULL: the
	 * registry's), and the rest of a task's (its work, its frames, its chain) once the
	 * period is scaled; NULL: the registry's work, scaled. */
	void (*period)(const struct workload *wl, const struct config *cfg, uint64_t *num,
		       uint64_t *den);
	void (*params)(struct sim_params *p, const struct workload *wl, const struct config *cfg);
	/* The wake-ups a row can have at most; NULL: one per period of -t seconds. */
	uint64_t (*wakeups)(const struct config *cfg);
	/* How many results its row gives and the name of each (NULL: one per member of its
	 * group), the name of its table (NULL: its group's, else its own). */
	int (*nresults)(const struct config *cfg, const struct cell *c);
	const char *(*result_name)(const struct config *cfg, const struct cell *c, int k);
	const char *(*table_name)(const struct config *cfg, const struct cell *c);
	/* What its child runs (NULL: its rows are the workload file's, child/rtapp_child.c). */
	kind_run_fn *run;
	/* How it fills its results: their names (NULL: the benchmark's), its numbers from
	 * the bench's result (thread: the file's thread it ran, -1: none), --instances' copy. */
	void (*names)(struct result *r, const struct config *cfg, int thread);
	void (*fill)(struct result *r, const struct bench_result *b, const struct config *cfg,
		     int thread);
	void (*fill_instance)(struct instance_fig *f, const struct bench_result *b);
};

/* The registry (kinds.c): each kind's ops, in its own file. */
extern const struct bench_kind kind_periodic, kind_sweep, kind_render;	/* kind_periodic.c */
extern const struct bench_kind kind_flat;				/* kind_flat.c */
extern const struct bench_kind kind_game, kind_audiograph;		/* kind_chain.c */
extern const struct bench_kind kind_rtapp;				/* kind_rtapp.c */
extern const struct bench_kind *const bench_kinds[];	/* in registry order */
extern const size_t nr_bench_kinds;

const struct bench_kind *kind_of(int bench);		/* the registry row's, never NULL */
bool kind_has(int bench, unsigned metrics);		/* all of them */
bool has_metrics(const struct workload *wl, unsigned metrics);
bool kinds_have(uint32_t benches, unsigned metrics);	/* one of benches has them all */
unsigned result_kind(const struct result *r);		/* the metric table's MF_ kind of r */
const char *cell_kind_table_name(const struct config *cfg, const struct cell *c);

/* kind_chain.c: what the outputs and the orchestrator read of a chain */
struct hop_stats;
struct chain_summary;
struct chain_hists;
const struct hop_stats *result_hop(const struct result *r, int hop);
const char *result_chain_unit(const struct result *r);
/* A chain's JSON words, by its kind (doc/chains.md), and what its copies (--instances) have. */
struct chain_words {
	const char *time, *done, *on_time, *input, *marks, *copy_p99;
	struct { const char *key; size_t off; } copy[2];	/* of struct instance_fig */
};
const struct chain_words *result_chain_words(const struct result *r,
					     const struct chain_summary **c);
bool chain_has_input(const struct chain_summary *c);
int bench_hops(const struct bench_result *b);
double bench_hop_max(const struct bench_result *b, int hop);
bool bench_has_chain(const struct bench_result *b);
void bench_chain_pool(struct bench_result *m, struct chain_hists *mh,
		      const struct bench_result *a, const struct chain_hists *ah);
void bench_chain_summarise(struct bench_result *b, const struct chain_hists *h);

/* A cell of an rt-app workload file, a result per thread object (its rows are child/rtapp_child.c's) */
bool cell_is_rtapp_file(const struct cell *c);

/* The records a workload file's threads keep in a row, together (20 MiB): each a share. */
#define RTAPP_RECS_PER_ROW (1u << 19)

#endif
