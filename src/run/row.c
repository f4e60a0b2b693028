// SPDX-License-Identifier: GPL-2.0-or-later
/* run/row.c - one row: its load and bench processes started, measured, stopped; the signals
 * and stops that end or redo it; its result. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/frames.h"
#include "core/missx.h"
#include "lib/util.h"
#include "loads/loads.h"
#include "output/result.h"
#include "run/child.h"
#include "run/plan.h"
#include "run/run.h"
#include "sys/sys.h"

#define READY_TIMEOUT_NS (10 * NSEC_PER_SEC)	/* a child's set-up */
#define LOAD_RESULT_NS (1500 * NSEC_PER_MSEC)	/* the load's answer to stop */
#define EXIT_WAIT_NS NSEC_PER_SEC		/* a child's exit after its answer */

volatile sig_atomic_t got_signal;		/* SIGINT, SIGTERM or SIGHUP */
static volatile sig_atomic_t got_tstp;		/* SIGTSTP (Ctrl-Z): pause, then redo the row */
static volatile sig_atomic_t got_cont;		/* SIGCONT: we were stopped, by whatever */
static volatile sig_atomic_t got_redo;		/* either, or the clocks saw a stop: the row */
						/* in progress runs again */
static int sig_pipe[2] = { -1, -1 };		/* wakes poll() when one comes */
int lock_fd = -1;			/* the run lock, held until we exit */

static void on_signal(int sig)
{
	int saved = errno;

	if (sig == SIGTSTP)
		got_tstp = got_redo = 1;
	else if (sig == SIGCONT)
		got_cont = got_redo = 1;
	else if (!got_signal)
		got_signal = sig;
	if (write(sig_pipe[1], "", 1) < 0)
		errno = saved;
	errno = saved;
}

/* A wait that ended early: a stop signal, or a stop that discards the row. */
static bool interrupted(void)
{
	return got_signal || got_redo;
}

/* Ctrl-Z is caught while rows run, so that the children stop too; else its default. */
void catch_tstp(bool on)
{
	struct sigaction sa = { .sa_handler = on ? on_signal : SIG_DFL };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
	if (!on && got_tstp) {
		got_tstp = 0;
		raise(SIGSTOP);		/* it came after the last row */
	}
}


/* After each wait: did the clocks see a stop that no signal told of (stops.c)? */
static void row_waited(uint64_t asked_ns, uint64_t took_ns)
{
	if (!got_redo && stops_waited(asked_ns, took_ns))
		got_redo = 1;
}

/*
 * The orchestrator's waits end when a stop signal comes or the row must run
 * again, and keep the progress line fresh.
 */
static struct child_watch watch = { .wake_fd = -1, .stop = &got_signal, .pause = &got_redo,
				    .tick = progress_tick, .waited = row_waited };

void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		die("pipe: %s", strerror(errno));
	watch.wake_fd = sig_pipe[0];
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_flags = SA_RESTART;	/* it may come at any time: only the waits need it */
	sigaction(SIGCONT, &sa, NULL);
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

struct row_ctx {		/* what the row's children start from */
	const struct row_env *env;
	const struct config *cfg;
	int bench, load;
	int ncpus;			/* --ncpus: the CPUs its children may use; 0: all */
};

/* --ncpus: the child, before any thread or process of its own, to the row's CPUs. */
static int confine(const struct row_ctx *rc, int res)
{
	char err[REASON_LEN];

	if (!rc->ncpus || !cpus_confine(rc->ncpus, err, sizeof(err)))
		return 0;
	child_fail(res, "%s", err);
	return -1;
}

static int load_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	char name[16];

	drop_sig_pipe();
	snprintf(name, sizeof(name), "ibload-%s", workloads[rc->load].name);
	prctl(PR_SET_NAME, name);
	if (confine(rc, res))
		return 1;
	if (setpriority(PRIO_PROCESS, 0, rc->cfg->load_nice) < 0) {
		child_fail(res, "load setpriority %d: %s", rc->cfg->load_nice, strerror(errno));
		return 1;
	}
	if (sched_load_policy(rc->cfg->load_policy)) {
		child_fail(res, "--load-policy %s: %s", load_policy_names[rc->cfg->load_policy],
			   strerror(errno));
		return 1;
	}
	sim_params_init(&rc->env->lctx->par.sim, &workloads[rc->load], rc->cfg);
	return load_process(&workloads[rc->load], rc->env->lctx, ctl, res) ? 1 : 0;
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
	if (rc->env->waker_rt)
		p->waker_prio = cfg->rt_priority + 1;
	p->split = !cfg->no_split;
	if (cfg->trace_above_us > 0) {
		p->trace_above_ns = (uint64_t)cfg->trace_above_us * NSEC_PER_USEC;
		p->trace_fd = rc->env->trace_fd;
		p->tracing_on_fd = rc->env->tracing_on_fd;
	}
	latency_init(&b->wake);
	latency_init(&b->timer);
}

/*
 * The bench's period ring, allocated and touched before the row so that
 * recording into it never faults in the measured path.
 */
static int ring_setup(const struct row_env *env, struct period_ring *ring)
{
	*ring = (struct period_ring){ 0 };
	if (!env->period_cap)
		return 0;
	ring->rec = calloc(env->period_cap, sizeof(*ring->rec));
	if (!ring->rec)
		return -ENOMEM;
	memset(ring->rec, 0, env->period_cap * sizeof(*ring->rec));
	ring->cap = env->period_cap;
	return 0;
}

/* After the result: the ring's header, then its records, oldest first. */
static void send_periods(int res, struct bench_result *b, const struct period_ring *ring)
{
	struct period_rec *out = NULL;

	b->plog.nrec = period_ring_kept(ring);
	b->plog.lost = period_ring_lost(ring);
	if (b->plog.nrec && ring->pushed > ring->cap) {
		out = malloc(b->plog.nrec * sizeof(*out));
		if (!out)
			b->plog.nrec = 0;
	}
	if (write_full(res, &b->plog, sizeof(b->plog)) != sizeof(b->plog) || !b->plog.nrec) {
		free(out);
		return;
	}
	if (out)
		period_ring_copy(ring, out);
	write_full(res, out ? out : ring->rec, b->plog.nrec * sizeof(*out));
	free(out);
}

static int bench_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	const struct config *cfg = rc->cfg;
	struct bench_result *b = calloc(1, sizeof(*b));
	struct period_ring ring;
	struct sim_params p;
	int ret;

	drop_sig_pipe();
	load_close_files(rc->env->lctx);
	if (confine(rc, res)) {
		free(b);
		return 1;
	}
	if (!b || ring_setup(rc->env, &ring)) {
		child_fail(res, "out of memory for the bench result");
		return 1;
	}
	bench_setup(rc, &p, b);
	p.ring = ring.cap ? &ring : NULL;
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
	send_periods(res, b, &ring);
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
 * The bench's periods, sent after its result (none when it recorded none);
 * a bench that ends without them leaves the row without a timeline, not
 * failed: its numbers came whole.
 */
static void receive_periods(struct row_ctx *rc, struct row *row, struct child *bench)
{
	uint64_t deadline = now_ns() + EXIT_WAIT_NS;
	size_t bytes;

	row->plog = (struct period_log){ 0 };
	if (!rc->env->period_cap ||
	    child_read(bench->res, &row->plog, sizeof(row->plog), deadline, &watch) !=
	    (ssize_t)sizeof(row->plog))
		return;
	if (!row->plog.nrec || row->plog.nrec > rc->env->period_cap)
		goto none;
	bytes = row->plog.nrec * sizeof(*row->periods);
	row->periods = malloc(bytes);
	if (row->periods && child_read(bench->res, row->periods, bytes,
				       deadline + (uint64_t)bytes * 10, &watch) == (ssize_t)bytes)
		return;
	free(row->periods);
	row->periods = NULL;
none:
	row->plog.lost += row->plog.nrec;
	row->plog.nrec = 0;
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
	stops_test_jump();
	r = child_read(bench->res, row->b, sizeof(*row->b),
		       t_go + (uint64_t)(cfg->seconds * 1e9) + grace_ns(cfg), &watch);
	if (r == (ssize_t)sizeof(*row->b)) {
		if (row->b->status != ROW_OK)
			fail_row(row, "%s", row->b->reason);
		row->t_go = t_go;
		receive_periods(rc, row, bench);
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
	got_tstp = got_cont = got_redo = 0;	/* the SIGCONT that let us go is this stop's */
	while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
		;	/* the handler's wake-ups are stale now */
	progress_pause(now_ns() - t0);
}

/* Why a try at a row was discarded, to be run again. */
enum redo { REDO_NONE, REDO_TSTP, REDO_CONT, REDO_CLOCK };

/*
 * One try at a row; judged: whether the clocks may discard it. REDO_NONE
 * when it stands (or a stop signal ended it), else why it must run again:
 * Ctrl-Z, another stop (SIGCONT says so), or a stop only the clocks saw.
 */
static enum redo run_row_once(struct row_ctx *rc, struct row *row, bool judged)
{
	struct child load = CHILD_NONE, bench = CHILD_NONE;
	enum redo why = REDO_NONE;

	if (!got_tstp)
		got_cont = got_redo = 0;	/* a stop before the row is no part of it */
	stops_begin(judged);
	row->status = ROW_OK;
	row->l.intensity = -1.0;
	if (row_start(rc, row, &load, &bench) && row_measure(rc, row, &load, &bench))
		row_stop(row, &load);
	if (!got_redo && stops_check())
		got_redo = 1;
	if (got_redo && !got_signal)
		why = got_tstp ? REDO_TSTP : got_cont ? REDO_CONT : REDO_CLOCK;
	if (why == REDO_TSTP)
		pause_row(&load, &bench);
	child_finish(&bench, now_ns());
	child_finish(&load, now_ns());
	ran_trace_collect(row->b ? &row->b->split : NULL, row->b ? row->b->wake.r.max : 0,
			  &row->plog, row->periods, &row->ran, &row->trace);
	if (got_signal || why != REDO_NONE) {
		row_free(row);
		row->status = ROW_SKIPPED;
	}
	return why;
}

/* What a row holds past its result: the bench's answer, its periods, its trace. */
void row_free(struct row *row)
{
	free(row->b);
	row->b = NULL;
	free(row->periods);
	row->periods = NULL;
	row->plog.nrec = 0;
	sched_trace_free(&row->trace);
}

/* The line that says a row runs again, and why. */
static void redo_note(enum redo why, const struct row_ctx *rc)
{
	char stop[128];

	if (why == REDO_TSTP)
		snprintf(stop, sizeof(stop), "continued after SIGTSTP");
	else if (why == REDO_CONT)
		snprintf(stop, sizeof(stop), "continued after a stop (SIGCONT)");
	else
		stops_describe(stop, sizeof(stop));
	fprintf(stderr, "%s: %s: the %s row of %s runs again from its start\n", progname, stop,
		workloads[rc->load].name, workloads[rc->bench].name);
}

/*
 * A cell's row, run again from its start as often as a stop discards it:
 * each Ctrl-Z or SIGCONT (someone stopped us), and up to STOP_REDO_MAX
 * stops the clocks saw, after which the clocks no longer judge it (a
 * machine that keeps us from running is measured, not waited out).
 */
void run_row(const struct row_env *env, const struct cell *c, struct row *row)
{
	struct row_ctx ctx = { .env = env, .cfg = env->cfg, .bench = c->bench, .load = c->load,
			       .ncpus = c->ncpus };
	struct row_ctx *rc = &ctx;
	int clock_redos = 0;
	enum redo why;

	*row = (struct row){ .bench = c->bench, .load = c->load, .pass = c->pass,
			     .variant = c->variant, .ncpus = c->ncpus };
	while ((why = run_row_once(rc, row, clock_redos < STOP_REDO_MAX)) != REDO_NONE) {
		clock_redos += why == REDO_CLOCK;
		*row = (struct row){ .bench = row->bench, .load = row->load, .pass = row->pass,
				     .variant = row->variant, .ncpus = row->ncpus };
		progress_restart_row();
		redo_note(why, rc);
	}
}


/* ---- the row's result ---- */

/* A latency's numbers into v[base..base+8), in struct summary's order; none without samples. */
static void set_latency(struct result *r, int base, const struct latency *l)
{
	struct summary s;

	if (!l || !l->r.n)
		return;
	latency_summary(l, &s);
	r->v[base + 0] = s.min;
	r->v[base + 1] = s.mean;
	r->v[base + 2] = s.sd;
	r->v[base + 3] = s.max;
	r->v[base + 4] = s.p50;
	r->v[base + 5] = s.p90;
	r->v[base + 6] = s.p99;
	r->v[base + 7] = s.p999;
}

static double known_u64(uint64_t v)	/* 0 is "did not happen" */
{
	return v ? (double)v : NAN;
}

/* Where the latency went: null where not measured (--no-split, Gaming, no schedstat). */
static void result_from_split(struct result *r, const struct split_result *s,
			      const struct ran_instead *ran)
{
	r->ran = *ran;
	if (s->state == SPLIT_OFF)
		return;
	r->v[RF_CROSS_CPU] = (double)s->cross_cpu;
	r->v[RF_MIGRATIONS] = (double)s->migrations;
	if (s->state != SPLIT_ON)
		return;
	set_latency(r, RF_QMIN, &s->queue);
	set_latency(r, RF_PMIN, &s->path);
	r->v[RF_QUEUED] = (double)s->queued;
}

/*
 * --explain: the row's missed periods explained from its records and the
 * task's events; their shares as numbers of the result, for every output.
 * Without memory for it, the row says nothing of its misses.
 */
static void result_misses(struct result *r, const struct row *row)
{
	static const int field[MS_COUNT] = {
		[MS_QUEUED] = RF_MISS_QUEUED, [MS_RUNNING] = RF_MISS_RUNNING,
		[MS_PREEMPTED] = RF_MISS_PREEMPTED, [MS_BLOCKED] = RF_MISS_BLOCKED,
	};
	struct miss_report *m = malloc(sizeof(*m));

	if (!m)
		return;
	missx_explain(&row->plog, row->periods, row->plog.nrec, &row->trace, row->t_go, m);
	r->misses = m;
	for (int i = 0; i < MS_COUNT; i++)
		r->v[field[i]] = m->share[i];
}

/* Game's and AudioGraph's figures: the table's numbers, and the summary kept whole. */
static void result_chain(struct result *r, const struct chain_summary *c)
{
	static const int game[] = { RF_FRAME_P50, RF_FRAME_P99, RF_FRAME_MAX };
	static const int audio[] = { RF_CYCLE_P50, RF_CYCLE_P99, RF_CYCLE_MAX };
	static const int stat[] = { CS_P50, CS_P99, CS_MAX };
	const int *f = c->kind == CHAIN_GAME ? game : audio;

	if (c->kind == CHAIN_NONE)
		return;
	for (int i = 0; i < 3; i++)
		r->v[f[i]] = c->time[stat[i]];
	if (c->kind == CHAIN_GAME) {
		r->v[RF_FPS] = c->fps;
		r->v[RF_FPS_LOW] = c->fps_low;
		r->v[RF_STUTTERS] = (double)c->stutters;
	} else {
		r->v[RF_DSP_MEAN] = c->dsp_mean;
		r->v[RF_DSP_MAX] = c->dsp_max;
		r->v[RF_XRUNS] = (double)c->xruns;
		r->v[RF_XRUNS_MIN] = c->xruns_per_min;
	}
	r->chain = malloc(sizeof(*r->chain));
	if (r->chain)
		*r->chain = *c;
}

/*
 * The row as a result, built once and appended to the record: the numbers
 * of what the children sent, the wake-up histogram kept (the rest of the
 * bench's result is not). NULL when out of memory.
 */
struct result *row_result(struct run_record *rec, const struct row *row)
{
	const struct workload *bwl = &workloads[row->bench], *lwl = &workloads[row->load];
	const struct bench_result *b = row->b;
	bool periods = b && !(bwl->flags & WL_NODEADLINE);
	struct result *r = run_new_result(rec);

	if (!r)
		return NULL;
	snprintf(r->bench, sizeof(r->bench), "%s", bwl->name);
	snprintf(r->load, sizeof(r->load), "%s", lwl->name);
	snprintf(r->reason, sizeof(r->reason), "%s", row->reason);
	snprintf(r->unit, sizeof(r->unit), "%s", lwl->unit ? lwl->unit : "");
	r->pass = row->pass;
	r->variant_index = row->variant;
	r->ncpus = row->ncpus;
	if (rec->cfg->nvariants)
		snprintf(r->variant, sizeof(r->variant), "%s",
			 rec->cfg->variants[row->variant].label);
	snprintf(r->knob_value, sizeof(r->knob_value), "%s", row->knob_value);
	r->realtime = rec->cfg->realtime;
	r->status = row->status;
	if (lwl->intensity != INT_NONE && row->l.intensity >= 0)
		r->v[RF_INTENSITY] = row->l.intensity;
	if ((lwl->flags & WL_FILES) && rec->sys)
		snprintf(r->medium, sizeof(r->medium), "%s",
			 rec->sys->work_dir_in_memory == 1 ? RES_MEDIUM_MEMORY :
			 row->l.cache_kept ? RES_MEDIUM_CACHE : RES_MEDIUM_DISK);
	r->v[RF_LOAD_STOP] = known_u64(row->load_stop_ns);
	if (!b)
		return r;
	r->wake = latency_compact(&b->wake);	/* a few KiB at most, not the dense 32 */
	if (!r->wake) {
		rec->nres--;
		return NULL;
	}
	if ((row->plog.nrec || row->plog.lost) &&
	    result_set_strip(r, &row->plog, row->periods, row->plog.nrec, row->plog.start0,
			     rec->cfg->seconds)) {
		rec->nres--;
		return NULL;
	}
	r->v[RF_SAMPLES] = (double)b->wake.r.n;
	set_latency(r, RF_MIN, &b->wake);
	set_latency(r, RF_TMIN, &b->timer);
	r->v[RF_CPU] = b->pct_cpu;
	if (periods && b->pct_deadlines >= 0)
		r->v[RF_DL] = b->pct_deadlines;
	if (periods) {
		r->v[RF_MET] = (double)b->acct.met;
		r->v[RF_MISSED] = (double)b->acct.missed;
		r->v[RF_DROPPED] = (double)b->acct.dropped;
	}
	r->v[RF_TASK_CPU] = (double)b->task_cpu_ns;
	r->v[RF_WALL] = (double)b->wall_ns;
	r->v[RF_TRACED] = known_u64(b->traced_ns);
	if (b->work_ns)
		r->v[RF_WORK_RATIO] = (double)b->task_cpu_ns / (double)b->work_ns;
	if (b->loops && b->burn_cpu_ns)
		r->v[RF_LOOP_SPEED] = (double)b->loops * 1e3 / (double)b->burn_cpu_ns;
	result_from_split(r, &b->split, &row->ran);
	result_chain(r, &b->chain);
	if (periods && rec->cfg->explain && row->periods)
		result_misses(r, row);
	return r;
}
