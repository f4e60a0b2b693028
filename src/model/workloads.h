/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/workloads.h - the one registry of benchmarks and loads: names, flags, periods, work. */
#ifndef MODEL_WORKLOADS_H
#define MODEL_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loads/loads.h"
#include "task/task.h"

enum wl_flag {
	WL_BENCH = 1u << 0,		/* can be measured */
	WL_LOAD = 1u << 1,		/* can run as a background load */
	WL_RT = 1u << 2,		/* fixed work per period: -r, fifo, rr, deadline */
	WL_NODEADLINE = 1u << 3,	/* Gaming: no deadline column */
	WL_CUSTOM = 1u << 4,		/* exists only with -C and -I */
	WL_READ_FILE = LOAD_READ_FILE,	/* reads the Read file in the work directory */
	WL_WRITE_FILE = LOAD_WRITE_FILE,	/* writes the Write file in the work directory */
	WL_FILES = WL_READ_FILE | WL_WRITE_FILE,	/* uses files in the work directory */
	WL_OPTIN = 1u << 7,		/* only when named: not in 0.31's default matrix */
	WL_RTAPP_FILE = 1u << 8,	/* rt-app: exists only with a workload file, which */
					/* selects it (-W FILE.json; its .not_by_name) */
	WL_CPU_SIDE = 1u << 9,		/* -L threads burn the CPU: their CPUs reported and */
					/* held against min(L, CPUs) (Burn, Compile) */
	WL_COMMAND = 1u << 10,		/* exists only with --load-cmd */
};

enum intensity_kind {
	INT_NONE,			/* nothing to measure */
	INT_RATE,			/* units per second of the window */
	INT_CPUS,			/* CPU time / wall time of the load */
	INT_PCT,			/* % of the simulation's CPU achieved */
	INT_TREE,			/* CPU time of its processes / wall time (Command) */
};

struct bench_kind;

struct workload {
	const char *name;
	unsigned flags;
	const char *what;			/* one line for --help and the man page */
	const struct bench_kind *kind;		/* its kind's ops (model/kinds.h); NULL: a load */
	uint64_t period_num, period_den;	/* period = num / den ns */
	uint64_t work_ns;			/* CPU work per period (periodic) */
	int (*load)(struct load_ctx *ctx);	/* runs until ctx->stop */
	enum intensity_kind intensity;
	const char *unit;			/* of the intensity */
	double unit_scale;			/* units counted -> shown */
	const char *threads;			/* a chain's threads' names as a tracefs glob */
						/* (--explain's trace follows them), or NULL */
	const char *not_by_name;		/* why -W NAME cannot select it, what selects */
						/* it instead; NULL: its name does */
};

extern const struct workload workloads[];
extern const size_t nr_workloads;
int workload_find(const char *name);		/* case-insensitive, -1 if none */
int workload_rtapp(void);			/* the rt-app row's index */
void workload_names(unsigned need, char *buf, size_t len);
struct config;
bool workload_defined(const struct workload *wl, const struct config *cfg);

/* Which of the Read and Write files (WL_READ_FILE, WL_WRITE_FILE) the selected loads use. */
unsigned load_files_needed(uint32_t loads);

#endif
