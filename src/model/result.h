/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/result.h - the one result model: a row, measured now or read back from a log or CSV,
 * and the passes of a cell summarised. */
#ifndef MODEL_RESULT_H
#define MODEL_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/defs.h"
#include "core/split.h"
#include "core/stats.h"

struct cell;
struct chain_summary;
struct config;
struct latency_strip;
struct miss_report;
struct period_log;
struct period_rec;

#define RES_NAME_LEN 32
#define RES_GROUP_LEN 64		/* model/config.h's GROUP_NAME_LEN */
#define RES_VARIANT_LEN 128
#define RES_SCX_LEN 64		/* "enabled: lavd_1.0.6_g1a2b3c4_x86_64" */

/*
 * The numbers of a result, each a double: ns for latencies and times,
 * percent for shares (but the misses' parts, 0..1), NAN for "not known"
 * (not measured, not in the file).
 *
 * Each is one row of metrics[] (model/metrics.c), which JSON, CSV and its
 * reader, --compare and the verdicts walk; adding one is an RF_ name here,
 * its row there and its value set in row_result() (run/row_result.c).
 */
enum rfield {
	RF_SAMPLES,				/* wakeups (Gaming: units of work) */
	RF_MIN, RF_MEAN, RF_SD, RF_MAX,		/* latency: t_run - the instant asked for (own */
	RF_P50, RF_P90, RF_P99, RF_P999,	/* timer), or t_run - t_wake (the waker's) */
	RF_CPU, RF_DEADLINES_MET_PCT,		/* % desired CPU, % deadlines met */
	RF_INTENSITY,				/* of the load, in unit */
	RF_TMIN, RF_TMEAN, RF_TSD, RF_TMAX,	/* timer latency: t_wake - intended (the waker's), */
	RF_TP50, RF_TP90, RF_TP99, RF_TP999,	/* or sched_waking - intended (own timer, traced) */
	RF_MET, RF_MISSED, RF_DROPPED,		/* periods */
	RF_PERIOD,				/* the period as it ran (swept: shortened), ns */
	RF_FRAME_RATE,				/* Render's, Game's frames per second as set */
	RF_TASK_CPU, RF_WALL, RF_LOAD_STOP, RF_TRACED,
	RF_WORK_RATIO,				/* task CPU time / the work asked of it */
	RF_LOOP_SPEED,				/* loop iterations per CPU us while working */
	RF_QMIN, RF_QMEAN, RF_QSD, RF_QMAX,	/* queue wait per wake-up (core/split.h) */
	RF_QP50, RF_QP90, RF_QP99, RF_QP999,
	RF_PATH_MIN, RF_PATH_MEAN, RF_PATH_SD, RF_PATH_MAX,	/* wake path: latency - */
	RF_PATH_P50, RF_PATH_P90, RF_PATH_P99, RF_PATH_P999,	/* queue wait */
	RF_SMIN, RF_SMEAN, RF_SSD, RF_SMAX,	/* the scheduler's part: t_run - sched_waking (own */
	RF_SP50, RF_SP90, RF_SP99, RF_SP999,	/* timer, traced: core/split.h's kernel split) */
	RF_STAMPED,				/* wake-ups the kernel's sched_waking split */
	RF_CPU_KNOWN,				/* wake-ups whose waking CPU is known */
	RF_CROSS_CPU, RF_MIGRATIONS, RF_QUEUED,	/* wake-ups: from another CPU, moved, queued */
	RF_MISS_QUEUED, RF_MISS_RUNNING,	/* of the missed periods' time (core/miss_explain.h): */
	RF_MISS_PREEMPTED, RF_MISS_BLOCKED,	/*   where it went, 0..1 */
	RF_FRAME_P50, RF_FRAME_P99, RF_FRAME_MAX,	/* Game: vsync to present, ns */
	RF_FPS, RF_FPS_LOW, RF_STUTTERS,	/* average and 1 % low fps, stutters */
	RF_CYCLE_P50, RF_CYCLE_P99, RF_CYCLE_MAX,	/* AudioGraph: quantum start to done */
	RF_DSP_MEAN, RF_DSP_MAX,		/* cycle time / quantum */
	RF_XRUNS, RF_XRUNS_PER_MIN,			/* cycles done late: count, per minute */
	RF_TIMER_WAKEUPS, RF_RESUME_WAKEUPS,	/* an rt-app thread's wake-ups, by what woke it */
	RF_SLACK_MEAN, RF_SLACK_MIN,		/* rt-app's slack per timer period, ns: may be */
						/* negative (a period missed) */
	RF_WU_LAT_MEAN,				/* rt-app's wu_lat per timer period, ns */
	RF_TIMER_SLACK,				/* the task's timer slack as read back, ns */
	RF_LOAD_CPUS,				/* CPUs the load's CPU side kept busy (Burn, */
						/* Compile), or its processes used (Command) */
	RF_LOAD_DUE,				/* CPUs that side should have: min(L, CPUs), less */
						/* the benchmark's and the load's own I/O */
	RF_LOAD_SHORT,				/* 1: RF_LOAD_CPUS under LOAD_SHORT_OF of it; 0 */
	RF_LOAD_RESTARTS,			/* Command: its command ended and started again */
	RF_FOREIGN_CPU,				/* % of one CPU tasks not of the run used, */
	RF_FOREIGN_TOP_CPU,			/* and the busiest of them, over the row */
	RF_COUNT,
};

/* A latency's eight numbers follow each other in struct summary's order: F##MIN + i. */
#define RF_LATENCY_ORDERED(F) (F##MEAN == F##MIN + 1 && F##SD == F##MIN + 2 && \
	F##MAX == F##MIN + 3 && F##P50 == F##MIN + 4 && F##P90 == F##MIN + 5 && \
	F##P99 == F##MIN + 6 && F##P999 == F##MIN + 7)
_Static_assert(RF_LATENCY_ORDERED(RF_) && RF_LATENCY_ORDERED(RF_T) && RF_LATENCY_ORDERED(RF_Q) &&
	       RF_LATENCY_ORDERED(RF_PATH_) && RF_LATENCY_ORDERED(RF_S),
	       "run/row_result.c's set_latency() fills v[base + i]");

/*
 * --instances N: what each of a row's N copies measured, kept beside the
 * pooled result (its own allocation, model/plan.h's ROW_MEM_INST). The worst
 * is the one with the highest p99 wake-up latency, or of a chain the one
 * with the highest p99 frame or cycle time.
 */
#define INSTANCES_MAX 64
struct instance_fig {
	double samples;
	double mean_ns, p99_ns, max_ns;		/* wake-up latency */
	double pct_deadlines, pct_cpu;		/* NAN: not known */
	double chain_done;			/* a chain's frames or cycles; NAN: none */
	double chain_p99_ns;			/* its frame or cycle time */
	double fps;				/* Game's; NAN: none */
	double stutters, xruns;			/* Game's, AudioGraph's; NAN: none */
};

struct instance_set {
	int n;				/* 2..INSTANCES_MAX */
	int worst;			/* 0-based: the highest p99 (of a chain's time) */
	struct instance_fig f[];	/* [n], in the order they were started */
};

struct result {			/* one benchmark x load x pass */
	char bench[RES_NAME_LEN];	/* registry spelling when known */
	char load[RES_NAME_LEN];
	int pass;			/* 0-based */
	int variant_index;		/* --vary's value, 0-based; 0 without */
	int ncpus;			/* --ncpus: the CPUs its row was confined to; 0: all */
	char group[RES_GROUP_LEN];	/* -W A+B: "Audio+Video", measured with it; a */
					/* workload file's thread: the file's name ("mp3.json", */
					/* rtapp set): what it is matched and pooled by; "" */
	bool rtapp;			/* a thread of an rt-app workload file: bench is the */
					/* thread's name as in the file, group the file's */
	char variant[RES_VARIANT_LEN];	/* its label, "load-nice=19"; "" without --vary */
	char knob_value[64];		/* a system knob as the kernel read it back; "" */
	char variant_scx[RES_SCX_LEN];	/* scx=: sched_ext as its row began; "" */
	int variant_pid;		/* scx=, exec=: its variant's program, 0: none */
	bool realtime;
	int status;			/* enum row_status */
	char reason[REASON_LEN];	/* why it failed, or what went wrong */
	char unit[16];			/* of RF_INTENSITY, "" when none */
	char medium[8];			/* where the load's file I/O went: RES_MEDIUM_*, "" */
	char foreign_top[16];		/* the busiest task not of the run, "" unknown */
	double value[RF_COUNT];		/* NAN: not known */
	struct latency_compact *wake;	/* its histogram, owned: live rows only, else NULL */
	struct latency_strip *strip;	/* its latency over time, owned: live rows with */
					/* wake-ups only (core/latency_strip.h), else NULL */
	struct ran_instead ran;		/* who ran instead: live rows only, else RAN_UNKNOWN */
	struct miss_report *misses;	/* --explain: its worst misses explained (core/miss_explain.h), */
					/* owned: live rows with periods only, else NULL */
	struct chain_summary *chain;	/* Game, AudioGraph: hops and frames (core/frames.h), */
					/* owned: live rows of a chain only, else NULL */
	struct ran_instead *hop_ran;	/* --explain: who ran instead at each hop of chain */
					/* [CHAIN_HOPS_MAX], owned: live rows of a chain, */
					/* traced, only, else NULL */
	int instances;			/* --instances: the copies pooled here; 0 or 1: one */
	struct instance_set *inst;	/* each copy's figures, owned: live rows of two or */
					/* more only, else NULL */
};

/* Where a Write, Read or Compile row's I/O went: what its intensity measured. */
#define RES_MEDIUM_DISK "disk"
#define RES_MEDIUM_MEMORY "memory"		/* tmpfs, ramfs: no disk at all */
#define RES_MEDIUM_CACHE "cache"		/* Read's page cache drop did not work */

void result_init(struct result *r);
int result_set_strip(struct result *r, const struct period_log *h, const struct period_rec *rec,
		     size_t n, uint64_t row_start, double seconds);
double result_file_value(const struct result *r, int field);	/* as JSON and CSV keep it */
const char *status_name(int status);
int bench_rank(const char *name);	/* registry order; unknown names after */
int load_rank(const char *name);

/* The passes of one benchmark x load, summarised: what --repeat and --compare show. */
struct pass_summary {
	int npass;			/* passes that gave numbers */
	int nfail;			/* passes that failed */
	double value[RF_COUNT];	/* means over the passes; SD: root mean square */
	double half_mean;		/* its 95 % confidence half-width, 0 for one pass */
	double max;			/* the largest max of any pass */
	int power[3];			/* passes for a 10 % change of mean, p99, deadlines */
};					/* met: 80 % power, from these passes; -1: unknown */
void summarize_passes(const struct result *const *res, int n, struct pass_summary *s);

struct run_record;
/* summary.c: per cell of the plan's first pass (and member of its group), in the tables'
 * order, its passes summarised */
void each_cell_summary(const struct run_record *rec,
		       void (*fn)(void *arg, const struct cell *c, const struct pass_summary *s),
		       void *arg);

/*
 * What the text table marks at a row's end (one footnote under the table
 * says what the marks in it mean): the row's CPU time did not do the work
 * asked, or did less loop work per CPU us than the run's fastest row (an
 * SMT sibling, the frequency, steal), or some periods had no wakeup.
 */
enum result_mark {
	MARK_WORK = 1u << 0,		/* work_ratio off 1 by more than MARK_WORK_OFF */
	MARK_SPEED = 1u << 1,		/* loop_speed more than MARK_SPEED_BELOW under the fastest */
	MARK_SAMPLES = 1u << 2,		/* fewer samples than periods: periods overran into */
	MARK_LOAD_SHORT = 1u << 3,	/* the load's CPU side short of its due (RF_LOAD_SHORT) */
	MARK_FOREIGN = 1u << 4,		/* tasks not of the run used over MARK_FOREIGN_PCT */
	MARK_UNTIMED = 1u << 5,		/* a file's thread with no timed wake-up */
};
#define MARK_WORK_OFF 0.03
#define MARK_SPEED_BELOW 0.10
#define LOAD_SHORT_OF 0.90		/* a load's CPU side under this share of its due */
#define MARK_FOREIGN_PCT 10.0		/* % of one CPU used by tasks not of the run */
double load_short(double cpus, double due);
void load_work_text(char *buf, size_t len, const double *v, const char *unit);	/* RF_LOAD_SHORT's value: 1, 0, NAN */
unsigned result_marks(const struct result *r, double fastest, char *buf, size_t len);
void result_marks_note(unsigned marks, char *buf, size_t len);


/* "Video@Desktop": a benchmark as a member of the group it ran in; the name alone without. */
#define MEMBER_LABEL_LEN (RES_NAME_LEN + RES_GROUP_LEN + 2)
void member_label(char *buf, size_t len, const char *bench, const char *group);
const char *cell_group_name(const struct config *cfg, const struct cell *c);	/* "" alone */
bool result_signed(int field);			/* may be negative: rt-app's slack */

#endif
