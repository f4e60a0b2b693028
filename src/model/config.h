/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/config.h - the run's configuration as data, parsed and validated once from the command
 * line (cli/options.c) and read-only after; what set-up measures goes into the run's copies
 * of it, made once (run/configs.c). */
#ifndef MODEL_CONFIG_H
#define MODEL_CONFIG_H

/* Plain data that every part above task/ and loads/ may read. */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/tickphase.h"
#include "task/rtapp.h"
#include "task/wake.h"
#include "task/work.h"

#define MAX_COMPARE 16
#define MAX_VARIANTS 8
#define VARIANT_LABEL_LEN 128
#define VARIANT_VALUE_LEN 64
#define VARY_STOP_GRACE_S 5	/* a variant's program: SIGTERM, then SIGKILL this later */
#define VARIANT_STATE_LEN 128	/* what a variant ran: "reads bfq", "sched_ext enabled: lavd" */
#define TIMELINE_MAX_DEFAULT 1000000L
#define MAX_NCPUS 32
#define MAX_GROUPS 8			/* -W A+B+...: groups in a run */
#define GROUP_MAX 8			/* members of a group */
#define GROUP_NAME_LEN 64
#define GROUP_DESKTOP "Audio+Video+X+Game"	/* -W Desktop: what a desktop runs at once */

#define WORKLOAD_NAME_LEN 64		/* a workload file's name (its last part), whole */
#define WORKLOAD_KEY_LEN 32		/* the run key that tells its runs apart */
#define WORKLOAD_NOTE_LEN 1024

/*
 * -W FILE.json / --workload FILE: one rt-app workload file per run, read
 * and checked as the options are parsed; its threads run as one benchmark
 * ("rt-app" in the registry), a result per thread object.
 */
struct rtapp_input {
	struct rtapp_file *model;	/* NULL: none given */
	const char *path;		/* as given */
	char name[WORKLOAD_NAME_LEN];	/* "mp3-short.json": its tables', its results' group */
	char sha256[65];		/* of its bytes, in hex */
	uint64_t size;
	int64_t mtime;			/* s since the epoch */
	char key[WORKLOAD_KEY_LEN];	/* the run key: the sha256's first 16 digits and how */
					/* its timers ran; "" without a file */
	char note[WORKLOAD_NOTE_LEN];	/* the keys accepted without effect, "" when none */
	bool swept;			/* its durations swept against the tick: only with */
					/* --period swept given (else rt-app's own timing) */
};

struct task_group {		/* -W A+B+C: benchmarks measured at the same time */
	int n;				/* members, 2..GROUP_MAX */
	int member[GROUP_MAX];		/* registry indices, in the order given */
	uint32_t mask;			/* bit per member */
	char name[GROUP_NAME_LEN];	/* "Audio+Video+X", registry spellings joined */
};

enum vary_kind {		/* what --vary changes between variants */
	VARY_NONE,
	VARY_TASK,			/* a task knob: an option, applied to the variant's config */
	VARY_SYSCTL,			/* /proc/sys/NAME */
	VARY_SCHED_DEBUG,			/* /sys/kernel/debug/sched/FILE */
	VARY_SCHED_FEATURE,		/* a word of /sys/kernel/debug/sched/features */
	VARY_PREEMPT,			/* /sys/kernel/debug/sched/preempt */
	VARY_SYSFS,			/* a file under /sys: sysfs:PATH, iosched */
	VARY_SCX,			/* a sched_ext scheduler's program: scx= */
	VARY_EXEC,			/* any program, a daemon: exec= */
};

enum vary_order {		/* --vary-order: when variants switch */
	VORDER_DEFAULT,			/* blocks for scx= and exec=, else abba */
	VORDER_ABBA,			/* each cell's variants back to back */
	VORDER_BLOCKS,			/* a whole pass per variant, one switch each */
};

struct variant {		/* one value of --vary */
	char label[VARIANT_LABEL_LEN];	/* "load-nice=19": the knob and its value as given */
	char value[VARIANT_VALUE_LEN];	/* what is set; "" for default: left as it is */
};

struct config {
	double seconds;			/* -t: per row */
	enum work_mode work;		/* --work: CPU time (default) or loops */
	unsigned long loops_per_ms;	/* loops mode: -l, or the run's copies: from */
					/* calibration (run/configs.c); else 0 */
	bool loops_given;
	int periods;			/* --period: enum period_mode */
	bool periods_given;		/* --period given: a workload file's timers follow it */
	uint64_t period_drift_ns;	/* swept: a row's drift against the tick: one tick */
					/* (the run's copies, run/configs.c), */
					/* TICKPHASE_DRIFT_ASSUMED until known */
	int wake;			/* --wake: enum wake_mode, the task's own timer or */
					/* the waker */
	long timer_slack_ns;		/* --timer-slack: of the timer a task sleeps on */
	int cpu_load;			/* -L: Burn threads, Ring size, Hack groups */
	bool cpu_load_given;		/* -L given (or by --vary): rows keep it, else a */
					/* row of --ncpus uses its count */
	int ncpus[MAX_NCPUS];		/* --ncpus: the CPU counts, in the order given */
	int nncpus;			/* 0 without --ncpus: rows are not confined */
	int bench_nice, load_nice;	/* -B, -N */
	bool recalibrate;		/* -b */
	bool console_only;		/* -c */
	bool realtime;			/* -r */
	bool uniprocessor;		/* -u */
	bool quiet;			/* -q */
	bool percentiles;		/* --percentiles */
	bool explain;			/* --explain */
	bool no_split;			/* --no-split: to measure what the split costs */
	int custom_pct;			/* -C */
	long custom_interval_us;	/* -I */
	const char *comment;		/* -m */
	const char *load_cmd;		/* --load-cmd: the Command load's shell command */
	uint32_t benches, loads;	/* bit per registry index */
	struct task_group groups[MAX_GROUPS];	/* -W A+B: in the order given */
	int ngroups;
	uint32_t grouped;		/* bit per member of any group */
	struct rtapp_input rtapp;	/* -W FILE.json, --workload FILE */
	const char *work_dir;		/* --work-dir */
	const char *json_path, *csv_path, *plot_path;
	const char *timeline_path;	/* --timeline, NULL: none */
	long timeline_max;		/* --timeline-max: events in the file, at most */
	long pm_qos_us;			/* --pm-qos, -1 when untouched */
	long trace_above_us;		/* --trace-above, -1 when off */
	int repeat;			/* --repeat */
	int instances;			/* --instances: copies of each row's benchmarks, at once */
	int rt_priority;		/* SCHED_FIFO priority of a -r task */
	long memload_mib;		/* --memload-mib, 0 = automatic */
	long file_mib;			/* --file-mib, 0 = automatic */
	int policy;			/* --policy (enum sched_policy); -1 until validated */
	bool sched_given;		/* -r, --policy, -B, --slice or --uclamp-* given (or */
					/* varied): they override a workload file's own */
	long slice_us;			/* --slice, 0: the kernel's */
	int uclamp_min, uclamp_max;	/* --uclamp-min/-max percent, -1: untouched */
	int load_policy;		/* --load-policy: other, batch or idle */
	int fps;			/* --fps: Render's frames per second, 0 until validated */
	bool fps_given;			/* --fps given (or varied): Game's too, else Game's 60 */
	int fps_ran;			/* recorded (RK_FPS): --fps, else Render's 144, or */
					/* Game's 60 when Game runs without Render */
	int quantum;			/* --quantum: AudioGraph's frames at 48 kHz (256) */
	uint64_t settle_ns;		/* the load alone before a row (tests shorten it) */
	bool dry_run;			/* --dry-run */
	bool compare_mode;		/* --compare */
	int ncompare;			/* its files */
	const char *compare[MAX_COMPARE];
	const char *compare_runs;	/* --runs: which of their runs */
	const char *vary_spec;		/* --vary NAME=V1,V2 as given */
	enum vary_kind vary_kind;
	char vary_name[100];		/* "load-nice", "sysctl:kernel.timer_migration" */
	const char *vary_option;	/* a task knob's option: "bench-nice" for nice */
	int vary_order;			/* --vary-order: enum vary_order, resolved */
	char vary_path[PATH_MAX];	/* sysfs:, iosched: the file, realpath'd, under /sys */
	char vary_device[32];		/* iosched: the disk under the work directory, "vda" */
	const char *vary_ready;		/* --vary-ready FILE, NULL: none */
	double vary_settle_s;		/* --vary-ready SECONDS: a program's settle time */
	int nvariants;			/* 0 without --vary */
	struct variant variants[MAX_VARIANTS];
	bool restore_only;		/* --restore */
	int argc;			/* the command line, for the record */
	char **argv;
};

/* Every benchmark that runs, alone or in a group. */
static inline uint32_t cfg_benches(const struct config *cfg)
{
	return cfg->benches | cfg->grouped;
}

#endif
