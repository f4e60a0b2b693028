// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit.c - table-driven unit tests of the pure parts: accounting, statistics, options. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interbench.h"
#include "sysinfo.h"
#include "compare.h"

static int passed, failed;
static char detail[1024];

static void skip(const char *name, const char *why)
{
	printf("SKIP unit: %s: %s\n", name, why);
}

static void check(const char *name, bool ok)
{
	if (ok) {
		printf("PASS unit: %s\n", name);
		passed++;
	} else {
		printf("FAIL unit: %s: %s\n", name, detail);
		failed++;
	}
	detail[0] = '\0';
}

#define EXPECT(cond, ...)                                                                \
	do {                                                                             \
		if (!(cond)) {                                                           \
			snprintf(detail, sizeof(detail), __VA_ARGS__);                   \
			return false;                                                    \
		}                                                                        \
	} while (0)

/* ---- accounting on synthetic timelines ---- */

#define MS NSEC_PER_MSEC

struct acct_case {
	const char *name;
	uint64_t t_run;		/* offset from the period's start */
	uint64_t t_done;	/* offset from the period's start; 0: never started work */
	uint64_t want_work_k;	/* the period the work is done for */
	uint64_t want_next;
	struct acct want;
};

/* Period 0 of a 50 ms clock that starts at 1 s, 20 periods. */
static const struct acct_case acct_cases[] = {
	{ "on time", 10 * 1000, 2500 * 1000, 0, 1, { 1, 0, 0 } },
	{ "late start within the period", 30 * MS, 45 * MS, 0, 1, { 1, 0, 0 } },
	{ "late start, work ends exactly at the deadline", 40 * MS, 50 * MS, 0, 1, { 1, 0, 0 } },
	{ "late start, overrun by a fraction", 40 * MS, 60 * MS, 0, 1, { 0, 1, 0 } },
	{ "start after the period ended", 75 * MS, 80 * MS, 1, 2, { 1, 0, 1 } },
	{ "start three periods late", 170 * MS, 175 * MS, 3, 4, { 1, 0, 3 } },
	{ "overrun by exactly one period", 0, 100 * MS, 0, 2, { 0, 1, 1 } },
	{ "overrun by one period and a bit", 0, 120 * MS, 0, 2, { 0, 1, 1 } },
	{ "overrun by several periods", 1 * MS, 260 * MS, 0, 5, { 0, 1, 4 } },
	{ "overrun past the end of the run", 0, 5000 * MS, 0, 20, { 0, 1, 19 } },
};

static bool test_acct_case(const struct acct_case *c)
{
	struct period_clock clk = { .start0 = NSEC_PER_SEC, .num = 50 * MS, .den = 1,
				    .nperiods = 20 };
	struct acct a = { 0 };
	uint64_t k, next;

	k = acct_start(&a, &clk, 0, clk.start0 + c->t_run);
	EXPECT(k == c->want_work_k, "worked for period %llu, want %llu",
	       (unsigned long long)k, (unsigned long long)c->want_work_k);
	next = acct_finish(&a, &clk, k, clk.start0 + c->t_done);
	EXPECT(next == c->want_next, "next period %llu, want %llu", (unsigned long long)next,
	       (unsigned long long)c->want_next);
	EXPECT(a.met == c->want.met && a.missed == c->want.missed &&
	       a.dropped == c->want.dropped,
	       "met/missed/dropped %llu/%llu/%llu, want %llu/%llu/%llu",
	       (unsigned long long)a.met, (unsigned long long)a.missed,
	       (unsigned long long)a.dropped, (unsigned long long)c->want.met,
	       (unsigned long long)c->want.missed, (unsigned long long)c->want.dropped);
	return true;
}

static bool test_acct_percentages(void)
{
	struct acct a = { .met = 6, .missed = 2, .dropped = 2 };

	EXPECT(fabs(acct_pct_cpu(&a) - 80.0) < 1e-9, "pct cpu %g", acct_pct_cpu(&a));
	EXPECT(fabs(acct_pct_deadlines(&a) - 60.0) < 1e-9, "pct deadlines %g",
	       acct_pct_deadlines(&a));
	a = (struct acct){ 0 };
	EXPECT(acct_pct_cpu(&a) == 0.0 && acct_pct_deadlines(&a) == 0.0, "empty not 0");
	return true;
}

/* Video's 1/60 s period: starts and the index of an instant must agree. */
static bool test_fractional_period(void)
{
	struct period_clock c = { .start0 = 12345, .num = NSEC_PER_SEC, .den = 60,
				  .nperiods = UINT64_MAX };

	for (uint64_t k = 0; k < 100000; k++) {
		uint64_t s = period_start(&c, k), e = period_start(&c, k + 1);

		EXPECT(period_index_at(&c, s) == k, "start of %llu maps to %llu",
		       (unsigned long long)k, (unsigned long long)period_index_at(&c, s));
		EXPECT(period_index_at(&c, e - 1) == k, "end of %llu", (unsigned long long)k);
		EXPECT(e - s == 16666666 || e - s == 16666667, "length %llu",
		       (unsigned long long)(e - s));
	}
	EXPECT(period_start(&c, 60) - c.start0 == NSEC_PER_SEC, "60 periods are not 1 s");
	return true;
}

/* X: frame k needs k ms of a 100 ms frame. k = 0 wakes and trivially meets. */
static bool test_x_frames(void)
{
	struct period_clock c = { .start0 = 0, .num = 100 * MS, .den = 1, .nperiods = 202 };
	struct acct a = { 0 };
	uint64_t k;

	k = acct_start(&a, &c, 0, 20000);	/* frame 0: 20 us late, no work */
	k = acct_finish(&a, &c, k, 20000);
	EXPECT(k == 1 && a.met == 1, "frame 0 not met");
	/* frame 100 starts on time and needs the whole frame: met exactly */
	k = acct_start(&a, &c, 100, period_start(&c, 100));
	k = acct_finish(&a, &c, k, period_start(&c, 100) + 100 * MS);
	EXPECT(k == 101 && a.met == 2 && a.missed == 0, "frame 100 on time not met");
	/* frame 201 (k % 101 = 100) 1 ms late: misses, and drops nothing */
	k = acct_start(&a, &c, 201, period_start(&c, 201) + MS);
	k = acct_finish(&a, &c, k, period_start(&c, 201) + 101 * MS);
	EXPECT(a.missed == 1 && a.dropped == 0 && k == 202, "late frame 100: %llu/%llu",
	       (unsigned long long)a.missed, (unsigned long long)a.dropped);
	return true;
}

static bool test_gaming_units(void)
{
	struct game_acct g = { 0 };

	EXPECT(game_account(&g, 100 * MS) == 0, "on-time unit has latency");
	EXPECT(game_account(&g, 90 * MS) == 0, "fast unit has latency");
	EXPECT(game_account(&g, 150 * MS) == 50 * MS, "slow unit latency");
	EXPECT(g.units == 3, "units %llu", (unsigned long long)g.units);
	EXPECT(fabs(game_pct_cpu(&g) - 100.0 * 300 / 350) < 1e-9, "pct %g", game_pct_cpu(&g));
	return true;
}

/* A random timeline run to the end: every period is met, missed or dropped. */
static bool test_acct_invariant(void)
{
	struct period_clock c = { .start0 = 1000, .num = 50 * MS, .den = 3, .nperiods = 5000 };
	struct acct a = { 0 };
	uint64_t k = 0, t = c.start0;

	srand(42);
	while (k < c.nperiods) {
		uint64_t s = period_start(&c, k);

		t = (t > s ? t : s) + (uint64_t)(rand() % 20) * MS;	/* wake-up delay */
		k = acct_start(&a, &c, k, t);
		if (k >= c.nperiods)
			break;
		t += (uint64_t)(rand() % 40) * MS;			/* work */
		k = acct_finish(&a, &c, k, t);
	}
	EXPECT(a.met + a.missed + a.dropped == c.nperiods, "%llu+%llu+%llu != %llu",
	       (unsigned long long)a.met, (unsigned long long)a.missed,
	       (unsigned long long)a.dropped, (unsigned long long)c.nperiods);
	EXPECT(a.missed > 0 && a.dropped > 0 && a.met > 0, "timeline too tame");
	return true;
}

/* ---- statistics ---- */

static void two_pass(const uint64_t *v, int n, double *mean, double *sd)
{
	long double m = 0, ss = 0;

	for (int i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (int i = 0; i < n; i++)
		ss += ((long double)v[i] - m) * ((long double)v[i] - m);
	*mean = (double)m;
	*sd = n > 1 ? (double)sqrtl(ss / (n - 1)) : 0.0;
}

static bool stats_against_two_pass(const uint64_t *v, int n)
{
	struct running r;
	double mean, sd;

	running_init(&r);
	for (int i = 0; i < n; i++)
		running_add(&r, v[i]);
	two_pass(v, n, &mean, &sd);
	EXPECT(fabs(r.mean - mean) <= 1e-9 * fabs(mean) + 1e-9, "mean %.17g vs %.17g",
	       r.mean, mean);
	EXPECT(fabs(running_sd(&r) - sd) <= 1e-7 * sd + 1e-9, "sd %.17g vs %.17g",
	       running_sd(&r), sd);
	return true;
}

static bool test_stats_small(void)
{
	static const uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct running r;

	running_init(&r);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		running_add(&r, v[i]);
	EXPECT(r.mean == 5.0, "mean %g", r.mean);
	EXPECT(fabs(running_sd(&r) - sqrt(32.0 / 7.0)) < 1e-12, "sd %g", running_sd(&r));
	EXPECT(r.min == 2 && r.max == 9 && r.n == 8, "min/max/n");
	return stats_against_two_pass(v, (int)ARRAY_SIZE(v));
}

/* Values near 1e9 ns with a tiny spread: sum-of-squares formulas cancel here. */
static bool test_stats_large(void)
{
	static uint64_t v[10000];

	for (int i = 0; i < 10000; i++)
		v[i] = 1000000000ULL + (uint64_t)(i % 7) * 3 + (uint64_t)(i % 13);
	return stats_against_two_pass(v, 10000);
}

static bool test_stats_constant(void)
{
	struct running r;

	running_init(&r);
	for (int i = 0; i < 100000; i++)
		running_add(&r, 999999937ULL);
	EXPECT(running_sd(&r) == 0.0, "constant series sd %g", running_sd(&r));
	EXPECT(r.mean == 999999937.0, "mean %.17g", r.mean);
	running_init(&r);
	running_add(&r, 5);
	EXPECT(running_sd(&r) == 0.0 && r.mean == 5.0, "single sample");
	return true;
}

static bool test_hist_buckets(void)
{
	uint64_t prev_upper = 0;

	for (unsigned b = 0; b < HIST_BUCKETS - 1; b++) {
		uint64_t lo = hist_lower(b), hi = hist_upper(b);

		EXPECT(lo == prev_upper, "bucket %u starts at %llu, previous ended at %llu", b,
		       (unsigned long long)lo, (unsigned long long)prev_upper);
		EXPECT(hist_bucket(lo) == b && hist_bucket(hi - 1) == b, "bucket %u bounds", b);
		EXPECT(lo < HIST_SUB || (double)(hi - lo) / (double)lo <= 0.01,
		       "bucket %u is %.3f %% wide", b, 100.0 * (double)(hi - lo) / (double)lo);
		prev_upper = hi;
	}
	EXPECT(hist_bucket(UINT64_MAX) == HIST_BUCKETS - 1, "huge value");
	return true;
}

static bool percentile_close(const struct latency *l, double q, double want)
{
	double got = (double)latency_percentile(l, q);

	EXPECT(fabs(got - want) <= 0.01 * want, "p%g = %.0f, want %.0f", q * 100, got, want);
	return true;
}

static bool test_percentiles(void)
{
	static struct latency l;
	bool ok = true;

	latency_init(&l);
	for (uint64_t v = 1; v <= 1000000; v++)		/* uniform 1 ns .. 1 ms */
		latency_add(&l, v);
	ok = ok && percentile_close(&l, 0.5, 500000) && percentile_close(&l, 0.9, 900000) &&
	     percentile_close(&l, 0.99, 990000) && percentile_close(&l, 0.999, 999000);
	latency_init(&l);
	for (int i = 0; i < 200000; i++) {		/* exponential, mean 50 us */
		double u = (i + 0.5) / 200000.0;

		latency_add(&l, (uint64_t)(-50000.0 * log(1.0 - u)));
	}
	ok = ok && percentile_close(&l, 0.5, 50000 * log(2.0)) &&
	     percentile_close(&l, 0.99, 50000 * log(100.0)) &&
	     percentile_close(&l, 0.999, 50000 * log(1000.0));
	latency_init(&l);
	latency_add(&l, 7);
	EXPECT(latency_percentile(&l, 0.5) == 7 && latency_percentile(&l, 0.999) == 7,
	       "single sample");
	return ok;
}

static bool test_ci95(void)
{
	double v[] = { 10, 12, 11, 13, 9 }, m, h;

	mean_ci95(v, 5, &m, &h);
	EXPECT(fabs(m - 11.0) < 1e-12, "mean %g", m);
	/* sd = sqrt(2.5), t(4) = 2.776 */
	EXPECT(fabs(h - 2.776 * sqrt(2.5) / sqrt(5.0)) < 1e-9, "half %g", h);
	mean_ci95(v, 1, &m, &h);
	EXPECT(m == 10 && h == 0, "one value");
	return true;
}

/* ---- output formatting ---- */

static bool test_fmt_sig3(void)
{
	static const struct { double v; const char *want; } cases[] = {
		{ 0, "0" }, { 0.00523, "0.00523" }, { 0.104, "0.104" }, { 2.1, "2.10" },
		{ 31.42, "31.4" }, { 146.2, "146" }, { 2113.4, "2113" }, { 0.0000001, "0.000000" },
		{ 99.96, "100" }, { 1, "1.00" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[32];

		fmt_sig3(buf, sizeof(buf), cases[i].v);
		EXPECT(!strcmp(buf, cases[i].want), "%g -> '%s', want '%s'", cases[i].v, buf,
		       cases[i].want);
	}
	return true;
}

/* ---- options ---- */

struct opt_case {
	const char *args;	/* split on spaces; ~ stands for a space inside one */
	bool ok;
	const char *want_err;	/* a piece of the message */
};

static const struct opt_case opt_cases[] = {
	{ "", true, NULL },
	{ "-t 2", true, NULL },
	{ "-t 2.5", true, NULL },
	{ "-t abc", false, "-t/--time: 'abc' is not a number" },
	{ "-t 2x", false, "not a number" },
	{ "-t -1", false, "out of range" },
	{ "-t 0", false, "out of range" },
	{ "-t", false, "needs an argument" },
	{ "-t inf", false, "not a number" },
	{ "-t 0x10", false, "not a number" },
	{ "-t 1e3", false, "not a number" },
	{ "--time=3", true, NULL },
	{ "-l 0", false, "out of range" },
	{ "-l 99999999999999999999999", false, "out of range" },
	{ "-l 1000 -b", false, "-l and -b contradict" },
	{ "-L 0", false, "out of range" },
	{ "-B -20", true, NULL },
	{ "-B 20", false, "out of range" },
	{ "-N -21", false, "out of range" },
	{ "-C 50", false, "give both" },
	{ "-I 1000", false, "give both" },
	{ "-C 50 -I 1000", true, NULL },
	{ "-C 101 -I 1000", false, "out of range" },
	{ "-C 50 -I 99", false, "out of range" },
	{ "-W Custom", false, "needs -C and -I" },
	{ "-W audio", true, NULL },
	{ "-W Burn", false, "unknown benchmark 'Burn' (valid: Audio, Video, X, Gaming, Custom)" },
	{ "-w Audio", false, "unknown load" },
	{ "-w nosuch", false, "valid: None" },
	{ "-w burn -x burn", false, "no load left" },
	{ "-W Video -w Video", false, "nothing to run" },
	{ "-r -W X", false, "cannot run real time" },
	{ "-r -W Gaming -W X", false, "cannot run real time" },
	{ "-r", true, NULL },
	{ "-X Audio -X Video -X X -X Gaming", false, "no benchmark left" },
	{ "--bogus", false, "unknown option '--bogus'" },
	{ "-Z", false, "unknown option -Z" },
	{ "extra", false, "unexpected argument 'extra'" },
	{ "--compare a b", true, NULL },
	{ "--compare a --plot x.svg", true, NULL },
	{ "--compare a -t 3", false, "--compare takes only" },
	{ "--compare", false, "at least one file" },
	{ "--work-dir /nonexistent/dir", false, "No such file or directory" },
	{ "--work-dir /etc/passwd", false, "is not a directory" },
	{ "--repeat 0", false, "out of range" },
	{ "--rt-priority 99", false, "out of range" },
	{ "--json - --csv -", false, "cannot both use stdout" },
	{ "-m hello~world", true, NULL },
	{ "--plot -", false, "needs a file name" },
};

static bool test_opt_case(const struct opt_case *c)
{
	char buf[512], *argv[64], err[512] = "";
	struct config cfg;
	int argc = 0;
	enum parse_status st;

	snprintf(buf, sizeof(buf), "interbench %s", c->args);
	for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " ")) {
		for (char *p = tok; *p; p++)
			if (*p == '~')
				*p = ' ';
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	st = parse_options(argc, argv, &cfg, err, sizeof(err));
	EXPECT((st == PARSE_RUN) == c->ok, "'%s': status %d, err '%s'", c->args, st, err);
	if (!c->ok) {
		EXPECT(strstr(err, c->want_err), "'%s': message '%s' lacks '%s'", c->args, err,
		       c->want_err);
		EXPECT(!strchr(err, '\n'), "'%s': message has more than one line", c->args);
	}
	return true;
}

static bool test_opt_values(void)
{
	char *argv[] = { "interbench", "-t", "2.5", "-L", "3", "-B", "5", "-N", "-4", "-c",
			 "-r", "-W", "video", "-w", "burn", "-w", "NONE", "-m", "hi", NULL };
	struct config cfg;
	char err[256];

	EXPECT(parse_options(19, argv, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(cfg.seconds == 2.5 && cfg.cpu_load == 3 && cfg.bench_nice == 5 &&
	       cfg.load_nice == -4 && cfg.console_only && cfg.realtime, "scalars");
	EXPECT(cfg.benches == 1u << workload_find("Video"), "benches %#x", cfg.benches);
	EXPECT(cfg.loads == ((1u << workload_find("Burn")) | (1u << workload_find("None"))),
	       "loads %#x", cfg.loads);
	EXPECT(!strcmp(cfg.comment, "hi"), "comment");
	return true;
}

/* Default selection: every benchmark but Custom; -r keeps Audio and Video. */
static bool test_opt_defaults(void)
{
	char *a1[] = { "interbench", NULL }, *a2[] = { "interbench", "-r", NULL };
	struct config cfg;
	char err[256];
	uint32_t want = 0;

	EXPECT(parse_options(1, a1, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	want = 1u << workload_find("Audio") | 1u << workload_find("Video") | 1u << workload_find("X") |
		1u << workload_find("Gaming");
	EXPECT(cfg.benches == want, "benches %#x want %#x", cfg.benches, want);
	EXPECT(cfg.seconds == 30 && cfg.cpu_load == online_cpus(), "defaults");
	EXPECT(parse_options(2, a2, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(cfg.benches == (1u << workload_find("Audio") | 1u << workload_find("Video")),
	       "-r benches %#x", cfg.benches);
	return true;
}

/* ---- loads: the registry, and the sizes of files and Memload ---- */

static bool test_registry_loads(void)
{
	static const char *const order[] = { "None", "Audio", "Video", "X", "Gaming", "Burn",
		"Write", "Read", "Ring", "Compile", "Memload", "Hack", "Net", "Custom" };
	char *argv[] = { "interbench", NULL };
	uint32_t want = 0;
	struct config cfg;
	char err[256];

	EXPECT(nr_workloads == ARRAY_SIZE(order), "%zu workloads, want %zu", nr_workloads,
	       ARRAY_SIZE(order));
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		const struct workload *wl = &workloads[i];
		bool files = !strcmp(wl->name, "Write") || !strcmp(wl->name, "Read") ||
			     !strcmp(wl->name, "Compile");

		EXPECT(!strcmp(wl->name, order[i]), "entry %zu is %s, want %s", i, wl->name, order[i]);
		EXPECT(!!(wl->flags & WL_FILES) == files, "%s: WL_FILES", wl->name);
		if (!(wl->flags & WL_LOAD))
			continue;
		EXPECT(wl->load && wl->what && wl->unit, "%s: no function, line or unit", wl->name);
		EXPECT(i == 0 || (wl->intensity != INT_NONE && wl->unit[0]),
		       "%s: no intensity", wl->name);
		EXPECT(wl->intensity != INT_RATE || wl->unit_scale > 0, "%s: unit_scale", wl->name);
		if (!(wl->flags & WL_CUSTOM))
			want |= 1u << i;
	}
	EXPECT(parse_options(1, argv, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(cfg.loads == want, "default loads %#x, want %#x", cfg.loads, want);
	return true;
}

#define KB 1024ULL
#define GIB (1024 * MIB)

struct meminfo_case {
	const char *name;
	const char *text;
	int ret;
	struct meminfo want;
};

static const struct meminfo_case meminfo_cases[] = {
	{ "a machine without swap",
	  "MemTotal:       24683620 kB\nMemFree:        24522328 kB\n"
	  "MemAvailable:   24441028 kB\nBuffers:             736 kB\n"
	  "SwapCached:            0 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\n",
	  0, { 24683620 * KB, 24522328 * KB, 24441028 * KB, 0, 0 } },
	{ "with swap, keys in any order",
	  "SwapFree:        1000 kB\nMemAvailable:  3000 kB\nSwapTotal:    2000 kB\n"
	  "MemTotal:  8000 kB\nMemFree: 500 kB\n",
	  0, { 8000 * KB, 500 * KB, 3000 * KB, 2000 * KB, 1000 * KB } },
	{ "no MemAvailable (before 3.14): MemFree stands in",
	  "MemTotal: 4000 kB\nMemFree: 1500 kB\nSwapTotal: 0 kB\n",
	  0, { 4000 * KB, 1500 * KB, 1500 * KB, 0, 0 } },
	{ "SwapCached is not SwapFree, no final newline",
	  "MemTotal: 10 kB\nSwapCached: 7 kB\nMemAvailable: 5 kB",
	  0, { 10 * KB, 0, 5 * KB, 0, 0 } },
	{ "no MemTotal", "MemFree: 10 kB\n", -EINVAL, { 0 } },
	{ "garbage", "hello\n\n", -EINVAL, { 0 } },
};

static bool test_meminfo_case(const struct meminfo_case *c)
{
	struct meminfo mi;
	int ret = meminfo_parse(c->text, &mi);

	EXPECT(ret == c->ret, "returned %d, want %d", ret, c->ret);
	if (ret)
		return true;
	EXPECT(!memcmp(&mi, &c->want, sizeof(mi)),
	       "total %llu free %llu avail %llu swap %llu/%llu", (unsigned long long)mi.total,
	       (unsigned long long)mi.free, (unsigned long long)mi.available,
	       (unsigned long long)mi.swap_free, (unsigned long long)mi.swap_total);
	return true;
}

struct memload_case {
	const char *name;
	struct meminfo mi;		/* total, free, available, swap_total, swap_free */
	uint64_t want;
};

static const struct memload_case memload_cases[] = {
	{ "24 GiB, no swap: all but 1/16 of RAM",
	  { 24 * GIB, 23 * GIB, 23 * GIB, 0, 0 }, 23 * GIB - 1536 * MIB },
	{ "1 GiB, no swap: the margin is at least 256 MiB",
	  { GIB, 600 * MIB, 600 * MIB, 0, 0 }, 344 * MIB },
	{ "less available than the margin: nothing",
	  { GIB, 200 * MIB, 200 * MIB, 0, 0 }, 0 },
	{ "swap: half of the free swap on top",
	  { 8 * GIB, GIB, 6 * GIB, 4 * GIB, 3 * GIB }, 5 * GIB + 512 * MIB + 1536 * MIB },
	{ "swap full: RAM only",
	  { 8 * GIB, GIB, 6 * GIB, 4 * GIB, 0 }, 5 * GIB + 512 * MIB },
	{ "little RAM left but free swap: the margin comes off the sum",
	  { 4 * GIB, 0, 100 * MIB, 2 * GIB, 2 * GIB }, 868 * MIB },
	{ "rounded down to whole 2 MiB chunks",
	  { GIB, 0, 256 * MIB + 3 * MIB + 5, 0, 0 }, 2 * MIB },
	{ "SwapFree without SwapTotal is ignored",
	  { 2 * GIB, 0, GIB, 0, GIB }, 768 * MIB },
};

static bool test_memload_case(const struct memload_case *c)
{
	uint64_t got = memload_bytes_for(&c->mi);
	uint64_t swap = c->mi.swap_total ? c->mi.swap_free : 0;

	EXPECT(got == c->want, "%llu MiB, want %llu MiB", (unsigned long long)(got / MIB),
	       (unsigned long long)(c->want / MIB));
	/* never more than what is available less the margin, and half the free swap */
	EXPECT(!got || got + memload_margin(&c->mi) <= c->mi.available + swap / 2 + 2 * MIB,
	       "leaves less than the margin");
	return true;
}

/* Memload gives back what the headroom lacks under the floor, swap counted. */
static bool test_memload_shortfall(void)
{
	static const struct {
		struct meminfo mi;
		uint64_t floor, want;
	} cases[] = {
		{ { 24 * GIB, 0, 2 * GIB, 0, 0 }, 768 * MIB, 0 },
		{ { 24 * GIB, 0, 500 * MIB, 0, 0 }, 768 * MIB, 268 * MIB },
		{ { 24 * GIB, 0, 500 * MIB, 8 * GIB, 300 * MIB }, 768 * MIB, 0 },
		{ { 24 * GIB, 0, 100 * MIB, 8 * GIB, 100 * MIB }, 768 * MIB, 568 * MIB },
		{ { 24 * GIB, 0, 0, 0, 5 * GIB }, 768 * MIB, 768 * MIB },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t got = memload_shortfall(&cases[i].mi, cases[i].floor);

		EXPECT(got == cases[i].want, "case %zu: %llu MiB, want %llu MiB", i,
		       (unsigned long long)(got / MIB), (unsigned long long)(cases[i].want / MIB));
	}
	return true;
}

struct files_case {
	const char *name;
	uint64_t free, ram;
	long file_mib;
	bool want_read, want_write;
	int ret;
	uint64_t read, write;
};

static const struct files_case files_cases[] = {
	{ "big disk, big RAM: the caps", 80 * GIB, 24 * GIB, 0, true, true, 0,
	  256 * MIB, 256 * MIB },
	{ "Read only", 80 * GIB, 24 * GIB, 0, true, false, 0, 256 * MIB, 0 },
	{ "small RAM: 1/16 of it each", 80 * GIB, GIB, 0, true, true, 0, 64 * MIB, 64 * MIB },
	{ "32 MiB free: together half of it", 32 * MIB, 24 * GIB, 0, true, true, 0,
	  8 * MIB, 8 * MIB },
	{ "32 MiB free, Write only: half of it", 32 * MIB, 24 * GIB, 0, false, true, 0,
	  0, 16 * MIB },
	{ "uneven free space rounds down to MiB", 21 * MIB + 7, 24 * GIB, 0, true, true, 0,
	  5 * MIB, 5 * MIB },
	{ "3 MiB free: too little for two files", 3 * MIB, 24 * GIB, 0, true, true, -ENOSPC,
	  0, 0 },
	{ "no free space", 0, 24 * GIB, 0, false, true, -ENOSPC, 0, 0 },
	{ "--file-mib is taken as asked", 32 * MIB, 24 * GIB, 48, true, true, 0,
	  48 * MIB, 48 * MIB },
	{ "--file-mib for Write only", 80 * GIB, 24 * GIB, 2, false, true, 0, 0, 2 * MIB },
	{ "no file wanted", 0, 0, 0, false, false, 0, 0, 0 },
};

static bool test_files_case(const struct files_case *c)
{
	uint64_t r = 1, w = 1;
	int ret = load_file_sizes(c->free, c->ram, c->file_mib, c->want_read, c->want_write,
				  &r, &w);

	EXPECT(ret == c->ret, "returned %d, want %d", ret, c->ret);
	if (ret)
		return true;
	EXPECT(r == c->read && w == c->write, "read %llu write %llu bytes, want %llu %llu",
	       (unsigned long long)r, (unsigned long long)w, (unsigned long long)c->read,
	       (unsigned long long)c->write);
	EXPECT(c->file_mib || r + w <= c->free / 2, "more than half the free space");
	return true;
}

/* ---- calibration file ---- */

static bool test_calibration_file(void)
{
	char dir[] = "/tmp/ib-unit-XXXXXX", path[256];
	unsigned long lpm = 0;
	FILE *f;
	bool ok = true;

	EXPECT(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/interbench.loops_per_ms", dir);
	if (calibration_save(path, 123456) || calibration_load(path, &lpm) || lpm != 123456) {
		snprintf(detail, sizeof(detail), "round trip gave %lu", lpm);
		ok = false;
	}
	f = fopen(path, "w");
	fprintf(f, "loops_per_ms 5\ncpu_model Some Other CPU\nkernel_release 1.0\n");
	fclose(f);
	if (ok && calibration_load(path, &lpm) != -ESTALE) {
		snprintf(detail, sizeof(detail), "another machine's value was used");
		ok = false;
	}
	f = fopen(path, "w");
	fprintf(f, "loops_per_ms banana\n");
	fclose(f);
	if (ok && calibration_load(path, &lpm) != -EINVAL) {
		snprintf(detail, sizeof(detail), "garbage accepted");
		ok = false;
	}
	unlink(path);
	rmdir(dir);
	return ok;
}


/* ---- machine-readable output: escaping, quoting, numbers, time ---- */

struct str_case {
	const char *in;		/* NULL: the missing value */
	const char *want;
};

static const struct str_case json_cases[] = {
	{ "plain", "\"plain\"" },
	{ "", "\"\"" },
	{ NULL, "null" },
	{ "say \"hi\"", "\"say \\\"hi\\\"\"" },
	{ "back\\slash", "\"back\\\\slash\"" },
	{ "\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"" },
	{ "\x01 \x1f \x7f", "\"\\u0001 \\u001f \\u007f\"" },
	{ "\xc3\xbcn\xc3\xaf \xe2\x9c\x93 \xf0\x9f\x98\x80",		/* UTF-8 as it is */
	  "\"\xc3\xbcn\xc3\xaf \xe2\x9c\x93 \xf0\x9f\x98\x80\"" },
	{ "bad \xff byte", "\"bad \\ufffd byte\"" },
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },				/* overlong '/' */
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },		/* a surrogate */
	{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },	/* above U+10FFFF */
	{ "cut \xe2\x9c", "\"cut \\ufffd\\ufffd\"" },		/* cut short at the end */
	{ "\x80 lone", "\"\\ufffd lone\"" },
};

static const struct str_case csv_cases[] = {
	{ "plain", "plain" },
	{ "", "" },
	{ NULL, "" },
	{ "a,b", "\"a,b\"" },
	{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
	{ "two\nlines", "\"two\nlines\"" },
	{ "cr\r", "\"cr\r\"" },
	{ "back\\slash; tab\t", "back\\slash; tab\t" },
	{ "\xc3\xbcn\xc3\xaf \xe2\x9c\x93", "\xc3\xbcn\xc3\xaf \xe2\x9c\x93" },
	{ "bad \xff byte", "bad \xef\xbf\xbd byte" },
};

static bool test_str_cases(const struct str_case *cases, size_t n,
			   void (*fn)(struct sbuf *, const char *))
{
	for (size_t i = 0; i < n; i++) {
		struct sbuf sb;
		bool ok;

		sb_init(&sb);
		fn(&sb, cases[i].in);
		ok = !sb.failed && sb.len == strlen(cases[i].want) &&
		     !memcmp(sb.buf ? sb.buf : "", cases[i].want, sb.len);
		if (!ok)
			snprintf(detail, sizeof(detail), "case %zu: got [%s], want [%s]", i,
				 sb.buf ? sb.buf : "", cases[i].want);
		sb_free(&sb);
		if (!ok)
			return false;
	}
	return true;
}

/* Every byte value: the output is printable ASCII or well-formed UTF-8 only. */
static bool test_json_all_bytes(void)
{
	char in[256];
	struct sbuf sb;
	bool ok = true;

	for (int i = 1; i < 256; i++)
		in[i - 1] = (char)i;
	in[255] = '\0';
	sb_init(&sb);
	json_string(&sb, in);
	for (size_t i = 0; i < sb.len && ok;) {
		size_t n = utf8_valid_len((const unsigned char *)sb.buf + i);

		ok = n && ((unsigned char)sb.buf[i] >= 0x20 && sb.buf[i] != 0x7f);
		i += n ? n : 1;
	}
	sb_free(&sb);
	EXPECT(ok, "raw control character or bad UTF-8 in the output");
	return true;
}

static bool test_json_number(void)
{
	static const struct { double v; const char *want; } cases[] = {
		{ 0, "0" }, { 1, "1" }, { 0.1, "0.1" }, { 1234567, "1234567" }, { -2.5, "-2.5" },
		{ 1e300, "1e+300" }, { 1.0 / 3, "0.3333333333333333" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 326098.65, "326098.65" },
		{ NAN, "null" }, { INFINITY, "null" }, { -INFINITY, "null" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sbuf sb;
		bool ok;

		sb_init(&sb);
		json_number(&sb, cases[i].v);
		ok = !strcmp(sb.buf, cases[i].want);
		if (!ok)
			snprintf(detail, sizeof(detail), "%g -> %s, want %s", cases[i].v, sb.buf,
				 cases[i].want);
		sb_free(&sb);
		if (!ok)
			return false;
	}
	srand(7);
	for (int i = 0; i < 10000; i++) {
		double v = (double)rand() / 3.7 * pow(10, rand() % 40 - 20);
		struct sbuf sb;
		bool ok;

		sb_init(&sb);
		json_number(&sb, v);
		ok = strtod(sb.buf, NULL) == v;
		sb_free(&sb);
		EXPECT(ok, "%.17g does not read back", v);
	}
	return true;
}

static bool test_iso8601(void)
{
	static const struct { const char *tz; time_t t; const char *want; } cases[] = {
		{ "UTC0", 0, "1970-01-01T00:00:00+00:00" },
		{ "CET-1", 0, "1970-01-01T01:00:00+01:00" },
		{ "IST-5:30", 0, "1970-01-01T05:30:00+05:30" },
		{ "EST5", 0, "1969-12-31T19:00:00-05:00" },
		{ "UTC0", 1795808643, "2026-11-27T19:44:03+00:00" },
	};
	char *old = getenv("TZ") ? strdup(getenv("TZ")) : NULL;
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(cases) && ok; i++) {
		char buf[40];

		setenv("TZ", cases[i].tz, 1);
		tzset();
		fmt_iso8601(buf, sizeof(buf), cases[i].t);
		ok = !strcmp(buf, cases[i].want);
		if (!ok)
			snprintf(detail, sizeof(detail), "%s: %s, want %s", cases[i].tz, buf,
				 cases[i].want);
	}
	if (old)
		setenv("TZ", old, 1);
	else
		unsetenv("TZ");
	tzset();
	free(old);
	return ok;
}

/* ---- sysinfo: what the kernel says, parsed ---- */

static bool test_marked(void)
{
	static const struct { const char *s; char open, close; const char *want; } cases[] = {
		{ "none [mq-deadline] kyber bfq", '[', ']', "mq-deadline" },
		{ "[none] bfq", '[', ']', "none" },
		{ "none", '[', ']', NULL },
		{ "none voluntary (full) lazy ", '(', ')', "full" },
		{ "[]", '[', ']', NULL },
		{ "[open", '[', ']', NULL },
		{ NULL, '[', ']', NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char out[32];
		int ret = sysinfo_marked(cases[i].s, cases[i].open, cases[i].close, out,
					 sizeof(out));

		EXPECT(cases[i].want ? !ret && !strcmp(out, cases[i].want) : ret < 0 && !out[0],
		       "case %zu: %d '%s'", i, ret, out);
	}
	return true;
}

struct preempt_case {
	const char *name;
	struct preempt_in in;
	const char *model;	/* NULL: not decided */
	const char *source;
	int dynamic;
};

#define DYN "#1 SMP PREEMPT_DYNAMIC Mon Jan 1"
static const struct preempt_case preempt_cases[] = {
	{ "PREEMPT_RT in uname -v", { .uname_v = "#1 SMP PREEMPT_RT Fri", .release = "6.12.0" },
	  "rt", "uname", -1 },
	{ "debugfs (parentheses)", { .debugfs = "none voluntary (full) lazy ", .uname_v = DYN },
	  "full", "debugfs", 1 },
	{ "debugfs (brackets)", { .debugfs = "none voluntary full [lazy]", .uname_v = DYN },
	  "lazy", "debugfs", 1 },
	{ "debugfs wins over preempt=", { .debugfs = "(none) voluntary full",
	  .uname_v = DYN, .cmdline = "preempt=full" }, "none", "debugfs", 1 },
	{ "preempt= of a dynamic kernel", { .uname_v = DYN,
	  .cmdline = "ro preempt=voluntary quiet" }, "voluntary", "cmdline", 1 },
	{ "preempt= after -- is for init", { .uname_v = DYN,
	  .cmdline = "preempt=full -- preempt=none" }, "full", "cmdline", 1 },
	{ "the last valid preempt= counts", { .uname_v = DYN,
	  .cmdline = "preempt=none preempt=lazy preempt=bogus" }, "lazy", "cmdline", 1 },
	{ "bad preempt=, config default", { .uname_v = DYN, .cmdline = "preempt=bogus",
	  .config = "CONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_DYNAMIC=y\n",
	  .config_path = "/proc/config.gz" }, "none", "/proc/config.gz", 1 },
	{ "dynamic, nothing else", { .uname_v = DYN, .release = "6.1.0" }, NULL, NULL, 1 },
	{ "PREEMPT before 6.13 is full", { .uname_v = "#1 SMP PREEMPT Mon", .release = "6.1.0-13" },
	  "full", "uname", -1 },
	{ "PREEMPT since 6.13 may be lazy", { .uname_v = "#1 SMP PREEMPT Mon",
	  .release = "6.14.2" }, NULL, NULL, -1 },
	{ "config: lazy", { .uname_v = "#1 SMP PREEMPT Mon", .release = "6.14.2",
	  .config = "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_LAZY=y\n", .config_path = "c" },
	  "lazy", "c", 0 },
	{ "config: voluntary", { .uname_v = "#1 SMP", .release = "6.1.0",
	  .config = "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_VOLUNTARY=y", .config_path = "c" },
	  "voluntary", "c", 0 },
	{ "config: exact lines only", { .uname_v = "#1 SMP", .release = "6.1.0",
	  .config = "CONFIG_PREEMPT_RT=y\n", .config_path = "c" }, "rt", "c", 0 },
	{ "preempt= ignored without dynamic", { .uname_v = "#1 SMP", .cmdline = "preempt=full",
	  .config = "CONFIG_PREEMPT_NONE=y\n", .config_path = "c" }, "none", "c", 0 },
	{ "no PREEMPT word, no config", { .uname_v = "#1 SMP", .release = "6.1.0" },
	  NULL, NULL, -1 },
};

static bool test_preempt_case(const struct preempt_case *c)
{
	char model[16];
	const char *src;
	int dyn, ret = sysinfo_preemption(&c->in, model, sizeof(model), &src, &dyn);

	if (!c->model) {
		EXPECT(ret < 0 && !model[0] && !src, "decided '%s' from %s", model, src);
	} else {
		EXPECT(!ret && !strcmp(model, c->model) && src && !strcmp(src, c->source),
		       "got %d '%s' from %s, want '%s' from %s", ret, model, src ? src : "-",
		       c->model, c->source);
	}
	EXPECT(dyn == c->dynamic, "dynamic %d, want %d", dyn, c->dynamic);
	return true;
}

static bool test_mountinfo(void)
{
	static const char *line = "36 35 98:0 /mnt1 /mnt2 rw,noatime shared:1 master:1 - "
				  "ext3 /dev/root rw,errors=continue\n";
	char fs[16], src[32];

	EXPECT(!sysinfo_mountinfo_line(line, 98, 0, fs, sizeof(fs), src, sizeof(src)) &&
	       !strcmp(fs, "ext3") && !strcmp(src, "/dev/root"), "'%s' '%s'", fs, src);
	EXPECT(sysinfo_mountinfo_line(line, 98, 1, fs, sizeof(fs), src, sizeof(src)) < 0,
	       "wrong minor matched");
	EXPECT(sysinfo_mountinfo_line("garbage", 98, 0, fs, sizeof(fs), src, sizeof(src)) < 0,
	       "garbage matched");
	return true;
}

/* ---- inflate.c: gzip streams made by Python's zlib ---- */

static const uint8_t gz_stored[] = {
	0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x01, 0x12,
	0x00, 0xed, 0xff, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x68, 0x65, 0x6c,
	0x6c, 0x6f, 0x20, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a, 0x3b, 0x7c, 0x8a,
	0xdf, 0x12, 0x00, 0x00, 0x00,
};
static const uint8_t gz_fixed[] = {
	0x1f, 0x8b, 0x08, 0x08, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0x66, 0x2e,
	0x74, 0x78, 0x74, 0x00, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40,
	0x90, 0x5c, 0x00, 0x3b, 0x7c, 0x8a, 0xdf, 0x12, 0x00, 0x00, 0x00,
};
static const uint8_t gz_dynamic[] = {
	0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0x6d, 0x97,
	0x31, 0x4e, 0x65, 0x31, 0x10, 0x04, 0xf3, 0x3d, 0x8d, 0xc7, 0xf6, 0x78,
	0xc6, 0x01, 0x11, 0x12, 0x2b, 0x12, 0x3e, 0x01, 0x39, 0x27, 0xe0, 0x00,
	0xdc, 0x1e, 0x6d, 0xb8, 0x54, 0xa5, 0xd6, 0x8c, 0xd4, 0xee, 0x2e, 0xbd,
	0xf6, 0x7b, 0x7e, 0xbc, 0xbd, 0xbc, 0xfe, 0xfd, 0x7c, 0xbc, 0x7f, 0xbc,
	0x3e, 0xde, 0x3e, 0xc7, 0xd3, 0xd7, 0x9f, 0xe7, 0xff, 0x4e, 0xe2, 0xe9,
	0xfb, 0xd7, 0xc9, 0xc4, 0xc9, 0xc2, 0xd6, 0xc6, 0x4c, 0xe2, 0xe4, 0x60,
	0xab, 0x30, 0xd3, 0x38, 0xb9, 0x54, 0x38, 0x30, 0x14, 0x54, 0x1d, 0x93,
	0x8b, 0x8b, 0x53, 0x14, 0x1e, 0xc9, 0xc5, 0xc3, 0x29, 0x6a, 0x8f, 0xe6,
	0xe2, 0xa5, 0x9b, 0x54, 0x3f, 0x03, 0x8b, 0x93, 0xa6, 0x4f, 0xaa, 0x9f,
	0x9b, 0x8b, 0xf4, 0x7d, 0x52, 0xfd, 0x2c, 0x2e, 0xd2, 0xfa, 0x49, 0xf5,
	0x8b, 0xc0, 0x2c, 0x7a, 0xbf, 0x04, 0x19, 0x32, 0xb3, 0xe8, 0xfd, 0xa2,
	0xfa, 0x45, 0x6c, 0x16, 0xbd, 0x5f, 0x54, 0xbf, 0x48, 0xce, 0xa6, 0xf7,
	0x9b, 0xea, 0x37, 0xc9, 0xd9, 0xf4, 0x7e, 0x53, 0xfd, 0x26, 0x39, 0x9b,
	0xde, 0x6f, 0xaa, 0xdf, 0x24, 0x67, 0xd3, 0xfb, 0xa4, 0xfa, 0x24, 0x39,
	0x49, 0xef, 0x93, 0xea, 0x93, 0xe4, 0x24, 0xbd, 0x4f, 0xaa, 0x4f, 0x92,
	0x93, 0xf4, 0x3e, 0xa9, 0xfe, 0x90, 0x9c, 0x43, 0xef, 0x0f, 0xd5, 0x1f,
	0x92, 0x73, 0xe8, 0xfd, 0x91, 0xef, 0x0d, 0xc9, 0x39, 0xf4, 0xfe, 0x50,
	0xfd, 0x21, 0x39, 0x45, 0xef, 0x8b, 0xea, 0x8b, 0xe4, 0x14, 0xbd, 0x2f,
	0xaa, 0x2f, 0x92, 0x53, 0xf4, 0xbe, 0xa8, 0xbe, 0x48, 0x4e, 0xd1, 0xfb,
	0xa6, 0xfa, 0x26, 0x39, 0x4d, 0xef, 0x9b, 0xea, 0x9b, 0xe4, 0x34, 0xbd,
	0x6f, 0xaa, 0x6f, 0x92, 0xd3, 0xf4, 0xbe, 0xa9, 0xfe, 0x92, 0x9c, 0x4b,
	0xef, 0x2f, 0xd5, 0x5f, 0x92, 0x73, 0xe9, 0xfd, 0xa5, 0xfa, 0x4b, 0x72,
	0x2e, 0xbd, 0xbf, 0x52, 0x56, 0xd6, 0x56, 0x52, 0x57, 0x43, 0xfa, 0x6a,
	0x48, 0x61, 0x0d, 0x69, 0xac, 0x21, 0x95, 0x35, 0xa4, 0xb3, 0x86, 0x94,
	0xd6, 0x90, 0xd6, 0x1a, 0x52, 0x5b, 0xe3, 0x4a, 0xc5, 0x5a, 0xed, 0x92,
	0xa2, 0x88, 0x29, 0x73, 0x72, 0x8f, 0xd8, 0xb2, 0x9b, 0x32, 0x27, 0xf7,
	0x88, 0x92, 0xdd, 0x96, 0x39, 0xb9, 0xc7, 0x94, 0x37, 0xcf, 0xb4, 0xf7,
	0x83, 0xdc, 0x63, 0x2e, 0xd9, 0x95, 0x3c, 0xa4, 0x85, 0x63, 0x1e, 0xd9,
	0x95, 0x3c, 0xa4, 0x88, 0x63, 0x0a, 0x57, 0x4b, 0xf2, 0x90, 0x2e, 0x8e,
	0x65, 0x0f, 0x21, 0xc9, 0x43, 0xea, 0x38, 0x96, 0x70, 0xb5, 0x24, 0x0f,
	0x69, 0xe4, 0x58, 0xc2, 0xd5, 0x92, 0x3c, 0xa4, 0x94, 0x63, 0x0b, 0x57,
	0x5b, 0xf2, 0xd8, 0xf6, 0xa2, 0x13, 0xae, 0xb6, 0xe4, 0x21, 0xd5, 0x1c,
	0x5b, 0xb8, 0xda, 0x92, 0x87, 0xb4, 0x73, 0xa4, 0x70, 0x95, 0x92, 0x87,
	0x14, 0x74, 0xa4, 0x70, 0x95, 0xf6, 0x34, 0x95, 0x7b, 0xa4, 0x70, 0x95,
	0x92, 0x87, 0xd4, 0x74, 0xa4, 0x70, 0x75, 0x24, 0x0f, 0x69, 0xea, 0x38,
	0xc2, 0xd5, 0x91, 0x3c, 0xa4, 0xac, 0xe3, 0xd8, 0x1b, 0x5b, 0xf2, 0x90,
	0xbe, 0x8e, 0x23, 0x5c, 0x1d, 0xc9, 0x43, 0x2a, 0x3b, 0x4a, 0xb8, 0x2a,
	0xc9, 0x43, 0x5a, 0x3b, 0x4a, 0xb8, 0x2a, 0xc9, 0xa3, 0xec, 0x67, 0x41,
	0xb8, 0x2a, 0xc9, 0x43, 0xba, 0x3b, 0x5a, 0xb8, 0x6a, 0xc9, 0x43, 0xea,
	0x3b, 0x5a, 0xb8, 0x6a, 0xc9, 0x43, 0x1a, 0x3c, 0x5a, 0xb8, 0x6a, 0xfb,
	0xeb, 0x91, 0x7b, 0xb4, 0x70, 0x75, 0x25, 0x0f, 0xe9, 0xf1, 0xb8, 0xc2,
	0xd5, 0x95, 0x3c, 0xa4, 0xca, 0xe3, 0x0a, 0x57, 0x57, 0xf2, 0x90, 0x36,
	0x8f, 0x6b, 0xbf, 0x6f, 0xff, 0xf2, 0xf8, 0x01, 0xc3, 0x75, 0x18, 0x37,
	0x32, 0x0f, 0x00, 0x00,
};

static const char *dynamic_text(void)
{
	static char text[8192];
	size_t used = 0;

	for (int i = 0; i < 200; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "CONFIG_OPTION_%d=%s\n",
					 i, i % 3 ? "y" : "m");
	return text;
}

static bool gunzip_is(const uint8_t *gz, size_t len, const char *want)
{
	char *out;
	size_t n;
	int ret = gunzip(gz, len, 1 << 20, &out, &n);

	EXPECT(!ret, "gunzip: %s", strerror(-ret));
	EXPECT(n == strlen(want) && !memcmp(out, want, n) && !out[n], "wrong output (%zu bytes)",
	       n);
	free(out);
	return true;
}

static bool test_gunzip(void)
{
	uint8_t bad[sizeof(gz_dynamic)];
	char *out;
	size_t n;

	if (!gunzip_is(gz_stored, sizeof(gz_stored), "hello hello hello\n") ||
	    !gunzip_is(gz_fixed, sizeof(gz_fixed), "hello hello hello\n") ||
	    !gunzip_is(gz_dynamic, sizeof(gz_dynamic), dynamic_text()))
		return false;
	memcpy(bad, gz_dynamic, sizeof(bad));
	bad[sizeof(bad) - 5] ^= 1;	/* the CRC */
	EXPECT(gunzip(bad, sizeof(bad), 1 << 20, &out, &n) == -EINVAL, "bad CRC accepted");
	memcpy(bad, gz_dynamic, sizeof(bad));
	bad[40] ^= 0x55;		/* the data */
	EXPECT(gunzip(bad, sizeof(bad), 1 << 20, &out, &n) < 0, "corrupt data accepted");
	EXPECT(gunzip(gz_dynamic, sizeof(gz_dynamic) - 12, 1 << 20, &out, &n) < 0,
	       "truncated stream accepted");
	EXPECT(gunzip(gz_dynamic, sizeof(gz_dynamic), 100, &out, &n) == -EFBIG, "limit ignored");
	EXPECT(gunzip((const uint8_t *)"not gzip at all, really", 23, 1 << 20, &out, &n) == -EINVAL,
	       "not gzip accepted");
	return true;
}

/* A whole stream into buf; its length, or 0 when empty or too long. */
static size_t slurp(FILE *f, char *buf, size_t cap)
{
	size_t n = fread(buf, 1, cap, f);

	return n < cap ? n : 0;
}

/* 1: same as zcat, 0: differs, -1: no /proc/config.gz or no zcat here. */
static int config_gz_vs_zcat(void)
{
	static char gz[4 << 20], ref[16 << 20];
	size_t gzlen = 0, reflen = 0, n;
	FILE *f = fopen("/proc/config.gz", "re"), *p;
	char *out;
	int ret = 0;

	if (f) {
		gzlen = slurp(f, gz, sizeof(gz));
		fclose(f);
	}
	p = gzlen ? popen("zcat /proc/config.gz 2>/dev/null", "r") : NULL;
	if (p) {
		reflen = slurp(p, ref, sizeof(ref));
		if (pclose(p) != 0)
			reflen = 0;
	}
	if (!reflen)
		return -1;
	if (!gunzip((const uint8_t *)gz, gzlen, sizeof(ref), &out, &n)) {
		ret = n == reflen && !memcmp(out, ref, n);
		free(out);
	}
	if (!ret)
		snprintf(detail, sizeof(detail), "differs from zcat's %zu bytes", reflen);
	return ret;
}

/* ---- reading results back: logs and CSV ---- */

#define OURS_HEAD "\nLoad set to 2 processors\n\nUsing 100 loops per ms, running every load for 2 seconds\n"
#define AUDIO_HEADING "--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n" \
	"Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU  % Deadlines Met  Load intensity\n"
#define OURS_ROW "None\t  0.137 +/- 0.0365         0.314             100              100  -\n"
#define OLD_HEADING "--- Benchmarking simulated cpu of Video real time in the presence of simulated ---\n" \
	"Load\tLatency +/- SD (us)  Max Latency   % Desired CPU  % Deadlines Met\n"
#define CSV_HEAD "kernel_release,comment,start,pass,realtime,benchmark,load,status,reason,samples," \
	"latency_min_ns,latency_mean_ns,latency_sd_ns,latency_max_ns,latency_p50_ns,latency_p90_ns," \
	"latency_p99_ns,latency_p999_ns,pct_desired_cpu,pct_deadlines_met,load_intensity," \
	"load_intensity_unit,extra\n"

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
	{ "a run stopped before its first row", "Benchmarking kernel 1 at datestamp 2\n\n"
	  "Interrupted by signal 15 (SIGTERM) after 0 rows\n", "a run header with no tables", 0 },
};

static bool test_parse_err_case(const struct parse_err_case *c)
{
	struct res_file f;
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
	struct res_file f;
	char err[256] = "";
	int ret = results_parse(c->text, strlen(c->text), &f, err, sizeof(err));
	const struct res_obs *o;
	bool ok = true;

	EXPECT(!ret, "error: %s", err);
	o = &f.runs[0].obs[0];
	if (f.nruns != c->nruns || f.runs[0].nobs != c->nobs) {
		snprintf(detail, sizeof(detail), "%d groups, %d rows; want %d, %d", f.nruns,
			 f.runs[0].nobs, c->nruns, c->nobs);
		ok = false;
	} else if (strcmp(f.runs[0].kernel, c->kernel) || strcmp(f.runs[0].comment, c->comment)) {
		snprintf(detail, sizeof(detail), "kernel '%s' comment '%s'", f.runs[0].kernel,
			 f.runs[0].comment);
		ok = false;
	} else if (strcmp(o->bench, c->bench) || strcmp(o->load, c->load) ||
		   o->realtime != c->realtime || o->failed != c->failed) {
		snprintf(detail, sizeof(detail), "row %s/%s rt %d failed %d", o->bench, o->load,
			 o->realtime, o->failed);
		ok = false;
	} else if (!same(o->v[RV_MEAN], c->mean_ns) || !same(o->v[RV_SD], c->sd_ns) ||
		   !same(o->v[RV_MAX], c->max_ns) || !same(o->v[RV_CPU], c->cpu) ||
		   !same(o->v[RV_DL], c->dl) || !same(o->v[RV_P99], c->p99_ns)) {
		snprintf(detail, sizeof(detail), "mean %g sd %g max %g cpu %g dl %g p99 %g",
			 o->v[RV_MEAN], o->v[RV_SD], o->v[RV_MAX], o->v[RV_CPU], o->v[RV_DL],
			 o->v[RV_P99]);
		ok = false;
	}
	results_free(&f);
	return ok;
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
	static const struct { double v; const char *want; } pct[] = {
		{ 100, "100" }, { 99.95, "99.9" }, { 94.83, "94.8" }, { 5.129, "5.12" },
		{ NAN, "-" }, { 0, "0" },
	};
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(chg); i++) {
		cmp_fmt_change(buf, sizeof(buf), chg[i].ref, chg[i].v);
		EXPECT(!strcmp(buf, chg[i].want), "change %g -> %g: '%s', want '%s'", chg[i].ref,
		       chg[i].v, buf, chg[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(val); i++) {
		cmp_fmt_value(buf, sizeof(buf), val[i].v, val[i].sig);
		EXPECT(!strcmp(buf, val[i].want), "value %g: '%s', want '%s'", val[i].v, buf,
		       val[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(pct); i++) {
		cmp_fmt_pct(buf, sizeof(buf), pct[i].v);
		EXPECT(!strcmp(buf, pct[i].want), "pct %g: '%s', want '%s'", pct[i].v, buf,
		       pct[i].want);
	}
	return true;
}

static void fake_obs(struct res_obs *o, double mean, double max)
{
	memset(o, 0, sizeof(*o));
	for (int k = 0; k < RV_COUNT; k++)
		o->v[k] = NAN;
	strcpy(o->bench, "Audio");
	strcpy(o->load, "None");
	o->v[RV_MEAN] = mean;
	o->v[RV_SD] = 3;
	o->v[RV_MAX] = max;
	o->v[RV_CPU] = 100;
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
		struct res_obs oa[3], ob[3];
		const struct res_obs *pa[3], *pb[3];
		struct res_cell ca, cb;

		for (int k = 0; k < 3; k++) {
			fake_obs(&oa[k], cases[i].a[k], 10 * cases[i].a[k]);
			fake_obs(&ob[k], cases[i].b[k], 10 * cases[i].b[k]);
			pa[k] = &oa[k];
			pb[k] = &ob[k];
		}
		res_cell_compute(pa, cases[i].na, &ca);
		res_cell_compute(pb, cases[i].nb, &cb);
		EXPECT(res_cell_differs(&ca, &cb, RV_MEAN) == cases[i].want &&
		       res_cell_differs(&ca, &cb, RV_MAX) == cases[i].want,
		       "case %zu: mean %g +/- %g vs %g +/- %g", i, ca.v[RV_MEAN], ca.half_mean,
		       cb.v[RV_MEAN], cb.half_mean);
		EXPECT(ca.npass == cases[i].na && fabs(ca.v[RV_SD] - 3) < 1e-12 &&
		       ca.v[RV_CPU] == 100, "case %zu: passes %d sd %g", i, ca.npass, ca.v[RV_SD]);
	}
	{
		struct res_obs o[2];
		const struct res_obs *p[2] = { &o[0], &o[1] };
		struct res_cell c;

		fake_obs(&o[0], 10, 20);
		fake_obs(&o[1], 0, 0);
		o[1].failed = true;
		o[1].v[RV_MEAN] = NAN;
		res_cell_compute(p, 2, &c);
		EXPECT(c.npass == 1 && c.nfail == 1 && c.v[RV_MEAN] == 10, "a failed pass counted");
	}
	return true;
}

/* The widest numbers each column can hold: two runs still fit in 100 columns. */
static bool test_cmp_width(void)
{
	static const char *const loads[] = { "Memload", "Compile", "None" };
	static const double wide[2][3][2] = {	/* [run][load]: mean, max in ns */
		{ { 5.23e3, 9.99e3 }, { 9.99e9, 9.99e9 }, { 123456, 999999 } },
		{ { 9.99e9, 1.23e11 }, { 5.23e3, 1.5e4 }, { 999999, 123456 } },
	};
	struct res_run run[2];
	struct cmp_input in[2];
	struct cmp_matrix *m = calloc(1, sizeof(*m));
	char err[256], *text = NULL, *line;
	size_t len = 0;
	FILE *out;
	bool ok = true;

	EXPECT(m, "calloc");
	for (int r = 0; r < 2; r++) {
		memset(&run[r], 0, sizeof(run[r]));
		run[r].obs = calloc(6, sizeof(struct res_obs));
		snprintf(run[r].kernel, sizeof(run[r].kernel), "%s",
			 "6.18.0-rc7-a-very-long-release-name");
		snprintf(run[r].comment, sizeof(run[r].comment), "with a long comment, too");
		for (int k = 0; k < 6; k++) {
			struct res_obs *o = &run[r].obs[run[r].nobs++];

			double f = 1.0 + 0.001 * (k / 3);

			fake_obs(o, wide[r][k % 3][0] * f, wide[r][k % 3][1] * f);
			snprintf(o->load, sizeof(o->load), "%s", loads[k % 3]);
			o->v[RV_SD] = 0.00123e6;
			o->v[RV_CPU] = 99.99;
			o->v[RV_DL] = 0.00123;
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
	free(run[0].obs);
	free(run[1].obs);
	return ok;
}

int main(void)
{
	char name[160];
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(acct_cases); i++) {
		snprintf(name, sizeof(name), "accounting: %s", acct_cases[i].name);
		check(name, test_acct_case(&acct_cases[i]));
	}
	check("accounting: percentages", test_acct_percentages());
	check("accounting: fractional period (Video)", test_fractional_period());
	check("accounting: X frames k=0 and k=100", test_x_frames());
	check("accounting: Gaming units", test_gaming_units());
	check("accounting: every period counted once", test_acct_invariant());
	check("stats: small set against two-pass", test_stats_small());
	check("stats: values near 1e9 ns against two-pass", test_stats_large());
	check("stats: constant series has SD 0", test_stats_constant());
	check("stats: histogram buckets contiguous, <= 1 % wide", test_hist_buckets());
	check("stats: percentiles of known distributions within 1 %", test_percentiles());
	check("stats: 95 % confidence interval", test_ci95());
	check("report: three significant figures", test_fmt_sig3());
	for (size_t i = 0; i < ARRAY_SIZE(opt_cases); i++) {
		snprintf(name, sizeof(name), "options: '%s' %s", opt_cases[i].args,
			 opt_cases[i].ok ? "runs" : "exits 2");
		check(name, test_opt_case(&opt_cases[i]));
	}
	check("options: values land in the config", test_opt_values());
	check("options: default selections", test_opt_defaults());
	check("calibration: save, load, stale identity, garbage", test_calibration_file());
	check("json: string escaping table", test_str_cases(json_cases, ARRAY_SIZE(json_cases),
							    json_string));
	check("json: every byte value gives valid output", test_json_all_bytes());
	check("json: numbers read back exactly; NaN and infinities are null", test_json_number());
	check("csv: RFC 4180 quoting table", test_str_cases(csv_cases, ARRAY_SIZE(csv_cases),
							     csv_field));
	check("report: ISO 8601 with the zone offset", test_iso8601());
	check("sysinfo: the marked choice of a sysfs list", test_marked());
	for (size_t i = 0; i < ARRAY_SIZE(preempt_cases); i++) {
		snprintf(name, sizeof(name), "sysinfo: preemption: %s", preempt_cases[i].name);
		check(name, test_preempt_case(&preempt_cases[i]));
	}
	check("sysinfo: a mountinfo line", test_mountinfo());
	check("inflate: stored, fixed and dynamic blocks; corrupt input refused", test_gunzip());
	if ((ret = config_gz_vs_zcat()) < 0)
		skip("inflate: /proc/config.gz as zcat reads it", "no /proc/config.gz or zcat");
	else
		check("inflate: /proc/config.gz as zcat reads it", ret == 1);
	check("loads: registry order, intensities, default selection", test_registry_loads());
	for (size_t i = 0; i < ARRAY_SIZE(meminfo_cases); i++) {
		snprintf(name, sizeof(name), "loads: meminfo: %s", meminfo_cases[i].name);
		check(name, test_meminfo_case(&meminfo_cases[i]));
	}
	for (size_t i = 0; i < ARRAY_SIZE(memload_cases); i++) {
		snprintf(name, sizeof(name), "loads: Memload size: %s", memload_cases[i].name);
		check(name, test_memload_case(&memload_cases[i]));
	}
	check("loads: Memload gives back what the headroom lacks", test_memload_shortfall());
	for (size_t i = 0; i < ARRAY_SIZE(files_cases); i++) {
		snprintf(name, sizeof(name), "loads: file sizes: %s", files_cases[i].name);
		check(name, test_files_case(&files_cases[i]));
	}
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
	return failed ? 1 : 0;
}
