// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_settings.c - unit tests: the machine keys written to a log and a CSV and read back,
 * HZ from a kernel's config, and --compare's warning on runs apart in more than one setting. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "report/report.h"
#include "formats/format.h"
#include "compare/compare.h"
#include "cli/options.h"
#include "sys/machine.h"

#include "tests/unit.h"
#include "formats/readers.h"

#define TABLE "--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n" \
	"Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU  % Deadlines Met  Load intensity\n" \
	"None\t  0.137 +/- 0.0365         0.314             100              100  -\n\n"

/* ---- the machine keys, written and read back ---- */

static const struct machine_case {
	const char *name;
	struct machine si;
	const char *want[MK_COUNT];	/* the record's text of each key */
} machine_cases[] = {
	{ "every key, values with ', ', '; ' and ' (' in them",
	  { .preemption = "lazy", .preemption_source = "debugfs", .hz = 1000,
	    .clocksource = "tsc", .cpufreq_governor = "schedutil,powersave",
	    .cpu_model = "ARMv7 Processor rev 10 (v7l), big.LITTLE; r2", .cpus_online = 4,
	    .cpus_usable = 3, .mem_limit_bytes = 512 * MIB,
	    .mem_limit_file = "/sys/fs/cgroup/a, b/memory.max",
	    .kernel_cmdline = "BOOT_IMAGE=/vmlinuz ro console=ttyS0,115200; x (y)",
	    .pm_qos_us = SI_UNKNOWN, .sched_ext = "disabled", .autogroup = 1 },
	  { "lazy", "1000", "tsc", "schedutil,powersave",
	    "ARMv7 Processor rev 10 (v7l), big.LITTLE; r2", "3", "536870912",
	    "BOOT_IMAGE=/vmlinuz ro console=ttyS0,115200; x (y)" } },
	{ "what the machine did not tell is unknown; a limit not in whole MiB",
	  { .cpus_online = 2, .cpus_usable = 2, .mem_limit_bytes = 500000000,
	    .pm_qos_us = SI_UNKNOWN, .autogroup = -1 },
	  { "", "", "", "", "", "2", "500000000", "" } },
	{ "no memory limit is a value, none",
	  { .preemption = "none", .preemption_source = "/proc/config.gz", .hz = 250,
	    .cpus_online = 8, .cpus_usable = 8, .mem_limit_bytes = SI_UNKNOWN,
	    .kernel_cmdline = "quiet", .pm_qos_us = 20, .autogroup = 0 },
	  { "none", "250", "", "", "", "8", "none", "quiet" } },
};

static bool same_machine(const struct machine_values *got, const char *const *want,
			 const char *from)
{
	for (int k = 0; k < MK_COUNT; k++)
		EXPECT(!strcmp(machine_value(got, k), want[k]), "%s: %s '%s', want '%s'", from,
		       machine_keys[k].column, machine_value(got, k), want[k]);
	return true;
}

/* A live run's record of the machine, its log header and its CSV: the same keys come back. */
static bool test_machine_case(const struct machine_case *c)
{
	struct config cfg;
	struct run_record rec;
	struct report o = { .text = NULL };
	struct result_file f;
	struct result *r;
	struct sbuf sb;
	char *text = NULL, err[256] = "";
	size_t len = 0;
	bool ok;

	config_defaults(&cfg);
	cfg.cpu_load = 2;
	record_init(&rec, &cfg, &c->si, NULL, 1796489340);
	ok = same_machine(&rec.mach, c->want, "record");
	o.text = open_memstream(&text, &len);
	report_header(&o, &rec);
	fputs(TABLE, o.text);
	fclose(o.text);
	if (ok && results_parse(text, len, &f, err, sizeof(err))) {
		snprintf(detail, sizeof(detail), "log: %s", err);
		ok = false;
	} else if (ok) {
		ok = same_machine(&f.runs[0].mach, c->want, "log");
		results_free(&f);
	}
	r = run_new_result(&rec);
	snprintf(r->bench, sizeof(r->bench), "Audio");
	snprintf(r->load, sizeof(r->load), "None");
	r->value[RF_MEAN] = r->value[RF_SD] = r->value[RF_MAX] = 1000;
	sb_init(&sb);
	build_csv(&sb, &rec);
	if (ok && results_parse(sb.buf, sb.len, &f, err, sizeof(err))) {
		snprintf(detail, sizeof(detail), "CSV: %s", err);
		ok = false;
	} else if (ok) {
		ok = same_machine(&f.runs[0].mach, c->want, "CSV");
		results_free(&f);
	}
	sb_free(&sb);
	record_free(&rec);
	free(text);
	return ok;
}

/* A 1.x log's lines, and an older header's "Preemption: voluntary, HZ 250, scheduler EEVDF". */
static bool test_machine_old_lines(void)
{
	static const char *const old = "Benchmarking kernel 1 at datestamp 2\n"
		"Preemption: full (debugfs), clocksource: -, governor: performance, PM QoS: 5 us, "
		"sched_ext: unavailable, autogroup: on\n"
		"CPUs: 4 online, 2 usable; memory limit: 1024 MiB (/sys/fs/cgroup/memory.max)\n\n"
		TABLE
		"Benchmarking kernel 1 at datestamp 3\nComment: x\n"
		"Preemption: voluntary, HZ 250, scheduler EEVDF\n\n" TABLE;
	static const char *const want[][MK_COUNT] = {
		{ "full", "", "", "performance", "", "2", "1073741824", "" },
		{ "voluntary", "250", "", "", "", "", "", "" },
	};
	struct result_file f;
	char err[256] = "";
	bool ok;

	EXPECT(!results_parse(old, strlen(old), &f, err, sizeof(err)), "%s", err);
	ok = f.nruns == 2 && same_machine(&f.runs[0].mach, want[0], "1.x") &&
	     same_machine(&f.runs[1].mach, want[1], "older");
	if (f.nruns != 2)
		snprintf(detail, sizeof(detail), "%d runs", f.nruns);
	results_free(&f);
	return ok;
}

/* CONFIG_HZ= of a kernel's .config, the first line that sets it; none, or not a rate, is 0. */
static bool test_config_hz(void)
{
	static const struct { const char *config; int want; } cases[] = {
		{ "CONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_SCHED_HRTICK=y\n", 250 },
		{ "# CONFIG_HZ_PERIODIC is not set\nCONFIG_HZ=1000", 1000 },
		{ "CONFIG_HZ_1000=y\n", 0 }, { "CONFIG_HZ=fast\n", 0 }, { "", 0 }, { NULL, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT(sysinfo_config_hz(cases[i].config) == cases[i].want, "case %zu: %d, want %d",
		       i, sysinfo_config_hz(cases[i].config), cases[i].want);
	return true;
}

/* ---- runs that differ in more than one setting ---- */

enum { D_KERNEL, D_MACHINE, D_KEY, D_KNOB, D_NO_KNOBS };

struct change {
	int what;			/* D_*; 0 with value NULL ends the list */
	int k;				/* the key or knob */
	const char *value;		/* in run [2] */
};

static const struct diff_case {
	const char *name;
	struct change change[4];
	int want;			/* settings apart */
	const char *want_text;		/* a piece of the list; NULL: no warning */
	int unchecked;
} diff_cases[] = {
	{ "one setting: the comparison meant, no warning",
	  { { D_MACHINE, MK_HZ, "1000" } }, 1, NULL, 0 },
	{ "three settings: each named with both values",
	  { { D_KERNEL, 0, "6.19.0" }, { D_MACHINE, MK_HZ, "1000" },
	    { D_MACHINE, MK_PREEMPTION, "full" } }, 3,
	  "kernel release 6.18.44 / 6.19.0, preemption none / full, HZ 250 / 1000", 0 },
	{ "a setting unknown in one run is no difference",
	  { { D_KERNEL, 0, "6.19.0" }, { D_MACHINE, MK_HZ, "" } }, 1, NULL, 1 },
	{ "run keys and knobs count, as their options and the log name them",
	  { { D_KEY, RK_SECONDS, "5" }, { D_KNOB, KN_POLICY, "fifo" },
	    { D_KNOB, KN_SLICE, "3000" } }, 3,
	  "-t 2 / 5, policy other / fifo, slice default / 3000 us", 0 },
	{ "a log without knobs leaves them unchecked",
	  { { D_NO_KNOBS, 0, "" }, { D_KEY, RK_CPU_LOAD, "4" } }, 1, NULL, NR_KNOBS },
	{ "command lines: the words each lacks; a limit as MiB",
	  { { D_MACHINE, MK_CMDLINE, "ro  quiet threadirqs" },
	    { D_MACHINE, MK_MEM_LIMIT, "536870912" } }, 2,
	  "memory limit none / 512 MiB, kernel command line splash / threadirqs", 0 },
	{ "swept against exact periods: named, with a kernel besides",
	  { { D_KEY, RK_PERIODS, "exact" }, { D_KERNEL, 0, "6.19.0" } }, 2,
	  "kernel release 6.18.44 / 6.19.0, --period swept / exact", 0 },
	{ "command lines: spacing is none",
	  { { D_MACHINE, MK_CMDLINE, " ro quiet  splash" } }, 0, NULL, 0 },
};

/* The reference run: every setting known. */
static void base_run(struct run_record *r)
{
	static const char *const mach[MK_COUNT] = {
		"none", "250", "tsc", "performance", "Golden CPU", "4", "none", "ro quiet splash",
	};
	static const char *const keys[RK_COUNT] = {
		[RK_SECONDS] = "2", [RK_CPU_LOAD] = "2", [RK_BENCH_NICE] = "0",
		[RK_LOAD_NICE] = "0", [RK_UNIPROCESSOR] = "0", [RK_FPS] = "144",
		[RK_CUSTOM_PCT] = "0", [RK_CUSTOM_INTERVAL] = "0", [RK_PERIODS] = "swept",
		[RK_WAKE] = "timer", [RK_TIMER_SLACK] = "1", [RK_WORKLOAD] = "",
	};

	memset(r, 0, sizeof(*r));
	r->nruns = 1;
	snprintf(r->kernel, sizeof(r->kernel), "6.18.44");
	for (int k = 0; k < MK_COUNT; k++)
		machine_csv_set(&r->mach, k, mach[k]);
	for (int k = 0; k < RK_COUNT; k++)
		run_key_set(r, k, keys[k] ? keys[k] : "", keys[k] ? strlen(keys[k]) : 0);
	knobs_parse_line("policy other, slice default, load-policy other", &r->knobs);
}

static void apply(struct run_record *r, const struct change *c)
{
	switch (c->what) {
	case D_KERNEL: snprintf(r->kernel, sizeof(r->kernel), "%s", c->value); break;
	case D_MACHINE: machine_csv_set(&r->mach, c->k, c->value); break;
	case D_KEY: run_key_set(r, c->k, c->value, strlen(c->value)); break;
	case D_KNOB: snprintf(r->knobs.v[c->k], KNOB_LEN, "%s", c->value); break;
	case D_NO_KNOBS: memset(&r->knobs, 0, sizeof(r->knobs)); break;
	}
}

/* --compare's text of runs a and b, each one row. */
static char *compare_text(struct run_record *run)
{
	struct cmp_input in[2];
	struct cmp_matrix *m = calloc(1, sizeof(*m));
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *out;

	for (int i = 0; i < 2; i++) {
		struct result *o = run_new_result(&run[i]);

		snprintf(o->bench, sizeof(o->bench), "Audio");
		snprintf(o->load, sizeof(o->load), "None");
		o->value[RF_MEAN] = o->value[RF_SD] = o->value[RF_MAX] = 1e5;
		in[i] = (struct cmp_input){ .run = &run[i], .file = "f" };
		snprintf(in[i].label, sizeof(in[i].label), "run %d", i + 1);
	}
	if (!m || cmp_build(in, 2, m, err, sizeof(err))) {
		free(m);
		return NULL;
	}
	out = open_memstream(&text, &len);
	cmp_print(out, in, m);
	fclose(out);
	cmp_matrix_free(m);
	free(m);
	return text;
}

static bool test_diff_case(const struct diff_case *c)
{
	struct run_record run[2];
	char list[4096], *text, *end, *warn;
	int unchecked, n;
	bool ok = true;

	base_run(&run[0]);
	base_run(&run[1]);
	for (int i = 0; i < 4 && c->change[i].value; i++)
		apply(&run[1], &c->change[i]);
	n = run_differences(&run[0], &run[1], list, sizeof(list), &unchecked);
	EXPECT(n == c->want && unchecked == c->unchecked, "%d apart, %d unchecked: '%.400s'", n,
	       unchecked, list);
	EXPECT(!c->want_text || !strcmp(list, c->want_text), "'%.400s', want '%s'", list,
	       c->want_text);
	text = compare_text(run);
	EXPECT(text, "cmp_build failed");
	/* the lines above the first table as one: wrapping put a line break for a space */
	end = strstr(text, "\n\n--- Audio");
	for (char *p = text; end && p < end; p++)
		*p = *p == '\n' ? ' ' : *p;
	warn = strstr(text, "warning: [2] differs from [1] in ");
	if (!end) {
		snprintf(detail, sizeof(detail), "no table: %.300s", text);
		ok = false;
	} else if (!c->want_text && warn) {
		snprintf(detail, sizeof(detail), "a warning for %d: %.300s", n, warn);
		ok = false;
	} else if (c->want_text && (!warn || warn > end || !strstr(warn, c->want_text))) {
		snprintf(detail, sizeof(detail), "no warning with '%s' above the table: %.500s",
			 c->want_text, text);
		ok = false;
	}
	free(text);
	record_free(&run[0]);
	record_free(&run[1]);
	return ok;
}

void unit_settings(void)
{
	char name[160];

	for (size_t i = 0; i < ARRAY_SIZE(machine_cases); i++) {
		snprintf(name, sizeof(name), "settings: log and CSV round trip: %s",
			 machine_cases[i].name);
		check(name, test_machine_case(&machine_cases[i]));
	}
	check("settings: machine keys read from older logs' header lines",
	      test_machine_old_lines());
	check("settings: HZ from a kernel config's CONFIG_HZ=", test_config_hz());
	for (size_t i = 0; i < ARRAY_SIZE(diff_cases); i++) {
		snprintf(name, sizeof(name), "settings: --compare's warning: %s",
			 diff_cases[i].name);
		check(name, test_diff_case(&diff_cases[i]));
	}
}
