// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - everything printed or written: the text table, the log, JSON, CSV. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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


/* ---- the pieces of the machine-readable files ---- */

void sb_init(struct sbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void sb_free(struct sbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_add(struct sbuf *sb, const char *s, size_t n)
{
	if (sb->failed)
		return;
	if (sb->cap - sb->len <= n) {
		size_t cap = sb->cap ? sb->cap : 4096;
		char *nb;

		while (cap - sb->len <= n)
			cap *= 2;
		nb = realloc(sb->buf, cap);
		if (!nb) {
			sb->failed = true;
			return;
		}
		sb->buf = nb;
		sb->cap = cap;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static void sb_puts(struct sbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	char buf[256], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	if ((size_t)n < sizeof(buf)) {
		sb_add(sb, buf, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);	/* a long piece: format it again, whole */
	if (!big) {
		sb->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_add(sb, big, (size_t)n);
	free(big);
}

/* Bytes of the well-formed UTF-8 sequence at s (RFC 3629), 0 when it is not one. */
size_t utf8_valid_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] && s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		lo = s[0] == 0xe0 ? 0xa0 : 0x80;	/* overlong */
		hi = s[0] == 0xed ? 0x9f : 0xbf;	/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		lo = s[0] == 0xf0 ? 0x90 : 0x80;	/* overlong */
		hi = s[0] == 0xf4 ? 0x8f : 0xbf;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * A JSON string: quotes and backslashes escaped, control characters as
 * \uXXXX (or their short forms), UTF-8 passed through, and every byte that
 * is not part of well-formed UTF-8 replaced by U+FFFD, so the file always
 * parses. NULL is null.
 */
void json_string(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	static const char short_esc[0x20] = {
		['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
	};

	if (!s) {
		sb_puts(sb, "null");
		return;
	}
	sb_add(sb, "\"", 1);
	while (*p) {
		size_t n = utf8_valid_len(p);

		if (*p == '"' || *p == '\\') {
			sb_add(sb, "\\", 1);
			sb_add(sb, (const char *)p, 1);
		} else if (*p < 0x20 && short_esc[*p]) {
			sb_add(sb, "\\", 1);
			sb_add(sb, &short_esc[*p], 1);
		} else if (*p < 0x20 || *p == 0x7f) {
			sb_printf(sb, "\\u%04x", *p);
		} else if (n) {
			sb_add(sb, (const char *)p, n);
			p += n;
			continue;
		} else {
			sb_puts(sb, "\\ufffd");
		}
		p++;
	}
	sb_add(sb, "\"", 1);
}

/* The shortest form that reads back as the same double; null for NaN and infinities. */
void json_number(struct sbuf *sb, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		sb_puts(sb, "null");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	sb_puts(sb, buf);
}

/*
 * A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
 * break, quotes doubled; bytes that are not UTF-8 become U+FFFD. NULL is
 * the empty field.
 */
void csv_field(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool quote = s && strpbrk(s, ",\"\r\n");

	if (!s)
		return;
	if (quote)
		sb_add(sb, "\"", 1);
	while (*p) {
		size_t n = utf8_valid_len(p);

		if (*p == '"')
			sb_add(sb, "\"\"", 2);
		else if (n)
			sb_add(sb, (const char *)p, n);
		else
			sb_puts(sb, "\xef\xbf\xbd");
		p += n ? n : 1;
	}
	if (quote)
		sb_add(sb, "\"", 1);
}

/* Local time with its offset: 2026-11-29T18:49:03+01:00. */
void fmt_iso8601(char *buf, size_t len, time_t t)
{
	struct tm tm;
	char z[8];
	size_t n;

	localtime_r(&t, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	if (strftime(z, sizeof(z), "%z", &tm) == 5)
		snprintf(buf + n, len - n, "%.3s:%s", z, z + 3);
}

/* ---- JSON ---- */

struct jw {			/* a pretty-printing JSON writer */
	struct sbuf *sb;
	int depth;
	bool first;		/* nothing yet in the open object or array */
};

/* The separator, indentation and key before a value. */
static void jw_key(struct jw *w, const char *key)
{
	if (w->depth) {
		sb_puts(w->sb, w->first ? "\n" : ",\n");
		for (int i = 0; i < w->depth; i++)
			sb_add(w->sb, "  ", 2);
	}
	if (key) {
		json_string(w->sb, key);
		sb_add(w->sb, ": ", 2);
	}
	w->first = false;
}

static void jw_open(struct jw *w, const char *key, char c)
{
	jw_key(w, key);
	sb_add(w->sb, &c, 1);
	w->depth++;
	w->first = true;
}

static void jw_close(struct jw *w, char c)
{
	w->depth--;
	if (!w->first) {
		sb_add(w->sb, "\n", 1);
		for (int i = 0; i < w->depth; i++)
			sb_add(w->sb, "  ", 2);
	}
	sb_add(w->sb, &c, 1);
	w->first = false;
}

static void jw_str(struct jw *w, const char *key, const char *v)
{
	jw_key(w, key);
	json_string(w->sb, v);
}

/* A string that is null when empty: what could not be read. */
static void jw_known(struct jw *w, const char *key, const char *v)
{
	jw_str(w, key, v && *v ? v : NULL);
}

static void jw_num(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	json_number(w->sb, v);
}

static void jw_int(struct jw *w, const char *key, long long v)	/* SI_UNKNOWN: null */
{
	jw_key(w, key);
	if (v == SI_UNKNOWN)
		sb_puts(w->sb, "null");
	else
		sb_printf(w->sb, "%lld", v);
}

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	sb_printf(w->sb, "%llu", (unsigned long long)v);
}

static void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_key(w, key);
	sb_puts(w->sb, v ? "true" : "false");
}

static void jw_null(struct jw *w, const char *key)
{
	jw_key(w, key);
	sb_puts(w->sb, "null");
}

static const char *status_name(int status)
{
	switch (status) {
	case ROW_OK: return "ok";
	case ROW_FAILED: return "failed";
	default: return "skipped";
	}
}

static void json_run(struct jw *w, const struct run *run)
{
	const struct config *cfg = run->cfg;
	char t[40];

	jw_open(w, "run", '{');
	jw_open(w, "command_line", '[');
	for (int i = 0; i < cfg->argc; i++)
		jw_str(w, NULL, cfg->argv[i]);
	jw_close(w, ']');
	fmt_iso8601(t, sizeof(t), run->start);
	jw_str(w, "start", t);
	fmt_iso8601(t, sizeof(t), run->end);
	jw_str(w, "end", run->end ? t : NULL);
	jw_num(w, "seconds_per_row", cfg->seconds);
	jw_u64(w, "loops_per_ms", cfg->loops_per_ms);
	jw_int(w, "cpu_load", cfg->cpu_load);
	jw_bool(w, "realtime", cfg->realtime);
	jw_int(w, "bench_nice", cfg->bench_nice);
	jw_int(w, "load_nice", cfg->load_nice);
	jw_str(w, "comment", cfg->comment);
	jw_bool(w, "interrupted", run->interrupted);
	jw_int(w, "signal", run->interrupted ? run->interrupted : SI_UNKNOWN);
	jw_int(w, "rt_priority", cfg->realtime ? cfg->rt_priority : SI_UNKNOWN);
	jw_bool(w, "waker_fifo", run->waker_rt);
	jw_bool(w, "uniprocessor", cfg->uniprocessor);
	jw_int(w, "repeat", cfg->repeat);
	jw_int(w, "trace_above_us", cfg->trace_above_us > 0 ? cfg->trace_above_us : SI_UNKNOWN);
	jw_close(w, '}');
}

static void json_system(struct jw *w, const struct run *run)
{
	static const struct sysinfo none = {
		.preempt_dynamic = -1, .cpus_online = -1, .sched_rt_runtime_us = SI_UNKNOWN,
		.sched_rt_period_us = SI_UNKNOWN, .timer_slack_ns = SI_UNKNOWN,
		.pm_qos_us = SI_UNKNOWN, .mem_kib = SI_UNKNOWN, .swap_kib = SI_UNKNOWN,
	};
	const struct sysinfo *si = run->sys ? run->sys : &none;

	jw_open(w, "system", '{');
	jw_known(w, "kernel_release", run->kernel_release);
	jw_known(w, "kernel_version", si->kernel_version);
	jw_known(w, "preemption", si->preemption);
	jw_known(w, "preemption_source", si->preemption_source);
	if (si->preempt_dynamic < 0)
		jw_null(w, "preempt_dynamic");
	else
		jw_bool(w, "preempt_dynamic", si->preempt_dynamic);
	jw_known(w, "hostname", si->hostname);
	jw_known(w, "cpu_model", si->cpu_model);
	jw_int(w, "cpus_online", si->cpus_online > 0 ? si->cpus_online : SI_UNKNOWN);
	jw_known(w, "cpufreq_governor", si->cpufreq_governor);
	jw_known(w, "clocksource", si->clocksource);
	jw_int(w, "sched_rt_runtime_us", si->sched_rt_runtime_us);
	jw_int(w, "sched_rt_period_us", si->sched_rt_period_us);
	jw_int(w, "timer_slack_ns", si->timer_slack_ns);
	jw_int(w, "pm_qos_us", si->pm_qos_us);
	jw_int(w, "mem_kib", si->mem_kib);
	jw_int(w, "swap_kib", si->swap_kib);
	jw_known(w, "work_dir_fs", si->work_dir_fs);
	jw_known(w, "work_dir_device", si->work_dir_device);
	jw_known(w, "io_scheduler", si->io_scheduler);
	jw_known(w, "kernel_cmdline", si->kernel_cmdline);
	jw_close(w, '}');
}

/*
 * The summary of a latency, or nothing when it has no samples. Mean and SD
 * are kept to 0.001 ns: more digits are noise and only make files longer.
 */
static bool summarize(const struct latency *l, struct summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!l || !l->r.n)
		return false;
	latency_summary(l, s);
	s->mean = round(s->mean * 1e3) / 1e3;
	s->sd = round(s->sd * 1e3) / 1e3;
	return true;
}

static void json_latency(struct jw *w, const char *key, const struct latency *l)
{
	struct summary s;
	double nan = NAN;
	bool have = summarize(l, &s);

	jw_open(w, key, '{');
	jw_num(w, "min", have ? s.min : nan);
	jw_num(w, "mean", have ? s.mean : nan);
	jw_num(w, "sd", have ? s.sd : nan);
	jw_num(w, "max", have ? s.max : nan);
	jw_num(w, "p50", have ? s.p50 : nan);
	jw_num(w, "p90", have ? s.p90 : nan);
	jw_num(w, "p99", have ? s.p99 : nan);
	jw_num(w, "p999", have ? s.p999 : nan);
	jw_close(w, '}');
}

/* [[upper bound (exclusive), count], ...] of the non-empty buckets, on one line. */
static void json_histogram(struct jw *w, const struct latency *l)
{
	bool first = true;

	jw_key(w, "histogram");
	sb_add(w->sb, "[", 1);
	for (unsigned b = 0; l && b < HIST_BUCKETS; b++) {
		uint64_t upper = b == HIST_BUCKETS - 1 ? l->r.max + 1 : hist_upper(b);

		if (!l->hist[b])
			continue;
		sb_printf(w->sb, "%s[%llu, %llu]", first ? "" : ", ", (unsigned long long)upper,
			  (unsigned long long)l->hist[b]);
		first = false;
	}
	sb_add(w->sb, "]", 1);
}

static double intensity_of(const struct row *row)
{
	const struct workload *wl = &workloads[row->load];

	return wl->intensity == INT_NONE || row->l.intensity < 0 ? NAN : row->l.intensity;
}

static const char *intensity_unit(const struct row *row)
{
	const char *u = workloads[row->load].unit;

	return u && *u ? u : NULL;
}

static bool has_periods(const struct row *row)
{
	return row->b && !(workloads[row->bench].flags & WL_NODEADLINE);
}

static double pct_deadlines(const struct row *row)
{
	return has_periods(row) && row->b->pct_deadlines >= 0 ? row->b->pct_deadlines : NAN;
}

static void json_result(struct jw *w, const struct row *row)
{
	const struct bench_result *b = row->b;

	jw_open(w, NULL, '{');
	jw_str(w, "benchmark", workloads[row->bench].name);
	jw_str(w, "load", workloads[row->load].name);
	jw_int(w, "pass", row->pass + 1);
	jw_str(w, "status", status_name(row->status));
	jw_known(w, "reason", row->reason);
	jw_int(w, "samples", b ? (long long)b->wake.r.n : SI_UNKNOWN);
	json_latency(w, "latency_ns", b ? &b->wake : NULL);
	json_latency(w, "timer_latency_ns", b ? &b->timer : NULL);
	json_histogram(w, b ? &b->wake : NULL);
	jw_num(w, "pct_desired_cpu", b ? b->pct_cpu : NAN);
	jw_num(w, "pct_deadlines_met", pct_deadlines(row));
	jw_open(w, "load_intensity", '{');
	jw_num(w, "value", intensity_of(row));
	jw_str(w, "unit", intensity_unit(row));
	jw_close(w, '}');
	if (has_periods(row)) {
		jw_open(w, "periods", '{');
		jw_u64(w, "met", b->acct.met);
		jw_u64(w, "missed", b->acct.missed);
		jw_u64(w, "dropped", b->acct.dropped);
		jw_close(w, '}');
	} else {
		jw_null(w, "periods");
	}
	jw_int(w, "task_cpu_ns", b ? (long long)b->task_cpu_ns : SI_UNKNOWN);
	jw_int(w, "wall_ns", b ? (long long)b->wall_ns : SI_UNKNOWN);
	jw_int(w, "load_stop_ns", row->load_stop_ns ? (long long)row->load_stop_ns : SI_UNKNOWN);
	jw_int(w, "trace_triggered_ns", b && b->traced_ns ? (long long)b->traced_ns : SI_UNKNOWN);
	jw_close(w, '}');
}

/* Per benchmark x load, over the passes (--repeat): what the summary table shows, in ns. */
static void json_summary(struct jw *w, const struct run *run)
{
	const struct config *cfg = run->cfg;

	jw_open(w, "summary", '[');
	for (size_t b = 0; b < nr_workloads; b++) {
		for (size_t l = 0; l < nr_workloads; l++) {
			struct pass_summary ps;

			if (!(cfg->benches & (1u << b)) || !(cfg->loads & (1u << l)) || l == b)
				continue;
			summarize_passes(run, (int)b, (int)l, &ps);
			jw_open(w, NULL, '{');
			jw_str(w, "benchmark", workloads[b].name);
			jw_str(w, "load", workloads[l].name);
			jw_int(w, "passes", ps.passes);
			jw_num(w, "latency_mean_ns", ps.passes ? ps.mean : NAN);
			jw_num(w, "latency_mean_ci95_low_ns", ps.passes ? ps.mean - ps.half : NAN);
			jw_num(w, "latency_mean_ci95_high_ns", ps.passes ? ps.mean + ps.half : NAN);
			jw_num(w, "latency_max_mean_ns", ps.passes ? ps.max_mean : NAN);
			jw_num(w, "pct_desired_cpu_mean", ps.passes ? ps.cpu_mean : NAN);
			jw_num(w, "pct_deadlines_met_mean",
			       ps.passes && !(workloads[b].flags & WL_NODEADLINE) ? ps.dl_mean : NAN);
			jw_close(w, '}');
		}
	}
	jw_close(w, ']');
}

static void build_json(struct sbuf *sb, const struct run *run)
{
	struct jw w = { .sb = sb, .first = true };

	jw_open(&w, NULL, '{');
	jw_open(&w, "interbench", '{');
	jw_str(&w, "version", INTERBENCH_VERSION);
	jw_int(&w, "schema", 1);
	jw_close(&w, '}');
	json_run(&w, run);
	json_system(&w, run);
	jw_open(&w, "results", '[');
	for (int i = 0; i < run->nrows; i++)
		json_result(&w, &run->rows[i]);
	jw_close(&w, ']');
	json_summary(&w, run);
	jw_close(&w, '}');
	sb_add(sb, "\n", 1);
}

/* ---- CSV: one line per result; the same code writes the header ---- */

struct csv_line {
	struct sbuf *sb;
	bool header;		/* write the column names instead of the values */
	int n;			/* columns so far */
};

static void col_str(struct csv_line *c, const char *name, const char *v)
{
	if (c->n++)
		sb_add(c->sb, ",", 1);
	csv_field(c->sb, c->header ? name : v);
}

/* NaN is the empty field. */
static void col_num(struct csv_line *c, const char *name, double v)
{
	if (c->header || !isfinite(v)) {
		col_str(c, name, NULL);
		return;
	}
	if (c->n++)
		sb_add(c->sb, ",", 1);
	json_number(c->sb, v);
}

/* SI_UNKNOWN is the empty field. */
static void col_int(struct csv_line *c, const char *name, long long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", v);
	col_str(c, name, v == SI_UNKNOWN ? NULL : buf);
}

static void col_latency(struct csv_line *c, const char *prefix, const struct latency *l)
{
	static const char *const names[] = {
		"min", "mean", "sd", "max", "p50", "p90", "p99", "p999",
	};
	struct summary s;
	bool have = summarize(l, &s);
	double v[] = { s.min, s.mean, s.sd, s.max, s.p50, s.p90, s.p99, s.p999 };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char name[40];

		snprintf(name, sizeof(name), "%s_%s_ns", prefix, names[i]);
		col_num(c, name, have ? v[i] : NAN);
	}
}

static void col_periods(struct csv_line *c, const struct row *row)
{
	const struct acct *a = has_periods(row) ? &row->b->acct : NULL;

	col_int(c, "periods_met", a ? (long long)a->met : SI_UNKNOWN);
	col_int(c, "periods_missed", a ? (long long)a->missed : SI_UNKNOWN);
	col_int(c, "periods_dropped", a ? (long long)a->dropped : SI_UNKNOWN);
}

/* The run's context on every line, so lines of several runs can be mixed. */
static void col_context(struct csv_line *c, const struct run *run)
{
	const struct sysinfo *si = run->sys;
	const struct config *cfg = run->cfg;

	col_num(c, "seconds_per_row", cfg->seconds);
	col_int(c, "loops_per_ms", (long long)cfg->loops_per_ms);
	col_int(c, "cpu_load", cfg->cpu_load);
	col_int(c, "bench_nice", cfg->bench_nice);
	col_int(c, "load_nice", cfg->load_nice);
	col_int(c, "interrupted", !!run->interrupted);
	col_str(c, "preemption", si && si->preemption[0] ? si->preemption : NULL);
	col_str(c, "clocksource", si && si->clocksource[0] ? si->clocksource : NULL);
	col_str(c, "cpufreq_governor", si && si->cpufreq_governor[0] ? si->cpufreq_governor : NULL);
	col_int(c, "pm_qos_us", si ? si->pm_qos_us : SI_UNKNOWN);
	col_str(c, "hostname", si && si->hostname[0] ? si->hostname : NULL);
}

/* The first 22 columns are fixed: --compare reads them by these names. */
static void csv_line(struct sbuf *sb, const struct run *run, const struct row *row, bool header)
{
	struct csv_line c = { .sb = sb, .header = header };
	const struct bench_result *b = row->b;
	char start[40];

	fmt_iso8601(start, sizeof(start), run->start);
	col_str(&c, "kernel_release", run->kernel_release);
	col_str(&c, "comment", run->cfg->comment);
	col_str(&c, "start", start);
	col_int(&c, "pass", row->pass + 1);
	col_int(&c, "realtime", run->cfg->realtime);
	col_str(&c, "benchmark", workloads[row->bench].name);
	col_str(&c, "load", workloads[row->load].name);
	col_str(&c, "status", status_name(row->status));
	col_str(&c, "reason", row->reason[0] ? row->reason : NULL);
	col_int(&c, "samples", b ? (long long)b->wake.r.n : SI_UNKNOWN);
	col_latency(&c, "latency", b ? &b->wake : NULL);
	col_num(&c, "pct_desired_cpu", b ? b->pct_cpu : NAN);
	col_num(&c, "pct_deadlines_met", pct_deadlines(row));
	col_num(&c, "load_intensity", intensity_of(row));
	col_str(&c, "load_intensity_unit", intensity_unit(row));
	col_latency(&c, "timer", b ? &b->timer : NULL);
	col_periods(&c, row);
	col_int(&c, "task_cpu_ns", b ? (long long)b->task_cpu_ns : SI_UNKNOWN);
	col_int(&c, "wall_ns", b ? (long long)b->wall_ns : SI_UNKNOWN);
	col_int(&c, "load_stop_ns", row->load_stop_ns ? (long long)row->load_stop_ns : SI_UNKNOWN);
	col_int(&c, "trace_triggered_ns", b && b->traced_ns ? (long long)b->traced_ns : SI_UNKNOWN);
	col_context(&c, run);
	sb_add(sb, "\n", 1);
}

static void build_csv(struct sbuf *sb, const struct run *run)
{
	static const struct row none;

	csv_line(sb, run, &none, true);
	for (int i = 0; i < run->nrows; i++)
		csv_line(sb, run, &run->rows[i], false);
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

/*
 * The passes of one benchmark x load that produced numbers: the mean latency
 * over the passes with the half-width of its 95 % confidence interval, and
 * the means of the other columns. Returns the number of passes used.
 */
int summarize_passes(const struct run *run, int bench, int load, struct pass_summary *ps)
{
	int cap = run->cfg->repeat > 0 ? run->cfg->repeat : 1, n = 0;
	double *v = calloc((size_t)cap * 4, sizeof(double));
	double *max = v + cap, *cpu = max + cap, *dl = cpu + cap, half;

	memset(ps, 0, sizeof(*ps));
	if (!v)
		return 0;
	for (int i = 0; i < run->nrows && n < cap; i++) {
		const struct row *r = &run->rows[i];

		if (r->bench != bench || r->load != load || r->status != ROW_OK || !r->b ||
		    !r->b->wake.r.n)
			continue;
		v[n] = r->b->wake.r.mean;
		max[n] = (double)r->b->wake.r.max;
		cpu[n] = r->b->pct_cpu;
		dl[n] = r->b->pct_deadlines;
		n++;
	}
	ps->passes = n;
	if (n) {
		mean_ci95(v, n, &ps->mean, &ps->half);
		mean_ci95(max, n, &ps->max_mean, &half);
		mean_ci95(cpu, n, &ps->cpu_mean, &half);
		mean_ci95(dl, n, &ps->dl_mean, &half);
	}
	free(v);
	return n;
}

/*
 * With --repeat: per benchmark, each load's mean latency over the passes with
 * its 95 % confidence interval, and the mean of the other columns.
 */
void report_summary(struct run *run)
{
	const struct config *cfg = run->cfg;
	double u = unit_ns(run);
	char cell[128];

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
			struct pass_summary ps;

			if (!(cfg->loads & (1u << l)) || l == b)
				continue;
			if (!summarize_passes(run, (int)b, (int)l, &ps)) {
				out(run, "%s\tno pass produced numbers\n", workloads[l].name);
				continue;
			}
			fmt_sig3(m, sizeof(m), ps.mean / u);
			/* a latency is never negative, whatever the t interval says */
			fmt_sig3(lo, sizeof(lo), ps.mean > ps.half ? (ps.mean - ps.half) / u : 0.0);
			fmt_sig3(hi, sizeof(hi), (ps.mean + ps.half) / u);
			fmt_sig3(mx, sizeof(mx), ps.max_mean / u);
			fmt_pct(c, sizeof(c), ps.cpu_mean);
			snprintf(cell, sizeof(cell), "%7s [%s, %s]", m, lo, hi);
			out(run, "%s\t%-30s%12s%16s", workloads[l].name, cell, mx, c);
			if (!(wl->flags & WL_NODEADLINE)) {
				fmt_pct(d, sizeof(d), ps.dl_mean);
				out(run, "%17s", d);
			}
			out(run, "%8d\n", ps.passes);
		}
		out(run, "\n");
	}
}
