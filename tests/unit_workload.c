// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_workload.c - a workload file as a benchmark: SHA-256, the options that take one
 * and what they refuse, its table written and read back, its thread's CSV line read back. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/readers.h"
#include "lib/sbuf.h"
#include "lib/sha256.h"
#include "lib/util.h"
#include "model/config.h"
#include "model/record.h"
#include "model/workloads.h"
#include "report/report.h"
#include "cli/options.h"
#include "cli/vary.h"
#include "task/rtapp.h"

#include "tests/unit.h"

/* ---- SHA-256: FIPS 180-2's examples ---- */

static const struct {
	const char *text;
	const char *hex;
} sha_cases[] = {
	{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
};

static bool test_sha256(void)
{
	char hex[SHA256_HEX_LEN];
	struct sha256 s;

	for (size_t i = 0; i < ARRAY_SIZE(sha_cases); i++) {
		sha256_init(&s);
		sha256_update(&s, sha_cases[i].text, strlen(sha_cases[i].text));
		sha256_hex(&s, hex);
		EXPECT(!strcmp(hex, sha_cases[i].hex), "'%s': %s", sha_cases[i].text, hex);
	}
	sha256_init(&s);	/* a million 'a', in uneven pieces */
	for (int i = 0; i < 1000000; i += 999)
		sha256_update(&s, memset((char[999]){ 0 }, 'a', 999),
			      (size_t)(1000000 - i < 999 ? 1000000 - i : 999));
	sha256_hex(&s, hex);
	EXPECT(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
	       "a million 'a': %s", hex);
	return true;
}

/* ---- the options ---- */

static char dir[64];

/* text (' for ") as the file dir/name; its path. */
static const char *put_file(const char *name, const char *text)
{
	static char path[4][128];
	static int next;
	char *p = path[next++ % 4];
	FILE *f;

	snprintf(p, 128, "%s/%s", dir, name);
	f = fopen(p, "w");
	for (const char *c = text; f && *c; c++)
		fputc(*c == '\'' ? '"' : *c, f);
	if (f)
		fclose(f);
	return p;
}

#define TICK "{ 'tasks': { 'tick': { 'loop': -1, 'run': 100, " \
	     "'timer': { 'ref': 't', 'period': 10000 } } } }"

static const struct opt_case {
	const char *name;
	const char *args;	/* @1: the good file, @2: a second one, @D: dir */
	const char *err;	/* NULL: it parses; else what the one line holds */
} opt_cases[] = {
	{ "-W FILE.json: the file's benchmark alone", "-W @1 -w None", NULL },
	{ "--workload FILE of any name, beside -W Audio", "--workload @D/tick.rtapp -W Audio",
	  NULL },
	{ "a second file is refused", "-W @1 -W @2", "one workload file per run" },
	{ "-W rt-app by name is refused", "-W rt-app", "name the workload file itself" },
	{ "a group may not hold it", "-W Audio+rt-app", "unknown benchmark 'rt-app'" },
	{ "a missing file", "-W @D/none.json", "No such file" },
	{ "a thread's name over 31 bytes", "-W @D/long.json", "1 to 31 bytes" },
	{ "--policy deadline", "-W @1 --policy deadline", "one period and runtime" },
	{ "64 instances of 9 thread objects", "-W @D/nine.json --instances 64",
	  "more than the 512 it holds" },
	{ "an unsupported key names it and the file", "-W @D/mem.json", "'mem' is not supported" },
};

/* The files the cases name, in dir. */
static void put_files(void)
{
	char nine[1024] = "{ 'tasks': {";
	size_t n = strlen(nine);

	put_file("tick.json", TICK);
	put_file("tock.json", TICK);
	put_file("tick.rtapp", TICK);
	put_file("long.json",
		 "{ 'tasks': { 'a_thread_name_of_thirty_two_bytes': { 'run': 10 } } }");
	put_file("mem.json", "{ 'tasks': { 'a': { 'run': 10, 'mem': 10 } } }");
	for (int i = 0; i < 9; i++)
		n += (size_t)snprintf(nine + n, sizeof(nine) - n, "%s 't%d': { 'loop': -1, "
				      "'run': 10, 'sleep': 1000 }", i ? "," : "", i);
	snprintf(nine + n, sizeof(nine) - n, " } }");
	put_file("nine.json", nine);
	put_file("has space.json", TICK);
}

/* args with @1, @2 and @D replaced, into buf. */
static void expand(const char *args, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *a = args; *a && n + 1 < len; a++) {
		if (a[0] != '@' || !strchr("12D", a[1])) {
			buf[n++] = *a;
			continue;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s", dir, a[1] == '1' ? "/tick.json" :
				      a[1] == '2' ? "/tock.json" : "");
		a++;
	}
	buf[n < len ? n : len - 1] = '\0';
}

/* A file whose name has a space: its tables could not be read back. */
static bool test_space_name(void)
{
	char path[128], err[256] = "";
	char *argv[] = { "interbench", "--workload", path, NULL };
	struct config cfg;

	snprintf(path, sizeof(path), "%s/has space.json", dir);
	EXPECT(parse_options(3, argv, &cfg, err, sizeof(err)) == PARSE_USAGE, "parsed");
	EXPECT(strstr(err, "without spaces"), "'%s'", err);
	return true;
}

static bool test_opt_case(const struct opt_case *c)
{
	char args[400], err[400] = "";
	struct config cfg;
	int st;

	bool model, key;

	expand(c->args, args, sizeof(args));
	st = unit_parse_words(args, &cfg, err, sizeof(err));
	model = cfg.rtapp.model && (cfg.benches & (1u << workload_rtapp()));
	key = strlen(cfg.rtapp.key) == 16 + strlen(":exact");
	rtapp_input_free(&cfg);
	if (!c->err) {
		EXPECT(st == PARSE_RUN, "%s: %s", args, err);
		EXPECT(model, "%s: no workload", args);
		EXPECT(key, "key '%s'", cfg.rtapp.key);
		return true;
	}
	EXPECT(st == PARSE_USAGE, "%s: parsed", args);
	EXPECT(strstr(err, c->err) && !strchr(err, '\n'), "%s: '%s'", args, err);
	return true;
}

/* -B overrides every thread's own scheduling; --period swept, given, sweeps its timers. */
static bool test_sched_and_timing(void)
{
	char args[256], err[256];
	static struct config cfg, v0, v1;
	bool ok;
	int st;

	snprintf(args, sizeof(args), "-W %s/tick.json", dir);
	st = unit_parse_words(args, &cfg, err, sizeof(err));
	rtapp_input_free(&cfg);
	EXPECT(st == PARSE_RUN, "%s", err);
	EXPECT(!cfg.sched_given && !cfg.rtapp.swept, "the file's own, by default");
	snprintf(args, sizeof(args), "-W %s/tick.json -B 5 --period swept", dir);
	st = unit_parse_words(args, &cfg, err, sizeof(err));
	rtapp_input_free(&cfg);
	EXPECT(st == PARSE_RUN, "%s", err);
	EXPECT(cfg.sched_given && cfg.rtapp.swept, "-B and --period swept given");
	EXPECT(strstr(cfg.rtapp.key, ":swept"), "key '%s'", cfg.rtapp.key);
	snprintf(args, sizeof(args), "-W %s/tick.json --vary nice=0,19", dir);
	st = unit_parse_words(args, &cfg, err, sizeof(err));
	ok = st == PARSE_RUN && !variant_config_of(&cfg, 0, &v0, err, sizeof(err)) &&
	     !variant_config_of(&cfg, 1, &v1, err, sizeof(err));
	rtapp_input_free(&cfg);
	EXPECT(ok, "%s", err);
	EXPECT(!cfg.sched_given && v0.sched_given && v1.sched_given, "--vary nice: each variant's");
	return true;
}

/* ---- its table, written and read back ---- */

struct thread_fig {
	const char *name;
	double mean, sd, max, timer, resume, dl;	/* ns, counts, % (NAN: none) */
};

static const struct thread_fig figs[] = {
	{ "AudioTick", 12345, 3456, 51234, 833, 0, 99.5 },
	{ "AudioOut", 958000, 1200000, 7500000, 0, 60, NAN },
	{ "OMXCall", NAN, NAN, NAN, 0, 0, NAN },
};

/* A run of file f: two loads, a thread each of figs (Burn's failed when fail). */
static void fill_record(struct run_record *rec, struct config *cfg, struct rtapp_file *f,
			bool fail)
{
	static const char *const loads[] = { "None", "Burn" };

	config_defaults(cfg);
	cfg->rtapp.model = f;
	snprintf(cfg->rtapp.name, sizeof(cfg->rtapp.name), "t.json");
	record_init(rec, cfg, NULL, NULL, 1796489340);
	for (int l = 0; l < 2; l++) {
		for (size_t k = 0; k < ARRAY_SIZE(figs); k++) {
			struct result *r = run_new_result(rec);

			snprintf(r->bench, sizeof(r->bench), "%s", figs[k].name);
			snprintf(r->load, sizeof(r->load), "%s", loads[l]);
			snprintf(r->group, sizeof(r->group), "t.json");
			r->rtapp = true;
			r->value[RF_MEAN] = figs[k].mean;
			r->value[RF_SD] = figs[k].sd;
			r->value[RF_MAX] = figs[k].max;
			r->value[RF_TIMER_WAKEUPS] = figs[k].timer;
			r->value[RF_RESUME_WAKEUPS] = figs[k].resume;
			r->value[RF_DEADLINES_MET_PCT] = figs[k].dl;
			r->value[RF_SLACK_MIN] = -2500.5;
			r->value[RF_INTENSITY] = l ? 1.94 : NAN;
			snprintf(r->unit, sizeof(r->unit), "%s", l ? "CPUs" : "");
			if (fail && l) {
				r->status = ROW_FAILED;
				snprintf(r->reason, sizeof(r->reason), "deadlock: a waits on b");
			}
		}
	}
}

/* The table as the run prints it. */
static char *table_text(struct run_record *rec)
{
	struct report o = { 0 };
	char *text = NULL;
	size_t len = 0;
	int n = (int)ARRAY_SIZE(figs);

	o.text = open_memstream(&text, &len);
	if (!o.text)
		return NULL;
	report_workload_heading(&o, rec, 0);
	report_threads(&o, rec, 0, n);
	report_threads(&o, rec, n, n);
	report_workload_end(&o, rec);
	fclose(o.text);
	return text;
}

/* Within the table's three significant figures. */
static bool near(double got, double want)
{
	return isnan(want) ? isnan(got) : fabs(got - want) <= 0.006 * fabs(want);
}

static bool same_thread(const struct result *o, const struct result *want)
{
	if (strcmp(o->bench, want->bench) || strcmp(o->load, want->load) || !o->rtapp ||
	    strcmp(o->group, "t.json") || o->status != want->status)
		return false;
	if (o->status == ROW_FAILED)
		return !strcmp(o->reason, want->reason);
	return near(o->value[RF_MEAN], want->value[RF_MEAN]) &&
	       near(o->value[RF_SD], want->value[RF_SD]) &&
	       near(o->value[RF_MAX], want->value[RF_MAX]) &&
	       o->value[RF_TIMER_WAKEUPS] == want->value[RF_TIMER_WAKEUPS] &&
	       o->value[RF_RESUME_WAKEUPS] == want->value[RF_RESUME_WAKEUPS] &&
	       near(o->value[RF_DEADLINES_MET_PCT], want->value[RF_DEADLINES_MET_PCT]) &&
	       near(o->value[RF_INTENSITY], want->value[RF_INTENSITY]);
}

static bool test_table_round_trip(bool fail)
{
	struct rtapp_file f;
	struct run_record rec;
	struct config cfg;
	struct result_file rf = { 0 };
	char err[256] = "", *text;
	bool ok = true;

	EXPECT(!unit_rtapp_read("{ 'tasks': { 'AudioTick': { 'run': 1 }, 'AudioOut': { 'run': 1 },"
				" 'OMXCall': { 'run': 1 } } }", &f, err, sizeof(err)), "%s", err);
	fill_record(&rec, &cfg, &f, fail);
	text = table_text(&rec);
	if (!text || log_parse(text, strlen(text), &rf, err, sizeof(err)) ||
	    rf.nruns != 1 || rf.runs[0].nres != rec.nres) {
		snprintf(detail, sizeof(detail), "%s%s", err, text ? text : "");
		ok = false;
	}
	for (int i = 0; ok && i < rec.nres; i++)
		if (!same_thread(&rf.runs[0].res[i], &rec.res[i])) {
			snprintf(detail, sizeof(detail), "result %d differs:\n%s", i, text);
			ok = false;
		}
	free(text);
	results_free(&rf);
	record_free(&rec);
	rtapp_free(&f);
	return ok;
}

/* Its CSV line read back: the file as the thread's group, rt-app's slack with its sign. */
static bool test_csv_round_trip(void)
{
	struct rtapp_file f;
	struct run_record rec;
	struct config cfg;
	struct result_file rf = { 0 };
	struct sbuf sb;
	char err[256] = "";
	bool ok;

	EXPECT(!unit_rtapp_read("{ 'tasks': { 'AudioTick': { 'run': 1 } } }", &f, err,
				sizeof(err)), "%s", err);
	fill_record(&rec, &cfg, &f, false);
	sb_init(&sb);
	build_csv(&sb, &rec);
	ok = !sb.failed && !csv_parse(sb.buf, sb.len, &rf, err, sizeof(err)) && rf.nruns == 1 &&
	     rf.runs[0].nres == rec.nres && rf.runs[0].res[0].rtapp &&
	     !strcmp(rf.runs[0].res[0].group, "t.json") &&
	     rf.runs[0].res[0].value[RF_SLACK_MIN] == -2500.5 &&
	     rf.runs[0].res[1].value[RF_RESUME_WAKEUPS] == 60;
	if (!ok)
		snprintf(detail, sizeof(detail), "%s", err);
	sb_free(&sb);
	results_free(&rf);
	record_free(&rec);
	rtapp_free(&f);
	return ok;
}

void unit_workload(void)
{
	char name[256];

	check("workload: SHA-256 of FIPS 180-2's examples", test_sha256());
	snprintf(dir, sizeof(dir), "/tmp/ib-unit-wl.XXXXXX");
	if (!mkdtemp(dir)) {
		skip("workload: the options", "no scratch directory");
	} else {
		put_files();
		for (size_t i = 0; i < ARRAY_SIZE(opt_cases); i++) {
			snprintf(name, sizeof(name), "workload: option: %s", opt_cases[i].name);
			check(name, test_opt_case(&opt_cases[i]));
		}
		check("workload: option: a file's name with a space", test_space_name());
		check("workload: the file's scheduling and timing unless options say otherwise",
		      test_sched_and_timing());
		snprintf(name, sizeof(name), "rm -rf '%s'", dir);
		if (system(name))
			fprintf(stderr, "could not remove %s\n", dir);
	}
	check("workload: its table, a line per load and per thread, read back from the log",
	      test_table_round_trip(false));
	check("workload: a failed row's threads, read back with its reason",
	      test_table_round_trip(true));
	check("workload: a thread's CSV line read back, its file and negative slack",
	      test_csv_round_trip());
}
