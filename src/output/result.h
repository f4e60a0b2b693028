/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output/result.h - the one result model: a row and its run, measured now or read back from a
 * log or CSV. */
#ifndef OUTPUT_RESULT_H
#define OUTPUT_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <time.h>

#include "core/defs.h"
#include "core/split.h"
#include "core/stats.h"
#include "output/settings.h"

struct chain_summary;
struct config;
struct latency_strip;
struct machine;
struct period_log;
struct period_rec;
struct miss_report;
struct plan;

#define RES_NAME_LEN 32
#define RES_GROUP_LEN 64		/* run/config.h's GROUP_NAME_LEN */
#define RES_VARIANT_LEN 128

/*
 * The numbers of a result, each a double: ns for latencies and times,
 * percent for shares (but the misses' parts, 0..1), NAN for "not known"
 * (not measured, not in the file).
 *
 * Adding a field end to end is one line per layer:
 *   1. an RF_ name here;
 *   2. live: set it in row_result() (run/row.c);
 *   3. JSON: one jw_num() in json_result() (json.c);
 *   4. CSV: one row of csv_columns[] (csv.c), which both the writer and the
 *      reader walk, so --compare reads it back and summarize_passes()
 *      averages it with the others; a log column is one row of
 *      log_columns[] (logfmt.c), walked by the log writer and reader.
 */
enum rfield {
	RF_SAMPLES,				/* wakeups (Gaming: units of work) */
	RF_MIN, RF_MEAN, RF_SD, RF_MAX,		/* wakeup latency: t_run - t_wake */
	RF_P50, RF_P90, RF_P99, RF_P999,
	RF_CPU, RF_DL,				/* % desired CPU, % deadlines met */
	RF_INTENSITY,				/* of the load, in unit */
	RF_TMIN, RF_TMEAN, RF_TSD, RF_TMAX,	/* timer latency: t_wake - intended */
	RF_TP50, RF_TP90, RF_TP99, RF_TP999,
	RF_MET, RF_MISSED, RF_DROPPED,		/* periods */
	RF_PERIOD,				/* the period as it ran (swept: shortened), ns */
	RF_FRAME_RATE,				/* Render's, Game's frames per second as set */
	RF_TASK_CPU, RF_WALL, RF_LOAD_STOP, RF_TRACED,
	RF_WORK_RATIO,				/* task CPU time / the work asked of it */
	RF_LOOP_SPEED,				/* loop iterations per CPU us while working */
	RF_QMIN, RF_QMEAN, RF_QSD, RF_QMAX,	/* queue wait per wake-up (explain.h) */
	RF_QP50, RF_QP90, RF_QP99, RF_QP999,
	RF_PMIN, RF_PMEAN, RF_PSD, RF_PMAX,	/* wake path: latency - queue wait */
	RF_PP50, RF_PP90, RF_PP99, RF_PP999,
	RF_CROSS_CPU, RF_MIGRATIONS, RF_QUEUED,	/* wake-ups: from another CPU, moved, queued */
	RF_MISS_QUEUED, RF_MISS_RUNNING,	/* of the missed periods' time (core/miss_explain.h): */
	RF_MISS_PREEMPTED, RF_MISS_BLOCKED,	/*   where it went, 0..1 */
	RF_FRAME_P50, RF_FRAME_P99, RF_FRAME_MAX,	/* Game: vsync to present, ns */
	RF_FPS, RF_FPS_LOW, RF_STUTTERS,	/* average and 1 % low fps, stutters */
	RF_CYCLE_P50, RF_CYCLE_P99, RF_CYCLE_MAX,	/* AudioGraph: quantum start to done */
	RF_DSP_MEAN, RF_DSP_MAX,		/* cycle time / quantum */
	RF_XRUNS, RF_XRUNS_MIN,			/* cycles done late: count, per minute */
	RF_COUNT,
};

/*
 * --instances N: what each of a row's N copies measured, kept beside the
 * pooled result (its own allocation, run/plan.h's ROW_MEM_INST). The worst
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
	char group[RES_GROUP_LEN];	/* -W A+B: "Audio+Video", measured with it; "" */
	char variant[RES_VARIANT_LEN];	/* its label, "load-nice=19"; "" without --vary */
	char knob_value[64];		/* a system knob as the kernel read it back; "" */
	bool realtime;
	int status;			/* enum row_status */
	char reason[REASON_LEN];	/* why it failed, or what went wrong */
	char unit[16];			/* of RF_INTENSITY, "" when none */
	char medium[8];			/* where the load's file I/O went: RES_MEDIUM_*, "" */
	double v[RF_COUNT];		/* NAN: not known */
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
	double v[RF_COUNT];		/* means over the passes; SD: root mean square */
	double half_mean, half_max;	/* 95 % confidence half-widths, 0 for one pass */
	int power[3];			/* passes for a 10 % change of mean, p99, deadlines */
};					/* met: 80 % power, from these passes; -1: unknown */
void summarize_passes(const struct result *const *res, int n, struct pass_summary *s);

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
};
#define MARK_WORK_OFF 0.03
#define MARK_SPEED_BELOW 0.10
unsigned result_marks(const struct result *r, double fastest, char *buf, size_t len);
void result_marks_note(unsigned marks, char *buf, size_t len);

/* The formatters of every table: the run's, the --repeat summary, --compare. */
void fmt_value(char *buf, size_t len, double v, int sig, int maxw);
void fmt_sig3(char *buf, size_t len, double v);
void fmt_pct(char *buf, size_t len, double v, int maxw);
void fmt_change(char *buf, size_t len, double ref, double v);

/* knobs.c: the knobs a run used, as text: the log's "Scheduling:" line, CSV columns, JSON keys. */
enum knob {
	KN_POLICY, KN_RT_PRIORITY, KN_SLICE, KN_UCLAMP_MIN, KN_UCLAMP_MAX, KN_LOAD_POLICY,
	NR_KNOBS,
};

struct knob_desc {
	const char *log;		/* key in the log line: the option's name */
	const char *file;		/* key in JSON's run, column in CSV */
	const char *unit;		/* after a value in the log */
	bool number;			/* JSON: a number, else a string */
};
extern const struct knob_desc knob_descs[NR_KNOBS];

#define KNOB_LEN 24
struct knob_values {
	bool known;			/* a log without the line: nothing known */
	char v[NR_KNOBS][KNOB_LEN];	/* "" when the knob was left to the kernel */
};

void knobs_line(const struct knob_values *kv, char *buf, size_t len);
void knobs_parse_line(const char *s, struct knob_values *kv);
bool knobs_equal(const struct knob_values *a, const struct knob_values *b);
void knobs_text(const struct knob_values *kv, const bool *which, char *buf, size_t len);

/*
 * The words that mark a log's lines, in one table that the writer (report.c,
 * knobs.c) prints with and the reader (results.c) walks: a marker that
 * starts a line tells the reader what the line is; the others are words
 * within one. A marker changed here changes both.
 */
enum log_mark {
	LM_LOADSET,			/* "Load set to N processors" */
	LM_USING,			/* "Using ... , running every load for S seconds": */
	LM_LOOPS,			/*   loops mode: "Using N loops per ms, ..." */
	LM_CPU_WORK,			/*   CPU mode: "Using CPU time as work, ..." */
	LM_EVERY,
	LM_PERIODS,			/* "Periods: swept, ..." (the Settings line's key) */
	LM_KERNEL,			/* "Benchmarking kernel R at datestamp D" */
	LM_DATESTAMP,
	LM_SCHEDULING,			/* the knobs (knobs.c) */
	LM_SETTINGS,			/* the run keys, name=value; 1.0.0 wrote none */
	LM_COMMENT,
	LM_VARIANTS,			/* --vary: "Variants: A load-nice=0, B load-nice=19; ..." */
	LM_PREEMPTION,			/* the machine keys' lines (settings.c) */
	LM_CPUS,
	LM_CPU_MODEL,
	LM_CMDLINE,
	LM_HEADING,			/* a table: "--- Benchmarking simulated cpu of X ..." */
	LM_GROUP,			/* after the name: "in group Audio+Video " (-W A+B) */
	LM_REALTIME,
	LM_PRESENCE,
	LM_NCPUS,			/* the heading's end, then "(N CPUs)" with --ncpus */
	LM_INTENSITY,			/* the last column's head */
	LM_FAILED,			/* a row: "Load\tfailed: why" */
	LM_MEMORY_NOTE,			/* after a row's intensity */
	LM_CACHE_NOTE,
	LM_INTERRUPTED,			/* the run's last line after a signal */
	LM_COUNT,
};

struct log_marker {
	const char *text;
	bool starts_line;		/* the reader knows a line by it */
};
extern const struct log_marker log_markers[LM_COUNT];
#define LOG_MARK(m) (log_markers[m].text)
int log_mark_of(const char *line);	/* the marker that starts line, or -1 */

/* The columns of a log's tables, written by report.c, read by results.c. */
enum log_col_flag {
	LC_LATENCY = 1u << 0,		/* in the table's unit (ms, or us for -r) */
	LC_PCT = 1u << 1,		/* a percentage */
	LC_DEADLINE = 1u << 2,		/* not for Gaming */
	LC_PERCENTILE = 1u << 3,	/* with --percentiles */
	LC_UNIT = 1u << 4,		/* the head is followed by the table's unit: " (ms)" */
	LC_SINGLE = 1u << 5,		/* a single task's: not in a chain's table */
	LC_GAME = 1u << 6,		/* Game's table only */
	LC_AUDIO = 1u << 7,		/* AudioGraph's table only */
	LC_COUNT = 1u << 8,		/* a count: no decimals */
};

struct log_column {
	const char *head;		/* in the column line */
	const char *sep;		/* before the value in a row */
	int width;			/* of the value, as printf's: < 0 left-aligned */
	int field;			/* enum rfield */
	unsigned flags;			/* enum log_col_flag */
	const char *key;		/* the column line has it when the column is there */
};
#define LOG_COLUMNS_MAX 32		/* the reader's bound */
extern const struct log_column log_columns[];
extern const size_t nr_log_columns;

/*
 * What makes two runs comparable, besides the kernel release and the
 * comment: runs that differ in one of these are never pooled. Each is one
 * row of run_keys[], named as in the log's Settings line and the CSV
 * header, and read from both; a new setting is one enum name and one row.
 */
enum run_key {
	RK_SECONDS,			/* -t */
	RK_CPU_LOAD,			/* -L */
	RK_BENCH_NICE,			/* -B */
	RK_LOAD_NICE,			/* -N */
	RK_UNIPROCESSOR,		/* -u */
	RK_FPS,				/* --fps: Render's frame rate, so its period */
	RK_CUSTOM_PCT,			/* -C: Custom's work, 0 without Custom */
	RK_CUSTOM_INTERVAL,		/* -I: Custom's period, 0 without Custom */
	RK_PERIODS,			/* --period: swept or exact; a run read back without */
					/* it had exact ones (RK_PERIODS_BEFORE) */
	RK_COUNT,
};
#define RK_PERIODS_BEFORE "exact"	/* what every earlier version and 0.31 ran */

enum key_type { KT_DOUBLE, KT_INT, KT_LONG, KT_BOOL, KT_CHOICE };

struct run_key_prop {
	const char *name;		/* in the log's Settings line and the CSV header */
	const char *flag;		/* the option, for a comparison's labels */
	enum key_type type;
	size_t off;			/* of the value in struct config */
	const char *const *names;	/* KT_CHOICE: an int's words */
};
extern const struct run_key_prop run_keys[RK_COUNT];

#define RK_LEN 32

/*
 * The run record: one interbench run, measured now or read back. A live run
 * appends each row's result once, as the row ends (run/row.c), and every
 * output reads the record: the text table, the log, JSON, CSV, the --repeat
 * summary, --plot and --compare. Read back, it is one column group of a
 * comparison: every interbench run of a file with the same kernel release,
 * comment and run keys, whose results are passes of one another.
 */
struct run_record {
	char kernel[128];		/* "" when the log has no header line */
	char comment[256];
	char key[RK_COUNT][RK_LEN];	/* run_keys' values as text, "" when unknown */
	char date[32];			/* datestamp or ISO start of the first run */
	double seconds;			/* per row, 0 when unknown */
	char work[8];			/* "cpu", "loops", or "" when the file does not say */
	int nruns;			/* interbench runs pooled here */
	int interrupted;		/* the signal that stopped it (read back: 1), or 0 */
	struct knob_values knobs;	/* how it was scheduled: repeats share them */
	char variant[RES_VARIANT_LEN + 2];	/* read back: "B load-nice=19", one --vary value */
	struct machine_values mach;	/* what it ran on: the first run's of a pool */
	int nres, cap;
	struct result *res;
	/* a run measured now; NULL and 0 when read back */
	const struct config *cfg;
	const struct machine *sys;	/* what describes the machine */
	const struct plan *plan;	/* its cells, in order (run/plan.h) */
	time_t start, end;		/* wall clock; end 0 while it runs */
	bool waker_rt;			/* wakers may use SCHED_FIFO */
};

enum res_format { RES_LOG, RES_CSV };

struct result_file {
	enum res_format format;
	int nruns, cap;
	struct run_record *runs;
};

/* record.c: a live run's record */
void record_init(struct run_record *r, const struct config *cfg, const struct machine *sys,
		 const struct plan *plan, time_t start);
void record_free(struct run_record *r);
double record_fastest(const struct run_record *r, int upto);	/* loop_speed, results < upto */
int record_passes_of(const struct run_record *r, const char *bench, const char *load,
		     int variant, int ncpus, const char *group, const struct result **list);

void run_key_text(const struct config *cfg, int k, char *buf, size_t len);
void run_key_set(struct run_record *r, int k, const char *text, size_t n);
bool run_comparable(const struct run_record *a, const struct run_record *b);
void build_settings(char *buf, size_t len, const struct run_record *r);

/* results.c: parsing is pure (text in, structs out); results_read does the I/O */
int results_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen);
int results_read(const char *path, struct result_file *f, char *err, size_t errlen);

/* record.c: what a run record is built with, live or read back */
void results_free(struct result_file *f);
struct result *run_new_result(struct run_record *r);
struct run_record *file_new_run(struct result_file *f);
bool set_name(char *dst, const char *src, size_t len);
bool parse_value(const char *s, double *v);
const char *quote(char *buf, size_t len, const char *s);

/* forklog.c: the tables of the maintained fork of interbench, which has a median column */
bool fork_columns(const char *line);
double fork_unit_ns(const char *line);
bool fork_row(const char *s, double unit_ns, bool deadlines, struct result *o);

/* csv.c: our CSV, read back by the table of columns its writer walks */
int parse_csv(const char *text, size_t len, struct result_file *f, char *err, size_t errlen);

#endif
