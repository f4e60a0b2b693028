/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/task.h - the simulated tasks: what one is asked to do, how it is scheduled, what it
 * measured. */
#ifndef TASK_TASK_H
#define TASK_TASK_H

/* A task knows nothing of the run: the orchestrator fills sim_params from its configuration. */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/accounting.h"
#include "core/defs.h"
#include "core/frames.h"
#include "core/period.h"
#include "core/rtapp_periods.h"
#include "core/split.h"
#include "core/stats.h"
#include "core/tickphase.h"
#include "task/wake.h"
#include "task/work.h"

#define GAME_FPS 60			/* Game's frame rate without --fps */

/* ---- sched_policy.c: how the benchmark task is scheduled, as data ---- */

enum sched_policy {		/* --policy; the first three are --load-policy's too */
	POL_OTHER, POL_BATCH, POL_IDLE, POL_FIFO, POL_RR, POL_DEADLINE,
};
extern const char *const policy_names[];	/* NULL-terminated, in enum order */
extern const char *const load_policy_names[];	/* other, batch, idle */
bool policy_is_rt(int policy);			/* fifo, rr, deadline */
int policy_of(int policy, bool realtime);	/* unset (-1): fifo with -r, else other */

/* The Linux ABI of sched_setattr(2), under our own name (glibc before 2.41 has none). */
struct ib_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;		/* deadline's runtime; a fair task's slice (6.12+) */
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;	/* 0..1024, with CONFIG_UCLAMP_TASK */
	uint32_t sched_util_max;
};

#define UCLAMP_SCALE 1024

/* How the benchmark task is to be scheduled, resolved for one benchmark. */
struct task_sched {
	int policy;			/* enum sched_policy */
	int nice;			/* -B, for other and batch */
	int rt_priority;		/* fifo and rr */
	uint64_t slice_ns;		/* --slice, 0: the kernel's */
	uint64_t dl_runtime_ns, dl_period_ns;	/* deadline: period = deadline */
	int util_min, util_max;		/* 0..UCLAMP_SCALE, -1: untouched */
};

bool task_sched_is_default(const struct task_sched *ts);
void dl_params(uint64_t period_num, uint64_t period_den, uint64_t work_ns, uint64_t *runtime,
	       uint64_t *period);
int uclamp_value(int pct);
int sched_readback(const struct task_sched *want, const struct ib_sched_attr *got, char *err,
		   size_t errlen);
int sched_error(const struct task_sched *ts, const char *bench, int step, int err,
		long long rt_runtime_us, long long rt_period_us, char *buf, size_t len);
enum { SCHED_STEP_POLICY, SCHED_STEP_UCLAMP };	/* sched_error's step */

/* sched.c: the knobs applied, to the task and to the loads */
int sched_apply(const struct task_sched *ts, const char *bench, char *err, size_t errlen);
int sched_load_policy(int policy);

/* ---- sim.c: the simulated interactive tasks ---- */

struct bench_result {		/* sent, as bytes, from the bench process */
	int status;			/* enum row_status */
	char reason[REASON_LEN];
	struct latency wake;		/* t_run - t_wake: the instant asked for (own timer), */
					/* or the waker's stamp */
	struct latency timer;		/* the waker's: t_wake - intended */
	long timer_slack_ns;		/* the task's, read back once it was scheduled; -1: none */
	struct acct acct;		/* periodic tasks */
	struct gaming_acct gaming;	/* Gaming */
	double pct_cpu, pct_deadlines;	/* pct_deadlines < 0: none */
	uint64_t task_cpu_ns;		/* CPU time the task thread used */
	uint64_t work_ns;		/* the work its achieved periods asked for */
	uint64_t loops;			/* iterations of the loop it spun */
	uint64_t burn_cpu_ns;		/* the CPU time they took */
	uint64_t wall_ns;		/* from the first period to the end */
	uint64_t traced_ns;		/* the sample that stopped tracing, 0 if none */
	struct split_result split;	/* where each wake-up's latency went */
	struct period_log period_log;		/* its period ring's header (core/period.h) */
	struct chain_summary chain;	/* Game, AudioGraph: hops and frames (kind 0: none) */
	struct timer_periods timers;	/* an rt-app thread's: its periods' slack and wu_lat */
	uint64_t timer_wakeups;		/* an rt-app thread's wake-ups, by what woke it */
	uint64_t resume_wakeups;
};

struct chain_ops;

/* What a kind of benchmark (model/kinds.h) asks of the loops here. */
struct sim_params {
	const char *name;		/* the benchmark's, for its thread and messages */
	uint64_t (*frame_work)(const struct sim_params *p, uint64_t k);	/* period k's work; */
					/* NULL: work_ns each period */
	const struct chain_ops *chain_ops;	/* Game's, AudioGraph's chain; NULL: one task */
	enum work_mode work;
	unsigned long loops_per_ms;
	uint64_t period_num, period_den, work_ns;	/* as it runs: shortened when swept */
	struct period_scale scale;	/* how the nominal period was scaled */
					/* (core/tickphase.h): X's frames scale by it */
	bool realtime;
	enum wake_mode wake;		/* --wake: its own timer, or the waker */
	long slack_ns;			/* --timer-slack: of the thread that sleeps on the timer */
	int waker_prio;			/* SCHED_FIFO, 0 for SCHED_OTHER */
	bool sched_set;			/* apply sched to the task once its waker runs */
	struct task_sched sched;
	uint64_t trace_above_ns;	/* 0: off */
	int trace_fd;			/* tracefs trace_marker, or -1 */
	int tracing_on_fd;		/* tracefs tracing_on, or -1 */
	bool split;			/* split each wake-up (core/split.h) */
	struct period_ring *ring;	/* each period recorded here, or NULL */
	struct stage_set *stages;	/* a chain's stages' records, copied here at its end */
	struct chain_hists *hists;	/* a chain's: its summary is made from them (and */
					/* --instances pools them); NULL: no summary */
};

struct sim_live {		/* counters a load reads while the simulation runs */
	_Atomic uint64_t achieved, dropped;
};

int sim_run(const struct sim_params *p, uint64_t duration_ns,
	    atomic_int *stop, struct bench_result *res, struct sim_live *live);
int sim_run_flat(const struct sim_params *p, uint64_t duration_ns, atomic_int *stop,
		 struct bench_result *res, struct sim_live *live);

/* ---- probe.c ---- */

struct split_probe {		/* the task's, for one simulation */
	struct split_result *res;	/* NULL: nothing to do */
	int fd;				/* /proc/thread-self/schedstat, or -1 */
	bool have;			/* run_delay holds the read before blocking */
	uint64_t run_delay;
	bool after;			/* after_delay holds the read after the last wake-up, */
	uint64_t after_delay;		/* when the task had run after_runs times */
	uint64_t after_runs;
	int64_t run_offset;		/* times run - times switched out, while running */
	int prev_cpu;			/* the CPU of the previous wake-up, -1: none */
};

/* probe.c: the task's side of the split (core/split.h), around each wait for its waker */
void split_probe_open(struct split_probe *pr, struct split_result *res, uint64_t t_first);
void split_probe_close(struct split_probe *pr);
void split_before(struct split_probe *pr);
uint64_t split_after(struct split_probe *pr, uint64_t lat, int wake_cpu, int *run_cpu);


/* ---- calibrate.c: loops_per_ms for loops mode ---- */

#define CAL_MAX_BATCHES 512
bool cal_fastest(const double *rates, int n, double tol, int need, double *best);
int calibrate_measure(unsigned long *lpm, double *spread, uint64_t *took_ns,
		      volatile sig_atomic_t *stop);
double calibrate_recheck(void);

struct cal_identity {		/* what a saved loops_per_ms holds for */
	char cpu_model[256];
	char kernel_release[128];
	char build[32];			/* a hash of the binary: another build, another loop */
	char governor[128];		/* cpufreq governors */
	char boost[32];			/* turbo / boost state */
	char smt[32];			/* SMT control and whether it is active */
};
struct machine;
void cal_identity_of(struct cal_identity *id, const struct machine *sys);
int cal_format(char *buf, size_t len, unsigned long lpm, const struct cal_identity *id);
int cal_parse(char *text, const struct cal_identity *want, unsigned long *lpm);
int calibration_get(const char *work_dir, bool recalibrate, bool quiet,
		    const struct machine *sys, volatile sig_atomic_t *stop, unsigned long *lpm);

#endif
