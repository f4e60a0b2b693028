// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - everything printed or written: the text table, the log, JSON, CSV. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interbench.h"

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

void report_header(struct run *run)
{
	const struct config *cfg = run->cfg;

	out(run, "\nLoad set to %d processors\n\n", cfg->cpu_load);
	out(run, "Using %lu loops per ms, running every load for %g seconds\n",
	    cfg->loops_per_ms, cfg->seconds);
	out(run, "Benchmarking kernel %s at datestamp %s\n", run->kernel_release,
	    run->datestamp);
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

/* The passes of one benchmark x load that produced numbers. */
static int gather_passes(const struct run *run, int bench, int load, double *mean,
			 double *max, double *cpu, double *dl)
{
	int n = 0;

	for (int i = 0; i < run->nrows; i++) {
		const struct row *r = &run->rows[i];

		if (r->bench != bench || r->load != load || r->status != ROW_OK || !r->b ||
		    !r->b->wake.r.n)
			continue;
		mean[n] = r->b->wake.r.mean;
		max[n] = (double)r->b->wake.r.max;
		cpu[n] = r->b->pct_cpu;
		dl[n] = r->b->pct_deadlines;
		n++;
	}
	return n;
}

static double average(const double *v, int n)
{
	double m, half;

	mean_ci95(v, n, &m, &half);
	return m;
}

/*
 * With --repeat: per benchmark, each load's mean latency over the passes with
 * its 95 % confidence interval, and the mean of the other columns.
 */
void report_summary(struct run *run)
{
	const struct config *cfg = run->cfg;
	int cap = cfg->repeat;
	double *mean = calloc((size_t)cap * 4, sizeof(double));
	double *max = mean + cap, *cpu = max + cap, *dl = cpu + cap;
	double u = unit_ns(run);
	char cell[128];

	if (!mean)
		return;
	for (size_t b = 0; b < nr_workloads; b++) {
		const struct workload *wl = &workloads[b];

		if (!(cfg->benches & (1u << b)))
			continue;
		out(run, "--- Summary of %d passes: simulated cpu of %s ---\n", cfg->repeat,
		    wl->name);
		snprintf(cell, sizeof(cell), "Latency (%s) [95%% CI]", cfg->realtime ? "us" : "ms");
		out(run, "Load\t%-30s%12s%16s", cell, "Max Latency", "% Desired CPU");
		if (!(wl->flags & WL_NODEADLINE))
			out(run, "%17s", "% Deadlines Met");
		out(run, "%8s\n", "Passes");
		for (size_t l = 0; l < nr_workloads; l++) {
			char m[32], lo[32], hi[32], mx[32], c[32], d[32];
			double avg, half;
			int n;

			if (!(cfg->loads & (1u << l)) || l == b)
				continue;
			n = gather_passes(run, (int)b, (int)l, mean, max, cpu, dl);
			if (!n) {
				out(run, "%s\tno pass produced numbers\n", workloads[l].name);
				continue;
			}
			mean_ci95(mean, n, &avg, &half);
			fmt_sig3(m, sizeof(m), avg / u);
			/* a latency is never negative, whatever the t interval says */
			fmt_sig3(lo, sizeof(lo), avg > half ? (avg - half) / u : 0.0);
			fmt_sig3(hi, sizeof(hi), (avg + half) / u);
			fmt_sig3(mx, sizeof(mx), average(max, n) / u);
			fmt_pct(c, sizeof(c), average(cpu, n));
			snprintf(cell, sizeof(cell), "%7s [%s, %s]", m, lo, hi);
			out(run, "%s\t%-30s%12s%16s", workloads[l].name, cell, mx, c);
			if (!(wl->flags & WL_NODEADLINE)) {
				fmt_pct(d, sizeof(d), average(dl, n));
				out(run, "%17s", d);
			}
			out(run, "%8d\n", n);
		}
		out(run, "\n");
	}
	free(mean);
}
