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
#include "core/miss_explain.h"
#include "lib/util.h"
#include "loads/loads.h"
#include "model/workloads.h"
#include "model/record.h"
#include "run/child.h"
#include "model/plan.h"
#include "run/row.h"
#include "run/stops.h"
#include "run/progress.h"
#include "run/params.h"
#include "sys/trace_instance.h"

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

/* After the head's records: a chain's stages, each its header, then its records. */
static void send_stages(int res, const struct stage_set *st)
{
	for (uint32_t i = 0; i < st->n; i++) {
		const struct stage_periods *sp = &st->s[i];

		if (write_full(res, &sp->h, sizeof(sp->h)) != sizeof(sp->h) ||
		    (sp->h.nrec && write_full(res, sp->rec, sp->h.nrec * sizeof(*sp->rec)) !=
				   (ssize_t)(sp->h.nrec * sizeof(*sp->rec))))
			return;
	}
}

/* After the result: the ring's header, then its records, oldest first, then the stages'. */
static void send_periods(int res, struct bench_result *b, const struct period_ring *ring,
			 const struct stage_set *st)
{
	struct period_rec *out = NULL;

	b->plog.nrec = period_ring_kept(ring);
	b->plog.lost = period_ring_lost(ring);
	b->plog.nstages = b->plog.nrec ? st->n : 0;
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
	if (write_full(res, out ? out : ring->rec, b->plog.nrec * sizeof(*out)) ==
	    (ssize_t)(b->plog.nrec * sizeof(*out)) && b->plog.nstages)
		send_stages(res, st);
	free(out);
}

/* A chain's histograms: its summary is made of them, and --instances' copies send them. */
static bool bench_chained(const struct row_ctx *rc)
{
	return workloads[rc->bench].model == SIM_GAME || workloads[rc->bench].model == SIM_AGRAPH;
}

/* Whether the orchestrator pools this bench's chain: then it sends its histograms on. */
static bool chain_pooled(const struct row_ctx *rc, const struct bench_result *b)
{
	return rc->cfg->instances > 1 && b->chain.kind != CHAIN_NONE;
}

static int bench_body(void *arg, int ctl, int res)
{
	struct row_ctx *rc = arg;
	const struct config *cfg = rc->cfg;
	struct bench_result *b = calloc(1, sizeof(*b));
	struct chain_hists *hists = bench_chained(rc) ? calloc(1, sizeof(*hists)) : NULL;
	struct period_ring ring;
	struct stage_set stages = { 0 };
	struct sim_params p;
	int ret;

	drop_sig_pipe();
	load_close_files(rc->env->lctx);
	if (confine(rc, res)) {
		free(b);
		return 1;
	}
	if (!b || (bench_chained(rc) && !hists) || ring_setup(rc->env, &ring)) {
		child_fail(res, "out of memory for the bench result");
		return 1;
	}
	bench_setup(rc, &p, b);
	p.hists = hists;
	p.ring = ring.cap ? &ring : NULL;
	p.stages = ring.cap ? &stages : NULL;
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
	if (write_full(res, b, sizeof(*b)) == sizeof(*b) && chain_pooled(rc, b))
		write_full(res, hists, sizeof(*hists));
	send_periods(res, b, &ring, &stages);
	stage_set_free(&stages);
	return 0;
}

/* ---- one row: start the load and the bench, measure, stop the load ---- */

static uint64_t grace_ns(const struct config *cfg)
{
	return 2 * NSEC_PER_SEC + (uint64_t)(cfg->seconds * 1e8);	/* 2 s + 10 % */
}

/*
 * The row in progress: one load and a bench process per member of its
 * group (one without a group), all measured at once. A failure of what
 * they share (the load, a signal) is every member's.
 */
struct row_try {
	struct row *rows;		/* [n]: one per member, in the group's order, then */
	int n;				/* with --instances the next copy of each */
	int member[GROUP_MAX * INSTANCES_MAX];	/* their registry indices */
	struct child load;
	struct child bench[GROUP_MAX * INSTANCES_MAX];
	pid_t traced[GROUP_MAX];		/* --explain: each member's task, as armed */
};

static void fail_rows(struct row *rows, int n, const char *fmt, ...) PRINTF(3, 4);
static void fail_rows(struct row *rows, int n, const char *fmt, ...)
{
	char why[REASON_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (int k = 0; k < n; k++) {
		if (rows[k].status == ROW_FAILED)
			continue;	/* the first reason is the cause */
		rows[k].status = ROW_FAILED;
		snprintf(rows[k].reason, sizeof(rows[k].reason), "%s", why);
	}
}

/* The rows fail with how the child ended, once gone (killed if still there at the deadline). */
static void fail_ended(struct row *rows, int n, struct child *c, const char *who,
		       uint64_t deadline)
{
	char why[REASON_LEN];

	child_describe(why, sizeof(why), who, child_finish(c, deadline));
	fail_rows(rows, n, "%s", why);
}

/* A child that did not get ready: the rows fail with its own words, or with how it ended. */
static void fail_unready(struct row *rows, int n, struct child *c, const char *who, int ret,
			 const char *said)
{
	if (ret == -EREMOTEIO)
		fail_rows(rows, n, "%s", said);
	else
		fail_ended(rows, n, c, who, now_ns());
}

/* Fork the load, then each member's bench, each ready in time; false when the row cannot go on. */
static bool row_start(struct row_ctx *rc, struct row_try *t)
{
	char said[REASON_LEN];
	int ret = child_start(&t->load, load_body, rc);

	if (ret) {
		fail_rows(t->rows, t->n, "fork load: %s", strerror(-ret));
		return false;
	}
	ret = child_wait_ready(&t->load, now_ns() + READY_TIMEOUT_NS, &watch, said, sizeof(said));
	if (ret) {
		if (ret != -EINTR && !interrupted())
			fail_unready(t->rows, t->n, &t->load, "load", ret, said);
		return false;
	}
	for (int k = 0; k < t->n && !ret; k++) {
		rc->bench = t->member[k];	/* what this member's child is forked with */
		ret = child_start(&t->bench[k], bench_body, rc);
		if (ret) {
			fail_rows(t->rows, t->n, "fork bench: %s", strerror(-ret));
			break;
		}
		ret = child_wait_ready(&t->bench[k], now_ns() + READY_TIMEOUT_NS, &watch, said,
				       sizeof(said));
		if (ret == -ETIMEDOUT)
			fail_rows(t->rows, t->n, "bench process did not start");
		else if (ret)
			fail_unready(t->rows, t->n, &t->bench[k], "bench", ret, said);
	}
	rc->bench = t->member[0];
	return !ret;
}

/*
 * A chain's stages, after the head's records: each header, then its
 * records; the stages up to the first that does not come whole are kept.
 */
static void receive_stages(struct row_ctx *rc, struct row *row, struct child *bench,
			   uint64_t deadline)
{
	struct stage_set *st = &row->stages;

	for (uint32_t i = 0; i < row->plog.nstages && i < STAGES_MAX; i++) {
		struct stage_periods *sp = &st->s[i];
		size_t bytes;

		if (child_read(bench->res, &sp->h, sizeof(sp->h), deadline, &watch) !=
		    (ssize_t)sizeof(sp->h) || sp->h.nrec > rc->env->period_cap)
			return;
		sp->h.comm[sizeof(sp->h.comm) - 1] = '\0';
		bytes = sp->h.nrec * sizeof(*sp->rec);
		sp->rec = bytes ? malloc(bytes) : NULL;
		if (bytes && (!sp->rec || child_read(bench->res, sp->rec, bytes,
						     deadline + (uint64_t)bytes * 10, &watch) !=
					  (ssize_t)bytes)) {
			free(sp->rec);
			sp->rec = NULL;
			return;
		}
		st->n = i + 1;
	}
}

/*
 * The bench's periods, sent after its result (none when it recorded none),
 * then its chain's stages'; a bench that ends without them leaves the row
 * without a timeline, not failed: its numbers came whole.
 */
static void receive_periods(struct row_ctx *rc, struct row *row, struct child *bench)
{
	uint64_t deadline = now_ns() + EXIT_WAIT_NS;
	size_t bytes;

	row->plog = (struct period_log){ 0 };
	row->stages = (struct stage_set){ 0 };
	if (!rc->env->period_cap ||
	    child_read(bench->res, &row->plog, sizeof(row->plog), deadline, &watch) !=
	    (ssize_t)sizeof(row->plog))
		return;
	if (!row->plog.nrec || row->plog.nrec > rc->env->period_cap)
		goto none;
	bytes = row->plog.nrec * sizeof(*row->periods);
	row->periods = malloc(bytes);
	if (row->periods && child_read(bench->res, row->periods, bytes,
				       deadline + (uint64_t)bytes * 10, &watch) == (ssize_t)bytes) {
		receive_stages(rc, row, bench, deadline + (uint64_t)bytes * 10);
		return;
	}
	free(row->periods);
	row->periods = NULL;
none:
	row->plog.lost += row->plog.nrec;
	row->plog.nrec = 0;
}

/*
 * A chain's histograms, sent after its result when its copies are pooled;
 * a copy without them fails its row, whose figures could not be pooled.
 */
static void receive_hists(struct row *row, struct child *bench)
{
	row->hists = malloc(sizeof(*row->hists));
	if (row->hists && child_read(bench->res, row->hists, sizeof(*row->hists),
				     now_ns() + EXIT_WAIT_NS, &watch) == (ssize_t)sizeof(*row->hists))
		return;
	free(row->hists);
	row->hists = NULL;
	fail_rows(row, 1, "its chain's histograms did not come");
}

/*
 * One member's result, by the row's deadline; false when a stop signal
 * ended the wait (the row is over).
 */
static bool member_result(struct row_ctx *rc, struct row *row, struct child *bench,
			  uint64_t t_go)
{
	const struct config *cfg = rc->cfg;
	ssize_t r;

	row->b = malloc(sizeof(*row->b));
	if (!row->b) {
		fail_rows(row, 1, "out of memory for the result");
		return true;
	}
	r = child_read(bench->res, row->b, sizeof(*row->b),
		       t_go + (uint64_t)(cfg->seconds * 1e9) + grace_ns(cfg), &watch);
	row->t_go = t_go;
	if (r == (ssize_t)sizeof(*row->b)) {
		if (row->b->status != ROW_OK)
			fail_rows(row, 1, "%s", row->b->reason);
		if (chain_pooled(rc, row->b))
			receive_hists(row, bench);
		receive_periods(rc, row, bench);
		child_finish(bench, now_ns() + EXIT_WAIT_NS);
		return true;
	}
	free(row->b);
	row->b = NULL;
	if (r == -EINTR)
		return false;
	if (r != -ETIMEDOUT) {
		fail_ended(row, 1, bench, "bench", now_ns() + EXIT_WAIT_NS);
		return true;
	}
	fail_rows(row, 1, "bench process overran its %g s by more than %.1f s; killed",
		  cfg->seconds, (double)grace_ns(cfg) / 1e9);
	child_finish(bench, now_ns());
	return true;
}

/* The members --explain traces: each member of the group, of copy #1 with --instances. */
static int trace_members(const struct row_ctx *rc, const struct row_try *t)
{
	return rc->cfg->instances > 1 ? t->n / rc->cfg->instances : t->n;
}

/* --explain, before the GO: the trace armed for each member's task, and a chain's stages. */
static void trace_arm(const struct row_ctx *rc, struct row_try *t)
{
	const char *threads[GROUP_MAX];
	int n = trace_members(rc, t);

	for (int k = 0; k < n && k < GROUP_MAX; k++) {
		t->traced[k] = t->bench[k].pid;
		threads[k] = workloads[t->member[k]].threads;
	}
	ran_trace_arm(t->traced, threads, n < GROUP_MAX ? n : GROUP_MAX);
}

/*
 * Let the load settle alone, then open its window and start every bench
 * at once, and take their results. False when the load need not be asked
 * for its result (it died, or a stop signal came).
 */
static bool row_measure(struct row_ctx *rc, struct row_try *t)
{
	uint64_t t_go;

	if (!child_sleep(t->load.res, now_ns() + rc->cfg->settle_ns, &watch)) {
		if (!interrupted())
			fail_ended(t->rows, t->n, &t->load, "load", now_ns());	/* it died */
		return false;
	}
	trace_arm(rc, t);
	t_go = now_ns();
	child_tell(&t->load, MSG_BEGIN);
	for (int k = 0; k < t->n; k++)
		child_tell(&t->bench[k], MSG_GO);
	stops_test_jump();
	for (int k = 0; k < t->n; k++)
		if (!member_result(rc, &t->rows[k], &t->bench[k], t_go))
			return false;
	return true;
}

/* Stop the load and take its result: its intensity, and why it ended early; every member's. */
static void row_stop(struct row_try *t)
{
	struct row *row = &t->rows[0];
	uint64_t t_stop = now_ns();
	char why[REASON_LEN];
	ssize_t r;
	int st;

	child_tell(&t->load, MSG_STOP);
	r = child_read(t->load.res, &row->l, sizeof(row->l), t_stop + LOAD_RESULT_NS, &watch);
	st = child_finish(&t->load, t_stop + LOAD_RESULT_NS);
	row->load_stop_ns = now_ns() - t_stop;
	if (r != (ssize_t)sizeof(row->l) && r != -EINTR) {
		row->l.intensity = -1.0;
		child_describe(why, sizeof(why), "load", st);
		fail_rows(t->rows, t->n, "%s",
			  r == -ETIMEDOUT ? "load process did not answer the stop" : why);
	}
	for (int k = 0; k < t->n; k++) {
		t->rows[k].l = row->l;
		t->rows[k].load_stop_ns = row->load_stop_ns;
		if (r == (ssize_t)sizeof(row->l) && row->l.status != ROW_OK &&
		    t->rows[k].status == ROW_OK)
			snprintf(t->rows[k].reason, sizeof(t->rows[k].reason), "%s",
				 row->l.reason);
	}
}

/*
 * Ctrl-Z (SIGTSTP) during a row: stop the children too (they are in process
 * groups of their own, out of the terminal's reach), then stop ourselves as
 * SIGTSTP would have; SIGCONT lets us return. The pause is no part of the
 * run's time.
 */
static void pause_row(struct row_try *t)
{
	uint64_t t0 = now_ns();
	char buf[64];

	if (t->load.pid > 0)
		kill(-t->load.pid, SIGSTOP);
	for (int k = 0; k < t->n; k++)
		if (t->bench[k].pid > 0)
			kill(-t->bench[k].pid, SIGSTOP);
	progress_clear();
	raise(SIGSTOP);
	got_tstp = got_cont = got_redo = 0;	/* the SIGCONT that let us go is this stop's */
	while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
		;	/* the handler's wake-ups are stale now */
	progress_pause(now_ns() - t0);
}

/* Why a try at a row was discarded, to be run again. */
enum redo { REDO_NONE, REDO_TSTP, REDO_CONT, REDO_CLOCK };

_Static_assert(1 + STAGES_MAX <= SE_TIDS_MAX, "a chain's head and stages fit a trace's threads");

/* A hop's longest wake-up, ns: a longer wait in the trace is none of its wake-ups. */
static uint64_t hop_max(const struct bench_result *b, int32_t hop)
{
	double v = hop >= 0 && hop < b->chain.nhops ? b->chain.hop[hop].lat[CS_MAX] : NAN;

	return isfinite(v) && v > 0 ? (uint64_t)v : 0;
}

/*
 * --explain, after the row: its trace read for each member's task (of copy
 * #1 with --instances) and a chain member's stages (by the ids they
 * reported): who ran instead where a wake-up of theirs waited (when the
 * bench split its wake-ups), and their events of the periods kept. A member
 * past SE_TIDS_MAX threads is not read: its own lines say so.
 */
static void trace_collect(const struct row_ctx *rc, struct row_try *t)
{
	struct ran_thread th[SE_TIDS_MAX];
	int n = 0;

	for (int k = 0; k < trace_members(rc, t) && k < GROUP_MAX; k++) {
		struct row *row = &t->rows[k];
		const struct bench_result *b = row->b;
		bool tally = b && b->split.state != SPLIT_OFF;
		uint64_t t_first = b ? b->split.t_first : 0;

		if (n + 1 + (int)(b ? row->stages.n : 0) > SE_TIDS_MAX) {
			for (uint32_t i = 0; tally && i < row->stages.n && i < STAGES_MAX; i++)
				row->stage_ran[i] = (struct ran_instead){ .state = RAN_FAILED };
			if (tally)
				row->ran.state = RAN_FAILED;
			continue;
		}
		th[n++] = (struct ran_thread){ .tid = t->traced[k], .t_first = t_first,
					       .rec = row->periods, .nrec = row->plog.nrec,
					       .trace = &row->trace,
					       .ran = tally ? &row->ran : NULL,
					       .max_wait = b ? b->wake.r.max : 0,
					       .chain = row->stages.n > 0 };
		for (uint32_t i = 0; b && i < row->stages.n && i < STAGES_MAX; i++) {
			const struct stage_periods *sp = &row->stages.s[i];

			row->stage_ran[i] = (struct ran_instead){ 0 };
			th[n++] = (struct ran_thread){ .tid = sp->h.tid > 0 ? sp->h.tid : -1,
						       .t_first = t_first, .rec = sp->rec,
						       .nrec = sp->h.nrec, .trace = &row->stage_trace[i],
						       .ran = tally ? &row->stage_ran[i] : NULL,
						       .max_wait = hop_max(b, sp->h.hop),
						       .chain = true };
		}
	}
	ran_trace_collect(th, n);
}

/*
 * One try at a row; judged: whether the clocks may discard it. REDO_NONE
 * when it stands (or a stop signal ended it), else why it must run again:
 * Ctrl-Z, another stop (SIGCONT says so), or a stop only the clocks saw.
 */
static enum redo run_row_once(struct row_ctx *rc, struct row_try *t, bool judged)
{
	enum redo why = REDO_NONE;

	t->load = CHILD_NONE;
	memset(t->traced, 0, sizeof(t->traced));
	for (int k = 0; k < t->n; k++) {
		t->bench[k] = CHILD_NONE;
		t->rows[k].status = ROW_OK;
		t->rows[k].l.intensity = -1.0;
	}
	if (!got_tstp)
		got_cont = got_redo = 0;	/* a stop before the row is no part of it */
	stops_begin(judged);
	if (row_start(rc, t) && row_measure(rc, t))
		row_stop(t);
	if (!got_redo && stops_check())
		got_redo = 1;
	if (got_redo && !got_signal)
		why = got_tstp ? REDO_TSTP : got_cont ? REDO_CONT : REDO_CLOCK;
	if (why == REDO_TSTP)
		pause_row(t);
	for (int k = 0; k < t->n; k++)
		child_finish(&t->bench[k], now_ns());
	child_finish(&t->load, now_ns());
	trace_collect(rc, t);
	for (int k = 0; k < t->n && (got_signal || why != REDO_NONE); k++) {
		row_free(&t->rows[k]);
		t->rows[k].status = ROW_SKIPPED;
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
	stage_set_free(&row->stages);
	sched_trace_free(&row->trace);
	for (int i = 0; i < STAGES_MAX; i++)
		sched_trace_free(&row->stage_trace[i]);
	free(row->inst);
	row->inst = NULL;
	free(row->hists);
	row->hists = NULL;
}

/* The line that says a row runs again, and why. */
static void redo_note(enum redo why, const struct row_ctx *rc, const struct cell *c)
{
	char stop[128];

	if (why == REDO_TSTP)
		snprintf(stop, sizeof(stop), "continued after SIGTSTP");
	else if (why == REDO_CONT)
		snprintf(stop, sizeof(stop), "continued after a stop (SIGCONT)");
	else
		stops_describe(stop, sizeof(stop));
	fprintf(stderr, "%s: %s: the %s row of %s runs again from its start\n", progname, stop,
		workloads[rc->load].name,
		c->group ? rc->cfg->groups[c->group - 1].name : workloads[rc->bench].name);
}

/* Each member's row, empty, as the cell starts it. */
static void rows_reset(struct row_try *t, const struct cell *c)
{
	for (int k = 0; k < t->n; k++)
		t->rows[k] = (struct row){ .bench = t->member[k], .load = c->load,
					   .pass = c->pass, .variant = c->variant,
					   .ncpus = c->ncpus, .group = c->group };
}

/*
 * A cell's row, run again from its start as often as a stop discards it:
 * each Ctrl-Z or SIGCONT (someone stopped us), and up to STOP_REDO_MAX
 * stops the clocks saw, after which the clocks no longer judge it (a
 * machine that keeps us from running is measured, not waited out). rows
 * has one per member of the cell's group (cell_members(), model/plan.h).
 */
void run_row(const struct row_env *env, const struct cell *c, struct row *rows)
{
	struct row_ctx ctx = { .env = env, .cfg = env->cfg, .bench = c->bench, .load = c->load,
			       .ncpus = c->ncpus };
	int ni = env->cfg->instances > 1 ? env->cfg->instances : 1;
	struct row_try t = { .rows = rows };
	int clock_redos = 0, n;
	enum redo why;

	t.n = n = cell_members(env->cfg, c, t.member);
	rows_reset(&t, c);
	if (ni > 1) {		/* copy i of member k is t.rows[i * n + k]; pooled into rows */
		t.rows = calloc((size_t)(n * ni), sizeof(*rows));
		if (!t.rows) {
			fail_rows(rows, n, "out of memory for %d instances", ni);
			return;
		}
		for (t.n = n; t.n < n * ni; t.n++)
			t.member[t.n] = t.member[t.n % n];
		rows_reset(&t, c);
	}
	while ((why = run_row_once(&ctx, &t, clock_redos < STOP_REDO_MAX)) != REDO_NONE) {
		clock_redos += why == REDO_CLOCK;
		rows_reset(&t, c);
		progress_restart_row();
		redo_note(why, &ctx, c);
	}
	if (ni > 1) {
		instances_pool(rows, t.rows, n, ni);
		for (int k = n; k < t.n; k++)
			row_free(&t.rows[k]);
		free(t.rows);
	}
}
