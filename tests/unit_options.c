// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_options.c - unit tests: options, number formatting and the calibration file. */
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

#include "tests/unit.h"

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

void unit_options(void)
{
	char name[160];

	check("report: three significant figures", test_fmt_sig3());
	for (size_t i = 0; i < ARRAY_SIZE(opt_cases); i++) {
		snprintf(name, sizeof(name), "options: '%s' %s", opt_cases[i].args,
			 opt_cases[i].ok ? "runs" : "exits 2");
		check(name, test_opt_case(&opt_cases[i]));
	}
	check("options: values land in the config", test_opt_values());
	check("options: default selections", test_opt_defaults());
	check("options: the test-only settle time is 0-1000 ms, else 1 s", test_settle_env());
	check("calibration: save, load, stale identity, garbage", test_calibration_file());
}
