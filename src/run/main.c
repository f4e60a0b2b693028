// SPDX-License-Identifier: GPL-2.0-or-later
/* run/main.c - main: options into a config, the plan, the set-up, each cell's row into the
 * record. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/kinds.h"
#include "model/workloads.h"
#include "report/report.h"
#include "formats/format.h"
#include "compare/compare.h"
#include "plot/plot.h"
#include "timeline/timeline.h"
#include "cli/options.h"
#include "model/plan.h"
#include "run/row.h"
#include "run/row_signals.h"
#include "run/progress.h"
#include "cli/derive.h"
#include "run/runlock.h"
#include "cli/vary.h"
#include "run/configs.h"
#include "run/switch.h"
#include "sys/kernel_files.h"
#include "sys/machine.h"
#include "sys/proc_scan.h"
#include "sys/trace_instance.h"

/* Can this process use SCHED_FIFO? Tried for real, then undone. */
static bool fifo_allowed(int prio)
{
	struct sched_param sp = { .sched_priority = prio }, zero = { 0 };
	int policy;
	struct sched_param old;

	if (pthread_getschedparam(pthread_self(), &policy, &old))
		return false;
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		return false;
	pthread_setschedparam(pthread_self(), policy, policy == SCHED_OTHER ? &zero : &old);
	return true;
}

static long read_long_file(const char *path, long fallback)
{
	char buf[64];
	long v;

	if (read_small_file(path, buf, sizeof(buf)) || parse_long(buf, -1, LONG_MAX, &v))
		return fallback;
	return v;
}

/* With -r, --policy fifo or rr: say once if the RT bandwidth limit is below a task's need. */
static void warn_rt_throttling(const struct config *cfg)
{
	long runtime = read_long_file("/proc/sys/kernel/sched_rt_runtime_us", -1);
	long period = read_long_file("/proc/sys/kernel/sched_rt_period_us", 0);
	char names[128] = "";
	double limit;
	size_t used = 0;

	if (runtime < 0 || period <= 0)
		return;
	limit = (double)runtime / (double)period;
	for (size_t i = 0; i < nr_workloads; i++) {
		struct sim_params p;

		if (!(cfg_benches(cfg) & (1u << i)))
			continue;
		sim_params_init(&p, &workloads[i], cfg);
		if (!p.period_num)	/* a file's threads: rtapp_run() says what is refused */
			continue;
		if ((double)p.work_ns * (double)p.period_den / (double)p.period_num <= limit)
			continue;
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
					 used ? ", " : "", workloads[i].name);
		if (used >= sizeof(names))
			break;
	}
	if (used)
		warn("sched_rt_runtime_us=%ld of sched_rt_period_us=%ld lets real-time tasks use "
		     "%.0f %% of a CPU; %s needs more and will be throttled", runtime, period,
		     limit * 100, names);
}

static void pin_to_one_cpu(void)
{
	cpu_set_t set, one;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		die("sched_getaffinity: %s", strerror(errno));
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0)
		die("-u: sched_setaffinity to CPU %d: %s", cpu, strerror(errno));
}

/*
 * The log <release>.log is another user's (a run with sudo, then one
 * without, in the same directory): this run appends to <release>-<user>.log,
 * its own, which --compare reads as well, and says so; if that one is not
 * ours either, the run stops here, before anything ran.
 */
static int open_own_log(char *path, size_t len, const struct config *cfg, const char *kernel)
{
	struct passwd *pw = getpwuid(geteuid());
	char other[PATH_MAX], user[64];
	int fd;

	snprintf(other, sizeof(other), "%s", path);
	if (pw && pw->pw_name[0] && !strchr(pw->pw_name, '/'))
		snprintf(user, sizeof(user), "%s", pw->pw_name);
	else
		snprintf(user, sizeof(user), "uid%u", (unsigned)geteuid());
	snprintf(path, len, "%s/%s-%s.log", cfg->work_dir, kernel, user);
	fd = open_log_append(path);
	if (fd == -EACCES)
		die("logs %s and %s belong to another user; not writing to them (use -c, or "
		    "another --work-dir)", other, path);
	if (fd >= 0)
		warn("log %s belongs to another user: this run's log is %s", other, path);
	return fd;
}

static void open_log(struct report *out, const struct config *cfg, const char *kernel)
{
	char path[PATH_MAX];
	int fd;

	if (cfg->console_only)
		return;
	snprintf(path, sizeof(path), "%s/%s.log", cfg->work_dir, kernel);
	fd = open_log_append(path);
	if (fd == -EACCES)
		fd = open_own_log(path, sizeof(path), cfg, kernel);
	if (fd == -ELOOP)
		die("log %s is a symlink; not following it (remove it, or use -c)", path);
	if (fd == -EPERM)
		die("log %s is not a regular file of ours; not writing to it (use -c)", path);
	if (fd < 0)
		die("cannot open log %s: %s", path, strerror(-fd));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		die("log %s is being written by another run: its rows and ours would mix (use -c, "
		    "or another --work-dir)", path);
	out->log = fdopen(fd, "a");
	if (!out->log)
		die("fdopen %s: %s", path, strerror(errno));
}

/* Everything a run holds, from its set-up to its exit. */
struct orchestrator {
	const struct config *parsed;	/* the command line's */
	struct run_configs cfgs;	/* the run's copies of it, made once in set-up */
	const struct config *cfg;	/* the run's own: &cfgs.base once made */
	struct machine sys;
	struct plan plan;
	struct run_record rec;		/* every row's result, read by every output */
	struct report out;		/* the text as it is printed */
	struct live_files files;	/* --json and --csv as they grow */
	struct timeline tl;		/* --timeline as it grows */
	struct load_ctx load_ctx;
	struct row_env env;
};

/*
 * A cell's row under its variant: the task knobs in the config its children
 * start from, a system knob written and read back first (what it reads back
 * is what the row records), a program's variant entered (switch.c). A
 * variant that cannot be entered stops the run (exit 1, all put back): a
 * row never measures another setting than its own. One whose program or
 * scheduler went during the row fails it. rows: one per member of its group.
 */
static void run_variant_row(struct orchestrator *orch, const struct cell *c, struct row *rows,
			    int n)
{
	const struct config *cfg = orch->cfg, *vc = run_config(&orch->cfgs, c->variant);
	char err[REASON_LEN] = "";
	struct variant_seen seen = { 0 };
	bool failed = false;
	int knob = 0;

	orch->env.cfg = vc;
	load_params_of(vc, &orch->load_ctx.par);
	if (c->ncpus && !vc->cpu_load_given)
		orch->load_ctx.par.cpu_load = c->ncpus;	/* -L follows the row's CPUs */
	if (cfg->vary_kind != VARY_NONE && cfg->vary_kind != VARY_TASK)
		knob = switch_enter(cfg, c->variant, &seen, err, sizeof(err));
	if (knob < 0 && got_signal)
		return;
	if (knob < 0)
		die("%s", err);
	run_row(&orch->env, c, rows);
	if (switch_check(cfg, err, sizeof(err)) < 0)
		knob = -1;
	for (int k = 0; k < n; k++) {
		struct row *row = &rows[k];

		if (knob < 0 && row->status != ROW_FAILED) {
			row->status = ROW_FAILED;
			snprintf(row->reason, sizeof(row->reason), "%s", err);
		} else if (knob > 0 && !row->reason[0]) {
			snprintf(row->reason, sizeof(row->reason), "the kernel read back %s",
				 seen.value);
		}
		snprintf(row->knob_value, sizeof(row->knob_value), "%s", seen.value);
		snprintf(row->variant_scx, sizeof(row->variant_scx), "%s", seen.scx);
		row->variant_pid = seen.pid;
		failed |= row->status == ROW_FAILED;
	}
	if (failed && !vary_runs_program(cfg))
		sysknob_restore(false);	/* back until the next row writes it again */
}

/*
 * A finished row's results, one per member: appended to the record, printed
 * (a group's wait for its tables, report_group()), the files grown by
 * them, the timeline by their periods (which go with the row). The
 * timeline's CPU tracks show who ran instead of the first member only: the
 * members' waits overlap, and so would their slices on a CPU. A workload
 * file's threads are its members here. The number of them that failed.
 */
static int keep_rows(struct orchestrator *orch, const struct cell *c, struct row *rows, int n)
{
	int failed = 0;

	for (int k = 0; k < n; k++) {
		struct row *row = &rows[k];

		failed += row->status == ROW_FAILED;
		if (!row_result(&orch->rec, row, run_config(&orch->cfgs, row->variant)))
			die("out of memory for the result of a row of %s",
			    cell_table_name(orch->cfg, c));
		if (cell_table(c) == TABLE_BENCH)
			report_row(&orch->out, &orch->rec, orch->rec.nres - 1);
		report_files_row(&orch->files, &orch->rec);
		timeline_add_row(&orch->tl, &orch->rec, &(struct timeline_row){
					 .t_go = row->t_go, .period_log = &row->period_log,
					 .periods = row->periods, .stages = &row->stages,
					 .metrics = row->bench_res && bench_has_chain(row->bench_res) ?
						    kind_of(row->bench)->metrics : 0,
					 .trace = k ? NULL : &row->trace,	/* see below */
					 .persec = &row->load_res.persec });
		row_free(row);
	}
	if (cell_table(c) == TABLE_THREADS)	/* its load's line, and a line per thread */
		report_threads(&orch->out, &orch->rec, orch->rec.nres - n, n);
	return failed;
}

/* A table's end; a group's tables, all of them, once its last row has run. */
static void end_table(struct orchestrator *orch, const struct cell *c, int first)
{
	if (cell_table(c) == TABLE_THREADS)
		report_workload_end(&orch->out, &orch->rec);
	else if (cell_table(c) == TABLE_GROUP)
		report_group(&orch->out, &orch->rec, first, c->ncpus, orch->cfg->groups[c->group - 1].name);
	else
		report_table_end(&orch->out, &orch->rec);
}

/*
 * Each cell of the plan in turn: its table's heading before its first row,
 * the row, its results kept, the table's end after its last. The number
 * of rows that failed.
 */
static int run_plan(struct orchestrator *orch)
{
	const struct config *cfg = orch->cfg;
	int failed = 0, first = 0;

	progress_start(&orch->plan, cfg->seconds, isatty(STDERR_FILENO) && !cfg->quiet);
	for (int i = 0; i < orch->plan.ncells; i++) {
		const struct cell *c = &orch->plan.cells[i];
		int n = cell_nresults(cfg, c);
		struct row *rows = calloc((size_t)n, sizeof(*rows));

		if (!rows)
			die("out of memory for a row of %s", cell_table_name(cfg, c));
		if (c->table_start) {
			progress_clear();
			first = orch->rec.nres;
			if (cell_table(c) == TABLE_THREADS)
				report_workload_heading(&orch->out, &orch->rec, c->ncpus);
			else if (cell_table(c) == TABLE_BENCH)
				report_heading(&orch->out, &orch->rec, c->bench, c->ncpus);
		}
		if (got_signal) {
			free(rows);
			return failed;
		}
		progress_row(c, cell_table_name(cfg, c));
		run_variant_row(orch, c, rows, n);
		progress_clear();
		if (got_signal) {
			for (int k = 0; k < n; k++)
				row_free(&rows[k]);	/* an interrupted row is not a result */
			if (cell_table(c) != TABLE_BENCH && orch->rec.nres > first)
				end_table(orch, c, first);	/* the table's rows before it */
			free(rows);
			return failed;
		}
		failed += keep_rows(orch, c, rows, n);
		free(rows);
		if (c->table_end)
			end_table(orch, c, first);
	}
	return failed;
}

/* The most wake-ups a row of any variant can have (--vary fps changes it). */
static uint64_t wakeups_max(const struct run_configs *rc)
{
	uint64_t most = 0;

	for (int v = 0; v < (rc->base.nvariants ? rc->base.nvariants : 1); v++) {
		uint64_t n = row_wakeups_max(run_config(rc, v));

		most = n > most ? n : most;
	}
	return most;
}

/*
 * The periods a row's bench keeps (core/period.h), for the outputs that
 * look at single periods: the timeline, the misses, the strip. All of a
 * row's periods up to PERIOD_KEEP_MAX (40 MB of records), else its newest.
 * None when no output needs them, so a plain run records nothing.
 */
#define PERIOD_KEEP_MAX (1u << 20)

static uint64_t period_cap(const struct run_configs *rc)
{
	const struct config *cfg = &rc->base;
	uint64_t most = wakeups_max(rc), units;

	if (!cfg->timeline_path && !cfg->explain && !cfg->plot_path)
		return 0;
	units = (uint64_t)(cfg->seconds * 1e9) / GAMING_UNIT_NS;	/* Gaming's */
	most = (most > units ? most : units) + 2;	/* a last wake-up past the row's end */
	return most < PERIOD_KEEP_MAX ? most : PERIOD_KEEP_MAX;
}

#define CHAIN_TRACE_FACTOR 8		/* a chain's threads' events per frame, as a task's */

/* A benchmark's wake-ups as the trace sees them: a chain's frame has its stages' too. */
static uint64_t traced_wakeups(const struct config *cfg, int bench)
{
	return bench_wakeups(cfg, bench) * (workloads[bench].threads ? CHAIN_TRACE_FACTOR : 1);
}

/*
 * The wake-ups --explain's buffer is sized for: the most of a row, of one
 * benchmark or of a group's members together (all of them are traced), in
 * any variant.
 */
static uint64_t trace_wakeups(const struct run_configs *rc)
{
	uint64_t most = 0;

	for (int v = 0; v < (rc->base.nvariants ? rc->base.nvariants : 1); v++) {
		const struct config *c = run_config(rc, v);

		for (size_t i = 0; i < nr_workloads; i++)
			if (cfg_benches(c) & (1u << i) && traced_wakeups(c, (int)i) > most)
				most = traced_wakeups(c, (int)i);
		for (int g = 0; g < c->ngroups; g++) {
			uint64_t sum = 0;

			for (int k = 0; k < c->groups[g].n; k++)
				sum += traced_wakeups(c, c->groups[g].member[k]);
			most = sum > most ? sum : most;
		}
	}
	return most;
}

/* What the run holds of the kernel's (PM QoS, tracefs) and may use (SCHED_FIFO). */
static void hold_kernel_settings(struct orchestrator *orch)
{
	const struct config *cfg = orch->parsed;
	struct machine *sys = &orch->sys;
	char err[512];
	int top;

	if (cfg->pm_qos_us >= 0 && pm_qos_hold(cfg->pm_qos_us, err, sizeof(err)))
		die("%s", err);
	sys->pm_qos_us = cfg->pm_qos_us >= 0 ? cfg->pm_qos_us : SI_UNKNOWN;
	if (cfg->trace_above_us > 0 && trace_open(sys->tracefs, sizeof(sys->tracefs),
						  &orch->env.trace_fd, &orch->env.tracing_on_fd, err,
						  sizeof(err)))
		die("%s", err);
	/* a waker runs one above the task; a task on its own timer needs its own priority */
	top = cfg->rt_priority + (cfg->wake == WAKE_WAKER);
	orch->env.waker_rt = fifo_allowed(cfg->rt_priority + 1);
	if (cfg->realtime && !fifo_allowed(top))
		die("-r needs SCHED_FIFO up to priority %d: run as root, grant CAP_SYS_NICE, "
		    "or raise RLIMIT_RTPRIO (ulimit -r %d)", top, top);
}

/*
 * What each variant's configuration needs of the kernel: --explain's buffer
 * for the most wake-ups of any, its scheduling tried (exit 1 when refused).
 */
static void probe_variants(struct orchestrator *orch)
{
	const struct config *cfg = orch->cfg;
	char err[512];

	if (cfg->explain && ran_trace_open(trace_wakeups(&orch->cfgs), err, sizeof(err)))
		warn("--explain: who ran instead%s is not shown: %s", cfg->wake == WAKE_TIMER ?
		     ", nor each wake-up's timer part (the kernel's sched_waking)," : "", err);
	for (int v = 0; v < (cfg->nvariants ? cfg->nvariants : 1); v++) {
		const struct config *vc = run_config(&orch->cfgs, v);

		if (vc->policy == POL_FIFO || vc->policy == POL_RR)
			warn_rt_throttling(vc);
		if (sched_probe(vc, err, sizeof(err)))
			die("%s%s%s", cfg->nvariants ? cfg->variants[v].label : "",
			    cfg->nvariants ? ": " : "", err);
	}
	if (!orch->env.waker_rt && cfg->wake == WAKE_WAKER)
		warn("cannot use SCHED_FIFO: wakers run as normal tasks, so results are less "
		     "reliable (run as root, or grant CAP_SYS_NICE or RLIMIT_RTPRIO)");
}

/*
 * Swept periods drift one tick a row; without a tick's length known, a drift
 * that is a whole number of ticks at every usual HZ, said once.
 */
static uint64_t period_drift(const struct config *cfg, const struct machine *sys)
{
	if (cfg->periods == PERIOD_SWEPT && !sys->tick_ns)
		warn("the tick's length is not known (no kernel config, no coarse clock): swept "
		     "periods drift 20 ms a row, a whole number of ticks at HZ 100, 250, 300 "
		     "and 1000");
	return sys->tick_ns ? sys->tick_ns : TICKPHASE_DRIFT_ASSUMED;
}

/*
 * The idle check, once the run's files are ready and before its first
 * row: what tasks not of the run use, measured as a row measures it, over
 * a quarter of the load's settling second (IDLE_CHECK_NS; a quarter of
 * what the test suite shortens that to, 50 ms at least); a warning when it
 * is over MARK_FOREIGN_PCT of one CPU.
 */
#define IDLE_CHECK_NS (250 * NSEC_PER_MSEC)
#define IDLE_CHECK_MIN_NS (50 * NSEC_PER_MSEC)

static void idle_check(const struct config *cfg)
{
	uint64_t span = IDLE_CHECK_NS * cfg->settle_ns / NSEC_PER_SEC;
	struct proc_scan a, b;
	struct foreign f;
	char top[64] = "";

	if (proc_scan_take(&a))
		return;
	sleep_until(a.wall + (span > IDLE_CHECK_MIN_NS ? span : IDLE_CHECK_MIN_NS));
	if (!got_signal && !proc_scan_take(&b)) {
		foreign_between(&a, &b, getpid(), &f);
		if (f.top[0])
			snprintf(top, sizeof(top), " (the busiest: %s, %.0f%%)", f.top, f.top_pct);
		if (f.pct > MARK_FOREIGN_PCT)
			warn("the machine is not idle: tasks not of this run used %.0f%% of a CPU "
			     "over %.2f s before the first row%s; the rows it goes on in are marked",
			     f.pct, (double)(b.wall - a.wall) / 1e9, top);
		proc_scan_free(&b);
	}
	proc_scan_free(&a);
}

/*
 * The work directory is the machine's, not the command line's: one that is
 * missing or that we may not write in is an error of the environment (exit
 * 1), found before anything runs, not a usage error.
 */
static int check_work_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return set_err(err, errlen, "--work-dir: '%.200s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return set_err(err, errlen, "--work-dir: '%.200s' is not a directory", dir);
	if (access(dir, W_OK | X_OK) < 0)
		return set_err(err, errlen, "--work-dir: cannot write in '%.200s': %s", dir,
			       strerror(errno));
	return 0;
}

/*
 * Everything before the first row: the environment checked (exit 1 when it
 * cannot serve), the run lock taken, the machine described, the kernel
 * settings held, loops per ms known, the run's configurations made from
 * them, the record begun, each variant's scheduling tried.
 */
static void run_setup(struct orchestrator *orch)
{
	const struct config *parsed = orch->parsed, *cfg;
	struct run_facts facts = { .loops_per_ms = parsed->loops_per_ms };
	time_t start;
	char err[512];

	if (check_work_dir(parsed->work_dir, err, sizeof(err)))
		die("%s", err);
	install_signals();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	start = time(NULL);
	lock_fd = run_lock(start, err, sizeof(err));
	if (lock_fd < 0)
		die("%s", err);
	if (journal_restore(false, err, sizeof(err)) < 0)
		die("%s", err);
	atexit(sysknob_atexit);
	if (switch_prepare(parsed, err, sizeof(err)))	/* a refused knob: before anything runs */
		die("%s", err);
	sysinfo_collect(&orch->sys, parsed->work_dir);
	facts.period_drift_ns = period_drift(parsed, &orch->sys);
	orch->out.text = stdout;
	if ((parsed->json_path && !strcmp(parsed->json_path, "-")) ||
	    (parsed->csv_path && !strcmp(parsed->csv_path, "-")))
		orch->out.text = stderr;
	orch->env = (struct row_env){ .load_ctx = &orch->load_ctx, .trace_fd = -1, .tracing_on_fd = -1,
				   .drop_inherited = drop_sig_pipe };
	if (orch->sys.work_dir_in_memory == 1 && load_files_needed(parsed->loads))
		warn("--work-dir %s is on %s, in memory: Write, Read and Compile will measure "
		     "memory, not a disk (give --work-dir a directory on a disk)", parsed->work_dir,
		     orch->sys.work_dir_fs[0] ? orch->sys.work_dir_fs : "a filesystem without a disk");
	hold_kernel_settings(orch);
	if (parsed->uniprocessor)
		pin_to_one_cpu();
	if (parsed->work == WORK_LOOPS && !parsed->loops_given)
		calibration_get(parsed->work_dir, parsed->recalibrate, parsed->quiet, &orch->sys,
				&got_signal, &facts.loops_per_ms);
	if (run_configs_build(&orch->cfgs, parsed, &facts, err, sizeof(err)))
		die("%s", err);
	cfg = orch->cfg = &orch->cfgs.base;
	record_init(&orch->rec, cfg, &orch->sys, &orch->plan, start);
	knobs_of_config(cfg, &orch->rec.knobs);
	switch_states(cfg, orch->rec.variant_states);
	orch->env.cfg = cfg;
	orch->env.period_cap = period_cap(&orch->cfgs);
	probe_variants(orch);
	orch->rec.waker_rt = orch->env.waker_rt;
}

/*
 * A die() mid-run: the timeline's shadow removed, its file kept as the last
 * row left it. Only by the orchestrator: a child that dies runs the handlers
 * it inherited too.
 */
static struct timeline *live_timeline;
static pid_t timeline_pid;

static void timeline_atexit(void)
{
	if (live_timeline && getpid() == timeline_pid)
		timeline_abort(live_timeline);
}

/* The rows, once the set-up is done: the files first, then the tables and the summary. */
static int run_rows(struct orchestrator *orch)
{
	const struct config *cfg = orch->cfg;
	char err[512];
	int failed;

	if (timeline_begin(&orch->tl, &orch->rec))
		return -1;	/* --timeline cannot be written: said before running */
	if (report_files_begin(&orch->files, &orch->rec)) {
		timeline_abort(&orch->tl);
		return -1;	/* --json or --csv cannot be written: say so before running */
	}
	live_timeline = &orch->tl;
	timeline_pid = getpid();
	atexit(timeline_atexit);
	load_params_of(cfg, &orch->load_ctx.par);
	if (!got_signal && load_prepare_files(load_files_needed(cfg->loads), &orch->load_ctx,
					      &got_signal, err, sizeof(err)))
		die("%s", err);
	if (got_signal)
		return 0;
	idle_check(cfg);
	open_log(&orch->out, cfg, orch->rec.kernel);
	report_header(&orch->out, &orch->rec);
	catch_tstp(true);
	failed = run_plan(orch);
	catch_tstp(false);
	if ((cfg->repeat > 1 || cfg->nvariants) && !got_signal)
		report_summary(&orch->out, &orch->rec);
	if (cfg->nvariants && !got_signal)
		report_verdicts(&orch->out, &orch->rec);
	if (cfg->nncpus && !got_signal)
		report_by_ncpus(&orch->out, &orch->rec);
	return failed;
}

/* --restore: what a run that did not end left changed, put back under the run lock. */
static int restore_main(void)
{
	char err[512];
	int fd = run_lock(time(NULL), err, sizeof(err)), n;

	if (fd < 0) {
		error("%s", err);
		return 1;
	}
	n = journal_restore(true, err, sizeof(err));
	if (n < 0)
		error("%s", err);
	close(fd);
	return n < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct config parsed;	/* written by parse_options() alone */
	static struct orchestrator orch = { .parsed = &parsed, .cfg = &parsed,
					 .load_ctx = { .read_fd = -1, .write_fd = -1 } };
	const struct config *cfg = &parsed;
	char err[512], idle[128];
	int failed = 0;

	switch (parse_options(argc, argv, &parsed, err, sizeof(err))) {
	case PARSE_EXIT_OK:
		return 0;
	case PARSE_USAGE:
		fprintf(stderr, "%s: %s\n", progname, err);
		return 2;
	case PARSE_REFUSED:
		die("%s", err);
	case PARSE_RUN:
		break;
	}
	if (cfg->restore_only)
		return restore_main();
	if (cfg->compare_mode) {
		if (cfg->dry_run) {
			print_plan(cfg, &orch.plan);
			return 0;
		}
		return compare_main(cfg);
	}
	if (plan_check_memory(cfg, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", progname, err);
		return 2;
	}
	if (plan_build(&orch.plan, cfg))
		die("out of memory for the plan of %d passes", cfg->repeat);
	plan_idle_benches(cfg, &orch.plan, idle, sizeof(idle));
	if (idle[0])
		warn("%s: no table, as the only load selected is itself (a workload is never its "
		     "own load)", idle);
	if (cfg->dry_run) {
		if (switch_check_unchanged(cfg, err, sizeof(err)))
			die("%s", err);
		print_plan(cfg, &orch.plan);
		return 0;
	}
	run_setup(&orch);
	if (!got_signal) {
		failed = run_rows(&orch);
		if (failed < 0)
			return 1;
	}
	load_close_files(&orch.load_ctx);
	orch.rec.end = time(NULL);
	if (cfg->plot_path && orch.rec.nres) {
		int ret = plot_run(&orch.rec, cfg->plot_path);

		if (ret)
			error("--plot %s: %s", cfg->plot_path, strerror(-ret));
	}
	progress_clear();
	switch_leave(cfg, true);
	if (got_signal) {
		orch.rec.interrupted = got_signal;
		report_interrupted(&orch.out, &orch.rec);
		report_files_end(&orch.files, &orch.rec);
		timeline_end(&orch.tl, &orch.rec);
		return 128 + got_signal;
	}
	report_files_end(&orch.files, &orch.rec);
	timeline_end(&orch.tl, &orch.rec);
	if (orch.out.log)
		fclose(orch.out.log);
	return failed ? 1 : 0;
}
