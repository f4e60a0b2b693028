// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_options.c - unit tests: options, number formatting and the calibration file. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/workloads.h"
#include "model/record.h"
#include "child/child.h"
#include "cli/options.h"
#include "model/plan.h"
#include "sys/cgroup.h"
#include "task/task.h"

#include "tests/unit.h"
#include "lib/numfmt.h"

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
	{ "--work cpu -l 5", false, "--work cpu and -l contradict" },
	{ "--work=cpu -b", false, "--work cpu and -b contradict" },
	{ "--work bogus", false, "--work: unknown work 'bogus' (valid: cpu, loops)" },
	{ "--work LOOPS -l 5", true, NULL },
	{ "--work loops -b", true, NULL },
	{ "-C 20 -I 2000000 -t 1", false, "-I 2000000 us is longer than -t 1 s" },
	{ "-C 20 -I 1000000 -t 1", true, NULL },
	{ "-C 20 -I 2000000 -t 1 -X Custom -x Custom", true, NULL },
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
	{ "-W Burn", false, "unknown benchmark 'Burn' (valid: Audio, Video, X, Gaming, Custom, ProAudio, Render, Input, Game, AudioGraph)" },
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
	{ "--timeline t.json --timeline-max 5000", true, NULL },
	{ "--timeline-max 5000", false, "--timeline-max needs --timeline FILE" },
	{ "--timeline t.json --timeline-max 999", false, "out of range" },
	{ "--timeline -", false, "--timeline: needs a file name, not -" },
	{ "--compare a b", true, NULL },
	{ "--compare a --plot x.svg", true, NULL },
	{ "--compare a -t 3", false, "--compare takes only" },
	{ "--compare", false, "at least one file" },
	/* the work directory is the environment's: checked later, exit 1 */
	{ "--work-dir /nonexistent/dir", true, NULL },
	{ "--work-dir /etc/passwd", true, NULL },
	{ "--repeat 0", false, "out of range" },
	{ "--rt-priority 99", false, "out of range" },
	{ "--json - --csv -", false, "cannot both use stdout" },
	{ "-m hello~world", true, NULL },
	{ "--plot -", false, "needs a file name" },
	/* every ranged option at min, max, min - 1 and max + 1 */
	{ "-t 0.1", true, NULL },
	{ "-t 86400", true, NULL },
	{ "-t 0.09", false, "-t/--time: '0.09' is out of range (expected seconds from 0.1 to 86400)" },
	{ "-t 86400.1", false, "out of range (expected seconds from 0.1 to 86400)" },
	{ "-l 1", true, NULL },
	{ "-l 1099511627776", true, NULL },
	{ "-l 1099511627777", false,
	  "-l/--loops-per-ms: '1099511627777' is out of range (expected an integer from 1 to 1099511627776)" },
	{ "-L 1", true, NULL },
	{ "-L 4096", true, NULL },
	{ "-L 4097", false, "-L/--cpu-load: '4097' is out of range (expected an integer from 1 to 4096)" },
	{ "-B 19", true, NULL },
	{ "-B -21", false, "-B/--bench-nice: '-21' is out of range (expected an integer from -20 to 19)" },
	{ "-N -20", true, NULL },
	{ "-N 19", true, NULL },
	{ "-N 20", false, "-N/--load-nice: '20' is out of range" },
	{ "-C 1 -I 100", true, NULL },
	{ "-C 100 -I 10000000", true, NULL },
	{ "-C 0 -I 100", false, "-C/--custom-cpu: '0' is out of range (expected an integer from 1 to 100)" },
	{ "-C 1 -I 10000001", false, "-I/--custom-interval: '10000001' is out of range" },
	{ "--memload-mib 1", true, NULL },
	{ "--memload-mib 1073741824", true, NULL },
	{ "--memload-mib 0", false, "--memload-mib: '0' is out of range (expected an integer from 1 to 1073741824)" },
	{ "--memload-mib 1073741825", false, "--memload-mib: '1073741825' is out of range" },
	{ "--file-mib 1", true, NULL },
	{ "--file-mib 1073741824", true, NULL },
	{ "--file-mib 0", false, "--file-mib: '0' is out of range" },
	{ "--file-mib 1073741825", false, "--file-mib: '1073741825' is out of range" },
	{ "--repeat 1", true, NULL },
	{ "--repeat 1000", true, NULL },
	{ "--repeat 1001", true, NULL },
	{ "--repeat 1000001", false, "--repeat: '1000001' is out of range (expected an integer from 1 to 1000000)" },
	{ "--rt-priority 1", true, NULL },
	{ "--rt-priority 98", true, NULL },
	{ "--rt-priority 0", false, "--rt-priority: '0' is out of range" },
	{ "--pm-qos 0", true, NULL },
	{ "--pm-qos 2000000000", true, NULL },
	{ "--pm-qos -1", false, "--pm-qos: '-1' is out of range (expected an integer from 0 to 2000000000)" },
	{ "--pm-qos 2000000001", false, "--pm-qos: '2000000001' is out of range" },
	{ "--trace-above 1", true, NULL },
	{ "--trace-above 1000000000", true, NULL },
	{ "--trace-above 0", false, "--trace-above: '0' is out of range" },
	{ "--trace-above 1000000001", false, "--trace-above: '1000000001' is out of range" },
	{ "--repeat x", false, "--repeat: 'x' is not a number (expected an integer from 1 to 1000000)" },
	{ "--repeat", false, "--repeat needs an argument" },
	{ "-t 123456789012345678901234567890123456789", false,
	  "'12345678901234567890123456789012...' is out of range" },
	/* strings */
	{ "--work-dir=", false, "--work-dir: empty directory name" },
	{ "--json=", false, "--json: empty file name" },
	{ "--csv=", false, "--csv: empty file name" },
	{ "--plot=", false, "--plot: empty file name" },
	{ "-m", false, "-m/--comment needs an argument" },
	{ "--comment=", true, NULL },
	/* flags take no argument */
	{ "--percentiles=x", false, "unknown option '--percentiles=x'" },
	{ "-b -c -u -q --percentiles --dry-run", true, NULL },
	/* the special cases: selections, --compare's files */
	{ "-X audio -x none", true, NULL },
	{ "--exclude-bench nosuch", false, "-X/--exclude-bench: unknown benchmark 'nosuch'" },
	{ "--exclude-load nosuch", false, "-x/--exclude-load: unknown load 'nosuch'" },
	{ "--compare -q --dry-run a", true, NULL },
	{ "--compare a b c d e f g h i j k l m n o p", true, NULL },
	{ "--compare a b c d e f g h i j k l m n o p q", false, "--compare: at most 16 files" },
	{ "--compare a -r", false, "--compare takes only --runs, --plot, -q and --dry-run, not --realtime" },
	/* the new benchmarks: named only, as benchmarks and loads */
	{ "-W ProAudio -W Render -W Input", true, NULL },
	{ "-W audio -w proaudio -w render -w input", true, NULL },
	{ "-r -W ProAudio -W Input", true, NULL },
	{ "-r -W Render", false, "-W Render cannot run real time (-r, --policy fifo or rr)" },
	{ "--fps 24 -W Render", true, NULL },
	{ "--fps 1000 -w Render", true, NULL },
	{ "--fps 23 -W Render", false, "--fps: '23' is out of range (expected an integer from 24 to 1000)" },
	{ "--fps 1001 -W Render", false, "--fps: '1001' is out of range" },
	{ "--fps 144", false, "--fps sets Render's and Game's frame rate; name one with -W or -w" },
	{ "-W Audio --quantum 128", false, "--quantum sets AudioGraph's quantum; name AudioGraph with -W" },
	{ "-W AudioGraph --quantum 16", false, "quantum" },
	{ "-W AudioGraph --quantum 12x", false, "quantum" },
	/* the scheduling knobs, and every refusal of them */
	{ "--policy other", true, NULL },
	{ "--policy BATCH --slice 100000", true, NULL },
	{ "--policy idle", true, NULL },
	{ "--policy fifo", true, NULL },
	{ "--policy rr --rt-priority 10", true, NULL },
	{ "--policy deadline", true, NULL },
	{ "-r --policy deadline", true, NULL },
	{ "--policy", false, "--policy needs an argument" },
	{ "--policy bogus", false,
	  "--policy: unknown policy 'bogus' (valid: other, batch, idle, fifo, rr, deadline)" },
	{ "--policy=", false, "--policy: unknown policy ''" },
	{ "--load-policy fifo", false, "--load-policy: unknown policy 'fifo' (valid: other, batch, idle)" },
	{ "--load-policy idle -N 5", true, NULL },
	{ "--slice 100", true, NULL },
	{ "--slice 99", false, "--slice: '99' is out of range (expected an integer from 100 to 100000)" },
	{ "--slice 100001", false, "--slice: '100001' is out of range" },
	{ "--slice 3ms", false, "--slice: '3ms' is not a number" },
	{ "--slice 3000 --policy idle", false,
	  "--slice sets the EEVDF slice of an other or batch task, not of --policy idle" },
	{ "--slice 3000 --policy deadline", false, "not of --policy deadline" },
	{ "--slice 3000 -r", false, "not of --policy fifo" },
	{ "--uclamp-min 0 --uclamp-max 100", true, NULL },
	{ "--uclamp-min 20 --uclamp-max 20", true, NULL },
	{ "--uclamp-min 101", false, "--uclamp-min: '101' is out of range (expected an integer from 0 to 100)" },
	{ "--uclamp-max -1", false, "--uclamp-max: '-1' is out of range" },
	{ "--uclamp-min 80 --uclamp-max 20", false, "--uclamp-min 80 is above --uclamp-max 20" },
	{ "-r --policy batch", false,
	  "-r runs the benchmarks in a real-time class; --policy batch contradicts it" },
	{ "--policy fifo -W X", false, "-W X cannot run real time" },
	{ "--policy rr -W Gaming", false, "-W Gaming cannot run real time" },
	{ "--policy deadline -W X", false,
	  "-W X has no fixed work per period, which --policy deadline needs; benchmarks with one: "
	  "Audio, Video, Custom, ProAudio, Input" },
	{ "--policy deadline -W Gaming", false, "-W Gaming has no fixed work per period" },
	{ "--policy deadline -W Render", false, "-W Render has no fixed work per period" },
	{ "--policy deadline -u", false, "--policy deadline and -u contradict" },
	{ "--compare a --policy fifo", false, "--compare takes only" },
};

/* Parse "interbench " + args (split as in struct opt_case) into cfg. */
static enum parse_status parse_args(const char *args, struct config *cfg, char *err,
				    size_t errlen)
{
	static char buf[2048];
	char *argv[64];
	int argc = 0;

	snprintf(buf, sizeof(buf), "interbench %s", args);
	for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " ")) {
		for (char *p = tok; *p; p++)
			if (*p == '~')
				*p = ' ';
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	return parse_options(argc, argv, cfg, err, errlen);
}

static bool test_opt_case(const struct opt_case *c)
{
	char err[512] = "";
	struct config cfg;
	enum parse_status st;

	st = parse_args(c->args, &cfg, err, sizeof(err));
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

/* What each option stores, at the bounds of its range, read back by field type. */
struct value_case {
	const char *args;
	char kind;		/* b bool, i int, l long, u unsigned long, d double, s string */
	size_t off;		/* in struct config */
	double num;		/* the value wanted, or */
	const char *str;	/* a string's */
};

#define AT(f) offsetof(struct config, f)

static const struct value_case value_cases[] = {
	{ "-t 0.1", 'd', AT(seconds), .num = 0.1 },
	{ "--time=86400", 'd', AT(seconds), .num = 86400 },
	{ "-l 1", 'u', AT(loops_per_ms), .num = 1 },
	{ "-l 1099511627776", 'u', AT(loops_per_ms), .num = 1099511627776.0 },
	{ "-l 7", 'b', AT(loops_given), .num = 1 },
	{ "", 'i', AT(work), .num = WORK_CPU },
	{ "--work loops", 'i', AT(work), .num = WORK_LOOPS },
	{ "-l 7", 'i', AT(work), .num = WORK_LOOPS },
	{ "-b", 'i', AT(work), .num = WORK_LOOPS },
	{ "--work=cpu", 'i', AT(work), .num = WORK_CPU },
	{ "", 'b', AT(loops_given), .num = 0 },
	{ "-L 4096", 'i', AT(cpu_load), .num = 4096 },
	{ "-B -20", 'i', AT(bench_nice), .num = -20 },
	{ "--load-nice=19", 'i', AT(load_nice), .num = 19 },
	{ "-C 100 -I 100", 'i', AT(custom_pct), .num = 100 },
	{ "-C 1 -I 10000000", 'l', AT(custom_interval_us), .num = 10000000 },
	{ "--memload-mib 1073741824", 'l', AT(memload_mib), .num = 1073741824 },
	{ "--file-mib 1", 'l', AT(file_mib), .num = 1 },
	{ "--repeat 1000", 'i', AT(repeat), .num = 1000 },
	{ "--rt-priority 98", 'i', AT(rt_priority), .num = 98 },
	{ "--pm-qos 0", 'l', AT(pm_qos_us), .num = 0 },
	{ "--trace-above 1000000000", 'l', AT(trace_above_us), .num = 1000000000 },
	{ "-b", 'b', AT(recalibrate), .num = 1 },
	{ "-c", 'b', AT(console_only), .num = 1 },
	{ "-u", 'b', AT(uniprocessor), .num = 1 },
	{ "-q", 'b', AT(quiet), .num = 1 },
	{ "--percentiles", 'b', AT(percentiles), .num = 1 },
	{ "--dry-run", 'b', AT(dry_run), .num = 1 },
	{ "--compare a", 'b', AT(compare_mode), .num = 1 },
	{ "--compare a b", 'i', AT(ncompare), .num = 2 },
	{ "--comment=", 's', AT(comment), .str = "" },
	{ "--work-dir /tmp", 's', AT(work_dir), .str = "/tmp" },
	{ "--json j --csv c", 's', AT(json_path), .str = "j" },
	{ "--json j --csv c", 's', AT(csv_path), .str = "c" },
	{ "--plot p.svg", 's', AT(plot_path), .str = "p.svg" },
	{ "", 'i', AT(policy), .num = POL_OTHER },
	{ "-r", 'i', AT(policy), .num = POL_FIFO },
	{ "--policy rr", 'i', AT(policy), .num = POL_RR },
	{ "--policy Deadline", 'i', AT(policy), .num = POL_DEADLINE },
	{ "--load-policy batch", 'i', AT(load_policy), .num = POL_BATCH },
	{ "", 'i', AT(load_policy), .num = POL_OTHER },
	{ "--slice 3000", 'l', AT(slice_us), .num = 3000 },
	{ "", 'l', AT(slice_us), .num = 0 },
	{ "--uclamp-min 0", 'i', AT(uclamp_min), .num = 0 },
	{ "", 'i', AT(uclamp_max), .num = -1 },
	{ "-W Render", 'i', AT(fps), .num = 144 },
	{ "--fps 60 -W Render", 'i', AT(fps), .num = 60 },
};

static bool test_opt_value(const struct value_case *c)
{
	struct config cfg;
	char err[512] = "";
	const void *field = (const char *)&cfg + c->off;
	double got = 0;

	EXPECT(parse_args(c->args, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	if (c->kind == 's') {
		const char *str = *(const char *const *)field;

		EXPECT(str && !strcmp(str, c->str), "got '%s', want '%s'", str ? str : "(null)",
		       c->str);
		return true;
	}
	switch (c->kind) {
	case 'b': got = *(const bool *)field; break;
	case 'i': got = *(const int *)field; break;
	case 'l': got = (double)*(const long *)field; break;
	case 'u': got = (double)*(const unsigned long *)field; break;
	case 'd': got = *(const double *)field; break;
	}
	EXPECT(got == c->num, "got %.17g, want %.17g", got, c->num);
	return true;
}

/* -m: 1024 bytes is the most a comment may have. */
static bool test_opt_comment_length(void)
{
	char args[1100] = "-m ", err[512] = "";
	struct config cfg;

	memset(args + 3, 'x', 1024);
	args[3 + 1024] = '\0';
	EXPECT(parse_args(args, &cfg, err, sizeof(err)) == PARSE_RUN, "1024 bytes: %s", err);
	EXPECT(strlen(cfg.comment) == 1024, "comment of %zu bytes", strlen(cfg.comment));
	strcat(args, "x");
	EXPECT(parse_args(args, &cfg, err, sizeof(err)) == PARSE_USAGE, "1025 bytes accepted");
	EXPECT(!strcmp(err, "-m/--comment: longer than 1024 bytes"), "message '%s'", err);
	return true;
}

/* -h and -V print and end the parse with PARSE_EXIT_OK, whatever follows. */
static bool test_opt_exit_ok(void)
{
	static const char *const cases[] = { "-h", "--help", "-V", "--version", "-c -h -t x" };
	struct config cfg;
	char err[512];
	int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
	enum parse_status st[ARRAY_SIZE(cases)];

	fflush(stdout);
	dup2(null, STDOUT_FILENO);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		st[i] = parse_args(cases[i], &cfg, err, sizeof(err));
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(null);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT(st[i] == PARSE_EXIT_OK, "'%s': status %d", cases[i], st[i]);
	return true;
}

/* Default selection: 0.31's, every benchmark but Custom; -r and deadline keep Audio and Video. */
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
	EXPECT(cfg.seconds == 30 && cfg.cpu_load == usable_cpus(), "defaults");
	EXPECT(parse_options(2, a2, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(cfg.benches == (1u << workload_find("Audio") | 1u << workload_find("Video")),
	       "-r benches %#x", cfg.benches);
	EXPECT(parse_args("--policy deadline", &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(cfg.benches == (1u << workload_find("Audio") | 1u << workload_find("Video")),
	       "--policy deadline benches %#x", cfg.benches);
	return true;
}

static bool test_settle_env(void)
{
	static const struct { const char *ms; uint64_t want; } cases[] = {
		{ NULL, NSEC_PER_SEC }, { "", NSEC_PER_SEC }, { "250", 250 * NSEC_PER_MSEC },
		{ "0", 0 }, { "1000", NSEC_PER_SEC }, { "1001", NSEC_PER_SEC },
		{ "-5", NSEC_PER_SEC }, { "10ms", NSEC_PER_SEC },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT(settle_from_env(cases[i].ms) == cases[i].want, "'%s' gave %llu ns",
		       cases[i].ms ? cases[i].ms : "(unset)",
		       (unsigned long long)settle_from_env(cases[i].ms));
	return true;
}

/* --repeat's bound: the passes whose rows fit a quarter of the memory, at ROW_MEM_MAX each. */
static bool test_max_passes(void)
{
	static const struct { int per_pass; uint64_t mem; size_t row; long want; } cases[] = {
		{ 48, 1ULL << 30, ROW_MEM_MAX, 642 },	/* 1 GiB: 256 MiB / 8.5 KiB / 48 */
		{ 2, 1ULL << 30, ROW_MEM_MAX, 15420 },
		{ 48, 16ULL << 30, ROW_MEM_MAX, 10280 },
		{ 48, 0, ROW_MEM_MAX, LONG_MAX },	/* memory not known: no bound */
		{ 400, 64ULL << 20, ROW_MEM_MAX, 4 },
		{ 400, 1ULL << 20, ROW_MEM_MAX, 0 },
		{ 48, 1ULL << 30, ROW_MEM_MAX + ROW_MEM_LOOK, 474 },	/* --plot: 11.5 KiB a row */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT(plan_max_passes(cases[i].per_pass, cases[i].mem, cases[i].row) ==
		       cases[i].want, "%d rows a pass in %llu bytes: %ld passes, want %ld",
		       cases[i].per_pass, (unsigned long long)cases[i].mem,
		       plan_max_passes(cases[i].per_pass, cases[i].mem, cases[i].row),
		       cases[i].want);
	return true;
}

void unit_options(void)
{
	char name[160];

	check("report: three significant figures", test_fmt_sig3());
	for (size_t i = 0; i < ARRAY_SIZE(opt_cases); i++) {
		snprintf(name, sizeof(name), "options: '%s' %s", opt_cases[i].args,
			 opt_cases[i].ok ? "runs" : "exits 2");
		check(name, test_opt_case(&opt_cases[i]));
	}
	for (size_t i = 0; i < ARRAY_SIZE(value_cases); i++) {
		snprintf(name, sizeof(name), "options: '%s' stores %c at offset %zu",
			 value_cases[i].args, value_cases[i].kind, value_cases[i].off);
		check(name, test_opt_value(&value_cases[i]));
	}
	check("options: values land in the config", test_opt_values());
	check("options: -m takes 1024 bytes, not 1025", test_opt_comment_length());
	check("options: -h and -V stop the parse with success", test_opt_exit_ok());
	check("options: default selections", test_opt_defaults());
	check("options: the test-only settle time is 0-1000 ms, else 1 s", test_settle_env());
	check("options: --repeat's bound, from the memory the run may use", test_max_passes());
}
