/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loads/loads.h - what a load process needs to run a load, and the loads' files and sizes. */
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

/* ---- a load running: load_*.c ---- */


struct load_counters {		/* shared memory: sub-processes count too */
	_Atomic uint64_t units;	/* bytes, messages, ... */
	_Atomic uint64_t cached_passes;	/* Read passes whose page cache drop did not work */
	_Atomic uint64_t side_ns;	/* CPU time of its CPU side (Burn's, Compile's threads) */
	_Atomic uint64_t restarts;	/* Command: times its command ended and started again */
	struct sim_live sim;
};

struct load_params {		/* what a load needs of the run's configuration */
	int cpu_load;			/* -L: Burn threads, Ring size, Hack groups */
	unsigned long loops_per_ms;	/* loops mode, else 0 */
	long memload_mib;		/* --memload-mib, 0 = automatic */
	long file_mib;			/* --file-mib, 0 = automatic */
	const char *work_dir;		/* where the Read and Write files are */
	const char *command;		/* --load-cmd: Command's shell command, or NULL */
	struct sim_params sim;		/* Video, X and Custom as a load */
};

struct load_ctx {
	struct load_params par;
	const char *name;		/* the load running, for messages: set by load_process() */
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
	double cpus;			/* CPUs its CPU side kept busy; < 0: it has none */
	double cpus_want;		/* what its threads could: min(threads, CPUs); < 0: */
					/* no such bound (Command) */
	double cpus_other;		/* CPUs the rest of the load process used (I/O) */
	double restarts;		/* Command: its restarts in the window; < 0: none */
};

/* The loads, one function each, named in the registry (model/workloads.c). */
int load_none(struct load_ctx *ctx);		/* load_cpu.c */
int load_burn(struct load_ctx *ctx);
int load_sim(struct load_ctx *ctx);		/* Video, X and Custom */
int load_ring(struct load_ctx *ctx);
int load_write(struct load_ctx *ctx);		/* load_io.c */
int load_read(struct load_ctx *ctx);
int load_compile(struct load_ctx *ctx);
int load_memload(struct load_ctx *ctx);		/* load_mem.c */
int load_net(struct load_ctx *ctx);		/* load_msg.c */
int load_hack(struct load_ctx *ctx);
int load_command(struct load_ctx *ctx);		/* load_cmd.c */

/* The files in the work directory load_prepare_files() makes: the registry's flags for them. */
enum load_file {
	LOAD_READ_FILE = 1u << 5,	/* the Read file */
	LOAD_WRITE_FILE = 1u << 6,	/* the Write file */
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
