// SPDX-License-Identifier: GPL-2.0-or-later
/* interbench.c - main: options into a config, the benchmark x load matrix, the children. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "interbench.h"
#include "sysinfo.h"

#define READY_TIMEOUT_NS (10 * NSEC_PER_SEC)	/* a child's set-up */
#define LOAD_RESULT_NS (1500 * NSEC_PER_MSEC)	/* the load's answer to stop */
#define EXIT_WAIT_NS NSEC_PER_SEC		/* a child's exit after its answer */

static volatile sig_atomic_t got_signal;	/* SIGINT, SIGTERM or SIGHUP */
static int sig_pipe[2] = { -1, -1 };		/* wakes poll() when one comes */
static pid_t orchestrator;

static void on_signal(int sig)
{
	int saved = errno;

	if (!got_signal)
		got_signal = sig;
	if (write(sig_pipe[1], "", 1) < 0)
		errno = saved;
	errno = saved;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		die("pipe: %s", strerror(errno));
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
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

/* ---- children ---- */

struct child {
	pid_t pid;		/* also its process group */
	int ctl;		/* orchestrator -> child */
	int res;		/* child -> orchestrator */
};

/* Fresh state for a forked child: own group, dies with us, default signals. */
static void child_setup(void)
{
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != orchestrator)
		_exit(1);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	close(sig_pipe[0]);
	close(sig_pipe[1]);
}

static int child_start(struct child *c, void (*body)(void *, int, int), void *arg)
{
	int ctl[2], res[2];

	if (pipe2(ctl, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(res, O_CLOEXEC) < 0) {
		close(ctl[0]);
		close(ctl[1]);
		return -errno;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		int err = -errno;

		close(ctl[0]), close(ctl[1]), close(res[0]), close(res[1]);
		return err;
	}
	if (c->pid == 0) {
		child_setup();
		close(ctl[1]);
		close(res[0]);
		body(arg, ctl[0], res[1]);
		_exit(0);
	}
	setpgid(c->pid, c->pid);
	close(ctl[0]);
	close(res[1]);
	c->ctl = ctl[1];
	c->res = res[0];
	return 0;
}

/* Waits wake at least once a second, for the progress line. */
static int poll_ms(uint64_t left_ns)
{
	uint64_t ms = left_ns / NSEC_PER_MSEC + 1;

	return progress.on && ms > 1000 ? 1000 : (int)ms;
}

/*
 * Read exactly len bytes before the deadline. Returns len, 0 on EOF (the
 * child died), -ETIMEDOUT, -EINTR when a stop signal came.
 */
static ssize_t read_until(int fd, void *buf, size_t len, uint64_t deadline)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = sig_pipe[0], .events = POLLIN } };
	size_t done = 0;

	while (done < len) {
		uint64_t now = now_ns();
		ssize_t r;

		if (got_signal)
			return -EINTR;
		if (now >= deadline)
			return -ETIMEDOUT;
		if (poll(p, 2, poll_ms(deadline - now)) < 0 && errno != EINTR)
			return -errno;
		progress_draw(false);
		if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		r = read(fd, (char *)buf + done, len - done);
		if (r < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (r == 0)
			return 0;
		if (r > 0)
			done += (size_t)r;
	}
	return (ssize_t)len;
}

/* Sleep until the deadline; false if a stop signal or the child's death came first. */
static bool wait_quietly(int watch_fd, uint64_t deadline)
{
	struct pollfd p[2] = { { .fd = watch_fd, .events = POLLIN }, { .fd = sig_pipe[0], .events = POLLIN } };
	uint64_t now;

	while ((now = now_ns()) < deadline) {
		if (got_signal)
			return false;
		if (poll(p, 2, poll_ms(deadline - now)) > 0 &&
		    (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
			return false;
		progress_draw(false);
	}
	return !got_signal;
}

/* Describe how a child ended, for a row's reason. */
static void describe_status(char *buf, size_t len, const char *who, int status)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "%s process killed by signal %d (SIG%s)", who, WTERMSIG(status),
			 sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
	else if (WIFEXITED(status))
		snprintf(buf, len, "%s process exited with status %d", who, WEXITSTATUS(status));
	else
		snprintf(buf, len, "%s process ended", who);
}

/*
 * Wait for the child to exit by itself until the deadline, then kill its
 * whole group and reap everything of it (we are the subreaper, so its own
 * children come back to us). Returns the child's wait status.
 */
static int child_finish(struct child *c, uint64_t deadline)
{
	int status = 0, st;
	pid_t r;

	if (c->pid <= 0)
		return 0;
	for (;;) {
		r = waitpid(c->pid, &status, WNOHANG);
		if (r == c->pid || (r < 0 && errno != EINTR))
			break;
		if (now_ns() >= deadline) {
			kill(-c->pid, SIGKILL);
			while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		sleep_ns(NSEC_PER_MSEC);
	}
	kill(-c->pid, SIGKILL);	/* whatever of the group is left */
	while ((r = waitpid(-c->pid, &st, 0)) > 0 || (r < 0 && errno == EINTR))
		;
	if (c->ctl >= 0)
		close(c->ctl);
	if (c->res >= 0)
		close(c->res);
	c->pid = 0;
	c->ctl = c->res = -1;
	return status;
}

static void send_cmd(struct child *c, char cmd)
{
	if (c->pid > 0 && c->ctl >= 0)
		write_full(c->ctl, &cmd, 1);
}

/* ---- the two kinds of children ---- */

struct row_ctx {
	const struct config *cfg;
	struct run *run;
	int bench, load;
	struct load_ctx *lctx;
	int trace_fd, tracing_on_fd;
};

static void load_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	char name[16];

	snprintf(name, sizeof(name), "ibload-%s", workloads[rc->load].name);
	prctl(PR_SET_NAME, name);
	if (setpriority(PRIO_PROCESS, 0, rc->cfg->load_nice) < 0)
		_exit(3);
	load_process(&workloads[rc->load], rc->lctx, ctl, res);
}

static void bench_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	const struct config *cfg = rc->cfg;
	struct bench_result *b = calloc(1, sizeof(*b));
	struct sim_params p;
	char go = 0;
	int ret;

	load_close_files(rc->lctx);
	if (!b)
		_exit(4);
	sim_params_init(&p, &workloads[rc->bench], cfg);
	if (cfg->realtime) {
		p.task_prio = cfg->rt_priority;
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
		p.waker_prio = cfg->rt_priority + 1;
	if (cfg->trace_above_us > 0) {
		p.trace_above_ns = (uint64_t)cfg->trace_above_us * NSEC_PER_USEC;
		p.trace_fd = rc->trace_fd;
		p.tracing_on_fd = rc->tracing_on_fd;
	}
	latency_init(&b->wake);
	latency_init(&b->timer);
	if (write_full(res, "R", 1) != 1 || read_full(ctl, &go, 1) != 1 || go != 'G')
		_exit(5);
	if (b->status == ROW_OK) {
		ret = sim_run(&p, (uint64_t)llround(cfg->seconds * 1e9), NULL, b, NULL);
		if (ret) {
			b->status = ROW_FAILED;
			snprintf(b->reason, sizeof(b->reason), "%s: %s",
				 cfg->realtime ? "SCHED_FIFO" : "waker", strerror(-ret));
		}
	}
	write_full(res, b, sizeof(*b));
}

/* ---- one row: load, settle, bench, stop ---- */

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

static void run_row(struct row_ctx *rc, struct row *row)
{
	const struct config *cfg = rc->cfg;
	struct child load = { .ctl = -1, .res = -1 }, bench = { .ctl = -1, .res = -1 };
	uint64_t t_go, t_stop;
	char ready;
	ssize_t r;
	int ret, st;

	row->status = ROW_OK;
	row->l.intensity = -1.0;
	ret = child_start(&load, load_body, rc);
	if (ret) {
		fail_row(row, "fork load: %s", strerror(-ret));
		return;
	}
	r = read_until(load.res, &ready, 1, now_ns() + READY_TIMEOUT_NS);
	if (r != 1)
		goto early;
	ret = child_start(&bench, bench_body, rc);
	if (ret) {
		fail_row(row, "fork bench: %s", strerror(-ret));
		goto out;
	}
	r = read_until(bench.res, &ready, 1, now_ns() + READY_TIMEOUT_NS);
	if (r != 1) {
		char why[REASON_LEN];

		st = child_finish(&bench, now_ns());
		describe_status(why, sizeof(why), "bench", st);
		fail_row(row, "%s", r == -ETIMEDOUT ? "bench process did not start" : why);
		goto out;
	}
	row->b = malloc(sizeof(*row->b));
	if (!row->b) {
		fail_row(row, "out of memory for the result");
		goto out;
	}
	if (!wait_quietly(load.res, now_ns() + cfg->settle_ns))
		goto early;

	t_go = now_ns();
	send_cmd(&load, 'B');
	send_cmd(&bench, 'G');
	r = read_until(bench.res, row->b, sizeof(*row->b),
		       t_go + (uint64_t)(cfg->seconds * 1e9) + grace_ns(cfg));
	if (r != (ssize_t)sizeof(*row->b)) {
		free(row->b);
		row->b = NULL;
		if (r == -EINTR)
			goto out;
		if (r == -ETIMEDOUT) {
			fail_row(row, "bench process overran its %g s by more than %.1f s; killed",
				 cfg->seconds, (double)grace_ns(cfg) / 1e9);
			child_finish(&bench, now_ns());
		} else {
			char why[REASON_LEN];

			st = child_finish(&bench, now_ns() + EXIT_WAIT_NS);
			describe_status(why, sizeof(why), "bench", st);
			fail_row(row, "%s", why);
		}
	} else if (row->b->status != ROW_OK) {
		fail_row(row, "%s", row->b->reason);
	}
	child_finish(&bench, now_ns() + EXIT_WAIT_NS);

	t_stop = now_ns();
	send_cmd(&load, 'S');
	r = read_until(load.res, &row->l, sizeof(row->l), t_stop + LOAD_RESULT_NS);
	st = child_finish(&load, t_stop + LOAD_RESULT_NS);
	row->load_stop_ns = now_ns() - t_stop;
	if (r == (ssize_t)sizeof(row->l)) {
		if (row->l.status != ROW_OK && row->status == ROW_OK)
			snprintf(row->reason, sizeof(row->reason), "%s", row->l.reason);
	} else if (r != -EINTR) {
		char why[REASON_LEN];

		row->l.intensity = -1.0;
		describe_status(why, sizeof(why), "load", st);
		fail_row(row, "%s", r == -ETIMEDOUT ? "load process did not answer the stop" : why);
	}
	return;
early:
	/* the load died or a signal came before the measurement */
	if (r != -EINTR && !got_signal) {
		char why[REASON_LEN];

		st = child_finish(&load, now_ns());
		describe_status(why, sizeof(why), "load", st);
		fail_row(row, "%s", why);
	}
out:
	child_finish(&bench, now_ns());
	child_finish(&load, now_ns());
	free(row->b);
	row->b = NULL;
	if (got_signal)
		row->status = ROW_SKIPPED;
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

/* With -r, say once if the kernel's RT bandwidth limit is below a task's need. */
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

/* --dry-run: what would run, and for how long. */
static void print_plan(const struct config *cfg)
{
	int rows = 0;

	if (cfg->compare_mode) {
		for (int i = 0; i < cfg->ncompare; i++)
			printf("would compare %s\n", cfg->compare[i]);
		return;
	}
	for (size_t b = 0; b < nr_workloads; b++) {
		bool first = true;

		if (!(cfg->benches & (1u << b)))
			continue;
		printf("%s:", workloads[b].name);
		for (size_t l = 0; l < nr_workloads; l++) {
			if (!(cfg->loads & (1u << l)) || l == b)
				continue;
			printf("%s %s", first ? "" : ",", workloads[l].name);
			first = false;
			rows++;
		}
		printf("\n");
	}
	rows *= cfg->repeat;
	printf("%d row%s of %g s (+1 s each for the load to settle): about %.0f minutes\n",
	       rows, rows == 1 ? "" : "s", cfg->seconds, rows * (cfg->seconds + 1.5) / 60.0);
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

static void set_loops_per_ms(struct config *cfg)
{
	char path[PATH_MAX];
	unsigned long lpm;
	double spread;
	uint64_t took;
	int ret;

	if (cfg->loops_given)
		return;
	snprintf(path, sizeof(path), "%s/interbench.loops_per_ms", cfg->work_dir);
	if (!cfg->recalibrate && calibration_load(path, &lpm) == 0) {
		cfg->loops_per_ms = lpm;
		return;
	}
	if (!cfg->quiet)
		fprintf(stderr, "Calibrating loops per ms...\n");
	ret = calibrate_measure(&lpm, &spread, &took, &got_signal);
	if (ret == -EINTR)
		return;
	if (ret > 0)
		warn("calibration did not settle within 1 %% (spread %.1f %%); using %lu",
		     spread * 100, lpm);
	if (!cfg->quiet)
		fprintf(stderr, "%lu loops per ms, measured in %.2f s\n", lpm, (double)took / 1e9);
	cfg->loops_per_ms = lpm;
	ret = calibration_save(path, lpm);
	if (ret)
		warn("cannot save %s: %s", path, strerror(-ret));
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
	orchestrator = getpid();
	install_signals();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	run_init(&run, &cfg);
	sysinfo_collect(&sys, cfg.work_dir);
	run.sys = &sys;
	if (cfg.pm_qos_us >= 0 && pm_qos_hold(cfg.pm_qos_us, err, sizeof(err)))
		die("%s", err);
	sys.pm_qos_us = cfg.pm_qos_us >= 0 ? cfg.pm_qos_us : SI_UNKNOWN;
	if (cfg.trace_above_us > 0 && trace_open(sys.tracefs, sizeof(sys.tracefs), &run.trace_fd,
						 &run.tracing_on_fd, err, sizeof(err)))
		die("%s", err);
	run.waker_rt = fifo_allowed(cfg.rt_priority + 1);
	if (cfg.realtime && !run.waker_rt)
		die("-r needs SCHED_FIFO up to priority %d: run as root, grant CAP_SYS_NICE, "
		    "or raise RLIMIT_RTPRIO (ulimit -r %d)", cfg.rt_priority + 1, cfg.rt_priority + 1);
	if (cfg.realtime)
		warn_rt_throttling(&cfg);
	if (!run.waker_rt)
		warn("cannot use SCHED_FIFO: wakers run as normal tasks, so results are less "
		     "reliable (run as root, or grant CAP_SYS_NICE or RLIMIT_RTPRIO)");
	if (cfg.uniprocessor)
		pin_to_one_cpu();
	set_loops_per_ms(&cfg);
	if (!got_signal && report_files(&run))
		return 1;	/* --json or --csv cannot be written: say so before running */
	lctx.cfg = &cfg;
	if (!got_signal && load_prepare_files(&cfg, cfg.loads, &lctx, &got_signal, err,
					       sizeof(err)))
		die("%s", err);
	if (!got_signal) {
		open_log(&run);
		report_header(&run);
		failed = run_matrix(&run, &lctx);
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
