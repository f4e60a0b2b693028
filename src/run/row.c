// SPDX-License-Identifier: GPL-2.0-or-later
/* run/row.c - one row: its load and bench processes started, measured, stopped; the pauses
 * and lapses that redo it; its results received. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/frames.h"
#include "core/miss_explain.h"
#include "lib/util.h"
#include "loads/loads.h"
#include "model/workloads.h"
#include "model/record.h"
#include "child/child.h"
#include "child/protocol.h"
#include "model/plan.h"
#include "run/row.h"
#include "run/row_signals.h"
#include "run/row_parts.h"
#include "run/lapses.h"
#include "run/progress.h"
#include "cli/derive.h"
#include "sys/trace_instance.h"
#include "task/rtapp_run.h"

#define READY_TIMEOUT_NS (10 * NSEC_PER_SEC)	/* a child's set-up */
#define LOAD_RESULT_NS (1500 * NSEC_PER_MSEC)	/* the load's answer to stop */
#define EXIT_WAIT_NS NSEC_PER_SEC		/* a child's exit after its answer */

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
#define ROWS_MAX (GROUP_MAX * INSTANCES_MAX)	/* a workload file's: options.c's bound */

struct row_try {
	struct row *rows;		/* [n]: one per member, in the group's order, then */
	int n;				/* with --instances the next copy of each */
	int per;			/* rows per bench process: 1, or a workload file's */
					/* thread objects (its threads' rows, file order) */
	bool threads;			/* a workload file's: its bench process is rtapp_body */
	int member[ROWS_MAX];		/* their registry indices */
	struct child load;
	struct child bench[ROWS_MAX];	/* [n / per] */
	pid_t traced[GROUP_MAX];		/* --explain: each member's task, as armed */
	struct proc_scan scan0;		/* every process's CPU time at the row's start */
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
	ret = child_wait_ready(&t->load, now_ns() + READY_TIMEOUT_NS, &row_watch, said,
			       sizeof(said));
	if (ret) {
		if (ret != -EINTR && !interrupted())
			fail_unready(t->rows, t->n, &t->load, "load", ret, said);
		return false;
	}
	for (int k = 0; k < t->n / t->per && !ret; k++) {
		rc->bench = t->member[k * t->per];	/* what this member's child is forked with */
		rc->proc = k;
		ret = child_start(&t->bench[k], t->threads ? rtapp_body : bench_body, rc);
		if (ret) {
			fail_rows(t->rows, t->n, "fork bench: %s", strerror(-ret));
			break;
		}
		ret = child_wait_ready(&t->bench[k], now_ns() + READY_TIMEOUT_NS, &row_watch, said,
				       sizeof(said));
		if (ret == -ETIMEDOUT)
			fail_rows(t->rows, t->n, "bench process did not start");
		else if (ret)
			fail_unready(t->rows, t->n, &t->bench[k], "bench", ret, said);
	}
	rc->bench = t->member[0];
	rc->proc = 0;
	return !ret;
}

/*
 * A message that is not the one due (protocol.h) fails the row with its
 * reason; true when msg came whole.
 */
static bool received(struct row *row, ssize_t r, size_t len, const char *why)
{
	if (r == -EPROTO)
		fail_rows(row, 1, "%s", why);
	return r == (ssize_t)len;
}

/*
 * A chain's stages, after the head's records: each log, then its records;
 * the stages up to the first that does not come whole are kept.
 */
static void receive_stages(struct row_ctx *rc, struct row *row, struct child *bench,
			   uint64_t deadline)
{
	struct stage_set *st = &row->stages;
	char why[REASON_LEN];

	for (uint32_t i = 0; i < row->period_log.nstages && i < STAGES_MAX; i++) {
		struct stage_periods *sp = &st->s[i];
		size_t bytes;

		if (!received(row, pipe_receive(bench->res, TAG_STAGE_LOG, &sp->h, sizeof(sp->h),
						deadline, &row_watch, why, sizeof(why)),
			      sizeof(sp->h), why) || sp->h.nrec > rc->env->period_cap)
			return;
		sp->h.comm[sizeof(sp->h.comm) - 1] = '\0';
		bytes = sp->h.nrec * sizeof(*sp->rec);
		sp->rec = bytes ? malloc(bytes) : NULL;
		if (bytes && (!sp->rec ||
			      !received(row, pipe_receive(bench->res, TAG_STAGE_PERIODS, sp->rec,
							  bytes, deadline + (uint64_t)bytes * 10,
							  &row_watch, why, sizeof(why)), bytes, why))) {
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
 * without a timeline, not failed: its numbers came whole. Another message
 * than these fails it.
 */
static void receive_periods(struct row_ctx *rc, struct row *row, struct child *bench)
{
	uint64_t deadline = now_ns() + EXIT_WAIT_NS;
	char why[REASON_LEN];
	size_t bytes;

	row->period_log = (struct period_log){ 0 };
	row->stages = (struct stage_set){ 0 };
	if (!rc->env->period_cap ||
	    !received(row, pipe_receive(bench->res, TAG_PERIOD_LOG, &row->period_log,
					sizeof(row->period_log), deadline, &row_watch, why,
					sizeof(why)), sizeof(row->period_log), why))
		return;
	if (!row->period_log.nrec || row->period_log.nrec > rc->env->period_cap)
		goto none;
	bytes = row->period_log.nrec * sizeof(*row->periods);
	row->periods = malloc(bytes);
	if (row->periods &&
	    received(row, pipe_receive(bench->res, TAG_PERIODS, row->periods, bytes,
				       deadline + (uint64_t)bytes * 10, &row_watch, why,
				       sizeof(why)), bytes, why)) {
		receive_stages(rc, row, bench, deadline + (uint64_t)bytes * 10);
		return;
	}
	free(row->periods);
	row->periods = NULL;
none:
	row->period_log.lost += row->period_log.nrec;
	row->period_log.nrec = 0;
}

/*
 * A chain's histograms, sent after its result when its copies are pooled;
 * a copy without them fails its row, whose figures could not be pooled.
 */
static void receive_hists(struct row *row, struct child *bench)
{
	char why[REASON_LEN] = "its chain's histograms did not come";

	row->hists = malloc(sizeof(*row->hists));
	if (row->hists &&
	    pipe_receive(bench->res, TAG_CHAIN_HISTS, row->hists, sizeof(*row->hists),
			 now_ns() + EXIT_WAIT_NS, &row_watch, why, sizeof(why)) ==
	    (ssize_t)sizeof(*row->hists))
		return;
	free(row->hists);
	row->hists = NULL;
	fail_rows(row, 1, "%s", why);
}

/*
 * A bench_result into row->bench_res by the deadline: 1, else what
 * pipe_receive() said (or -ENOMEM); -EPROTO has failed the row with why.
 */
static ssize_t read_result(struct row *row, struct child *bench, uint64_t deadline)
{
	char why[REASON_LEN];
	ssize_t r;

	row->bench_res = malloc(sizeof(*row->bench_res));
	if (!row->bench_res)
		return -ENOMEM;
	r = pipe_receive(bench->res, TAG_BENCH_RESULT, row->bench_res, sizeof(*row->bench_res),
			 deadline, &row_watch, why, sizeof(why));
	if (r == (ssize_t)sizeof(*row->bench_res)) {
		if (row->bench_res->status != ROW_OK)
			fail_rows(row, 1, "%s", row->bench_res->reason);
		return 1;
	}
	free(row->bench_res);
	row->bench_res = NULL;
	if (r == -EPROTO)
		fail_rows(row, 1, "%s", why);
	return r;
}

/* A result that did not come (r: read_result's) fails the rows; false if an interrupt ended it. */
static bool result_missing(const struct config *cfg, struct row *rows, int n,
			   struct child *bench, ssize_t r, uint64_t grace)
{
	if (r == -ENOMEM) {
		fail_rows(rows, n, "out of memory for the result");
		return true;
	}
	if (r == -EINTR)
		return false;
	if (r == -EPROTO) {	/* failed with its reason; the bench is ended */
		child_finish(bench, now_ns());
		return true;
	}
	if (r != -ETIMEDOUT) {
		fail_ended(rows, n, bench, "bench", now_ns() + EXIT_WAIT_NS);
		return true;
	}
	fail_rows(rows, n, "bench process overran its %g s by more than %.1f s; killed",
		  cfg->seconds, (double)grace / 1e9);
	child_finish(bench, now_ns());
	return true;
}

/*
 * One member's result, by the row's deadline; false when an ending signal
 * ended the wait (the row is over).
 */
static bool member_result(struct row_ctx *rc, struct row *row, struct child *bench,
			  uint64_t t_go)
{
	const struct config *cfg = rc->cfg;
	uint64_t grace = grace_ns(cfg);
	ssize_t r = read_result(row, bench, t_go + (uint64_t)(cfg->seconds * 1e9) + grace);

	row->t_go = t_go;
	if (r != 1)
		return result_missing(cfg, row, 1, bench, r, grace);
	if (chain_pooled(rc, row->bench_res))
		receive_hists(row, bench);
	receive_periods(rc, row, bench);
	child_finish(bench, now_ns() + EXIT_WAIT_NS);
	return true;
}

/*
 * A workload file's bench process: a result per thread object (rows[n],
 * in file order), then each one's periods. Its threads may take
 * RTAPP_ROW_GRACE_NS more to end (or be found stuck) than a task does.
 */
static bool workload_result(struct row_ctx *rc, struct row *rows, int n, struct child *bench,
			    uint64_t t_go)
{
	const struct config *cfg = rc->cfg;
	uint64_t grace = grace_ns(cfg) + RTAPP_ROW_GRACE_NS;
	ssize_t r = 1;

	for (int j = 0; j < n && r == 1; j++) {
		rows[j].t_go = t_go;
		r = read_result(&rows[j], bench, t_go + (uint64_t)(cfg->seconds * 1e9) + grace);
	}
	if (r != 1)
		return result_missing(cfg, rows, n, bench, r, grace);
	for (int j = 0; j < n; j++)
		receive_periods(rc, &rows[j], bench);
	child_finish(bench, now_ns() + EXIT_WAIT_NS);
	return true;
}

/* The members --explain traces: each member of the group, of copy #1 with --instances. */
static int trace_members(const struct row_ctx *rc, const struct row_try *t)
{
	return rc->cfg->instances > 1 ? t->n / rc->cfg->instances : t->n;
}

/*
 * --explain, a workload file's row: the threads rtapp_traced() picks, of
 * copy #1, by their names (their ids are known only once they run).
 */
static void trace_arm_threads(const struct row_ctx *rc, struct row_try *t)
{
	char comm[SE_TIDS_MAX][16];
	const char *names[SE_TIDS_MAX];
	pid_t pid[SE_TIDS_MAX] = { t->bench[0].pid };
	bool traced[RTAPP_RUN_MAX_OBJS];
	int n = 0;

	rtapp_traced(rc->cfg, traced);
	for (int j = 0; j < t->per && n < SE_TIDS_MAX; j++) {
		if (!traced[j])
			continue;
		snprintf(comm[n], sizeof(comm[n]), "%s", rc->cfg->rtapp.model->threads[j].name);
		names[n] = comm[n];
		n++;
	}
	if (n)
		ran_trace_arm(pid, names, n);
}

/* --explain, before the GO: the trace armed for each member's task, and a chain's stages. */
static void trace_arm(const struct row_ctx *rc, struct row_try *t)
{
	const char *threads[GROUP_MAX];
	int n = trace_members(rc, t);

	if (t->threads) {
		trace_arm_threads(rc, t);
		return;
	}
	for (int k = 0; k < n && k < GROUP_MAX; k++) {
		t->traced[k] = t->bench[k].pid;
		threads[k] = workloads[t->member[k]].threads;
	}
	ran_trace_arm(t->traced, threads, n < GROUP_MAX ? n : GROUP_MAX);
}

/*
 * What tasks not of the run used since the row's start (t->scan0, freed),
 * to each member: a scan of every process now, the benches' results in and
 * the load still running, so no figure of ours is taken in the window.
 */
static void row_foreign(struct row_try *t)
{
	struct proc_scan end;
	struct foreign f = { .pct = -1.0 };

	if (!proc_scan_take(&end)) {
		foreign_between(&t->scan0, &end, getpid(), &f);
		proc_scan_free(&end);
	}
	proc_scan_free(&t->scan0);
	for (int k = 0; k < t->n; k++)
		t->rows[k].foreign = f;
}

/*
 * Let the load settle alone, then open its window and start every bench
 * at once, and take their results. False when the load need not be asked
 * for its result (it died, or an ending signal came).
 */
static bool row_measure(struct row_ctx *rc, struct row_try *t)
{
	uint64_t t_go;

	if (!child_sleep(t->load.res, now_ns() + rc->cfg->settle_ns, &row_watch)) {
		if (!interrupted())
			fail_ended(t->rows, t->n, &t->load, "load", now_ns());	/* it died */
		return false;
	}
	trace_arm(rc, t);
	proc_scan_take(&t->scan0);	/* none: the row's foreign CPU is not known */
	t_go = now_ns();
	child_tell(&t->load, MSG_BEGIN);
	for (int k = 0; k < t->n / t->per; k++)
		child_tell(&t->bench[k], MSG_GO);
	lapses_test_jump();
	for (int k = 0; k < t->n / t->per; k++)
		if (t->per > 1 ? !workload_result(rc, &t->rows[k * t->per], t->per, &t->bench[k],
						  t_go) :
		    !member_result(rc, &t->rows[k], &t->bench[k], t_go)) {
			proc_scan_free(&t->scan0);
			return false;
		}
	row_foreign(t);
	return true;
}

/*
 * The CPUs the load's CPU side should have kept busy: what its threads
 * could (min(L, its CPUs)), less what the rest of it (I/O) and every
 * member's task used; NAN for a load without that bound.
 */
static void load_due(struct row_try *t, const struct load_result *l)
{
	double bench = 0;

	for (int k = 0; k < t->n; k++) {
		const struct bench_result *b = t->rows[k].bench_res;

		if (b && b->wall_ns)
			bench += (double)b->task_cpu_ns / (double)b->wall_ns;
	}
	for (int k = 0; k < t->n; k++)
		t->rows[k].load_due = l->cpus_want >= 0 ?
				      fmax(l->cpus_want - l->cpus_other - bench, 0) : NAN;
}

/* Stop the load and take its result: its intensity, and why it ended early; every member's. */
static void row_stop(struct row_try *t)
{
	struct row *row = &t->rows[0];
	uint64_t t_stop = now_ns();
	char why[REASON_LEN], msg[REASON_LEN];
	ssize_t r;
	int st;

	child_tell(&t->load, MSG_STOP);
	r = pipe_receive(t->load.res, TAG_LOAD_RESULT, &row->load_res, sizeof(row->load_res),
			 t_stop + LOAD_RESULT_NS, &row_watch, msg, sizeof(msg));
	st = child_finish(&t->load, t_stop + LOAD_RESULT_NS);
	row->load_stop_ns = now_ns() - t_stop;
	if (r != (ssize_t)sizeof(row->load_res) && r != -EINTR) {
		struct load_result *l = &row->load_res;

		l->intensity = l->cpus = l->restarts = l->cpus_want = -1.0;
		child_describe(why, sizeof(why), "load", st);
		fail_rows(t->rows, t->n, "%s", r == -EPROTO ? msg :
			  r == -ETIMEDOUT ? "load process did not answer the stop" : why);
	}
	load_due(t, &row->load_res);
	if (r == (ssize_t)sizeof(row->load_res) && row->load_res.status != ROW_OK &&
	    (workloads[row->load].flags & WL_COMMAND))
		fail_rows(t->rows, t->n, "%s", row->load_res.reason);	/* the user's command did not run */
	for (int k = 0; k < t->n; k++) {
		t->rows[k].load_res = row->load_res;
		t->rows[k].load_stop_ns = row->load_stop_ns;
		if (r == (ssize_t)sizeof(row->load_res) && row->load_res.status != ROW_OK &&
		    t->rows[k].status == ROW_OK)
			snprintf(t->rows[k].reason, sizeof(t->rows[k].reason), "%s",
				 row->load_res.reason);
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

	if (t->load.pid > 0)
		kill(-t->load.pid, SIGSTOP);
	for (int k = 0; k < t->n / t->per; k++)
		if (t->bench[k].pid > 0)
			kill(-t->bench[k].pid, SIGSTOP);
	progress_clear();
	raise(SIGSTOP);
	signals_after_pause();	/* the SIGCONT that let us go is this stop's */
	progress_pause(now_ns() - t0);
}

/* Why a try at a row was discarded, to be run again. */
enum redo { REDO_NONE, REDO_TSTP, REDO_CONT, REDO_CLOCK };

_Static_assert(1 + STAGES_MAX <= SE_TIDS_MAX, "a chain's head and stages fit a trace's threads");

/* A hop's longest wake-up, ns: a longer wait in the trace is none of its wake-ups. */
static uint64_t hop_max(const struct bench_result *b, int32_t hop)
{
	double v = bench_hop_max(b, hop);

	return isfinite(v) && v > 0 ? (uint64_t)v : 0;
}

/*
 * --explain, a workload file's row: each thread rtapp_traced() picked (of
 * copy #1), by the id its result reports; the others are said not traced
 * once the trace told of those.
 */
static void trace_collect_threads(const struct row_ctx *rc, struct row_try *t)
{
	struct ran_thread th[SE_TIDS_MAX];
	bool traced[RTAPP_RUN_MAX_OBJS];
	int n = 0;

	rtapp_traced(rc->cfg, traced);
	for (int j = 0; j < t->per && n < SE_TIDS_MAX; j++) {
		struct row *row = &t->rows[j];
		const struct bench_result *b = row->bench_res;

		if (!traced[j] || !b)
			continue;
		th[n++] = (struct ran_thread){ .tid = b->period_log.tid_task > 0 ?
							b->period_log.tid_task : -1,
					       .t_first = b->split.t_first, .rec = row->periods,
					       .nrec = row->period_log.nrec, .trace = &row->trace,
					       .ran = b->split.state != SPLIT_OFF ? &row->ran : NULL,
					       .max_wait = b->wake.r.max };
	}
	ran_trace_collect(th, n);
	for (int j = 0; n && j < t->per; j++)
		if (!traced[j] && t->rows[j].bench_res && th[0].ran && th[0].ran->state != RAN_UNKNOWN)
			t->rows[j].ran.state = RAN_NOT_TRACED;
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

	if (t->threads) {
		trace_collect_threads(rc, t);
		return;
	}
	for (int k = 0; k < trace_members(rc, t) && k < GROUP_MAX; k++) {
		struct row *row = &t->rows[k];
		const struct bench_result *b = row->bench_res;
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
					       .rec = row->periods, .nrec = row->period_log.nrec,
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
 * when it stands (or an ending signal ended it), else why it must run again:
 * Ctrl-Z, another pause (SIGCONT says so), or a lapse only the clocks saw.
 */
static enum redo run_row_once(struct row_ctx *rc, struct row_try *t, bool judged)
{
	enum redo why = REDO_NONE;

	t->load = CHILD_NONE;
	memset(t->traced, 0, sizeof(t->traced));
	for (int k = 0; k < t->n; k++) {
		struct load_result *l = &t->rows[k].load_res;

		t->bench[k / t->per] = CHILD_NONE;
		t->rows[k].status = ROW_OK;
		l->intensity = l->cpus = l->restarts = -1.0;
		t->rows[k].load_due = NAN;
		t->rows[k].foreign = (struct foreign){ .pct = -1.0 };
	}
	if (!got_tstp)
		got_cont = got_redo = 0;	/* a pause before the row is no part of it */
	lapses_begin(judged);
	if (row_start(rc, t) && row_measure(rc, t))
		row_stop(t);
	if (!got_redo && lapses_check())
		got_redo = 1;
	if (got_redo && !got_signal)
		why = got_tstp ? REDO_TSTP : got_cont ? REDO_CONT : REDO_CLOCK;
	if (why == REDO_TSTP)
		pause_row(t);
	for (int k = 0; k < t->n / t->per; k++)
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
	free(row->bench_res);
	row->bench_res = NULL;
	free(row->periods);
	row->periods = NULL;
	row->period_log.nrec = 0;
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
	char what[128];

	if (why == REDO_TSTP)
		snprintf(what, sizeof(what), "continued after SIGTSTP");
	else if (why == REDO_CONT)
		snprintf(what, sizeof(what), "continued after a stop (SIGCONT)");
	else
		lapses_describe(what, sizeof(what));
	fprintf(stderr, "%s: %s: the %s row of %s runs again from its start\n", progname, what,
		workloads[rc->load].name, cell_table_name(rc->cfg, c));
}

/* Each member's row, empty, as the cell starts it. */
static void rows_reset(struct row_try *t, const struct cell *c)
{
	for (int k = 0; k < t->n; k++)
		t->rows[k] = (struct row){ .bench = t->member[k], .load = c->load,
					   .pass = c->pass, .variant = c->variant,
					   .ncpus = c->ncpus, .group = c->group,
					   .thread = t->threads ? k % t->per : -1 };
}

/*
 * A cell's row, run again from its start as often as a pause or a lapse
 * discards it: each Ctrl-Z or SIGCONT (someone paused us), and up to
 * LAPSE_REDO_MAX lapses the clocks saw, after which the clocks no longer judge it (a
 * machine that keeps us from running is measured, not waited out). rows
 * has one per result of the cell: a member of its group, a thread object of
 * its workload file (cell_nresults(), model/plan.h).
 */
void run_row(const struct row_env *env, const struct cell *c, struct row *rows)
{
	struct row_ctx ctx = { .env = env, .cfg = env->cfg, .bench = c->bench, .load = c->load,
			       .ncpus = c->ncpus };
	int ni = env->cfg->instances > 1 ? env->cfg->instances : 1;
	struct row_try t = { .rows = rows, .per = 1 };
	int clock_redos = 0, n;
	enum redo why;

	t.n = n = cell_members(env->cfg, c, t.member);
	t.threads = cell_table(c) == TABLE_THREADS;
	if (t.threads) {	/* one process, a row per thread object */
		t.n = n = t.per = cell_nresults(env->cfg, c);
		for (int k = 1; k < n; k++)
			t.member[k] = c->bench;
	}
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
	while ((why = run_row_once(&ctx, &t, clock_redos < LAPSE_REDO_MAX)) != REDO_NONE) {
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
