// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - everything printed or written: the text table, the log, JSON, CSV. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "interbench.h"
#include "sysinfo.h"

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
		va_start(ap, fmt);
		vfprintf(run->log, fmt, ap);
		va_end(ap);
		fflush(run->log);
	}
}

/*
 * About three significant figures, never in exponent form and never
 * rounding a small value to zero: 0.00523, 0.104, 2.10, 31.4, 2113.
 */
void fmt_sig3(char *buf, size_t len, double v)
{
	int decimals;

	if (v == 0.0 || !isfinite(v)) {
		snprintf(buf, len, "%s", v == 0.0 ? "0" : "-");
		return;
	}
	decimals = 2 - (int)floor(log10(fabs(v)));
	/* 99.96 rounds to 100.0: one digit more before the point, one less after */
	if (decimals > 0 && fabs(v) >= 1.0 &&
	    round(fabs(v) * pow(10, decimals)) >= pow(10, 3))
		decimals--;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	snprintf(buf, len, "%.*f", decimals, v);
}

/* Percentages: 100 stays "100", 99.95 does not become "100". */
static void fmt_pct(char *buf, size_t len, double v)
{
	if (v >= 100.0)
		snprintf(buf, len, "100");
	else if (v >= 99.9)
		snprintf(buf, len, "%.2f", floor(v * 100.0) / 100.0);
	else
		fmt_sig3(buf, len, v);
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
	const struct sysinfo *si = run->sys;

	if (!si)
		return;
	if (si->preemption[0])
		out(run, "Preemption: %s (%s)", si->preemption, si->preemption_source);
	else
		out(run, "Preemption: unknown");
	out(run, ", clocksource: %s, governor: %s, PM QoS: ", or_dash(si->clocksource),
	    or_dash(si->cpufreq_governor));
	if (si->pm_qos_us == SI_UNKNOWN)
		out(run, "untouched\n");
	else
		out(run, "%lld us\n", si->pm_qos_us);
}

void report_header(struct run *run)
{
	const struct config *cfg = run->cfg;

	out(run, "\nLoad set to %d processors\n\n", cfg->cpu_load);
	out(run, "Using %lu loops per ms, running every load for %g seconds\n",
	    cfg->loops_per_ms, cfg->seconds);
	out(run, "Benchmarking kernel %s at datestamp %s\n", run->kernel_release,
	    run->datestamp);
	print_context(run);
	if (cfg->comment)
		print_comment(run);
	out(run, "\n");
}

static double unit_ns(const struct run *run)
{
	return run->cfg->realtime ? 1e3 : 1e6;	/* us for -r, else ms */
}

void report_heading(struct run *run, int bench)
{
	const struct config *cfg = run->cfg;
	const struct workload *wl = &workloads[bench];

	out(run, "--- Benchmarking simulated cpu of %s ", wl->name);
	if (cfg->realtime)
		out(run, "real time ");
	else if (cfg->bench_nice)
		out(run, "nice %d ", cfg->bench_nice);
	out(run, "in the presence of simulated ");
	if (cfg->load_nice)
		out(run, "nice %d ", cfg->load_nice);
	out(run, "---\n");
	out(run, "Load\tLatency +/- SD (%s)  Max Latency   %% Desired CPU",
	    cfg->realtime ? "us" : "ms");
	if (!(wl->flags & WL_NODEADLINE))
		out(run, "  %% Deadlines Met");
	if (cfg->percentiles)
		out(run, "       p99     p99.9");
	out(run, "  Load intensity\n");
}

static void fmt_intensity(char *buf, size_t len, const struct row *row)
{
	const struct workload *wl = &workloads[row->load];
	char v[32];

	if (wl->intensity == INT_NONE || row->l.intensity < 0) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_sig3(v, sizeof(v), row->l.intensity);
	snprintf(buf, len, "%s %s", v, wl->unit);
}

/* Once, on stderr: the row whose latency stopped the kernel's trace. */
static void report_trace_stop(const struct run *run, const struct row *row)
{
	const struct sysinfo *si = run->sys;
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
	const struct bench_result *b = row->b;
	char mean[32], sd[32], max[32], cpu[32], dl[32], p99[32], p999[32], inten[64];
	double u = unit_ns(run);
	struct summary s;

	if (row->status == ROW_FAILED || !b) {
		out(run, "%s\tfailed: %s\n", workloads[row->load].name, row->reason);
		return;
	}
	latency_summary(&b->wake, &s);
	fmt_sig3(mean, sizeof(mean), s.mean / u);
	fmt_sig3(sd, sizeof(sd), s.sd / u);
	fmt_sig3(max, sizeof(max), s.max / u);
	fmt_pct(cpu, sizeof(cpu), b->pct_cpu);
	fmt_intensity(inten, sizeof(inten), row);
	out(run, "%s\t%7s +/- %-8s%12s%16s", workloads[row->load].name, mean, sd, max, cpu);
	if (!(bwl->flags & WL_NODEADLINE)) {
		fmt_pct(dl, sizeof(dl), b->pct_deadlines);
		out(run, "%17s", dl);
	}
	if (run->cfg->percentiles) {
		fmt_sig3(p99, sizeof(p99), s.p99 / u);
		fmt_sig3(p999, sizeof(p999), s.p999 / u);
		out(run, "%10s%10s", p99, p999);
	}
	out(run, "  %s", inten);
	if (row->reason[0])
		out(run, " (%s)", row->reason);
	out(run, "\n");
	report_trace_stop(run, row);
}

void report_table_end(struct run *run)
{
	out(run, "\n");
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


void report_files(struct run *run)
{
	(void)run;
}
