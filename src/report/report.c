// SPDX-License-Identifier: GPL-2.0-or-later
/* report/report.c - the text of a run: its tables on the terminal and in the log, the --repeat
 * summary. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/frames.h"
#include "core/miss_explain.h"
#include "lib/util.h"
#include "model/kinds.h"
#include "model/workloads.h"
#include "report/report.h"
#include "verdicts/verdicts.h"
#include "model/config.h"
#include "model/plan.h"
#include "sys/machine.h"
#include "lib/numfmt.h"
#include "model/log_format.h"

/* A header line of text (the comment, the load's command): control characters become spaces. */
static void print_text_line(struct report *o, int mark, const char *text)
{
	char buf[4100];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", text);
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = ' ';
	report_out(o, "%s%s\n", LOG_MARK(mark), buf);
}


/*
 * A few lines of what shapes the numbers, so a pasted table carries them:
 * the machine keys as their table places them (model/machine_keys.c), with what else
 * the first two lines tell.
 */
static void print_context(struct report *o, const struct run_record *rec)
{
	static const char *const autogroup[] = { "unavailable", "off", "on" };
	static const int whole[] = { LM_CPU_MODEL, LM_CMDLINE };
	const struct machine *si = rec->sys;
	char keys[2400], scx[96];

	if (!si)
		return;
	machine_log_line(keys, sizeof(keys), rec, LM_PREEMPTION);
	report_out(o, "%s%s, PM QoS: ", LOG_MARK(LM_PREEMPTION), keys);
	if (si->pm_qos_us == SI_UNKNOWN)
		report_out(o, "untouched");
	else
		report_out(o, "%lld us", si->pm_qos_us);
	sysinfo_sched_ext_text(si, scx, sizeof(scx));
	report_out(o, ", sched_ext: %s, autogroup: %s\n", scx, autogroup[si->autogroup + 1]);
	machine_log_line(keys, sizeof(keys), rec, LM_CPUS);
	report_out(o, "%s%d online, %s\n", LOG_MARK(LM_CPUS), si->cpus_online, keys);
	for (size_t i = 0; i < ARRAY_SIZE(whole); i++) {
		machine_log_line(keys, sizeof(keys), rec, whole[i]);
		report_out(o, "%s%s\n", LOG_MARK(whole[i]), keys);
	}
}

/* How the periods ran against the tick (core/tickphase.h), in words. */
static void print_periods(struct report *o, const struct config *cfg)
{
	char drift[32];

	if (cfg->periods == PERIOD_EXACT) {
		report_out(o, "%sexact, as in 0.31: each row's phase against the tick is drawn "
			   "as it starts\n", LOG_MARK(LM_PERIODS));
		return;
	}
	fmt_sig3(drift, sizeof(drift), (double)cfg->period_drift_ns / 1e6);
	report_out(o, "%sswept: each row's wake-ups step evenly through %s ms of phase against "
		   "the tick\n", LOG_MARK(LM_PERIODS), drift);
}

/*
 * How the tasks were woken, and so what their latency counts from, in
 * words; the kernel keeps no timer slack for a real-time task.
 */
static void print_wake(struct report *o, const struct run_record *rec)
{
	const struct config *cfg = rec->cfg;
	char cls[32];

	snprintf(cls, sizeof(cls), rec->waker_rt ? "SCHED_FIFO %d" : "SCHED_OTHER",
		 cfg->rt_priority + 1);
	if (cfg->wake == WAKE_WAKER) {
		report_out(o, "%sby a waker thread, as in 0.31 (%s, timer slack %ld ns): latency "
			   "from its stamp to the task's run\n", LOG_MARK(LM_WAKE), cls,
			   cfg->timer_slack_ns);
		return;
	}
	report_out(o, "%sby each task's own timer (clock_nanosleep, TIMER_ABSTIME, slack %ld ns%s): "
		   "latency from the instant it asked for to its run\n", LOG_MARK(LM_WAKE),
		   cfg->timer_slack_ns, policy_is_rt(policy_of(cfg->policy, cfg->realtime)) ?
		   ", none for a real-time task" : "");
}

/* The Variants line's end: how their order runs (--vary-order), and turns each pass. */
static const char *order_text(const struct config *cfg)
{
	return cfg->vary_order == VORDER_BLOCKS ?
	       "; in blocks, a whole pass under each, their order turning each pass (Williams "
	       "design)\n" : "; their order turns each pass (Williams design)\n";
}

/*
 * With a system knob or a program varied: what is switched, how, and what
 * each variant showed when it was tried before the run (read back from a
 * log, "Variant A: reads bfq").
 */
static void print_switching(struct report *o, const struct run_record *rec)
{
	const struct config *cfg = rec->cfg;

	if (cfg->vary_kind == VARY_SYSFS && cfg->vary_device[0])
		report_out(o, "%s%s, the I/O scheduler of %s (the disk under %s), written before "
			   "each row and read back\n", LOG_MARK(LM_SWITCHING), cfg->vary_path,
			   cfg->vary_device, cfg->work_dir);
	else if (cfg->vary_kind == VARY_SYSFS)
		report_out(o, "%s%s, written before each row and read back\n",
			   LOG_MARK(LM_SWITCHING), cfg->vary_path);
	else if (cfg->vary_kind == VARY_SCX)
		report_out(o, "%sa sched_ext scheduler's program, started in a process group of its "
			   "own before its variant's rows, ready when sched_ext says enabled with its "
			   "name, stopped after them (SIGTERM, SIGKILL %d s later) until sched_ext "
			   "says disabled\n", LOG_MARK(LM_SWITCHING), VARY_STOP_GRACE_S);
	else if (cfg->vary_kind == VARY_EXEC)
		report_out(o, "%sthe command, started in a process group of its own before its "
			   "variant's rows, ready %s%s%s, %g s more to settle, stopped after them "
			   "(SIGTERM, SIGKILL %d s later)\n", LOG_MARK(LM_SWITCHING),
			   cfg->vary_ready ? "when " : "at once", cfg->vary_ready ? cfg->vary_ready : "",
			   cfg->vary_ready ? " appears" : "", cfg->vary_settle_s, VARY_STOP_GRACE_S);
	for (int v = 0; v < cfg->nvariants; v++)
		if (rec->variant_states[v][0])
			report_out(o, "%s%c: %s\n", LOG_MARK(LM_VARIANT_STATE), 'A' + v,
				   rec->variant_states[v]);
}

void report_header(struct report *o, const struct run_record *rec)
{
	const struct config *cfg = rec->cfg;
	char line[256], settings[512];

	report_out(o, "\n%s%d processors\n\n", LOG_MARK(LM_LOADSET), cfg->cpu_load);
	if (cfg->work == WORK_LOOPS)
		report_out(o, "%s%lu%s%s%g second%s\n", LOG_MARK(LM_USING), cfg->loops_per_ms,
		    LOG_MARK(LM_LOOPS), LOG_MARK(LM_EVERY), cfg->seconds,
		    cfg->seconds == 1 ? "" : "s");
	else
		report_out(o, "%s%s%s%g second%s\n", LOG_MARK(LM_USING), LOG_MARK(LM_CPU_WORK),
		    LOG_MARK(LM_EVERY), cfg->seconds, cfg->seconds == 1 ? "" : "s");
	print_periods(o, cfg);
	print_wake(o, rec);
	report_out(o, "%s%s%s%s\n", LOG_MARK(LM_KERNEL), rec->kernel, LOG_MARK(LM_DATESTAMP),
		   rec->date);
	print_context(o, rec);
	knobs_line(&rec->knobs, line, sizeof(line));
	report_out(o, "%s\n", line);
	build_settings(settings, sizeof(settings), rec);
	report_out(o, "%s%s\n", LOG_MARK(LM_SETTINGS), settings);
	report_workload_header(o, rec);
	for (int v = 0; v < cfg->nvariants; v++)
		report_out(o, "%s%c %s%s", v ? ", " : LOG_MARK(LM_VARIANTS), 'A' + v,
		    cfg->variants[v].label, v + 1 < cfg->nvariants ? "" : order_text(cfg));
	print_switching(o, rec);
	if (cfg->comment)
		print_text_line(o, LM_COMMENT, cfg->comment);
	if (cfg->load_cmd)
		print_text_line(o, LM_LOAD_CMD, cfg->load_cmd);
	report_out(o, "\n");
}

/*
 * Gaming has no deadline column; p99 and p99.9 come with --percentiles; a
 * chain's table has its frames' or cycles' columns instead of a task's.
 */
static bool log_column_shown(const struct run_record *rec, const struct workload *wl,
			     const struct log_column *c)
{
	if ((c->flags & LC_DEADLINE) && (wl->flags & WL_NODEADLINE))
		return false;
	if (((c->flags & LC_SINGLE) && has_metrics(wl, KM_CHAIN)) ||
	    ((c->flags & LC_GAME) && !has_metrics(wl, KM_FRAMES)) ||
	    ((c->flags & LC_AUDIO) && !has_metrics(wl, KM_XRUNS)))
		return false;
	return !(c->flags & LC_PERCENTILE) || rec->cfg->percentiles;
}

void report_heading(struct report *o, const struct run_record *rec, int bench, int ncpus)
{
	const struct config *cfg = rec->cfg;
	const struct workload *wl = &workloads[bench];
	size_t ncols;
	const struct log_column *cols = log_table_columns(LT_TASK, &ncols);

	o->table_first = rec->nres;
	report_out(o, "%s%s ", LOG_MARK(LM_HEADING), wl->name);
	if (o->table_group)
		report_out(o, "%s%s ", LOG_MARK(LM_GROUP), o->table_group);
	if (cfg->realtime)
		report_out(o, "%s", LOG_MARK(LM_REALTIME));
	else if (cfg->bench_nice)
		report_out(o, "nice %d ", cfg->bench_nice);
	report_out(o, "%s", LOG_MARK(LM_PRESENCE));
	if (cfg->load_nice)
		report_out(o, "nice %d ", cfg->load_nice);
	report_heading_end(o, ncpus);
	report_load_cell(o, rec, "Load", -1);
	for (size_t i = 0; i < ncols; i++) {
		const struct log_column *c = &cols[i];

		if (!log_column_shown(rec, wl, c))
			continue;
		report_out(o, "%s", c->head);
		if (c->flags & LC_UNIT)
			report_out(o, " (%s)", cfg->realtime ? "us" : "ms");
	}
	report_out(o, "%s\n", LOG_MARK(LM_INTENSITY));
	o->table_marks = 0;
}

/* Once, on stderr: the row whose latency stopped the kernel's trace. */
static void report_trace_stop(const struct run_record *rec, int i)
{
	const struct machine *si = rec->sys;
	const struct result *r = &rec->res[i];
	char lat[32];

	if (!isfinite(r->value[RF_TRACED]))
		return;
	for (int k = 0; k < i; k++)
		if (isfinite(rec->res[k].value[RF_TRACED]))
			return;
	fmt_sig3(lat, sizeof(lat), r->value[RF_TRACED] / 1e3);
	fprintf(stderr, "%s: tracing stopped in the %s row of %s (pass %d): a %s "
		"of %s us went over --trace-above %ld us; see %s/trace\n", progname,
		r->load, r->bench, r->pass + 1, run_latency_name(rec), lat, rec->cfg->trace_above_us,
		si && si->tracefs[0] ? si->tracefs : "tracefs");
}

/* The record's result i as a row of the table being printed. */
void report_row(struct report *o, const struct run_record *rec, int i)
{
	const struct result *r = &rec->res[i];
	const struct workload *bwl = &workloads[workload_find(r->bench)];
	double u = report_unit_ns(rec);
	char inten[96], marks[256];
	size_t ncols;
	const struct log_column *cols = log_table_columns(LT_TASK, &ncols);

	report_load_cell(o, rec, r->load, r->variant_index);
	if (r->status == ROW_FAILED || !r->wake) {
		report_out(o, "%s: %s\n", LOG_MARK(LM_FAILED), r->reason);
		return;
	}
	for (size_t k = 0; k < ncols; k++) {
		const struct log_column *c = &cols[k];

		if (!log_column_shown(rec, bwl, c))
			continue;
		report_column_cell(o, c, r, u);
	}
	load_work_text(inten, sizeof(inten), r->value, r->unit);
	report_out(o, "  %s", inten);
	report_load_notes(o, r);
	o->table_marks |= result_marks(r, record_fastest(rec, i + 1), marks, sizeof(marks));
	if (marks[0])
		report_out(o, "  [%s]", marks);
	report_worst_note(o, rec, r);
	report_out(o, "\n");
	report_trace_stop(rec, i);
}

/*
 * One hop's line: "None  vsync>main   0.002/0.008/0.031/0.120  queue 0.001, path 0.007",
 * with --explain as root "; ran instead: ..." while its wakee waited (ran: NULL, none).
 */
static void hop_line(struct report *o, const char *load, const char *name, const double *v,
		     double u, double q, double p, const struct ran_instead *ran)
{
	char a[4][32], qs[32], ps[32], ri[256];
	static const int stat[4] = { CS_MIN, CS_MEAN, CS_P99, CS_MAX };

	for (int k = 0; k < 4; k++)
		fmt_sig3(a[k], sizeof(a[k]), v[stat[k]] / u);
	report_out(o, "%s\t%-14s %s/%s/%s/%s", load, name, a[0], a[1], a[2], a[3]);
	if (isfinite(q) && isfinite(p)) {
		fmt_sig3(qs, sizeof(qs), q / u);
		fmt_sig3(ps, sizeof(ps), p / u);
		report_out(o, "  queue %s, path %s", qs, ps);
	}
	if (ran) {
		ran_instead_part(ri, sizeof(ri), ran);
		report_out(o, "%s", ri);
	}
	report_out(o, "\n");
}

/* A result of the table being printed: a group's table has its member's only. */
static bool in_table(const struct report *o, const struct run_record *rec, const struct result *r)
{
	return !o->table_group || !strcmp(r->bench, rec->res[o->table_first].bench);
}

/* --explain: each row's worst misses of the table, after a line on each row's misses. */
static void report_misses(struct report *o, const struct run_record *rec)
{
	const char *unit = rec->cfg->realtime ? "us" : "ms";
	bool head = false;
	char line[640];

	for (int i = o->table_first; i < rec->nres; i++) {
		const struct result *r = &rec->res[i];

		if (r->status == ROW_FAILED || !r->misses || !r->misses->missed ||
		    !in_table(o, rec, r))
			continue;
		if (!head)
			report_out(o, "Missed deadlines, the worst %d of each row (most late "
				   "first):\n", MISS_WORST);
		head = true;
		miss_total_line(line, sizeof(line), r);
		report_out(o, "%s\n", line);
		for (int k = 0; k < r->misses->n; k++) {
			miss_line(line, sizeof(line), r, &r->misses->worst[k], report_unit_ns(rec),
				  unit);
			report_out(o, "%s\n", line);
		}
	}
}

/* --explain: under the table that just ended, a line per load on where its latency went. */
static void report_explain(struct report *o, const struct run_record *rec)
{
	char line[640];

	report_out(o, "Where the latency went (%s):\n", rec->cfg->realtime ? "us" : "ms");
	for (int i = o->table_first; i < rec->nres; i++) {
		const struct result *r = &rec->res[i];

		if (r->status == ROW_FAILED || !r->wake || !in_table(o, rec, r))
			continue;
		explain_line(line, sizeof(line), r, report_unit_ns(rec), NULL,
			     rec->cfg->wake == WAKE_TIMER);
		report_out(o, "%s\n", line);
	}
	report_misses(o, rec);
	report_out(o, "\n");
}

/* Under a chain's table: each row's hops, in the table's unit, and Game's input latency. */
static void report_hops(struct report *o, const struct run_record *rec)
{
	double u = report_unit_ns(rec);
	bool head = false;

	for (int i = o->table_first; i < rec->nres; i++) {
		const struct chain_summary *c = rec->res[i].chain;

		if (rec->res[i].status == ROW_FAILED || !c || !in_table(o, rec, &rec->res[i]))
			continue;
		if (!head)
			report_out(o, "Hops, wake-up latency min/mean/p99/max (%s); queue wait, "
				   "wake path means:\n", rec->cfg->realtime ? "us" : "ms");
		head = true;
		for (int h = 0; h < c->nhops; h++)
			hop_line(o, rec->res[i].load, c->hop[h].name, c->hop[h].lat, u,
				 c->hop[h].queue_mean, c->hop[h].path_mean,
				 rec->res[i].hop_ran ? &rec->res[i].hop_ran[h] : NULL);
		if (chain_has_input(c))
			hop_line(o, rec->res[i].load, "input>present", c->input, u, NAN, NAN, NULL);
	}
	if (head)
		report_out(o, "\n");
}

/*
 * The table's end: the marks' footnote, then --explain's lines, each after a
 * blank line, so every reader still sees the table end at the first.
 */
void report_table_end(struct report *o, const struct run_record *rec)
{
	report_marks_note(o);
	report_hops(o, rec);
	if (rec->cfg->explain && rec->nres > o->table_first)
		report_explain(o, rec);
}

/*
 * A group's rows ran its members at once, so its tables come when the
 * group's last load has run: one per member, in the group's order, titled
 * "Audio in Audio+Video", each with that member's rows in the order run.
 */
void report_group(struct report *o, const struct run_record *rec, int first, int ncpus,
		  const char *group)
{
	bool done[64] = { false };

	o->table_group = group;
	for (int i = first; i < rec->nres; i++) {
		int b = workload_find(rec->res[i].bench);

		if (b < 0 || b >= (int)ARRAY_SIZE(done) || done[b])
			continue;
		done[b] = true;
		report_heading(o, rec, b, ncpus);
		o->table_first = i;
		for (int k = i; k < rec->nres; k++)
			if (!strcmp(rec->res[k].bench, rec->res[i].bench))
				report_row(o, rec, k);
		report_table_end(o, rec);
	}
	o->table_group = NULL;
}

void report_interrupted(struct report *o, const struct run_record *rec)
{
	int done = 0;

	for (int i = 0; i < rec->nres; i++)
		done += rec->res[i].status != ROW_SKIPPED;
	report_out(o, "\n%s%d (SIG%s) after %d row%s\n", LOG_MARK(LM_INTERRUPTED), rec->interrupted,
	    sigabbrev_np(rec->interrupted) ? sigabbrev_np(rec->interrupted) : "?",
	    done, done == 1 ? "" : "s");
}

struct summary_out {		/* what a line of the --repeat summary is printed with */
	struct report *o;
	const struct run_record *rec;
};

/* A task's line of the --repeat summary; the table's heading before its first. */
static void task_summary_line(struct summary_out *so, const struct cell *cell,
			      const struct pass_summary *s)
{
	struct report *o = so->o;
	const struct config *cfg = so->rec->cfg;
	const struct workload *wl = &workloads[cell->bench];
	const char *load = workloads[cell->load].name;
	bool dl = !(wl->flags & WL_NODEADLINE);
	char m[32], lo[32], hi[32], mx[32], c[32], d[32], text[128], n10[48];
	double u = report_unit_ns(so->rec), mean = s->value[RF_MEAN], half = s->half_mean;

	if (cell->table_start) {
		report_out(o, "--- Summary of %d passes: simulated cpu of %s ", cfg->repeat,
			   wl->name);
		if (cell->group)	/* a member's, titled as its table is */
			report_out(o, "%s%s ", LOG_MARK(LM_GROUP), cell_group_name(cfg, cell));
		report_heading_end(o, cell->ncpus);
		snprintf(text, sizeof(text), "Latency (%s) [95%% CI]", cfg->realtime ? "us" : "ms");
		report_load_cell(o, so->rec, "Load", -1);
		report_out(o, "%-30s%12s%16s", text, "Max Latency", "% Desired CPU");
		if (dl)
			report_out(o, "%17s", "% Deadlines Met");
		report_out(o, "%8s  %s\n", "Passes", dl ? "n10% mean/p99/dl" : "n10% mean/p99");
	}
	report_load_cell(o, so->rec, load, cell->variant);
	if (!s->npass) {
		report_out(o, "no pass produced numbers\n");
	} else {
		fmt_sig3(m, sizeof(m), mean / u);
		/* a latency is never negative, whatever the t interval says */
		fmt_sig3(lo, sizeof(lo), mean > half ? (mean - half) / u : 0.0);
		fmt_sig3(hi, sizeof(hi), (mean + half) / u);
		fmt_sig3(mx, sizeof(mx), s->max / u);
		fmt_pct(c, sizeof(c), s->value[RF_CPU], 0);
		fmt_pct(d, sizeof(d), s->value[RF_DEADLINES_MET_PCT], 0);
		snprintf(text, sizeof(text), "%7s [%s, %s]", m, lo, hi);
		report_out(o, "%-30s%12s%16s", text, mx, c);
		if (dl)
			report_out(o, "%17s", d);
		report_out(o, "%8d  %s\n", s->npass, report_power_text(n10, sizeof(n10), s, dl));
	}
}

/* One line of the --repeat summary, a task's or a workload file's thread's; the footnote. */
static void summary_line(void *arg, const struct cell *cell, const struct pass_summary *s)
{
	struct summary_out *so = arg;
	struct report *o = so->o;

	if (cell_table(cell) == TABLE_THREADS)
		workload_summary_line(o, so->rec, cell, s);
	else
		task_summary_line(so, cell, s);
	if (cell->table_end)
		report_out(o, "n10%%: the passes of each setting it would take to find a 10 %% "
			   "change of that number 80 %% of the time,\nby the verdicts' test of "
			   "one cell's three numbers, from these passes' spread resampled (-: "
			   "fewer than 3\npasses, or over 10000); a table of more cells asks more, "
			   "as its verdicts' n10%% says.\n\n");
}

/*
 * With --repeat: per benchmark (and per member of a group), each load's mean
 * latency over the passes with its 95 % confidence interval, and the mean of
 * the other columns.
 */
void report_summary(struct report *o, const struct run_record *rec)
{
	struct summary_out so = { .o = o, .rec = rec };

	each_cell_summary(rec, summary_line, &so);
}

/*
 * The CPU that tasks not of the run used, per variant of one cell (the
 * mean over its passes, gathered as the summary walks its cells, a cell's
 * variants one after the other): a verdict of a cell whose variants differ
 * in it (one over MARK_FOREIGN_PCT, apart by more than it) may be theirs.
 */
struct foreign_walk {
	struct sbuf *sb;
	const struct run_record *rec;
	double pct[MAX_VARIANTS];
	bool any;			/* a line out: the heading is too */
};

static void foreign_cell(void *arg, const struct cell *c, const struct pass_summary *s)
{
	struct foreign_walk *fw = arg;
	const struct config *cfg = fw->rec->cfg;
	double lo = INFINITY, hi = -INFINITY;

	if (c->variant >= MAX_VARIANTS)
		return;
	fw->pct[c->variant] = s->npass ? s->value[RF_FOREIGN_CPU] : NAN;
	if (c->variant + 1 < cfg->nvariants)
		return;		/* the cell's last variant: all of them are in */
	for (int v = 0; v < cfg->nvariants; v++)
		if (isfinite(fw->pct[v])) {
			lo = fmin(lo, fw->pct[v]);
			hi = fmax(hi, fw->pct[v]);
		}
	if (!(hi > MARK_FOREIGN_PCT && hi - lo > MARK_FOREIGN_PCT))
		return;
	if (!fw->any)
		sb_printf(fw->sb, "Foreign CPU differs between variants (tasks not of this run, %% of a "
			  "CPU): verdicts may be theirs\n");
	fw->any = true;
	sb_printf(fw->sb, "  %s under %s:", cell_table_name(cfg, c), workloads[c->load].name);
	for (int v = 0; v < cfg->nvariants; v++)
		if (isfinite(fw->pct[v]))
			sb_printf(fw->sb, " %c %.0f%%", 'A' + v, fw->pct[v]);
	sb_printf(fw->sb, "\n");
}

/*
 * With --vary, after the summary: per benchmark, each variant's passes
 * against A's, then what the columns mean. Without memory, a line saying so.
 */
void report_verdicts(struct report *o, const struct run_record *rec)
{
	struct verdict_table t;
	struct sbuf sb;

	if (record_verdicts(rec, &t)) {
		report_out(o, "No verdicts: out of memory\n");
		return;
	}
	sb_init(&sb);
	for (int i = 0; i < t.n; i++) {	/* each benchmark (alone, in a group) x CPU count */
		const struct verdict *v = &t.v[i];	/* once, as first seen */
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = verdict_of(&t.v[j], v->bench, v->in_group, v->realtime) &&
			       t.v[j].ncpus == v->ncpus;
		if (!seen)
			verdicts_print(&sb, &t, v->bench, v->in_group, v->realtime, v->ncpus);
	}
	if (t.n) {
		struct foreign_walk fw = { .sb = &sb, .rec = rec };

		each_cell_summary(rec, foreign_cell, &fw);
		if (fw.any)
			sb_printf(&sb, "\n");
		verdicts_legend(&sb, &t);
	}
	if (!sb.failed && sb.len)
		report_out(o, "%s", sb.buf);
	sb_free(&sb);
	verdicts_free(&t);
}

/* With --ncpus, at the very end: each metric's table against the CPU count (by_ncpus.c). */
void report_by_ncpus(struct report *o, const struct run_record *rec)
{
	struct sbuf sb;

	sb_init(&sb);
	for (size_t i = 0; i < nr_count_metrics; i++)
		count_table(&sb, rec, &count_metrics[i]);
	if (!sb.failed && sb.len)
		report_out(o, "%s", sb.buf);
	sb_free(&sb);
}

/* A run's length as a person says it: seconds below 90, minutes below 90, then hours. */
static const char *fmt_about(char *buf, size_t len, double s)
{
	if (s < 89.5)
		snprintf(buf, len, "%.0f second%s", s, s < 1.5 ? "" : "s");
	else if (s < 89.5 * 60)
		snprintf(buf, len, "%.0f minutes", s / 60.0);
	else
		snprintf(buf, len, "%.1f hours", s / 3600.0);
	return buf;
}

/* --dry-run: what would run, and for how long. */
void print_plan(const struct config *cfg, const struct plan *p)
{
	char about[32];

	if (cfg->compare_mode) {
		for (int i = 0; i < cfg->ncompare; i++)
			printf("would compare %s\n", cfg->compare[i]);
		return;
	}
	for (int i = 0; i < p->per_pass; i++) {
		const struct cell *c = &p->cells[i];

		const char *name = cell_table_name(cfg, c);

		if (c->table_start && c->ncpus)
			printf("%s (%d CPU%s):", name, c->ncpus, c->ncpus == 1 ? "" : "s");
		else if (c->table_start)
			printf("%s:", name);
		printf("%s %s", c->table_start ? "" : ",", workloads[c->load].name);
		if (cfg->nvariants)
			printf(" %c", 'A' + c->variant);
		if (c->table_end)
			printf("\n");
	}
	for (int v = 0; v < cfg->nvariants; v++)
		printf("%s%c %s%s", v ? ", " : "Variants: ", 'A' + v, cfg->variants[v].label,
		       v + 1 < cfg->nvariants ? "" : order_text(cfg));
	printf("%d row%s of %g s (+1 s each for the load to settle): about %s\n",
	       p->ncells, p->ncells == 1 ? "" : "s", cfg->seconds,
	       fmt_about(about, sizeof(about), plan_seconds(p, cfg->seconds)));
}
