// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_results.c - unit tests: reading results back and the comparison tables. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "compare/compare.h"
#include "child/child.h"
#include "cli/options.h"
#include "model/plan.h"
#include "task/task.h"

#include "tests/unit.h"
#include "core/verdict_stats.h"
#include "lib/numfmt.h"
#include "formats/readers.h"
#include "model/metrics.h"

/* ---- reading results back: logs and CSV ---- */

#define OURS_HEAD "\nLoad set to 2 processors\n\nUsing 100 loops per ms, running every load for 2 seconds\n"
#define AUDIO_HEADING "--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n" \
	"Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU  % Deadlines Met  Load intensity\n"
#define OURS_ROW "None\t  0.137 +/- 0.0365         0.314             100              100  -\n"
#define OLD_HEADING "--- Benchmarking simulated cpu of Video real time in the presence of simulated ---\n" \
	"Load\tLatency +/- SD (us)  Max Latency   % Desired CPU  % Deadlines Met\n"
#define FORK_HEADING "--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n" \
	"Load\tLatency +/- SD   median  max [us]\tDesired CPU  Deadlines met [%]\n"
#define CSV_HEAD "kernel_release,comment,start,pass,realtime,benchmark,load,status,reason,samples," \
	"latency_min_ns,latency_mean_ns,latency_sd_ns,latency_max_ns,latency_p50_ns,latency_p90_ns," \
	"latency_p99_ns,latency_p999_ns,pct_desired_cpu,pct_deadlines_met,load_intensity," \
	"load_intensity_unit,extra\n"

#define CSV_HEAD_KNOBS "kernel_release,comment,start,pass,realtime,benchmark,load,status,reason," \
	"samples,latency_min_ns,latency_mean_ns,latency_sd_ns,latency_max_ns,latency_p50_ns," \
	"latency_p90_ns,latency_p99_ns,latency_p999_ns,pct_desired_cpu,pct_deadlines_met," \
	"load_intensity,load_intensity_unit,policy,rt_priority,slice_us\n"

struct parse_case {
	const char *name;
	const char *text;
	int nruns;			/* column groups */
	int nobs;			/* rows of the first */
	const char *kernel, *comment;	/* of the first */
	const char *bench, *load;	/* its first row */
	bool realtime, failed;
	double mean_ns, sd_ns, max_ns, cpu, dl, p99_ns;	/* NAN: not given */
};

static const struct parse_case parse_cases[] = {
	{ "our log", OURS_HEAD "Benchmarking kernel 6.18.4 at datestamp 202611291849\nComment: a b\n"
	  "Preemption: full\n\n" AUDIO_HEADING OURS_ROW "\n", 1, 1, "6.18.4", "a b", "Audio",
	  "None", false, false, 137000, 36500, 314000, 100, 100, NAN },
	{ "interbench 0.31 log, real time in us", "Benchmarking kernel 2.6.12 at datestamp 200507200816\n\n\n"
	  OLD_HEADING "Memload\t   6.0 +/- 7.81     299.0\t\t 100\t        94.8\n\n", 1, 1,
	  "2.6.12", "", "Video", "Memload", true, false, 6000, 7810, 299000, 100, 94.8, NAN },
	{ "0.31 log without any header line", OLD_HEADING "None\t   3.0 +/- 0.7      6.0\t\t 100\t 100\n",
	  1, 1, "", "", "Video", "None", true, false, 3000, 700, 6000, 100, 100, NAN },
	{ "Gaming: no deadline column", "--- Benchmarking simulated cpu of Gaming in the presence of "
	  "simulated ---\nLoad\tLatency +/- SD (ms)  Max Latency   % Desired CPU  Load intensity\n"
	  "Burn\t   1.00 +/- 2.00            10.0            66.7  1.80 CPUs\n\n", 1, 1, "", "",
	  "Gaming", "Burn", false, false, 1e6, 2e6, 1e7, 66.7, NAN, NAN },
	{ "--percentiles columns", AUDIO_HEADING
	  "None\t  0.137 +/- 0.0365         0.314             100              100      0.25      0.30  -\n",
	  1, 1, "", "", "Audio", "None", false, false, 137000, 36500, 314000, 100, 100, NAN },
	{ "a failed row", AUDIO_HEADING "Burn\tfailed: load process died\n\n", 1, 1, "", "",
	  "Audio", "Burn", false, true, NAN, NAN, NAN, NAN, NAN, NAN },
	{ "load names in any case come out as ours", AUDIO_HEADING
	  "memload\t  0.137 +/- 0.0365         0.314             100              100  -\n", 1, 1,
	  "", "", "Audio", "Memload", false, false, 137000, 36500, 314000, 100, 100, NAN },
	{ "CRLF line ends", "Benchmarking kernel 1 at datestamp 2\r\n\r\n" AUDIO_HEADING
	  "None\t 1 +/- 1  2  100  100  -\r\n\r\n", 1, 1, "1", "", "Audio", "None", false, false,
	  1e6, 1e6, 2e6, 100, 100, NAN },
	{ "two runs, same kernel and comment: one group, two passes",
	  "Benchmarking kernel 1 at datestamp 2\nComment: x\n\n" AUDIO_HEADING OURS_ROW "\n"
	  "Benchmarking kernel 1 at datestamp 3\nComment: x\n\n" AUDIO_HEADING OURS_ROW "\n",
	  1, 2, "1", "x", "Audio", "None", false, false, 137000, 36500, 314000, 100, 100, NAN },
	{ "two comments: two groups", "Benchmarking kernel 1 at datestamp 2\nComment: x\n\n"
	  AUDIO_HEADING OURS_ROW "\nBenchmarking kernel 1 at datestamp 3\nComment: y\n\n"
	  AUDIO_HEADING OURS_ROW "\n", 2, 1, "1", "x", "Audio", "None", false, false, 137000,
	  36500, 314000, 100, 100, NAN },
	{ "same kernel and comment, same knobs: one group, two passes",
	  "Benchmarking kernel 1 at datestamp 2\nScheduling: policy fifo, rt-priority 40\n\n"
	  AUDIO_HEADING OURS_ROW "\nBenchmarking kernel 1 at datestamp 3\n"
	  "Scheduling: policy fifo, rt-priority 40\n\n" AUDIO_HEADING OURS_ROW "\n",
	  1, 2, "1", "", "Audio", "None", false, false, 137000, 36500, 314000, 100, 100, NAN },
	{ "same kernel and comment, other knobs: never pooled",
	  "Benchmarking kernel 1 at datestamp 2\nScheduling: policy other, slice default\n\n"
	  AUDIO_HEADING OURS_ROW "\nBenchmarking kernel 1 at datestamp 3\n"
	  "Scheduling: policy other, slice 3000 us\n\n" AUDIO_HEADING OURS_ROW "\n"
	  "Benchmarking kernel 1 at datestamp 4\n\n" AUDIO_HEADING OURS_ROW "\n",
	  3, 1, "1", "", "Audio", "None", false, false, 137000, 36500, 314000, 100, 100, NAN },
	{ "CSV: runs of other knobs are other groups", CSV_HEAD_KNOBS
	  "1,c,s1,1,0,Audio,X,ok,,1,1,2,3,4,,,,,100,100,,,deadline,,\n"
	  "1,c,s2,1,0,Audio,X,ok,,1,1,2,3,4,,,,,100,100,,,other,,3000\n",
	  2, 1, "1", "c", "Audio", "X", false, false, 2, 3, 4, 100, 100, NAN },
	{ "--repeat: the heading again is another pass", AUDIO_HEADING OURS_ROW "\n" AUDIO_HEADING
	  OURS_ROW "\n", 1, 2, "", "", "Audio", "None", false, false, 137000, 36500, 314000,
	  100, 100, NAN },
	{ "an interrupted run keeps its rows", "Benchmarking kernel 1 at datestamp 2\n\n" AUDIO_HEADING
	  OURS_ROW "\nInterrupted by signal 2 (SIGINT) after 1 row\n", 1, 1, "1", "", "Audio",
	  "None", false, false, 137000, 36500, 314000, 100, 100, NAN },
	{ "our CSV, quoted fields", CSV_HEAD "6.18.4,\"a, \"\"b\"\"\",2026-11-29T18:49:00Z,0,1,Video,"
	  "Burn,ok,\"two\nlines\",10,1000,2000,300,9000,1900,2500,8000,8900,99.5,98,1.9,CPUs,7\n",
	  1, 1, "6.18.4", "a, \"b\"", "Video", "Burn", true, false, 2000, 300, 9000, 99.5, 98,
	  8000 },
	{ "CSV: empty fields are null, failed status", CSV_HEAD "6.18.4,,s,0,0,Audio,X,failed,"
	  "died,,,,,,,,,,,,,,\r\n", 1, 1, "6.18.4", "", "Audio", "X", false, true, NAN, NAN,
	  NAN, NAN, NAN, NAN },
};

struct parse_err_case {
	const char *name;
	const char *text;
	const char *want_err;		/* a piece of the message */
	size_t len;			/* 0: strlen(text) */
};

static const struct parse_err_case parse_err_cases[] = {
	{ "empty", "", "empty file", 0 },
	{ "binary", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "binary", 16 },
	{ "another text format", "root:x:0:0:root:/root:/bin/bash\n", "not an interbench log", 0 },
	{ "a row cut in the middle", AUDIO_HEADING "None\t  0.137 +/- 0.03", "ends in the middle", 0 },
	{ "a row missing columns", AUDIO_HEADING "None\t  0.137 +/- 0.0365\n\n", "cut short", 0 },
	{ "a heading with no rows", "Benchmarking kernel 1 at datestamp 2\n\n" AUDIO_HEADING,
	  "has no rows", 0 },
	{ "a heading alone", "--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n",
	  "has no table", 0 },
	{ "a header with no tables", OURS_HEAD "Benchmarking kernel 6.1 at datestamp 2\n",
	  "no tables", 0 },
	{ "a word where a number goes", AUDIO_HEADING
	  "None\t  0.137 +/- 0.0365         nan             100              100  -\n\n",
	  "not a number", 0 },
	{ "a negative latency", AUDIO_HEADING
	  "None\t  -0.137 +/- 0.0365         0.1             100              100  -\n\n",
	  "not a number", 0 },
	{ "garbage inside a table", AUDIO_HEADING OURS_ROW "hello world\n\n", "not a row", 0 },
	{ "CSV cut in a row", CSV_HEAD "6.18.4,,s,0,0,Audio,X,ok,,10,1,2,3", "ends in the middle", 0 },
	{ "CSV with a short row", CSV_HEAD "6.18.4,,s,0,0,Audio,X,ok,,10,1,2,3\n", "fields where", 0 },
	{ "CSV with an open quote", CSV_HEAD "6.18.4,\"oops,s,0,0,Audio,X\n", "never ends", 0 },
	{ "CSV without a column it needs", "benchmark,load,latency_mean_ns\nAudio,None,5\n",
	  "no 'kernel_release' column", 0 },
	{ "a fork's row cut short", FORK_HEADING "None\t   3.2 +/- 1.5432\t\t 100\t 100\n\n",
	  "cut short or mangled", 0 },
	{ "a fork's table in a unit it never writes", "--- Benchmarking simulated cpu of Audio "
	  "in the presence of simulated ---\nLoad\tLatency +/- SD   median  max [ms]\tDesired CPU\n"
	  "None\t   3.2 +/- 1.5432    25   47\t\t 100\n\n", "neither [us] nor [100]", 0 },
	{ "a run stopped before its first row", "Benchmarking kernel 1 at datestamp 2\n\n"
	  "Interrupted by signal 15 (SIGTERM) after 0 rows\n", "a run header with no tables", 0 },
};

static bool test_parse_err_case(const struct parse_err_case *c)
{
	struct result_file f;
	char err[256] = "";
	int ret = results_parse(c->text, c->len ? c->len : strlen(c->text), &f, err, sizeof(err));

	EXPECT(ret && strstr(err, c->want_err) && !strchr(err, '\n'),
	       "ret %d, error '%s', want '%s'", ret, err, c->want_err);
	return true;
}

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

static bool test_parse_case(const struct parse_case *c)
{
	struct result_file f;
	char err[256] = "";
	int ret = results_parse(c->text, strlen(c->text), &f, err, sizeof(err));
	const struct result *o;
	bool ok = true;

	EXPECT(!ret, "error: %s", err);
	o = &f.runs[0].res[0];
	if (f.nruns != c->nruns || f.runs[0].nres != c->nobs) {
		snprintf(detail, sizeof(detail), "%d groups, %d rows; want %d, %d", f.nruns,
			 f.runs[0].nres, c->nruns, c->nobs);
		ok = false;
	} else if (strcmp(f.runs[0].kernel, c->kernel) || strcmp(f.runs[0].comment, c->comment)) {
		snprintf(detail, sizeof(detail), "kernel '%s' comment '%s'", f.runs[0].kernel,
			 f.runs[0].comment);
		ok = false;
	} else if (strcmp(o->bench, c->bench) || strcmp(o->load, c->load) ||
		   o->realtime != c->realtime || (o->status == ROW_FAILED) != c->failed) {
		snprintf(detail, sizeof(detail), "row %s/%s rt %d failed %d", o->bench, o->load,
			 o->realtime, o->status == ROW_FAILED);
		ok = false;
	} else if (!same(o->value[RF_MEAN], c->mean_ns) || !same(o->value[RF_SD], c->sd_ns) ||
		   !same(o->value[RF_MAX], c->max_ns) || !same(o->value[RF_CPU], c->cpu) ||
		   !same(o->value[RF_DEADLINES_MET_PCT], c->dl) ||
		   !same(o->value[RF_P99], c->p99_ns)) {
		snprintf(detail, sizeof(detail), "mean %g sd %g max %g cpu %g dl %g p99 %g",
			 o->value[RF_MEAN], o->value[RF_SD], o->value[RF_MAX], o->value[RF_CPU],
			 o->value[RF_DEADLINES_MET_PCT], o->value[RF_P99]);
		ok = false;
	}
	results_free(&f);
	return ok;
}

/* fmt_pct() over a table of cases at one width: never rounded up to 100. */
struct pct_case {
	double v;
	const char *want;
};

static bool pct_cases_ok(const struct pct_case *c, size_t n, int maxw)
{
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		fmt_pct(buf, sizeof(buf), c[i].v, maxw);
		EXPECT(!strcmp(buf, c[i].want), "pct %g (width %d): '%s', want '%s'", c[i].v,
		       maxw, buf, c[i].want);
	}
	return true;
}

static bool test_cmp_formats(void)
{
	static const struct { double ref, v; const char *want; } chg[] = {
		{ 100, 112, "(+12%)" }, { 100, 88, "(-12%)" }, { 100, 100.4, "(0%)" },
		{ 3, 4, "(+33%)" }, { 299, 25, "(-92%)" }, { 0, 0, "(0%)" }, { 0, 5, "(n/a)" },
		{ 0.5, 5.5, "(x11)" }, { 1, 10.99, "(+999%)" }, { 1, 20000, "(x>1e4)" },
		{ 100, 0, "(-100%)" }, { NAN, 1, "" },
	};
	static const struct { double v; int sig; const char *want; } val[] = {
		{ 0.00523, 3, "0.0052" }, { 0.104, 3, "0.104" }, { 2.1, 3, "2.10" },
		{ 2113.4, 3, "2113" }, { 0.0246, 2, "0.025" }, { 9.996, 3, "10.0" },
		{ NAN, 3, "-" }, { 0, 3, "0" }, { 0.000523, 3, "0.0005" }, { 299, 3, "299" },
	};
	static const struct pct_case pct[] = {
		{ 100, "100" }, { 99.95, "99.9" }, { 94.83, "94.8" }, { 5.129, "5.12" },
		{ NAN, "-" }, { 0, "0" },
	};
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(chg); i++) {
		fmt_change(buf, sizeof(buf), chg[i].ref, chg[i].v);
		EXPECT(!strcmp(buf, chg[i].want), "change %g -> %g: '%s', want '%s'", chg[i].ref,
		       chg[i].v, buf, chg[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(val); i++) {
		fmt_value(buf, sizeof(buf), val[i].v, val[i].sig, 6);
		EXPECT(!strcmp(buf, val[i].want), "value %g: '%s', want '%s'", val[i].v, buf,
		       val[i].want);
	}
	return pct_cases_ok(pct, ARRAY_SIZE(pct), 4);
}

static void fake_obs(struct result *o, double mean, double max)
{
	result_init(o);
	strcpy(o->bench, "Audio");
	strcpy(o->load, "None");
	o->value[RF_MEAN] = mean;
	o->value[RF_SD] = 3;
	o->value[RF_MAX] = max;
	o->value[RF_CPU] = 100;
}

/* Passes summarised: means, pooled SD, intervals; '*' only where they part. */
static bool test_cmp_cells(void)
{
	static const struct {
		double a[3], b[3];
		int na, nb;
		bool want;
	} cases[] = {
		{ { 100, 102, 98 }, { 120, 121, 119 }, 3, 3, true },	/* 100+/-5, 120+/-2.5 */
		{ { 200, 300, 250 }, { 260, 280, 270 }, 3, 3, false },	/* 250 +/- 124 */
		{ { 100, 100, 100 }, { 500, 0, 0 }, 3, 1, false },	/* one pass: no interval */
		{ { 10, 12, 0 }, { 13, 15, 0 }, 2, 2, false },	/* 11 +/- 12.7 */
		{ { 10, 10, 0 }, { 13, 13, 0 }, 2, 2, true },	/* no spread at all */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct result oa[3], ob[3];
		const struct result *pa[3], *pb[3];
		struct pass_summary ca, cb;

		for (int k = 0; k < 3; k++) {
			fake_obs(&oa[k], cases[i].a[k], 10 * cases[i].a[k]);
			fake_obs(&ob[k], cases[i].b[k], 10 * cases[i].b[k]);
			pa[k] = &oa[k];
			pb[k] = &ob[k];
		}
		summarize_passes(pa, cases[i].na, &ca);
		summarize_passes(pb, cases[i].nb, &cb);
		EXPECT(ca.npass == cases[i].na && fabs(ca.value[RF_SD] - 3) < 1e-12 &&
		       ca.value[RF_CPU] == 100, "case %zu: passes %d sd %g", i, ca.npass,
		       ca.value[RF_SD]);
	}
	{
		struct result o[2];
		const struct result *p[2] = { &o[0], &o[1] };
		struct pass_summary c;

		fake_obs(&o[0], 10, 20);
		fake_obs(&o[1], 0, 0);
		o[1].status = ROW_FAILED;
		o[1].value[RF_MEAN] = NAN;
		summarize_passes(p, 2, &c);
		EXPECT(c.npass == 1 && c.nfail == 1 && c.value[RF_MEAN] == 10,
		       "a failed pass counted");
	}
	{	/* the summary's Max Latency is the largest max, not the mean of the maxima */
		static const double mx[3] = { 0.019e6, 0.424e6, 0.022e6 };
		struct result o[3];
		const struct result *p[3] = { &o[0], &o[1], &o[2] };
		struct pass_summary c;

		for (int k = 0; k < 3; k++)
			fake_obs(&o[k], 0.01e6, mx[k]);
		summarize_passes(p, 3, &c);
		EXPECT(c.max == 0.424e6 && fabs(c.value[RF_MAX] - 0.155e6) < 1,
		       "max %g, mean max %g", c.max, c.value[RF_MAX]);
	}
	return true;
}

/*
 * The summary's n10%: the verdicts' own resampling at a cell's level
 * (0.05 / 3), not a log-normal formula: bimodal pass means, which that
 * formula over-asked for by 3x; "-" below three passes.
 */
static bool test_summary_power(void)
{
	struct result o[12];
	const struct result *p[12];
	double v[12];
	struct pass_summary s;
	int want;

	for (int k = 0; k < 12; k++) {
		v[k] = k % 3 ? 0.3e6 + 1e3 * k : 4e6 + 1e4 * k;	/* most near 0.3 ms, some 4 ms */
		fake_obs(&o[k], v[k], 10 * v[k]);
		p[k] = &o[k];
	}
	summarize_passes(p, 12, &s);
	want = passes_for_change(v, 12, v, 12, CHANGE_SCALE, 0.10, 0.80, VERDICT_FDR / 3);
	EXPECT(want > 0 && s.power[0] == want, "n10%% of the mean %d, want %d", s.power[0], want);
	EXPECT(s.power[0] != passes_for_power(sd_log_pooled(v, 12, NULL, 0), 0.10, 0.80),
	       "the log-normal formula's %d", s.power[0]);
	summarize_passes(p, 2, &s);
	EXPECT(s.power[0] == -1, "two passes: %d", s.power[0]);
	return true;
}

/* Runs that cannot be compared are the files' fault (-EINVAL, exit 2), not the machine's. */
static bool test_cmp_refused(void)
{
	struct run_record run = { 0 };
	struct cmp_input in = { .run = &run, .file = "f" };
	struct cmp_matrix *m = calloc(1, sizeof(*m));
	char err[256] = "";
	bool ok;

	EXPECT(m, "calloc");
	ok = cmp_build(&in, 0, m, err, sizeof(err)) == -EINVAL && strstr(err, "0 runs to compare");
	if (!ok)
		snprintf(detail, sizeof(detail), "no runs: '%s'", err);
	free(m);
	return ok;
}

/* The widest numbers each column can hold: two runs still fit in 100 columns. */
static bool test_cmp_width(void)
{
	static const char *const loads[] = { "Memload", "Compile", "None" };
	static const double wide[2][3][2] = {	/* [run][load]: mean, max in ns */
		{ { 5.23e3, 9.99e3 }, { 9.99e9, 9.99e9 }, { 123456, 999999 } },
		{ { 9.99e9, 1.23e11 }, { 5.23e3, 1.5e4 }, { 999999, 123456 } },
	};
	struct run_record run[2];
	struct cmp_input in[2];
	struct cmp_matrix *m = calloc(1, sizeof(*m));
	char err[256], *text = NULL, *line;
	size_t len = 0;
	FILE *out;
	bool ok = true;

	EXPECT(m, "calloc");
	for (int r = 0; r < 2; r++) {
		memset(&run[r], 0, sizeof(run[r]));
		run[r].res = calloc(6, sizeof(struct result));
		snprintf(run[r].kernel, sizeof(run[r].kernel), "%s",
			 "6.18.0-rc7-a-very-long-release-name");
		snprintf(run[r].comment, sizeof(run[r].comment), "with a long comment, too");
		for (int k = 0; k < 6; k++) {
			struct result *o = &run[r].res[run[r].nres++];

			double f = 1.0 + 0.001 * (k / 3);

			fake_obs(o, wide[r][k % 3][0] * f, wide[r][k % 3][1] * f);
			snprintf(o->load, sizeof(o->load), "%s", loads[k % 3]);
			o->value[RF_SD] = 0.00123e6;
			o->value[RF_CPU] = 99.99;
			o->value[RF_DEADLINES_MET_PCT] = 0.00123;
		}
		in[r] = (struct cmp_input){ .run = &run[r], .file = "f" };
		snprintf(in[r].label, sizeof(in[r].label), "%.100s %.100s", run[r].kernel,
			 run[r].comment);
	}
	if (cmp_build(in, 2, m, err, sizeof(err))) {
		snprintf(detail, sizeof(detail), "%s", err);
		ok = false;
	} else {
		out = open_memstream(&text, &len);
		cmp_print(out, in, m);
		fclose(out);
		if (getenv("UNIT_SHOW"))
			fputs(text, stderr);
		if (!strstr(text ? text : "", "(x>1e4)")) {
			snprintf(detail, sizeof(detail), "no change shown");
			ok = false;
		}
		for (line = strtok(text, "\n"); line && ok; line = strtok(NULL, "\n")) {
			if (strlen(line) > 100) {
				snprintf(detail, sizeof(detail), "%zu columns: %.200s",
					 strlen(line), line);
				ok = false;
			}
		}
		cmp_matrix_free(m);
	}
	free(text);
	free(m);
	free(run[0].res);
	free(run[1].res);
	return ok;
}

/* The run's tables: three figures, with the same 99.96 -> 100 rule below 1 as above. */
static bool test_fmt_table_values(void)
{
	static const struct { double v; const char *want; } sig3[] = {
		{ 0.9996, "1.00" }, { 0.09996, "0.100" }, { 99.96, "100" }, { 0.00523, "0.00523" },
	};
	static const struct pct_case pct[] = {
		{ 100, "100" }, { 99.96, "99.96" }, { 99.5, "99.5" }, { 5.129, "5.13" },
		{ NAN, "-" }, { 0, "0" },
	};
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(sig3); i++) {
		fmt_sig3(buf, sizeof(buf), sig3[i].v);
		EXPECT(!strcmp(buf, sig3[i].want), "sig3 %g: '%s', want '%s'", sig3[i].v, buf,
		       sig3[i].want);
	}
	return pct_cases_ok(pct, ARRAY_SIZE(pct), 0);
}

/* Registry order for known names, unknown ones after them. */
static bool test_ranks(void)
{
	EXPECT(bench_rank("Audio") == 0 && bench_rank("gaming") == 3 && bench_rank("Foo") == 11,
	       "bench ranks %d %d %d", bench_rank("Audio"), bench_rank("gaming"),
	       bench_rank("Foo"));
	EXPECT(load_rank("None") == 0 && load_rank("Burn") == 3 && load_rank("Custom") == 11 &&
	       load_rank("Input") == 14 && load_rank("Command") == 15 &&
	       load_rank("Foo") == 16, "load ranks");
	return true;
}

/* The header line of either work mode: seconds per row and the mode; never pooled across modes. */
static bool test_log_work_modes(void)
{
	static const struct { const char *head; const char *work; double secs; } heads[] = {
		{ "Using 7954015 loops per ms, running every load for 30 seconds\n", "loops", 30 },
		{ "Using CPU time as work, running every load for 2.5 seconds\n", "cpu", 2.5 },
		{ "", "", 0 },		/* a 0.31 log cut before its header */
	};
	const char *rows = "Benchmarking kernel 1 at datestamp 2\nComment: x\n\n" AUDIO_HEADING
		"None\t  0.137 +/- 0.0365         0.314             100              100  -  "
		"[work_ratio 1.05]\n\n[...]: work_ratio: task CPU time / the work\n\n";
	struct result_file f;
	char text[2048], err[256];

	for (size_t i = 0; i < ARRAY_SIZE(heads); i++) {
		snprintf(text, sizeof(text), "%s%s", heads[i].head, rows);
		EXPECT(!results_parse(text, strlen(text), &f, err, sizeof(err)), "%s", err);
		EXPECT(f.nruns == 1 && f.runs[0].nres == 1, "%d runs", f.nruns);
		EXPECT(!strcmp(f.runs[0].work, heads[i].work) && f.runs[0].seconds == heads[i].secs,
		       "'%s', %g s; want '%s', %g s", f.runs[0].work, f.runs[0].seconds,
		       heads[i].work, heads[i].secs);
		EXPECT(fabs(f.runs[0].res[0].value[RF_MEAN] - 137000) < 1e-6,
		       "a marked row misread");
		results_free(&f);
	}
	snprintf(text, sizeof(text), "%s%s%s%s", heads[0].head, rows, heads[1].head, rows);
	EXPECT(!results_parse(text, strlen(text), &f, err, sizeof(err)), "%s", err);
	EXPECT(f.nruns == 2, "runs of both modes pooled: %d groups", f.nruns);
	results_free(&f);
	return true;
}

/* CSV: the work column, or for files from before it, loops mode when loops_per_ms is there. */
static bool test_csv_work_modes(void)
{
	static const struct { const char *cols, *vals, *want; } cases[] = {
		{ "work,loops_per_ms", "cpu,", "cpu" },
		{ "work,loops_per_ms", "loops,100", "loops" },
		{ "loops_per_ms", "100", "loops" },
		{ "hostname", "h", "" },
	};
	struct result_file f;
	char text[2048], err[256];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(text, sizeof(text), "kernel_release,comment,realtime,benchmark,load,status,"
			 "latency_mean_ns,latency_sd_ns,latency_max_ns,pct_desired_cpu,"
			 "pct_deadlines_met,%s\n1,c,0,Audio,None,ok,1,1,1,100,100,%s\n",
			 cases[i].cols, cases[i].vals);
		EXPECT(!results_parse(text, strlen(text), &f, err, sizeof(err)), "%s", err);
		EXPECT(!strcmp(f.runs[0].work, cases[i].want), "%s: '%s', want '%s'",
		       cases[i].cols, f.runs[0].work, cases[i].want);
		results_free(&f);
	}
	return true;
}

/* ---- what keeps runs apart: the run keys, from old and new logs and CSV ---- */

/* A run of ours: -t and -u as given, then tasks, the settings of Render and Custom. */
#define SETTINGS(t, u, tasks) "Settings: seconds_per_row=" t " cpu_load=2 bench_nice=0 " \
	"load_nice=0 uniprocessor=" u tasks "\n"
#define TASKS(fps, pct, us) " fps=" fps " custom_cpu_pct=" pct " custom_interval_us=" us
#define RUN_WITH(t, u, tasks) "Benchmarking kernel 1 at datestamp 2\nPreemption: full\n" \
	SETTINGS(t, u, tasks) "Comment: x\n\n" AUDIO_HEADING OURS_ROW "\n"
#define NEW_RUN(t, u) RUN_WITH(t, u, TASKS("144", "0", "0"))
#define TASK_RUN(fps, pct, us) RUN_WITH("2", "0", TASKS(fps, pct, us))
#define NICE_HEADING "--- Benchmarking simulated cpu of Audio nice 5 in the presence of " \
	"simulated nice 10 ---\nLoad\tLatency +/- SD (ms)  Max Latency   % Desired CPU  % Deadlines Met\n"
#define CSV_KEY_HEAD "kernel_release,comment,start,realtime,benchmark,load,status," \
	"latency_mean_ns,latency_sd_ns,latency_max_ns,pct_desired_cpu,pct_deadlines_met,"
#define CSV_KEY_ROW(start, keys) "1,x," start ",0,Audio,None,ok,1,1,1,100,100," keys "\n"

static const struct key_case {
	const char *name;
	const char *text;
	int ngroups;
	const char *keys[RK_COUNT];	/* of the first group: -t, -L, -B, -N, -u, --fps, -C, -I, */
					/* --period (NULL: RK_PERIODS_BEFORE, the file lacks it), */
					/* --wake (NULL: RK_WAKE_BEFORE), --timer-slack, the */
					/* workload file's (NULL: none) */
} key_cases[] = {
	{ "0.31 log: -t and -L from its header, nice from its headings",
	  "Load set to 4 processors\n\nUsing 100 loops per ms, running every load for 30 seconds\n"
	  "Benchmarking kernel 2.6.12 at datestamp 2\n\n" NICE_HEADING "None\t 1 +/- 1  2  100  100\n\n",
	  1, { "30", "4", "5", "10", "", "", "", "" } },
	{ "0.31 log without nice: both 0", OURS_HEAD "Benchmarking kernel 1 at datestamp 2\n\n"
	  AUDIO_HEADING OURS_ROW "\n", 1, { "2", "2", "0", "0", "", "", "", "" } },
	{ "ours: the Settings line", OURS_HEAD NEW_RUN("2.5", "1"), 1,
	  { "2.5", "2", "0", "0", "1", "144", "0", "0" } },
	{ "same settings, twice: one group", NEW_RUN("2", "0") NEW_RUN("2", "0"), 1,
	  { "2", "2", "0", "0", "0", "144", "0", "0" } },
	{ "-u differs: two groups", NEW_RUN("2", "0") NEW_RUN("2", "1"), 2,
	  { "2", "2", "0", "0", "0", "144", "0", "0" } },
	{ "-t differs: two groups", NEW_RUN("2", "0") NEW_RUN("3", "0"), 2,
	  { "2", "2", "0", "0", "0", "144", "0", "0" } },
	{ "--fps differs: two groups", TASK_RUN("144", "0", "0") TASK_RUN("60", "0", "0"), 2,
	  { "2", "2", "0", "0", "0", "144", "0", "0" } },
	{ "-C differs: two groups", TASK_RUN("144", "20", "10000") TASK_RUN("144", "50", "10000"),
	  2, { "2", "2", "0", "0", "0", "144", "20", "10000" } },
	{ "-I differs: two groups", TASK_RUN("144", "20", "10000000")
	  TASK_RUN("144", "20", "10000"), 2, { "2", "2", "0", "0", "0", "144", "20", "10000000" } },
	{ "the same Custom task and --fps, twice: one group",
	  TASK_RUN("60", "20", "10000") TASK_RUN("60", "20", "10000"), 1,
	  { "2", "2", "0", "0", "0", "60", "20", "10000" } },
	{ "an old log's run and a new one: -u unknown is kept apart",
	  "Benchmarking kernel 1 at datestamp 2\nComment: x\n\n" AUDIO_HEADING OURS_ROW "\n"
	  NEW_RUN("2", "0"), 2, { "", "", "0", "0", "", "", "", "" } },
	{ "a Settings line without --fps, -C, -I: unknown, kept apart from one with them",
	  RUN_WITH("2", "0", "") NEW_RUN("2", "0"), 2, { "2", "2", "0", "0", "0", "", "", "" } },
	{ "a setting not ours (a later version's) is passed over",
	  "Benchmarking kernel 1 at datestamp 2\nSettings: policy=fifo cpu_load=7 junk\n\n"
	  AUDIO_HEADING OURS_ROW "\n", 1, { "", "7", "", "", "", "", "", "" } },
	{ "CSV: -t and -u from their columns, runs apart",
	  CSV_KEY_HEAD "seconds_per_row,uniprocessor\n"
	  CSV_KEY_ROW("s1", "2,0") CSV_KEY_ROW("s2", "2,1") CSV_KEY_ROW("s3", "2.0,0"), 2,
	  { "2", "", "", "", "0", "", "", "" } },
	{ "CSV: the fps column keeps runs apart", CSV_KEY_HEAD "fps\n"
	  CSV_KEY_ROW("s1", "144") CSV_KEY_ROW("s2", "60") CSV_KEY_ROW("s3", "144"), 2,
	  { "", "", "", "", "", "144", "", "" } },
	{ "CSV: the Custom columns keep runs apart",
	  CSV_KEY_HEAD "custom_cpu_pct,custom_interval_us\n"
	  CSV_KEY_ROW("s1", "20,10000") CSV_KEY_ROW("s2", "20,20000") CSV_KEY_ROW("s3", "50,10000")
	  CSV_KEY_ROW("s4", "20,10000"), 3, { "", "", "", "", "", "", "20", "10000" } },
	{ "a Settings line's periods keep swept runs apart from exact ones; without it, exact",
	  RUN_WITH("2", "0", TASKS("144", "0", "0") " periods=swept")
	  RUN_WITH("2", "0", TASKS("144", "0", "0") " periods=exact") NEW_RUN("2", "0"), 2,
	  { "2", "2", "0", "0", "0", "144", "0", "0", "swept" } },
	{ "CSV: the periods column keeps runs apart", CSV_KEY_HEAD "periods\n"
	  CSV_KEY_ROW("s1", "swept") CSV_KEY_ROW("s2", "exact") CSV_KEY_ROW("s3", "swept"), 2,
	  { "", "", "", "", "", "", "", "", "swept" } },
	{ "a Settings line's wake keeps timer runs apart from waker ones; without it, waker",
	  RUN_WITH("2", "0", TASKS("144", "0", "0") " wake=timer timer_slack_ns=1")
	  RUN_WITH("2", "0", TASKS("144", "0", "0") " wake=timer timer_slack_ns=1")
	  RUN_WITH("2", "0", TASKS("144", "0", "0") " wake=waker timer_slack_ns=1")
	  NEW_RUN("2", "0"), 3,
	  { "2", "2", "0", "0", "0", "144", "0", "0", NULL, "timer", "1" } },
	{ "CSV: the wake and timer_slack_ns columns keep runs apart",
	  CSV_KEY_HEAD "wake,timer_slack_ns\n"
	  CSV_KEY_ROW("s1", "timer,1") CSV_KEY_ROW("s2", "waker,1") CSV_KEY_ROW("s3", "timer,50000")
	  CSV_KEY_ROW("s4", "timer,1"), 3, { "", "", "", "", "", "", "", "", NULL, "timer", "1" } },
};

static bool test_key_case(const struct key_case *c)
{
	struct result_file f;
	char err[256] = "";
	bool ok = true;

	EXPECT(!results_parse(c->text, strlen(c->text), &f, err, sizeof(err)), "error: %s", err);
	if (f.nruns != c->ngroups) {
		snprintf(detail, sizeof(detail), "%d groups, want %d", f.nruns, c->ngroups);
		ok = false;
	}
	for (int k = 0; ok && k < RK_COUNT; k++) {
		const char *want = c->keys[k] ? c->keys[k] :
				   k == RK_PERIODS ? RK_PERIODS_BEFORE :
				   k == RK_WAKE ? RK_WAKE_BEFORE : "";

		if (strcmp(f.runs[0].key[k], want)) {
			snprintf(detail, sizeof(detail), "%s '%s', want '%s'", run_keys[k].name,
				 f.runs[0].key[k], want);
			ok = false;
		}
	}
	results_free(&f);
	return ok;
}

/* What build_settings() writes, the log reader reads back as run_key_text() has it. */
static bool test_settings_round_trip(void)
{
	struct run_record rec = { .nruns = 1 };
	struct config cfg;
	struct result_file f;
	char settings[256], text[1024], err[256] = "";

	config_defaults(&cfg);
	cfg.seconds = 2.5;
	cfg.cpu_load = 3;
	cfg.bench_nice = -5;
	cfg.uniprocessor = true;
	cfg.fps = 60;
	cfg.custom_pct = 20;
	cfg.custom_interval_us = 10000000;
	cfg.wake = WAKE_WAKER;
	cfg.timer_slack_ns = 50000;
	for (int k = 0; k < RK_COUNT; k++)
		run_key_text(&cfg, k, rec.key[k], sizeof(rec.key[k]));
	build_settings(settings, sizeof(settings), &rec);
	snprintf(text, sizeof(text), "Benchmarking kernel 1 at datestamp 2\nSettings:"
		 "%s\n\n%s", settings, AUDIO_HEADING OURS_ROW "\n");
	EXPECT(!results_parse(text, strlen(text), &f, err, sizeof(err)), "error: %s", err);
	for (int k = 0; k < RK_COUNT; k++) {
		char want[RK_LEN];

		run_key_text(&cfg, k, want, sizeof(want));
		if (strcmp(f.runs[0].key[k], want)) {
			snprintf(detail, sizeof(detail), "%s '%s', want '%s' (from '%s')",
				 run_keys[k].name, f.runs[0].key[k], want, settings);
			results_free(&f);
			return false;
		}
	}
	results_free(&f);
	return true;
}

/* ---- what follows a row's numbers: intensity, unit, notes ---- */

static const struct tail_case {
	const char *row;		/* after "Load\t" and the numbers */
	double intensity;
	const char *unit, *medium, *reason;
} tail_cases[] = {
	{ "  1.94 CPUs", 1.94, "CPUs", "", "" },
	{ "  98.2 % CPU", 98.2, "% CPU", "", "" },
	{ "  -", NAN, "", "", "" },
	{ "", NAN, "", "", "" },
	{ "  0 MiB/s (Write load stopped early: write: No space left on device)", 0, "MiB/s", "",
	  "Write load stopped early: write: No space left on device" },
	{ "  8789 MiB/s [memory, not a disk]", 8789, "MiB/s", RES_MEDIUM_MEMORY, "" },
	{ "  12 MiB/s [page cache, not the disk: the drop did not work] (x (y))", 12, "MiB/s",
	  RES_MEDIUM_CACHE, "x (y)" },
	{ "  - (Memload load stopped early: mmap: Cannot allocate memory)", NAN, "", "",
	  "Memload load stopped early: mmap: Cannot allocate memory" },
	{ "  0.944 CPUs  [loop_speed -20%]", 0.944, "CPUs", "", "" },
	{ "  -  [600 samples, 603 periods]", NAN, "", "", "" },
	{ "  5 MiB/s [memory, not a disk] (Write load stopped early: x)  [work_ratio 1.26]", 5,
	  "MiB/s", RES_MEDIUM_MEMORY, "Write load stopped early: x" },
};

static bool test_tail_case(const struct tail_case *c)
{
	char text[512];
	struct result_file f;
	const struct result *o;
	char err[256] = "";
	bool ok;

	snprintf(text, sizeof(text), "%sBurn\t  0.137 +/- 0.0365         0.314             100"
		 "              100%s\n\n", AUDIO_HEADING, c->row);
	EXPECT(!results_parse(text, strlen(text), &f, err, sizeof(err)), "error: %s", err);
	o = &f.runs[0].res[0];
	ok = same(o->value[RF_INTENSITY], c->intensity) && !strcmp(o->unit, c->unit) &&
	     !strcmp(o->medium, c->medium) && !strcmp(o->reason, c->reason);
	if (!ok)
		snprintf(detail, sizeof(detail), "intensity %g unit '%s' medium '%s' reason '%s'",
			 o->value[RF_INTENSITY], o->unit, o->medium, o->reason);
	results_free(&f);
	return ok;
}

/* A failed row keeps its reason; 0.31's rows, without an intensity column, have none. */
static bool test_tail_failed_and_old(void)
{
	const char *failed = AUDIO_HEADING "Burn\tfailed: load process died\n\n";
	const char *old = OLD_HEADING "Memload\t   6.0 +/- 7.81     299.0\t\t 100\t        94.8\n\n";
	struct result_file f;
	char err[256];

	EXPECT(!results_parse(failed, strlen(failed), &f, err, sizeof(err)), "%s", err);
	EXPECT(!strcmp(f.runs[0].res[0].reason, "load process died"), "reason '%s'",
	       f.runs[0].res[0].reason);
	results_free(&f);
	EXPECT(!results_parse(old, strlen(old), &f, err, sizeof(err)), "%s", err);
	EXPECT(isnan(f.runs[0].res[0].value[RF_INTENSITY]) && !f.runs[0].res[0].unit[0],
	       "0.31 row");
	results_free(&f);
	return true;
}

/* ---- the maintained fork's logs ---- */

static const struct fork_case {
	const char *name;
	const char *bench;		/* the heading after "cpu of " */
	const char *unit;		/* in the column line: "us", or the fork's "100" (ns) */
	const char *row;		/* after "Load\t" */
	double mean, sd, p50, max, cpu, dl;	/* ns and %; NAN: not known */
} fork_cases[] = {
	{ "us, a median in 100 ns", "Audio", "us",
	  "   3.2 +/- 1.5432    25   47\t\t 100\t      100", 3200, 1543.2, 2500, 47000, 100, 100 },
	{ "a max of 5 digits runs into the median", "Audio", "us",
	  "  23.5 +/- 140.02    8515008\t\t 100\t     91.2", 23500, 140020, 8500, 15008000, 100,
	  91.2 },
	{ "the median's last bucket is not known", "Audio", "us",
	  "1212.5 +/- 4411.9  100035512\t\t99.1\t     97.3", 1212500, 4411900, NAN, 35512000,
	  99.1, 97.3 },
	{ "an SD in exponent form runs into it", "Video", "us",
	  "94321.0 +/- 1.2346e+051000123456\t\t12.5\t      3.1", 94321000, 1.2346e8, NAN,
	  123456000, 12.5, 3.1 },
	{ "empty % columns are not known", "Audio", "us",
	  " 197.7 +/- 99.784   100  472\t", 197700, 99784, 10000, 472000, NAN, NAN },
	{ "deadlines without the CPU column", "Audio", "us",
	  " 197.7 +/- 99.784   100  472\t\t\t     80.5", 197700, 99784, 10000, 472000, NAN, 80.5 },
	{ "real time: the fork's 100 ns unit", "Audio real time", "100",
	  "  12.0 +/- 3.4       9   57\t\t 100\t      100", 1200, 340, 900, 5700, 100, 100 },
	{ "Gaming: no deadlines column", "Gaming", "us",
	  " 812.4 +/- 1504.1  100023108\t\t55.2", 812400, 1504100, NAN, 23108000, 55.2, NAN },
};

/* One row under a fork's column line, with the unnamed row of all tables after it. */
static bool test_fork_case(const struct fork_case *c)
{
	char text[1024], err[256] = "";
	struct result_file f;
	const struct result *o;
	bool gaming = !strcmp(c->bench, "Gaming"), ok;

	snprintf(text, sizeof(text), "Benchmarking kernel 6.6.32-fork at datestamp 202503141522\n\n"
		 "--- Benchmarking simulated cpu of %s in the presence of simulated ---\n"
		 "Load\tLatency +/- SD   median  max [%s]\tDesired CPU%s\nBurn\t%s\n"
		 "\t 254.7 +/- 1430.2      70104\n\n", c->bench, c->unit,
		 gaming ? "" : "  Deadlines met [%]", c->row);
	EXPECT(!results_parse(text, strlen(text), &f, err, sizeof(err)), "error: %s", err);
	o = &f.runs[0].res[0];
	ok = f.nruns == 1 && f.runs[0].nres == 1 && !strcmp(f.runs[0].kernel, "6.6.32-fork") &&
	     !strcmp(f.runs[0].date, "202503141522") && o->realtime == !strcmp(c->unit, "100");
	if (!ok) {
		snprintf(detail, sizeof(detail), "%d runs, %d rows, kernel '%s', date '%s'", f.nruns,
			 f.runs[0].nres, f.runs[0].kernel, f.runs[0].date);
	} else if (!same(o->value[RF_MEAN], c->mean) || !same(o->value[RF_SD], c->sd) ||
		   !same(o->value[RF_P50], c->p50) || !same(o->value[RF_MAX], c->max) ||
		   !same(o->value[RF_CPU], c->cpu) ||
		   !same(o->value[RF_DEADLINES_MET_PCT], c->dl)) {
		snprintf(detail, sizeof(detail), "mean %g sd %g p50 %g max %g cpu %g dl %g",
			 o->value[RF_MEAN], o->value[RF_SD], o->value[RF_P50], o->value[RF_MAX],
			 o->value[RF_CPU], o->value[RF_DEADLINES_MET_PCT]);
		ok = false;
	}
	results_free(&f);
	return ok;
}

/* The fixture: four tables of a run, its header as 0.31's, its unnamed last row no load. */
static bool test_fork_fixture(void)
{
	struct result_file f;
	char err[256] = "";
	int gaming = 0, dl = 0;

	EXPECT(!results_read("tests/fixtures/fork-6.6.32.log", &f, err, sizeof(err)), "%s", err);
	EXPECT(f.nruns == 1 && f.runs[0].nres == 34, "%d runs, %d rows", f.nruns,
	       f.nruns ? f.runs[0].nres : 0);
	for (int i = 0; i < f.runs[0].nres; i++) {
		const struct result *o = &f.runs[0].res[i];

		gaming += !strcmp(o->bench, "Gaming");
		dl += isfinite(o->value[RF_DEADLINES_MET_PCT]);
		EXPECT(o->load[0] && isfinite(o->value[RF_MEAN]) && isfinite(o->value[RF_CPU]),
		       "row %d: %s/%s", i, o->bench, o->load);
	}
	EXPECT(gaming == 9 && dl == 25, "%d Gaming rows, %d with deadlines", gaming, dl);
	EXPECT(!strcmp(f.runs[0].kernel, "6.6.32-fork") && !strcmp(f.runs[0].comment, "fork") &&
	       f.runs[0].seconds == 10 && !strcmp(f.runs[0].key[RK_CPU_LOAD], "4"),
	       "kernel '%s' comment '%s' %g s -L '%s'", f.runs[0].kernel, f.runs[0].comment,
	       f.runs[0].seconds, f.runs[0].key[RK_CPU_LOAD]);
	results_free(&f);
	return true;
}

/* A load's whole work as the table writes it, and read back from a log row's tail. */
static const struct {
	double intensity, cpus, restarts;
	const char *unit, *text;
} work_cases[] = {
	{ 1284, 1.62, NAN, "MiB/s", "1284 MiB/s + 1.62 CPUs" },		/* Compile */
	{ 1.94, 1.94, NAN, "CPUs", "1.94 CPUs" },			/* Burn: once */
	{ 1.02, 1.02, 3, "CPUs", "1.02 CPUs + 3 restarts" },		/* Command */
	{ 0.5, 0.5, 1, "CPUs", "0.500 CPUs + 1 restart" },
	{ NAN, NAN, NAN, "", "-" },
};

static bool test_load_work(void)
{
	char text[96], tail[200], err[128];

	for (size_t i = 0; i < ARRAY_SIZE(work_cases); i++) {
		struct result r, back;

		result_init(&r);
		result_init(&back);
		r.value[RF_INTENSITY] = work_cases[i].intensity;
		r.value[RF_LOAD_CPUS] = work_cases[i].cpus;
		r.value[RF_LOAD_RESTARTS] = work_cases[i].restarts;
		load_work_text(text, sizeof(text), r.value, work_cases[i].unit);
		EXPECT(!strcmp(text, work_cases[i].text), "'%s', want '%s'", text,
		       work_cases[i].text);
		snprintf(tail, sizeof(tail), "  %s (why)  [load 1.00 of 1.90 CPUs, foreign 42%% "
			 "CPU, top sh 40%%]", text);
		EXPECT(!log_tail(&back, tail, 1, err, sizeof(err)), "%s", err);
		EXPECT(!strcmp(back.unit, work_cases[i].unit) && !strcmp(back.reason, "why"),
		       "'%s' read back: unit '%s', reason '%s'", text, back.unit, back.reason);
		EXPECT(back.value[RF_FOREIGN_CPU] == 42.0, "'%s': foreign %g", tail,
		       back.value[RF_FOREIGN_CPU]);
		if (strcmp(work_cases[i].unit, "CPUs"))
			EXPECT(isnan(back.value[RF_LOAD_CPUS]) == isnan(work_cases[i].cpus) &&
			       (isnan(back.value[RF_LOAD_CPUS]) ||
				fabs(back.value[RF_LOAD_CPUS] - work_cases[i].cpus) < 1e-9),
			       "'%s': CPUs %g", text, back.value[RF_LOAD_CPUS]);
		EXPECT(isnan(back.value[RF_LOAD_RESTARTS]) == isnan(work_cases[i].restarts),
		       "'%s': restarts %g", text, back.value[RF_LOAD_RESTARTS]);
	}
	EXPECT(load_short(1.0, 1.95) == 1.0 && load_short(1.8, 1.95) == 0.0 &&
	       isnan(load_short(NAN, 1.95)) && isnan(load_short(1.0, NAN)),
	       "short: under 90 %% of the due only");
	return true;
}

/*
 * The log's columns are in the metrics' rows, each with its place: in each
 * table the places are 1..n, each once (a hole or a twin moves a column).
 */
static bool test_log_positions(void)
{
	for (int t = 0; t < LT_COUNT; t++) {
		int seen[LOG_COLUMNS_MAX + 1] = { 0 }, n = 0, hi = 0;

		for (size_t i = 0; i < nr_metrics; i++) {
			int pos = t == LT_TASK ? metrics[i].log.pos : metrics[i].thread.pos;

			if (!pos)
				continue;
			if (pos < 0 || pos > LOG_COLUMNS_MAX || seen[pos]++)
				return false;
			n++;
			hi = pos > hi ? pos : hi;
		}
		if (!n || hi != n)
			return false;
	}
	{	/* --compare's group holds every row that has a column there */
		int ncmp = 0;

		for (size_t i = 0; i < nr_metrics; i++)
			ncmp += metrics[i].compare.head != NULL;
		EXPECT(ncmp > 0 && ncmp <= CMP_COLS_MAX, "%d --compare columns, room for %d", ncmp,
		       CMP_COLS_MAX);
	}
	return true;
}

void unit_results(void)
{
	check("results: the log's columns in the metrics' rows: each table's places 1..n, once each",
	      test_log_positions());
	check("results: a load's whole work in the table, read back from a log; its shortfall",
	      test_load_work());
	char name[160];

	check("results: the --repeat summary's n10%: resampled at a cell's level, - below 3 passes",
	      test_summary_power());

	for (size_t i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		snprintf(name, sizeof(name), "results: %s", parse_cases[i].name);
		check(name, test_parse_case(&parse_cases[i]));
	}
	for (size_t i = 0; i < ARRAY_SIZE(parse_err_cases); i++) {
		snprintf(name, sizeof(name), "results: %s is refused", parse_err_cases[i].name);
		check(name, test_parse_err_case(&parse_err_cases[i]));
	}
	check("compare: changes, values and percentages as printed", test_cmp_formats());
	check("compare: passes, pooled SD and non-overlapping intervals", test_cmp_cells());
	check("compare: the widest numbers of two runs fit in 100 columns", test_cmp_width());
	check("compare: no runs is the files' error, -EINVAL", test_cmp_refused());
	check("report: table values and percentages, never rounded up to 100",
	      test_fmt_table_values());
	check("results: benchmarks and loads in registry order", test_ranks());
	check("results: log header of loops and CPU mode, marks, modes never pooled",
	      test_log_work_modes());
	check("results: CSV work column, and older files' loops_per_ms", test_csv_work_modes());
	for (size_t i = 0; i < ARRAY_SIZE(key_cases); i++) {
		snprintf(name, sizeof(name), "results: run keys: %s", key_cases[i].name);
		check(name, test_key_case(&key_cases[i]));
	}
	check("results: run keys: the Settings line written is read back",
	      test_settings_round_trip());
	for (size_t i = 0; i < ARRAY_SIZE(tail_cases); i++) {
		snprintf(name, sizeof(name), "results: a log row's tail '%s'", tail_cases[i].row);
		check(name, test_tail_case(&tail_cases[i]));
	}
	check("results: a failed row's reason; 0.31 rows have no intensity",
	      test_tail_failed_and_old());
	for (size_t i = 0; i < ARRAY_SIZE(fork_cases); i++) {
		snprintf(name, sizeof(name), "results: the fork's log: %s", fork_cases[i].name);
		check(name, test_fork_case(&fork_cases[i]));
	}
	check("results: the fork's log: the fixture's tables, header and unnamed row",
	      test_fork_fixture());
}
