// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - the text of a run: its tables on the terminal and in the log, the --repeat summary. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interbench.h"
#include "sysinfo.h"
#include "result.h"
#include "compare.h"

static void out(struct run *run, const char *fmt, ...) PRINTF(2, 3);

/* Text goes to the terminal and, unless -c, to the log: the same bytes. */
static void out(struct run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(run->text, fmt, ap);
	va_end(ap);
	fflush(run->text);
	if (run->log) {
		int bad;

		va_start(ap, fmt);
		bad = vfprintf(run->log, fmt, ap) < 0;
		va_end(ap);
		if (bad || fflush(run->log) == EOF) {
			warn("cannot write the log: %s; going on without it", strerror(errno));
			fclose(run->log);
			run->log = NULL;
		}
	}
}

/* The comment on one line: control characters become spaces. */
static void print_comment(struct run *run)
{
	char buf[1100];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", run->cfg->comment);
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = ' ';
	out(run, "Comment: %s\n", buf);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* One line of what shapes the numbers, so a pasted table carries it. */
static void print_context(struct run *run)
{
	static const char *const autogroup[] = { "unavailable", "off", "on" };
	const struct machine *si = run->sys;
	char scx[96];

	if (!si)
		return;
	if (si->preemption[0])
		out(run, "Preemption: %s (%s)", si->preemption, si->preemption_source);
	else
		out(run, "Preemption: unknown");
	out(run, ", clocksource: %s, governor: %s, PM QoS: ", or_dash(si->clocksource),
	    or_dash(si->cpufreq_governor));
	if (si->pm_qos_us == SI_UNKNOWN)
		out(run, "untouched");
	else
		out(run, "%lld us", si->pm_qos_us);
	sysinfo_sched_ext_text(si, scx, sizeof(scx));
	out(run, ", sched_ext: %s, autogroup: %s\n", scx, autogroup[si->autogroup + 1]);
	out(run, "CPUs: %d online, %d usable; memory limit: ", si->cpus_online, si->cpus_usable);
	if (si->mem_limit_bytes == SI_UNKNOWN)
		out(run, "none\n");
	else
		out(run, "%lld MiB (%s)\n", si->mem_limit_bytes / (long long)MIB,
		    si->mem_limit_file);
}

void report_header(struct run *run)
{
	const struct config *cfg = run->cfg;
	struct knob_values kv;
	char line[256], settings[512];

	out(run, "\nLoad set to %d processors\n\n", cfg->cpu_load);
	if (cfg->work == WORK_LOOPS)
		out(run, LOG_USING "%lu" LOG_LOOPS LOG_EVERY "%g seconds\n", cfg->loops_per_ms,
		    cfg->seconds);
	else
		out(run, LOG_USING LOG_CPU_WORK LOG_EVERY "%g seconds\n", cfg->seconds);
	out(run, "Benchmarking kernel %s at datestamp %s\n", run->kernel_release,
	    run->datestamp);
	print_context(run);
	knobs_of_config(cfg, &kv);
	knobs_line(&kv, line, sizeof(line));
	out(run, "%s\n", line);
	build_settings(settings, sizeof(settings), cfg);
	out(run, LOG_SETTINGS "%s\n", settings);
	if (cfg->comment)
		print_comment(run);
	out(run, "\n");
}

static double unit_ns(const struct run *run)
{
	return run->cfg->realtime ? 1e3 : 1e6;	/* us for -r, else ms */
}

/* Gaming has no deadline column; p99 and p99.9 come with --percentiles. */
static bool log_column_shown(const struct run *run, const struct workload *wl,
			     const struct log_column *c)
{
	if ((c->flags & LC_DEADLINE) && (wl->flags & WL_NODEADLINE))
		return false;
	return !(c->flags & LC_PERCENTILE) || run->cfg->percentiles;
}

void report_heading(struct run *run, int bench)
{
	const struct config *cfg = run->cfg;
	const struct workload *wl = &workloads[bench];

	run->table_rows = 0;
	out(run, LOG_HEADING "%s ", wl->name);
	if (cfg->realtime)
		out(run, LOG_REALTIME);
	else if (cfg->bench_nice)
		out(run, "nice %d ", cfg->bench_nice);
	out(run, LOG_PRESENCE);
	if (cfg->load_nice)
		out(run, "nice %d ", cfg->load_nice);
	out(run, "---\n");
	out(run, "Load\t");
	for (size_t i = 0; i < nr_log_columns; i++) {
		const struct log_column *c = &log_columns[i];

		if (!log_column_shown(run, wl, c))
			continue;
		out(run, "%s", c->head);
		if (c->flags & LC_UNIT)
			out(run, " (%s)", cfg->realtime ? "us" : "ms");
	}
	out(run, LOG_INTENSITY "\n");
	run->table_marks = 0;
}

/* Once, on stderr: the row whose latency stopped the kernel's trace. */
static void report_trace_stop(const struct run *run, const struct row *row)
{
	const struct machine *si = run->sys;
	char lat[32];

	if (!row->b || !row->b->traced_ns)
		return;
	for (int i = 0; i < run->nrows && &run->rows[i] != row; i++)
		if (run->rows[i].b && run->rows[i].b->traced_ns)
			return;
	fmt_sig3(lat, sizeof(lat), (double)row->b->traced_ns / 1e3);
	fprintf(stderr, "%s: tracing stopped in the %s row of %s (pass %d): a wakeup latency "
		"of %s us went over --trace-above %ld us; see %s/trace\n", progname,
		workloads[row->load].name, workloads[row->bench].name, row->pass + 1, lat,
		run->cfg->trace_above_us, si && si->tracefs[0] ? si->tracefs : "tracefs");
}

void report_row(struct run *run, const struct row *row)
{
	const struct workload *bwl = &workloads[row->bench];
	double u = unit_ns(run);
	char v[32], inten[64];
	char marks[128];
	struct result r;

	if (!run->table_rows++)
		run->table_first = (int)(row - run->rows);
	result_from_row(run, row, &r);
	if (r.v[RF_LOOP_SPEED] > run->fastest_speed)
		run->fastest_speed = r.v[RF_LOOP_SPEED];
	if (r.status == ROW_FAILED || !r.wake) {
		out(run, "%s\t" LOG_FAILED ": %s\n", r.load, r.reason);
		return;
	}
	out(run, "%s\t", r.load);
	for (size_t i = 0; i < nr_log_columns; i++) {
		const struct log_column *c = &log_columns[i];

		if (!log_column_shown(run, bwl, c))
			continue;
		if (c->flags & LC_PCT)
			fmt_pct(v, sizeof(v), r.v[c->field], 0);
		else
			fmt_sig3(v, sizeof(v), r.v[c->field] / (c->flags & LC_LATENCY ? u : 1));
		out(run, "%s%*s", c->sep, c->width, v);
	}
	fmt_sig3(v, sizeof(v), r.v[RF_INTENSITY]);
	snprintf(inten, sizeof(inten), "%s %s", v, r.unit);
	out(run, "  %s", isfinite(r.v[RF_INTENSITY]) ? inten : "-");
	if (!strcmp(r.medium, RES_MEDIUM_MEMORY))
		out(run, " " LOG_MEMORY_NOTE);
	else if (!strcmp(r.medium, RES_MEDIUM_CACHE))
		out(run, " " LOG_CACHE_NOTE);
	if (r.reason[0])
		out(run, " (%s)", r.reason);
	run->table_marks |= result_marks(&r, run->fastest_speed, marks, sizeof(marks));
	if (marks[0])
		out(run, "  [%s]", marks);
	out(run, "\n");
	report_trace_stop(run, row);
}

/* --explain: under the table that just ended, a line per load on where its latency went. */
static void report_explain(struct run *run)
{
	char line[640];
	struct result r;

	out(run, "Where the latency went (%s):\n", run->cfg->realtime ? "us" : "ms");
	for (int i = run->table_first; i < run->table_first + run->table_rows; i++) {
		result_from_row(run, &run->rows[i], &r);
		if (r.status == ROW_FAILED || !r.wake)
			continue;
		explain_line(line, sizeof(line), &r, unit_ns(run));
		out(run, "%s\n", line);
	}
	out(run, "\n");
}

/*
 * The table's end: the marks' footnote, then --explain's lines, each after a
 * blank line, so every reader still sees the table end at the first.
 */
void report_table_end(struct run *run)
{
	char note[512];

	out(run, "\n");
	if (run->table_marks) {
		result_marks_note(run->table_marks, note, sizeof(note));
		out(run, "%s\n\n", note);
		run->table_marks = 0;
	}
	if (run->cfg->explain && run->table_rows)
		report_explain(run);
}

void report_interrupted(struct run *run)
{
	int done = 0;

	for (int i = 0; i < run->nrows; i++)
		done += run->rows[i].status != ROW_SKIPPED;
	out(run, "\nInterrupted by signal %d (SIG%s) after %d row%s\n", run->interrupted,
	    sigabbrev_np(run->interrupted) ? sigabbrev_np(run->interrupted) : "?",
	    done, done == 1 ? "" : "s");
}

/*
 * Write one file whole: a temporary file in the same directory renamed over
 * the old one, so a reader never sees half a file and an interrupted run
 * keeps its rows. "-" is stdout, written once when the run has ended.
 */
static int write_output(const struct run *run, const char *opt, const char *path,
			void (*build)(struct sbuf *, const struct run *))
{
	bool to_stdout = !strcmp(path, "-");
	struct sbuf sb;
	int ret = 0;

	if (to_stdout && !run->end)
		return 0;
	sb_init(&sb);
	build(&sb, run);
	if (sb.failed)
		ret = -ENOMEM;
	else if (!to_stdout)
		ret = replace_file(path, sb.buf, sb.len);
	else if (fwrite(sb.buf, 1, sb.len, stdout) != sb.len || fflush(stdout))
		ret = errno ? -errno : -EIO;
	if (ret)
		error("%s %s: %s", opt, to_stdout ? "(stdout)" : path, strerror(-ret));
	sb_free(&sb);
	return ret;
}

/* 0, or the first error (already reported on stderr). */
int report_files(struct run *run)
{
	const struct config *cfg = run->cfg;
	int ret = 0, r;

	if (cfg->json_path)
		ret = write_output(run, "--json", cfg->json_path, build_json);
	if (cfg->csv_path) {
		r = write_output(run, "--csv", cfg->csv_path, build_csv);
		ret = ret ? ret : r;
	}
	return ret;
}

/* The first and last load of a benchmark's table, for the summary's heading and end. */
static int first_load(const struct run *run, int bench)
{
	for (size_t l = 0; l < nr_workloads; l++)
		if ((run->cfg->loads & (1u << l)) && (int)l != bench)
			return (int)l;
	return -1;
}

static int last_load(const struct run *run, int bench)
{
	int last = -1;

	for (size_t l = 0; l < nr_workloads; l++)
		if ((run->cfg->loads & (1u << l)) && (int)l != bench)
			last = (int)l;
	return last;
}

/* The results of one benchmark x load of the run (its passes), into list; how many. */
static int passes_of(const struct result *res, int n, const char *bench, const char *load,
		     const struct result **list)
{
	int cnt = 0;

	for (int i = 0; i < n; i++)
		if (!strcmp(res[i].bench, bench) && !strcmp(res[i].load, load))
			list[cnt++] = &res[i];
	return cnt;
}

/* Per configured benchmark x load, in registry order: the summary of its passes. */
void report_each_summary(const struct run *run, const struct result *res,
			 void (*fn)(void *arg, int bench, int load, const struct pass_summary *s),
			 void *arg)
{
	const struct config *cfg = run->cfg;
	const struct result **list = calloc((size_t)run->nrows + 1, sizeof(*list));

	for (size_t b = 0; list && b < nr_workloads; b++) {
		for (size_t l = 0; cfg->benches & (1u << b) && l < nr_workloads; l++) {
			struct pass_summary s;
			int n;

			if (!(cfg->loads & (1u << l)) || l == b)
				continue;
			n = passes_of(res, run->nrows, workloads[b].name, workloads[l].name, list);
			summarize_passes(list, n, &s);
			fn(arg, (int)b, (int)l, &s);
		}
	}
	free(list);
}

/* One line of the --repeat summary; the table's heading before its first. */
static void summary_line(void *arg, int bench, int load, const struct pass_summary *s)
{
	struct run *run = arg;
	const struct workload *wl = &workloads[bench];
	bool dl = !(wl->flags & WL_NODEADLINE);
	char m[32], lo[32], hi[32], mx[32], c[32], d[32], cell[128];
	double u = unit_ns(run), mean = s->v[RF_MEAN], half = s->half_mean;

	if (load == first_load(run, bench)) {
		out(run, "--- Summary of %d passes: simulated cpu of %s ---\n", run->cfg->repeat,
		    wl->name);
		snprintf(cell, sizeof(cell), "Latency (%s) [95%% CI]", run->cfg->realtime ? "us" : "ms");
		out(run, "Load\t%-30s%12s%16s", cell, "Max Latency", "% Desired CPU");
		if (dl)
			out(run, "%17s", "% Deadlines Met");
		out(run, "%8s\n", "Passes");
	}
	if (!s->npass) {
		out(run, "%s\tno pass produced numbers\n", workloads[load].name);
	} else {
		fmt_sig3(m, sizeof(m), mean / u);
		/* a latency is never negative, whatever the t interval says */
		fmt_sig3(lo, sizeof(lo), mean > half ? (mean - half) / u : 0.0);
		fmt_sig3(hi, sizeof(hi), (mean + half) / u);
		fmt_sig3(mx, sizeof(mx), s->v[RF_MAX] / u);
		fmt_pct(c, sizeof(c), s->v[RF_CPU], 0);
		fmt_pct(d, sizeof(d), s->v[RF_DL], 0);
		snprintf(cell, sizeof(cell), "%7s [%s, %s]", m, lo, hi);
		out(run, "%s\t%-30s%12s%16s", workloads[load].name, cell, mx, c);
		if (dl)
			out(run, "%17s", d);
		out(run, "%8d\n", s->npass);
	}
	if (load == last_load(run, bench))
		out(run, "\n");
}

/*
 * With --repeat: per benchmark, each load's mean latency over the passes with
 * its 95 % confidence interval, and the mean of the other columns.
 */
void report_summary(struct run *run)
{
	struct result *res = results_of_run(run);

	if (res)
		report_each_summary(run, res, summary_line, run);
	free(res);
}

/* --plot: the run's histograms, a panel per benchmark, a line per load. */
int report_plot(const struct run *run, const char *path)
{
	struct result_run rr = { .nres = run->nrows, .nruns = 1 };
	struct cmp_input in = { .run = &rr, .file = path };
	static struct cmp_matrix m;
	struct plot_spec spec = { .title = NULL };
	char title[400], date[32], err[256];
	struct tm tm;
	int ret = -ENOMEM;

	rr.res = results_of_run(run);
	if (!rr.res)
		return ret;
	localtime_r(&run->start, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
	snprintf(title, sizeof(title), "interbench: wakeup latency, kernel %s, %s",
		 run->kernel_release, date);
	spec = (struct plot_spec){ .title = title, .subtitle = run->cfg->comment ? run->cfg->comment :
				   "", .in = &in, .m = &m };
	if (!cmp_build(&in, 1, &m, err, sizeof(err))) {
		ret = plot_results(path, &spec);
		cmp_matrix_free(&m);
	}
	free(rr.res);
	return ret;
}
