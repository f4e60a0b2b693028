// SPDX-License-Identifier: GPL-2.0-or-later
/* interbench.c - main: options into a config, the benchmark x load matrix, the children. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "interbench.h"
#include "loads.h"
#include "sysinfo.h"

#define READY_TIMEOUT_NS (10 * NSEC_PER_SEC)	/* a child's set-up */
#define LOAD_RESULT_NS (1500 * NSEC_PER_MSEC)	/* the load's answer to stop */
#define EXIT_WAIT_NS NSEC_PER_SEC		/* a child's exit after its answer */

static volatile sig_atomic_t got_signal;	/* SIGINT, SIGTERM or SIGHUP */
static volatile sig_atomic_t got_tstp;		/* SIGTSTP (Ctrl-Z): pause, then redo the row */
static int sig_pipe[2] = { -1, -1 };		/* wakes poll() when one comes */
static int lock_fd = -1;			/* the run lock, held until we exit */

static void on_signal(int sig)
{
	int saved = errno;

	if (sig == SIGTSTP)
		got_tstp = 1;
	else if (!got_signal)
		got_signal = sig;
	if (write(sig_pipe[1], "", 1) < 0)
		errno = saved;
	errno = saved;
}

/* A wait that ended early: a stop signal, or a SIGTSTP that discards the row. */
static bool interrupted(void)
{
	return got_signal || got_tstp;
}

/* Ctrl-Z is caught while rows run, so that the children stop too; else its default. */
static void catch_tstp(bool on)
{
	struct sigaction sa = { .sa_handler = on ? on_signal : SIG_DFL };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
	if (!on && got_tstp) {
		got_tstp = 0;
		raise(SIGSTOP);		/* it came after the last row */
	}
}

/* ---- the progress line, on a terminal only ---- */

static struct {
	bool on;			/* stderr is a terminal and no -q */
	bool shown;			/* a line is on the screen now */
	int row, rows;			/* 1-based current row, of all rows */
	const char *bench, *load;
	uint64_t run_t0, row_t0, last_draw;
	double row_secs;		/* the row's measured seconds (-t) */
} progress;

static void progress_clear(void)
{
	if (progress.shown)
		fputs("\r\033[K", stderr);
	progress.shown = false;
}

/* "[3/14] Audio vs Burn  12/30 s  ETA 19:48 (12 min left)", at most once a second. */
static void progress_draw(bool force)
{
	uint64_t now = now_ns(), done_ns, per_row_ns, left_ns;
	char eta[16];
	time_t t;
	struct tm tm;
	double in_row;

	if (!progress.on || !progress.bench ||
	    (!force && now - progress.last_draw < NSEC_PER_SEC))
		return;
	progress.last_draw = now;
	done_ns = progress.row_t0 - progress.run_t0;
	/* rows done so far tell the real cost of a row; before that, estimate */
	per_row_ns = progress.row > 1 ? done_ns / (uint64_t)(progress.row - 1) :
		     (uint64_t)((progress.row_secs + 1.5) * 1e9);
	in_row = (double)(now - progress.row_t0) / 1e9;
	left_ns = per_row_ns * (uint64_t)(progress.rows - progress.row + 1);
	left_ns = left_ns > now - progress.row_t0 ? left_ns - (now - progress.row_t0) : 0;
	t = time(NULL) + (time_t)(left_ns / NSEC_PER_SEC);
	localtime_r(&t, &tm);
	strftime(eta, sizeof(eta), "%H:%M:%S", &tm);
	fprintf(stderr, "\r\033[K[%d/%d] %s vs %s  %.0f/%g s  ETA %s (%.0f min left)",
		progress.row, progress.rows, progress.bench, progress.load, in_row,
		progress.row_secs + 1, eta, (double)left_ns / 60e9);
	fflush(stderr);
	progress.shown = true;
}

static void progress_row(int bench, int load)
{
	progress.row++;
	progress.bench = workloads[bench].name;
	progress.load = workloads[load].name;
	progress.row_t0 = now_ns();
	progress_draw(true);
}

/* ---- signals, and what ends the orchestrator's waits ---- */

static void progress_tick(void)
{
	progress_draw(false);
}

/*
 * The orchestrator's waits end when a stop signal or SIGTSTP comes, and keep
 * the progress line fresh.
 */
static struct child_watch watch = { .wake_fd = -1, .stop = &got_signal, .pause = &got_tstp,
				    .tick = progress_tick };

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		die("pipe: %s", strerror(errno));
	watch.wake_fd = sig_pipe[0];
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* ---- the two kinds of children ---- */

/* A child has no use for the orchestrator's signal pipe, nor may it keep the run lock. */
static void drop_sig_pipe(void)
{
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	if (lock_fd >= 0)
		close(lock_fd);
}

struct row_ctx {
	const struct config *cfg;
	struct run *run;
	int bench, load;
	struct load_ctx *lctx;
	int trace_fd, tracing_on_fd;
};

static int load_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	char name[16];

	drop_sig_pipe();
	snprintf(name, sizeof(name), "ibload-%s", workloads[rc->load].name);
	prctl(PR_SET_NAME, name);
	if (setpriority(PRIO_PROCESS, 0, rc->cfg->load_nice) < 0) {
		child_fail(res, "load setpriority %d: %s", rc->cfg->load_nice, strerror(errno));
		return 1;
	}
	if (sched_load_policy(rc->cfg->load_policy)) {
		child_fail(res, "--load-policy %s: %s", load_policy_names[rc->cfg->load_policy],
			   strerror(errno));
		return 1;
	}
	return load_process(&workloads[rc->load], rc->lctx, ctl, res) ? 1 : 0;
}

/* The bench's scheduling; a failure is the row's reason, sent with the result. */
static void bench_setup(struct row_ctx *rc, struct sim_params *p, struct bench_result *b)
{
	const struct config *cfg = rc->cfg;

	sim_params_init(p, &workloads[rc->bench], cfg);
	p->sched_set = !task_sched_is_default(&p->sched);
	if (policy_is_rt(cfg->policy)) {
		if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
			b->status = ROW_FAILED;
			snprintf(b->reason, sizeof(b->reason), "mlockall: %s", strerror(errno));
		}
	} else if (setpriority(PRIO_PROCESS, 0, cfg->bench_nice) < 0) {
		b->status = ROW_FAILED;
		snprintf(b->reason, sizeof(b->reason), "setpriority %d: %s", cfg->bench_nice,
			 strerror(errno));
	}
	if (rc->run->waker_rt)
		p->waker_prio = cfg->rt_priority + 1;
	p->split = !cfg->no_split;
	if (cfg->trace_above_us > 0) {
		p->trace_above_ns = (uint64_t)cfg->trace_above_us * NSEC_PER_USEC;
		p->trace_fd = rc->trace_fd;
		p->tracing_on_fd = rc->tracing_on_fd;
	}
	latency_init(&b->wake);
	latency_init(&b->timer);
}

static int bench_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	const struct config *cfg = rc->cfg;
	struct bench_result *b = calloc(1, sizeof(*b));
	struct sim_params p;
	int ret;

	drop_sig_pipe();
	load_close_files(rc->lctx);
	if (!b) {
		child_fail(res, "out of memory for the bench result");
		return 1;
	}
	bench_setup(rc, &p, b);
	if (child_ready(res) || child_next(ctl) != MSG_GO)
		return 1;	/* the orchestrator is ending the row */
	if (b->status == ROW_OK) {
		ret = sim_run(&p, (uint64_t)llround(cfg->seconds * 1e9), NULL, b, NULL);
		if (ret) {
			b->status = ROW_FAILED;
			if (!b->reason[0])	/* else the knobs' refusal, in its words */
				snprintf(b->reason, sizeof(b->reason), "waker: %s", strerror(-ret));
		}
	}
	write_full(res, b, sizeof(*b));
	return 0;
}

/* ---- one row: start the load and the bench, measure, stop the load ---- */

static uint64_t grace_ns(const struct config *cfg)
{
	return 2 * NSEC_PER_SEC + (uint64_t)(cfg->seconds * 1e8);	/* 2 s + 10 % */
}

static void fail_row(struct row *row, const char *fmt, ...) PRINTF(2, 3);
static void fail_row(struct row *row, const char *fmt, ...)
{
	va_list ap;

	if (row->status == ROW_FAILED)
		return;		/* the first reason is the cause */
	row->status = ROW_FAILED;
	va_start(ap, fmt);
	vsnprintf(row->reason, sizeof(row->reason), fmt, ap);
	va_end(ap);
}

/* The row fails with how the child ended, once gone (killed if still there at the deadline). */
static void fail_ended(struct row *row, struct child *c, const char *who, uint64_t deadline)
{
	char why[REASON_LEN];

	child_describe(why, sizeof(why), who, child_finish(c, deadline));
	fail_row(row, "%s", why);
}

/* A child that did not get ready: the row fails with its own words, or with how it ended. */
static void fail_unready(struct row *row, struct child *c, const char *who, int ret,
			 const char *said)
{
	if (ret == -EREMOTEIO)
		fail_row(row, "%s", said);
	else
		fail_ended(row, c, who, now_ns());
}

/* Fork the load, then the bench, each ready in time; false when the row cannot go on. */
static bool row_start(struct row_ctx *rc, struct row *row, struct child *load,
		      struct child *bench)
{
	char said[REASON_LEN];
	int ret;

	ret = child_start(load, load_body, rc);
	if (ret) {
		fail_row(row, "fork load: %s", strerror(-ret));
		return false;
	}
	ret = child_wait_ready(load, now_ns() + READY_TIMEOUT_NS, &watch, said, sizeof(said));
	if (ret) {
		if (ret != -EINTR && !interrupted())
			fail_unready(row, load, "load", ret, said);
		return false;
	}
	ret = child_start(bench, bench_body, rc);
	if (ret) {
		fail_row(row, "fork bench: %s", strerror(-ret));
		return false;
	}
	ret = child_wait_ready(bench, now_ns() + READY_TIMEOUT_NS, &watch, said, sizeof(said));
	if (ret == -ETIMEDOUT)
		fail_row(row, "bench process did not start");
	else if (ret)
		fail_unready(row, bench, "bench", ret, said);
	return !ret;
}

/*
 * Let the load settle alone, then open its window and start the bench, and
 * take the bench's result. False when the load need not be asked for its
 * result (it died, or a stop signal came).
 */
static bool row_measure(struct row_ctx *rc, struct row *row, struct child *load,
			struct child *bench)
{
	const struct config *cfg = rc->cfg;
	uint64_t t_go;
	ssize_t r;

	if (!child_sleep(load->res, now_ns() + cfg->settle_ns, &watch)) {
		if (!interrupted())
			fail_ended(row, load, "load", now_ns());	/* it died */
		return false;
	}
	row->b = malloc(sizeof(*row->b));
	if (!row->b) {
		fail_row(row, "out of memory for the result");
		return false;
	}
	ran_trace_arm(bench->pid);	/* the task is the bench process's first thread */
	t_go = now_ns();
	child_tell(load, MSG_BEGIN);
	child_tell(bench, MSG_GO);
	r = child_read(bench->res, row->b, sizeof(*row->b),
		       t_go + (uint64_t)(cfg->seconds * 1e9) + grace_ns(cfg), &watch);
	if (r == (ssize_t)sizeof(*row->b)) {
		if (row->b->status != ROW_OK)
			fail_row(row, "%s", row->b->reason);
		child_finish(bench, now_ns() + EXIT_WAIT_NS);
		return true;
	}
	free(row->b);
	row->b = NULL;
	if (r == -EINTR)
		return false;
	if (r != -ETIMEDOUT) {
		fail_ended(row, bench, "bench", now_ns() + EXIT_WAIT_NS);
		return true;
	}
	fail_row(row, "bench process overran its %g s by more than %.1f s; killed",
		 cfg->seconds, (double)grace_ns(cfg) / 1e9);
	child_finish(bench, now_ns());
	return true;
}

/* Stop the load and take its result: its intensity, and why it ended early. */
static void row_stop(struct row *row, struct child *load)
{
	uint64_t t_stop = now_ns();
	char why[REASON_LEN];
	ssize_t r;
	int st;

	child_tell(load, MSG_STOP);
	r = child_read(load->res, &row->l, sizeof(row->l), t_stop + LOAD_RESULT_NS, &watch);
	st = child_finish(load, t_stop + LOAD_RESULT_NS);
	row->load_stop_ns = now_ns() - t_stop;
	if (r == (ssize_t)sizeof(row->l)) {
		if (row->l.status != ROW_OK && row->status == ROW_OK)
			snprintf(row->reason, sizeof(row->reason), "%s", row->l.reason);
		return;
	}
	if (r == -EINTR)
		return;
	row->l.intensity = -1.0;
	child_describe(why, sizeof(why), "load", st);
	fail_row(row, "%s", r == -ETIMEDOUT ? "load process did not answer the stop" : why);
}

/*
 * Ctrl-Z (SIGTSTP) during a row: stop the children too (they are in process
 * groups of their own, out of the terminal's reach), then stop ourselves as
 * SIGTSTP would have; SIGCONT lets us return. The pause is no part of the
 * run's time.
 */
static void pause_row(struct child *load, struct child *bench)
{
	uint64_t t0 = now_ns();
	char buf[64];

	if (load->pid > 0)
		kill(-load->pid, SIGSTOP);
	if (bench->pid > 0)
		kill(-bench->pid, SIGSTOP);
	progress_clear();
	raise(SIGSTOP);
	got_tstp = 0;
	while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
		;	/* the handler's wake-ups are stale now */
	progress.run_t0 += now_ns() - t0;
}

/* One try at a row; true when a SIGTSTP discarded it and it must run again. */
static bool run_row_once(struct row_ctx *rc, struct row *row)
{
	struct child load = CHILD_NONE, bench = CHILD_NONE;
	bool paused;

	row->status = ROW_OK;
	row->l.intensity = -1.0;
	if (row_start(rc, row, &load, &bench) && row_measure(rc, row, &load, &bench))
		row_stop(row, &load);
	paused = got_tstp && !got_signal;
	if (paused)
		pause_row(&load, &bench);
	child_finish(&bench, now_ns());
	child_finish(&load, now_ns());
	ran_trace_collect(row);
	if (got_signal || paused) {
		free(row->b);
		row->b = NULL;
		row->status = ROW_SKIPPED;
	}
	return paused && !got_signal;
}

/* A row, run again from its start as often as Ctrl-Z interrupts it. */
static void run_row(struct row_ctx *rc, struct row *row)
{
	while (run_row_once(rc, row)) {
		*row = (struct row){ .bench = row->bench, .load = row->load, .pass = row->pass };
		progress.row_t0 = now_ns();
		fprintf(stderr, "%s: continued after SIGTSTP: the %s row of %s runs again from its "
			"start\n", progname, workloads[rc->load].name, workloads[rc->bench].name);
	}
}

/* ---- set-up ---- */

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

		if (!(cfg->benches & (1u << i)))
			continue;
		sim_params_init(&p, &workloads[i], cfg);
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

static void open_log(struct run *run)
{
	char path[PATH_MAX];
	int fd;

	if (run->cfg->console_only)
		return;
	snprintf(path, sizeof(path), "%s/%s.log", run->cfg->work_dir, run->kernel_release);
	fd = open_log_append(path);
	if (fd == -ELOOP)
		die("log %s is a symlink; not following it (remove it, or use -c)", path);
	if (fd == -EPERM)
		die("log %s is not a regular file of ours; not writing to it (use -c)", path);
	if (fd < 0)
		die("cannot open log %s: %s", path, strerror(-fd));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		die("log %s is being written by another run: its rows and ours would mix (use -c, "
		    "or another --work-dir)", path);
	run->log = fdopen(fd, "a");
	if (!run->log)
		die("fdopen %s: %s", path, strerror(errno));
}

static void run_init(struct run *run, const struct config *cfg)
{
	struct tm tm;

	memset(run, 0, sizeof(*run));
	run->cfg = cfg;
	run->start = time(NULL);
	localtime_r(&run->start, &tm);
	strftime(run->datestamp, sizeof(run->datestamp), "%Y%m%d%H%M", &tm);
	sysinfo_kernel_release(run->kernel_release, sizeof(run->kernel_release));
	run->text = stdout;
	run->trace_fd = run->tracing_on_fd = -1;
	if ((cfg->json_path && !strcmp(cfg->json_path, "-")) ||
	    (cfg->csv_path && !strcmp(cfg->csv_path, "-")))
		run->text = stderr;
}

static struct row *new_row(struct run *run)
{
	if (run->nrows == run->cap) {
		int cap = run->cap ? run->cap * 2 : 64;
		struct row *rows = realloc(run->rows, (size_t)cap * sizeof(*rows));

		if (!rows)
			die("out of memory for %d rows", cap);
		run->rows = rows;
		run->cap = cap;
	}
	memset(&run->rows[run->nrows], 0, sizeof(run->rows[0]));
	return &run->rows[run->nrows++];
}

static int count_rows(const struct config *cfg)
{
	int rows = 0;

	for (size_t b = 0; b < nr_workloads; b++)
		for (size_t l = 0; l < nr_workloads; l++)
			rows += (cfg->benches & (1u << b)) && (cfg->loads & (1u << l)) && l != b;
	return rows * cfg->repeat;
}

static int run_matrix(struct run *run, struct load_ctx *lctx)
{
	const struct config *cfg = run->cfg;
	struct row_ctx rc = { .cfg = cfg, .run = run, .lctx = lctx, .trace_fd = run->trace_fd,
			      .tracing_on_fd = run->tracing_on_fd };
	int failed = 0;

	progress.on = isatty(STDERR_FILENO) && !cfg->quiet;
	progress.rows = count_rows(cfg);
	progress.row_secs = cfg->seconds;
	progress.run_t0 = now_ns();

	for (int pass = 0; pass < cfg->repeat; pass++) {
		for (size_t b = 0; b < nr_workloads; b++) {
			if (!(cfg->benches & (1u << b)))
				continue;
			progress_clear();
			report_heading(run, (int)b);
			for (size_t l = 0; l < nr_workloads; l++) {
				struct row *row;

				if (!(cfg->loads & (1u << l)) || l == b)
					continue;
				if (got_signal)
					return failed;
				row = new_row(run);
				row->bench = (int)b;
				row->load = (int)l;
				row->pass = pass;
				rc.bench = (int)b;
				rc.load = (int)l;
				progress_row((int)b, (int)l);
				run_row(&rc, row);
				progress_clear();
				if (got_signal) {
					run->nrows--;	/* an interrupted row is not a result */
					free(row->b);
					return failed;
				}
				failed += row->status == ROW_FAILED;
				report_row(run, row);
				report_files(run);
			}
			report_table_end(run);
		}
	}
	return failed;
}

/* What the run holds of the kernel's (PM QoS, tracefs) and may use (SCHED_FIFO). */
static void hold_kernel_settings(const struct config *cfg, struct run *run, struct machine *sys)
{
	char err[512];

	if (cfg->pm_qos_us >= 0 && pm_qos_hold(cfg->pm_qos_us, err, sizeof(err)))
		die("%s", err);
	sys->pm_qos_us = cfg->pm_qos_us >= 0 ? cfg->pm_qos_us : SI_UNKNOWN;
	if (cfg->trace_above_us > 0 && trace_open(sys->tracefs, sizeof(sys->tracefs),
						  &run->trace_fd, &run->tracing_on_fd, err,
						  sizeof(err)))
		die("%s", err);
	if (cfg->explain && ran_trace_open(cfg, err, sizeof(err)))
		warn("--explain: who ran instead is not shown: %s", err);
	run->waker_rt = fifo_allowed(cfg->rt_priority + 1);
	if (cfg->realtime && !run->waker_rt)
		die("-r needs SCHED_FIFO up to priority %d: run as root, grant CAP_SYS_NICE, "
		    "or raise RLIMIT_RTPRIO (ulimit -r %d)", cfg->rt_priority + 1,
		    cfg->rt_priority + 1);
	if (cfg->policy == POL_FIFO || cfg->policy == POL_RR)
		warn_rt_throttling(cfg);
	if (sched_probe(cfg, err, sizeof(err)))
		die("%s", err);
	if (!run->waker_rt)
		warn("cannot use SCHED_FIFO: wakers run as normal tasks, so results are less "
		     "reliable (run as root, or grant CAP_SYS_NICE or RLIMIT_RTPRIO)");
}

/*
 * Everything before the first row: the environment checked (exit 1 when it
 * cannot serve), the run lock taken, the machine described, the kernel
 * settings held, loops per ms known.
 */
static void run_setup(struct config *cfg, struct run *run, struct machine *sys)
{
	char err[512];

	if (check_work_dir(cfg->work_dir, err, sizeof(err)))
		die("%s", err);
	install_signals();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	run_init(run, cfg);
	lock_fd = run_lock(run->start, err, sizeof(err));
	if (lock_fd < 0)
		die("%s", err);
	sysinfo_collect(sys, cfg->work_dir);
	run->sys = sys;
	if (sys->work_dir_in_memory == 1 && load_files_needed(cfg->loads))
		warn("--work-dir %s is on %s, in memory: Write, Read and Compile will measure "
		     "memory, not a disk (give --work-dir a directory on a disk)", cfg->work_dir,
		     sys->work_dir_fs[0] ? sys->work_dir_fs : "a filesystem without a disk");
	hold_kernel_settings(cfg, run, sys);
	if (cfg->uniprocessor)
		pin_to_one_cpu();
	if (cfg->work == WORK_LOOPS && !cfg->loops_given)
		calibration_get(cfg, sys, &got_signal);
}

int main(int argc, char **argv)
{
	static struct config cfg;
	static struct run run;
	static struct machine sys;
	struct load_ctx lctx = { .read_fd = -1, .write_fd = -1 };
	char err[512];
	int failed = 0;

	switch (parse_options(argc, argv, &cfg, err, sizeof(err))) {
	case PARSE_EXIT_OK:
		return 0;
	case PARSE_USAGE:
		fprintf(stderr, "%s: %s\n", progname, err);
		return 2;
	case PARSE_RUN:
		break;
	}
	if (cfg.dry_run) {
		print_plan(&cfg);
		return 0;
	}
	if (cfg.compare_mode)
		return compare_main(&cfg);
	run_setup(&cfg, &run, &sys);
	if (!got_signal && report_files(&run))
		return 1;	/* --json or --csv cannot be written: say so before running */
	lctx.cfg = &cfg;
	if (!got_signal && load_prepare_files(&cfg, cfg.loads, &lctx, &got_signal, err,
					       sizeof(err)))
		die("%s", err);
	if (!got_signal) {
		open_log(&run);
		report_header(&run);
		catch_tstp(true);
		failed = run_matrix(&run, &lctx);
		catch_tstp(false);
		if (cfg.repeat > 1 && !got_signal)
			report_summary(&run);
	}
	load_close_files(&lctx);
	run.end = time(NULL);
	if (cfg.plot_path && run.nrows) {
		int ret = report_plot(&run, cfg.plot_path);

		if (ret)
			error("--plot %s: %s", cfg.plot_path, strerror(-ret));
	}
	progress_clear();
	if (got_signal) {
		run.interrupted = got_signal;
		report_interrupted(&run);
		report_files(&run);
		return 128 + got_signal;
	}
	report_files(&run);
	if (run.log)
		fclose(run.log);
	return failed ? 1 : 0;
}
