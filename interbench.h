/* SPDX-License-Identifier: GPL-2.0-or-later */
/* interbench.h - the types shared by every part of interbench. */
#ifndef INTERBENCH_H
#define INTERBENCH_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <time.h>

#define INTERBENCH_VERSION "1.0.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL
#define MIB (1024ULL * 1024ULL)

#define PRINTF(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))

/* ---- util.c: errors, strict numbers, time, files ---- */

extern const char *progname;
void die(const char *fmt, ...) PRINTF(1, 2) NORETURN;
void error(const char *fmt, ...) PRINTF(1, 2);
void warn(const char *fmt, ...) PRINTF(1, 2);
int set_err(char *err, size_t errlen, const char *fmt, ...) PRINTF(3, 4);

int parse_long(const char *s, long min, long max, long *out);
int parse_double(const char *s, double min, double max, double *out);

uint64_t now_ns(void);			/* CLOCK_MONOTONIC */
uint64_t thread_cpu_ns(void);		/* CLOCK_THREAD_CPUTIME_ID */
uint64_t process_cpu_ns(void);		/* CLOCK_PROCESS_CPUTIME_ID */
void sleep_ns(uint64_t ns);		/* relative, restarts after signals */
int sleep_until(uint64_t t_ns);		/* absolute, 0 or -EINTR */

ssize_t read_full(int fd, void *buf, size_t len);
ssize_t write_full(int fd, const void *buf, size_t len);
int read_small_file(const char *path, char *buf, size_t len);
int open_tmpfile(const char *dir, const char *stem, int *fd);
int replace_file(const char *path, const char *data, size_t len);
int open_log_append(const char *path);
int online_cpus(void);
int allowed_cpus(void);

/* runlock.c: one run at a time per machine */
int lock_format(char *buf, size_t len, long pid, time_t start);
int lock_parse(const char *text, long *pid, time_t *start);
int run_lock(time_t start, char *err, size_t errlen);

/* ---- stats.h: running statistics and the latency histogram (pure) ---- */

#include "stats.h"
#include "work.h"

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

enum sim_model {
	SIM_NONE,
	SIM_PERIODIC,			/* fixed period, fixed work */
	SIM_SWEEP,			/* X: frame k needs k % 101 ms */
	SIM_FLAT,			/* Gaming: back-to-back units */
	SIM_RENDER,			/* Render: frames at --fps, work sweeping 20-80 % */
};

enum intensity_kind {
	INT_NONE,			/* nothing to measure */
	INT_RATE,			/* units per second of the window */
	INT_CPUS,			/* CPU time / wall time of the load */
	INT_PCT,			/* % of the simulation's CPU achieved */
};

struct load_ctx;
struct machine;
struct config;

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
};

extern const struct workload workloads[];
extern const size_t nr_workloads;
int workload_find(const char *name);		/* case-insensitive, -1 if none */
void workload_names(unsigned need, char *buf, size_t len);

/* ---- the run's configuration, parsed and validated once ---- */

#define MAX_COMPARE 16

struct config {
	double seconds;			/* -t: per row */
	enum work_mode work;		/* --work: CPU time (default) or loops */
	unsigned long loops_per_ms;	/* loops mode: -l, or from calibration; else 0 */
	bool loops_given;
	int cpu_load;			/* -L: Burn threads, Ring size, Hack groups */
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
	uint32_t benches, loads;	/* bit per registry index */
	const char *work_dir;		/* --work-dir */
	const char *json_path, *csv_path, *plot_path;
	long pm_qos_us;			/* --pm-qos, -1 when untouched */
	long trace_above_us;		/* --trace-above, -1 when off */
	int repeat;			/* --repeat */
	int rt_priority;		/* SCHED_FIFO priority of a -r task */
	long memload_mib;		/* --memload-mib, 0 = automatic */
	long file_mib;			/* --file-mib, 0 = automatic */
	int policy;			/* --policy (enum sched_policy); -1 until validated */
	long slice_us;			/* --slice, 0: the kernel's */
	int uclamp_min, uclamp_max;	/* --uclamp-min/-max percent, -1: untouched */
	int load_policy;		/* --load-policy: other, batch or idle */
	int fps;			/* --fps: Render's frames per second, 0 until validated */
	uint64_t settle_ns;		/* the load alone before a row (tests shorten it) */
	bool dry_run;			/* --dry-run */
	bool compare_mode;		/* --compare */
	int ncompare;			/* its files */
	const char *compare[MAX_COMPARE];
	int argc;			/* the command line, for the record */
	char **argv;
};

enum parse_status { PARSE_RUN, PARSE_EXIT_OK, PARSE_USAGE };
enum parse_status parse_options(int argc, char **argv, struct config *cfg,
				char *err, size_t errlen);
void config_defaults(struct config *cfg);
int check_work_dir(const char *dir, char *err, size_t errlen);
uint64_t settle_from_env(const char *ms);
void print_help(void);
void print_plan(const struct config *cfg);	/* --dry-run */

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
int calibration_get(struct config *cfg, const struct machine *sys, volatile sig_atomic_t *stop);

/* ---- sim.c: the simulated interactive tasks ---- */

#include "acct.h"
#include "knobs.h"
#include "explain.h"

enum row_status { ROW_OK, ROW_FAILED, ROW_SKIPPED };

#define REASON_LEN 200

struct bench_result {		/* sent, as bytes, from the bench process */
	int status;			/* enum row_status */
	char reason[REASON_LEN];
	struct latency wake;		/* t_run - t_wake */
	struct latency timer;		/* t_wake - intended */
	struct acct acct;		/* periodic tasks */
	struct game_acct game;		/* Gaming */
	double pct_cpu, pct_deadlines;	/* pct_deadlines < 0: none */
	uint64_t task_cpu_ns;		/* CPU time the task thread used */
	uint64_t work_ns;		/* the work its achieved periods asked for */
	uint64_t loops;			/* iterations of the loop it spun */
	uint64_t burn_cpu_ns;		/* the CPU time they took */
	uint64_t wall_ns;		/* from the first period to the end */
	uint64_t traced_ns;		/* the sample that stopped tracing, 0 if none */
	struct split_result split;	/* where each wake-up's latency went */
};

struct sim_params {
	const struct workload *wl;
	enum work_mode work;
	unsigned long loops_per_ms;
	uint64_t period_num, period_den, work_ns;
	bool realtime;
	int waker_prio;			/* SCHED_FIFO, 0 for SCHED_OTHER */
	bool sched_set;			/* apply sched to the task once its waker runs */
	struct task_sched sched;
	uint64_t trace_above_ns;	/* 0: off */
	int trace_fd;			/* tracefs trace_marker, or -1 */
	int tracing_on_fd;		/* tracefs tracing_on, or -1 */
	bool split;			/* split each wake-up (explain.h) */
};

struct sim_live {		/* counters a load reads while the simulation runs */
	_Atomic uint64_t achieved, dropped;
};

void sim_params_init(struct sim_params *p, const struct workload *wl,
		     const struct config *cfg);
int sim_run(const struct sim_params *p, uint64_t duration_ns,
	    atomic_int *stop, struct bench_result *res, struct sim_live *live);

/* sched.c: the knobs applied, to the task, the loads, and tried once before the run */
int sched_apply(const struct task_sched *ts, const char *bench, char *err, size_t errlen);
int sched_load_policy(int policy);
int sched_probe(const struct config *cfg, char *err, size_t errlen);

/* ---- the background loads: loads.c, load_*.c, hackbench.c ---- */

struct load_counters {		/* shared memory: sub-processes count too */
	_Atomic uint64_t units;	/* bytes, messages, ... */
	_Atomic uint64_t cached_passes;	/* Read passes whose page cache drop did not work */
	struct sim_live sim;
};

struct load_ctx {
	const struct config *cfg;
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
};

bool load_stopping(struct load_ctx *ctx);
int load_process(const struct workload *wl, struct load_ctx *ctx, int ctl_fd,
		 int res_fd);
int load_prepare_files(const struct config *cfg, unsigned need,
		       struct load_ctx *ctx, volatile sig_atomic_t *stop,
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
struct cg_mem;			/* cgroup.h: a cgroup's memory limit and headroom */
uint64_t memload_cg_margin(const struct cg_mem *cg);
uint64_t memload_bytes_in(const struct meminfo *mi, const struct cg_mem *cg);
uint64_t memload_cg_shortfall(const struct cg_mem *cg);
uint64_t memload_size(const struct config *cfg);

/* ---- the run: what the orchestrator collects and report.c prints ---- */

struct row {
	int bench, load;		/* registry indices */
	int pass;			/* 0-based, with --repeat */
	int status;			/* enum row_status */
	char reason[REASON_LEN];	/* why it failed or was marked */
	struct bench_result *b;		/* NULL when the bench gave nothing */
	struct load_result l;
	uint64_t load_stop_ns;		/* stop request to the last process gone */
	struct ran_instead ran;		/* --explain: who ran instead */
};

struct run {
	const struct config *cfg;
	char kernel_release[128];
	char datestamp[16];		/* YYYYMMDDhhmm, local time */
	time_t start, end;		/* wall clock */
	bool waker_rt;			/* wakers may use SCHED_FIFO */
	int interrupted;		/* the signal that stopped the run, or 0 */
	int nrows, cap;
	struct row *rows;
	int table_first, table_rows;	/* the rows[] of the table being printed */
	FILE *text;			/* stdout, or stderr when stdout carries data */
	FILE *log;			/* <kernel release>.log, or NULL */
	const struct machine *sys;	/* what describes the machine, see sysinfo.h */
	int trace_fd, tracing_on_fd;	/* tracefs for --trace-above, -1 when off */
	double fastest_speed;		/* the highest loop_speed of a row so far */
	unsigned table_marks;		/* enum result_mark of the table being printed */
};

/* report.c (text, log, --plot), json.c, csv.c, sbuf.c; result.h has the result model */
void report_header(struct run *run);
void report_heading(struct run *run, int bench);
void report_row(struct run *run, const struct row *row);
void report_table_end(struct run *run);
void report_interrupted(struct run *run);
void report_summary(struct run *run);	/* --repeat: means over the passes */
int report_files(struct run *run);	/* JSON and CSV, rewritten after each row */
int report_plot(const struct run *run, const char *path);	/* --plot */
void fmt_sig3(char *buf, size_t len, double v);	/* result.c, with the other formatters */

struct sbuf {			/* a growing string: files are built whole, then written */
	char *buf;
	size_t len, cap;
	bool failed;			/* out of memory: the content is incomplete */
};
void sb_init(struct sbuf *sb);
void sb_free(struct sbuf *sb);
void sb_add(struct sbuf *sb, const char *s, size_t n);
void sb_puts(struct sbuf *sb, const char *s);
void sb_printf(struct sbuf *sb, const char *fmt, ...) PRINTF(2, 3);
size_t utf8_valid_len(const unsigned char *s);
void json_string(struct sbuf *sb, const char *s);
void fmt_number(char *buf, size_t len, double v);	/* shortest exact */
void json_number(struct sbuf *sb, double v);
void csv_field(struct sbuf *sb, const char *s);
void fmt_iso8601(char *buf, size_t len, time_t t);

/* compare.c: --compare, reading our logs, interbench 0.31 logs and our CSV */
int compare_main(const struct config *cfg);

#endif
