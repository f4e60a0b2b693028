/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loads/loads.h - the one registry of benchmarks and loads, and what a load process needs to
 * run a load. */
#ifndef LOADS_LOADS_H
#define LOADS_LOADS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>

#include "core/defs.h"
#include "core/series.h"
#include "task/task.h"

/* ---- the workloads: one registry for benchmarks and loads ---- */

enum wl_flag {
	WL_BENCH = 1u << 0,		/* can be measured */
	WL_LOAD = 1u << 1,		/* can run as a background load */
	WL_RT = 1u << 2,		/* fixed work per period: -r, fifo, rr, deadline */
	WL_NODEADLINE = 1u << 3,	/* Gaming: no deadline column */
	WL_CUSTOM = 1u << 4,		/* exists only with -C and -I */
	WL_READ_FILE = 1u << 5,		/* reads the Read file in the work directory */
	WL_WRITE_FILE = 1u << 6,	/* writes the Write file in the work directory */
	WL_FILES = WL_READ_FILE | WL_WRITE_FILE,	/* uses files in the work directory */
	WL_OPTIN = 1u << 7,		/* only when named: not in 0.31's default matrix */
};

enum intensity_kind {
	INT_NONE,			/* nothing to measure */
	INT_RATE,			/* units per second of the window */
	INT_CPUS,			/* CPU time / wall time of the load */
	INT_PCT,			/* % of the simulation's CPU achieved */
};

struct load_ctx;

struct workload {
	const char *name;
	unsigned flags;
	const char *what;			/* one line for --help and the man page */
	enum sim_model model;
	uint64_t period_num, period_den;	/* period = num / den ns */
	uint64_t work_ns;			/* CPU work per period (periodic) */
	int (*load)(struct load_ctx *ctx);	/* runs until ctx->stop */
	enum intensity_kind intensity;
	const char *unit;			/* of the intensity */
	double unit_scale;			/* units counted -> shown */
	const char *threads;			/* a chain's threads' names as a tracefs glob */
						/* (--explain's trace follows them), or NULL */
};

extern const struct workload workloads[];
extern const size_t nr_workloads;
int workload_find(const char *name);		/* case-insensitive, -1 if none */
void workload_names(unsigned need, char *buf, size_t len);

/* Which of the Read and Write files (WL_READ_FILE, WL_WRITE_FILE) the selected loads use. */
unsigned load_files_needed(uint32_t loads);

/* ---- a load running: load_*.c, hackbench.c ---- */


struct load_counters {		/* shared memory: sub-processes count too */
	_Atomic uint64_t units;	/* bytes, messages, ... */
	_Atomic uint64_t cached_passes;	/* Read passes whose page cache drop did not work */
	struct sim_live sim;
};

struct load_params {		/* what a load needs of the run's configuration */
	int cpu_load;			/* -L: Burn threads, Ring size, Hack groups */
	unsigned long loops_per_ms;	/* loops mode, else 0 */
	long memload_mib;		/* --memload-mib, 0 = automatic */
	long file_mib;			/* --file-mib, 0 = automatic */
	const char *work_dir;		/* where the Read and Write files are */
	struct sim_params sim;		/* Video, X and Custom as a load */
};

struct load_ctx {
	struct load_params par;
	const struct workload *wl;	/* the load running, set by load_process() */
	atomic_int stop;		/* set when the load must end */
	struct load_counters *ctr;
	int read_fd;			/* the Read file, or -1 */
	int write_fd;			/* the Write file, or -1 */
	uint64_t read_size, write_size;	/* bytes */
	char reason[REASON_LEN];	/* why the load ended early */
};

struct load_result {		/* sent, as bytes, from the load process */
	int status;			/* ROW_OK, or ROW_FAILED: ended early */
	char reason[REASON_LEN];
	double intensity;		/* < 0: not measured */
	bool cache_kept;		/* a Read pass found its file still in the page cache */
	struct series persec;		/* the intensity each second of the window (n 0: none) */
};

int load_prepare_files(unsigned files, struct load_ctx *ctx, volatile sig_atomic_t *stop,
		       char *err, size_t errlen);
void load_close_files(struct load_ctx *ctx);
bool cache_drop_worked(size_t resident, size_t pages);
int load_file_sizes(uint64_t free_bytes, uint64_t ram_bytes, long file_mib, bool want_read,
		    bool want_write, uint64_t *read, uint64_t *write);

struct meminfo {		/* what sizes Memload, from /proc/meminfo, in bytes */
	uint64_t total, free, available, swap_total, swap_free;
};
int meminfo_parse(const char *text, struct meminfo *mi);
uint64_t memload_margin(const struct meminfo *mi);
uint64_t memload_bytes_for(const struct meminfo *mi);
uint64_t memload_shortfall(const struct meminfo *mi, uint64_t floor);
struct cg_mem;			/* sys/cgroup.h: a cgroup's memory limit and headroom */
uint64_t memload_cg_margin(const struct cg_mem *cg);
uint64_t memload_bytes_in(const struct meminfo *mi, const struct cg_mem *cg);
uint64_t memload_cg_shortfall(const struct cg_mem *cg);
uint64_t memload_size(long memload_mib);

#endif
