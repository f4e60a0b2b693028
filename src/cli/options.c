// SPDX-License-Identifier: GPL-2.0-or-later
/* cli/options.c - the one table of command-line options: parsing, validation, --help. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/workloads.h"
#include "cli/options.h"
#include "cli/vary.h"
#include "sys/cgroup.h"
#include "sys/machine.h"
#include "task/task.h"

#define UNUSED __attribute__((unused))

/*
 * An option's group: its heading in --help (a group without a title goes on
 * under the one before). G_TASK's options set how the benchmark task is
 * scheduled, and so override, for every thread, a workload file's own
 * (cfg->sched_given): the group says it, no option can forget to.
 */
enum group { G_SELECT, G_TIMING, G_TASK, G_SCHED, G_OUTPUT, G_OTHER, G_COUNT };

static const char *const group_title[G_COUNT] = {
	[G_SELECT] = "Benchmarks and loads",
	[G_TIMING] = "Timing",
	[G_TASK] = "Scheduling",
	[G_OUTPUT] = "Output",
	[G_OTHER] = "Other",
};

/* What an option's argument is, and so how set_value() reads and stores it. */
enum opt_type {
	T_CALL,		/* no field: the row's set() does it all */
	T_FLAG,		/* bool, set when given; no argument */
	T_INT,		/* int: an integer in [min, max] */
	T_LONG,		/* long: the same */
	T_ULONG,	/* unsigned long: the same, min >= 0 */
	T_DOUBLE,	/* double: a decimal number in [min, max] of unit `what` */
	T_STRING,	/* const char *: min 1 refuses "" ("empty <what> name"); */
			/* max bytes at most, if max */
	T_CHOICE,	/* int: the index of the argument among names, any case */
};

struct opt;
struct parse_state;
/* A row's own step, after set_value(): 0, -1 with a message in err, or 1 to stop. */
typedef int opt_set_fn(const struct opt *opt, const char *arg, struct parse_state *ps);

struct opt {
	int id;			/* short letter, 0 for a long-only option */
	const char *name;	/* long form */
	const char *arg;	/* the argument's name in --help, NULL for a flag */
	enum group group;	/* its heading in --help */
	enum opt_type type;
	size_t off;		/* where the value lands: offsetof(struct config, ...) */
	double min, max;	/* a number's range; a string's length (max 0: any) */
	const char *what;	/* for messages: a double's unit, a string's kind of name */
	const char *const *names;	/* a choice's words, NULL-terminated */
	opt_set_fn *set;	/* the special case, if any */
	bool with_compare;	/* may be given with --compare */
	bool joined;		/* --help prints it on the line of the row before, after " / " */
	const char *help;
};

/* The parse in progress, for set_value(), the rows' set() and validate(). */
struct parse_state {
	struct config *cfg;
	uint32_t sel[4];	/* -W, -X, -w, -x: bit per registry index */
	bool *given;		/* per row of opts[] */
	char *err;
	size_t errlen;
};

/* offsetof(struct config, f); the compiler warns unless f is of C type t. */
#define FIELD(f, t) \
	(offsetof(struct config, f) + 0 * sizeof(&((struct config *)0)->f == (t *)0))
#define RANGED(tt, ct, f, lo, hi) .type = (tt), .off = FIELD(f, ct), .min = (lo), .max = (hi)
#define FLAG(f)			.type = T_FLAG, .off = FIELD(f, bool)
#define INT(f, lo, hi)		RANGED(T_INT, int, f, lo, hi)
#define LONG(f, lo, hi)		RANGED(T_LONG, long, f, lo, hi)
#define ULONG(f, lo, hi)	RANGED(T_ULONG, unsigned long, f, lo, hi)
#define DOUBLE(f, lo, hi, unit)	RANGED(T_DOUBLE, double, f, lo, hi), .what = (unit)
#define STRING(f, lo, hi, kind)	RANGED(T_STRING, const char *, f, lo, hi), .what = (kind)
#define CALL(fn)		.type = T_CALL, .set = (fn)
#define CHOICE(f, words, kind)	.type = T_CHOICE, .off = FIELD(f, int), .names = (words), \
				.what = (kind)

static opt_set_fn select_workload, note_loops_given, set_ncpus, set_work, show_help,
	show_version, set_rtapp_input, note_periods_given, set_vary_order, set_vary_ready;

/*
 * Every option, in --help order. A row says all there is to know: names,
 * help, type, field and range; set_value() does the reading, range check,
 * message and store, and a row's set() (run after it) only what no type
 * covers. So a new option is a config field plus one row, for instance
 *	{ 0, "slice", "USEC", G_TASK, LONG(slice_us, 100, 100000),
 *	  .help = "..." },
 * and a choice of words is a row of CHOICE(field, words): set_value()
 * stores the word's index, or names them all in its message.
 */
static const struct opt opts[] = {
	{ 'W', "bench", "NAME", G_SELECT, CALL(select_workload),
	  .help = "only this benchmark; A+B: together; Desktop (repeatable)" },
	{ 0, "workload", "FILE", G_SELECT, CALL(set_rtapp_input), .joined = true,
	  .help = "an rt-app file (-W FILE.json)" },
	{ 'X', "exclude-bench", "NAME", G_SELECT, CALL(select_workload),
	  .help = "not this benchmark (repeatable)" },
	{ 'w', "load", "NAME", G_SELECT, CALL(select_workload),
	  .help = "only this load (repeatable)" },
	{ 0, "load-cmd", "CMD", G_SELECT, STRING(load_cmd, 1, 4000, NULL), .joined = true,
	  .help = "the Command load: sh -c CMD" },
	{ 'x', "exclude-load", "NAME", G_SELECT, CALL(select_workload),
	  .help = "not this load (repeatable)" },
	{ 'C', "custom-cpu", "PCT", G_SELECT, INT(custom_pct, 1, 100),
	  .help = "Custom task: CPU percent of each interval (1-100)" },
	{ 'I', "custom-interval", "USEC", G_SELECT, LONG(custom_interval_us, 100, 10000000),
	  .help = "Custom task: interval in microseconds (>= 100)" },
	{ 'L', "cpu-load", "N", G_SELECT, INT(cpu_load, 1, 4096),
	  .help = "Burn threads, Ring size, Hack groups (default: usable CPUs)" },
	{ 0, "memload-mib", "MIB", G_SELECT, LONG(memload_mib, 1, 1L << 30),
	  .help = "Memload's size" },
	{ 0, "file-mib", "MIB", G_SELECT, LONG(file_mib, 1, 1L << 30), .joined = true,
	  .help = "Write/Read's (default: from memory, disk)" },
	{ 0, "fps", "N", G_SELECT, INT(fps, 24, 1000),
	  .help = "Render's, Game's frames per second (24-1000; 144, 60)" },
	{ 0, "quantum", "FRAMES", G_SELECT, INT(quantum, 32, 8192),
	  .help = "AudioGraph's quantum at 48 kHz (32-8192, default 256)" },
	{ 't', "time", "SECONDS", G_TIMING, DOUBLE(seconds, 0.1, 86400.0, "seconds"),
	  .help = "seconds per row, decimals allowed (default 30)" },
	{ 0, "work", "cpu|loops", G_TIMING, CALL(set_work),
	  .help = "work is CPU time (default) or calibrated loops" },
	{ 0, "period", "swept|exact", G_TIMING, CHOICE(periods, period_mode_names, "period mode"),
	  .set = note_periods_given,
	  .help = "periods sweep their phase over the tick (default) or are exact" },
	{ 0, "wake", "timer|waker", G_TIMING, CHOICE(wake, wake_mode_names, "wake mode"),
	  .help = "tasks wake on their own timer (default) or by 0.31's waker" },
	{ 0, "timer-slack", "NS", G_TIMING, LONG(timer_slack_ns, 1, 1000000000), .joined = true,
	  .help = "its slack (default 1 ns)" },
	{ 'l', "loops-per-ms", "N", G_TIMING, ULONG(loops_per_ms, 1, 1L << 40),
	  .set = note_loops_given, .help = "loops mode: N loops per ms" },
	{ 'b', "recalibrate", NULL, G_TIMING, FLAG(recalibrate), .joined = true,
	  .help = "measured again" },
	{ 0, "repeat", "N", G_TIMING, INT(repeat, 1, 1000000),
	  .help = "the matrix N times (default 1)" },
	{ 0, "instances", "N", G_TIMING, INT(instances, 1, 64), .joined = true,
	  .help = "N copies at once per row (1-64)" },
	{ 0, "dry-run", NULL, G_TIMING, FLAG(dry_run), .with_compare = true,
	  .help = "check the options, print the rows and the time, exit" },
	{ 'r', "realtime", NULL, G_TASK, FLAG(realtime),
	  .help = "benchmark with SCHED_FIFO tasks (root or CAP_SYS_NICE)" },
	{ 0, "policy", "POLICY", G_TASK, CHOICE(policy, policy_names, "policy"),
	  .help = "benchmark class: other|batch|idle|fifo|rr|deadline" },
	{ 0, "rt-priority", "N", G_SCHED, INT(rt_priority, 1, 98),
	  .help = "priority of a -r, fifo or rr task (default 40; a waker's +1)" },
	{ 0, "slice", "USEC", G_TASK, LONG(slice_us, 100, 100000),
	  .help = "EEVDF slice of the benchmark task (100-100000)" },
	{ 0, "uclamp-min", "PCT", G_TASK, INT(uclamp_min, 0, 100),
	  .help = "the benchmark task's utilization clamp minimum" },
	{ 0, "uclamp-max", "PCT", G_TASK, INT(uclamp_max, 0, 100),
	  .joined = true, .help = "maximum" },
	{ 'B', "bench-nice", "N", G_TASK, INT(bench_nice, -20, 19),
	  .help = "nice level of the benchmark (-20..19)" },
	{ 'N', "load-nice", "N", G_SCHED, INT(load_nice, -20, 19),
	  .help = "nice level of the load (-20..19)" },
	{ 0, "load-policy", "POLICY", G_SCHED, CHOICE(load_policy, load_policy_names, "policy"),
	  .help = "class of the loads: other|batch|idle" },
	{ 'u', "uniprocessor", NULL, G_SCHED, FLAG(uniprocessor),
	  .help = "run everything on one CPU" },
	{ 0, "ncpus", "LIST", G_SCHED, CALL(set_ncpus),
	  .help = "run the plan per CPU count (1,2,4), each row on that many" },
	{ 0, "vary", "KNOB=V1,V2", G_SCHED, STRING(vary_spec, 1, 1000, "knob"),
	  .help = "run the plan once per value, interleaved, with verdicts" },
	{ 0, "vary-order", "abba|blocks", G_SCHED, CALL(set_vary_order), .joined = true,
	  .help = "switch per cell or per pass" },
	{ 0, "vary-ready", "FILE|S", G_SCHED, CALL(set_vary_ready), .joined = true,
	  .help = "exec='s daemon is ready when FILE appears, or after S s" },
	{ 0, "pm-qos", "USEC", G_SCHED, LONG(pm_qos_us, 0, 2000000000),
	  .help = "hold /dev/cpu_dma_latency at USEC during the run" },
	{ 'c', "console", NULL, G_OUTPUT, FLAG(console_only),
	  .help = "console only: do not append to <kernel release>.log" },
	{ 'm', "comment", "TEXT", G_OUTPUT, STRING(comment, 0, 1024, NULL),
	  .help = "comment line for the log and results" },
	{ 0, "work-dir", "DIR", G_OUTPUT, STRING(work_dir, 1, 0, "directory"),
	  .help = "where files are made (default: current directory)" },
	{ 0, "json", "FILE", G_OUTPUT, STRING(json_path, 1, 0, "file"),
	  .help = "write every result as JSON (- for stdout)" },
	{ 0, "csv", "FILE", G_OUTPUT, STRING(csv_path, 1, 0, "file"),
	  .help = "write every result as CSV (- for stdout)" },
	{ 0, "plot", "FILE", G_OUTPUT, STRING(plot_path, 1, 0, "file"),
	  .with_compare = true, .help = "draw latency distributions as SVG" },
	{ 0, "timeline", "FILE", G_OUTPUT, STRING(timeline_path, 1, 0, "file"),
	  .help = "write the run as a Chrome trace (Perfetto UI opens it)" },
	{ 0, "timeline-max", "N", G_OUTPUT, LONG(timeline_max, 1000, 100000000),
	  .help = "at most N events in the timeline (default 1000000)" },
	{ 0, "percentiles", NULL, G_OUTPUT, FLAG(percentiles),
	  .help = "add p99 and p99.9 columns to the tables" },
	{ 0, "trace-above", "USEC", G_OUTPUT, LONG(trace_above_us, 1, 1000000000),
	  .help = "mark tracefs and stop tracing on a latency above USEC" },
	{ 0, "explain", NULL, G_OUTPUT, FLAG(explain),
	  .help = "say where the latency went, and (root) who ran instead" },
	{ 0, "no-split", NULL, G_OUTPUT, FLAG(no_split),
	  .help = "do not split wake-ups (to measure what the split costs)" },
	{ 'q', "quiet", NULL, G_OUTPUT, FLAG(quiet), .with_compare = true,
	  .help = "no progress line" },
	{ 0, "compare", NULL, G_OTHER, FLAG(compare_mode), .with_compare = true,
	  .help = "compare the logs or CSV files named after the options" },
	{ 0, "runs", "LIST", G_OTHER, STRING(compare_runs, 1, 1000, NULL), .with_compare = true,
	  .joined = true, .help = "only these of their runs: 1,3-4, a comment, a date" },
	{ 0, "restore", NULL, G_OTHER, FLAG(restore_only), .with_compare = true,
	  .help = "put back the kernel settings a killed --vary run left, then exit" },
	{ 'h', "help", NULL, G_OTHER, CALL(show_help), .help = "this help" },
	{ 'V', "version", NULL, G_OTHER, CALL(show_version), .joined = true,
	  .help = "the version" },
};

/*
 * The load runs alone for 1 s before each row, to reach a steady state. The test
 * suite, which runs some eighty rows only to check what they print, may
 * shorten that with INTERBENCH_TEST_SETTLE_MS (0 to 1000), and the idle
 * check before the first row with it (a quarter of it); anything else in
 * it is ignored, so a stray value can only ever give the normal second.
 */
uint64_t settle_from_env(const char *ms)
{
	long v;

	if (!ms || parse_long(ms, 0, 1000, &v) < 0)
		return NSEC_PER_SEC;
	return (uint64_t)v * NSEC_PER_MSEC;
}

void config_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->seconds = 30.0;
	cfg->cpu_load = 0;
	cfg->work_dir = ".";
	cfg->pm_qos_us = -1;
	cfg->trace_above_us = -1;
	cfg->timeline_max = TIMELINE_MAX_DEFAULT;
	cfg->repeat = 1;
	cfg->instances = 1;
	cfg->rt_priority = 40;
	cfg->wake = WAKE_TIMER;
	cfg->timer_slack_ns = TIMER_SLACK_DEFAULT_NS;
	cfg->period_drift_ns = TICKPHASE_DRIFT_ASSUMED;	/* run/main.c: the tick, once known */
	cfg->policy = -1;
	cfg->uclamp_min = cfg->uclamp_max = -1;
	cfg->settle_ns = settle_from_env(getenv("INTERBENCH_TEST_SETTLE_MS"));
}

/* getopt_long's value for a row: its letter, or LONG_ONLY + its index. */
#define LONG_ONLY 256

static int opt_val(const struct opt *opt)
{
	return opt->id ? opt->id : LONG_ONLY + (int)(opt - opts);
}

static const struct opt *find_opt(int val)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (opt_val(&opts[i]) == val)
			return &opts[i];
	return NULL;
}

/* "-t/--time" for messages. */
static const char *opt_label(const struct opt *opt, char *buf, size_t len)
{
	if (!opt)
		snprintf(buf, len, "option");
	else if (opt->id)
		snprintf(buf, len, "-%c/--%s", opt->id, opt->name);
	else
		snprintf(buf, len, "--%s", opt->name);
	return buf;
}

/*
 * "-t, --time SECONDS": an option as --help's left column shows it, after
 * before; a long option alone is indented as if it had a short one, but
 * not after another on its line.
 */
static int help_left(const struct opt *opt, const char *before, char *buf, size_t len)
{
	char flag[8] = "    ";

	if (*before)
		flag[0] = '\0';
	if (opt->id)
		snprintf(flag, sizeof(flag), "-%c, ", opt->id);
	return snprintf(buf, len, "%s%s--%s%s%s", before, flag, opt->name, opt->arg ? " " : "",
			opt->arg ? opt->arg : "");
}

void print_help(void)
{
	char names[256];

	printf("Usage: interbench [OPTION]...            run the benchmark (all: about 22 minutes)\n"
	       "       interbench --compare FILE...       compare the runs of one or more files\n"
	       "How late do interactive tasks get the CPU while the machine is busy? "
	       "See interbench(8).\n");
	for (int g = 0; g < G_COUNT; g++) {
		if (group_title[g])
			printf("\n%s:\n", group_title[g]);
		if (g == G_SELECT) {	/* the names beside the options that take them */
			workload_names(WL_BENCH, names, sizeof(names));
			printf("  Benchmarks: %s\n", names);
			workload_names(WL_LOAD, names, sizeof(names));
			printf("  Loads:      %s\n", names);
		}
		for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
			const struct opt *opt = &opts[i];
			char left[160], help[256];
			size_t k;
			int n, h;

			if (opt->group != (enum group)g || opt->joined)
				continue;
			n = help_left(opt, "", left, sizeof(left));
			h = snprintf(help, sizeof(help), "%s", opt->help);
			for (k = i + 1; k < ARRAY_SIZE(opts) && opts[k].joined; k++) {
				n += help_left(&opts[k], " / ", left + n, sizeof(left) - (size_t)n);
				h += snprintf(help + h, sizeof(help) - (size_t)h, " / %s", opts[k].help);
			}
			/* two spaces at least between the columns: parsers split on them */
			printf("  %-28s %s%s\n", left, n >= 28 || k > i + 1 ? " " : "", help);
		}
	}
}

/* Whatever the user typed, quoted short enough to keep the line short. */
static const char *shorten(const char *arg, char *buf, size_t len)
{
	snprintf(buf, len, "%.32s%s", arg, strlen(arg) > 32 ? "..." : "");
	return buf;
}

static int number_error(const struct opt *opt, const char *arg, int ret, const char *range,
			struct parse_state *ps)
{
	char label[48], shown[40];

	return set_err(ps->err, ps->errlen, "%s: '%s' is %s (expected %s)",
		       opt_label(opt, label, sizeof(label)), shorten(arg, shown, sizeof(shown)),
		       ret == -ERANGE ? "out of range" : "not a number", range);
}

/* An integer option: parse, check the range of its row, store at its width. */
static int set_integer(const struct opt *opt, const char *arg, void *field, struct parse_state *ps)
{
	long min = (long)opt->min, max = (long)opt->max, v;
	int ret = parse_long(arg, min, max, &v);
	char range[64];

	if (ret) {
		snprintf(range, sizeof(range), "an integer from %ld to %ld", min, max);
		return number_error(opt, arg, ret, range, ps);
	}
	if (opt->type == T_INT)
		*(int *)field = (int)v;
	else if (opt->type == T_LONG)
		*(long *)field = v;
	else
		*(unsigned long *)field = (unsigned long)v;
	return 0;
}

/* A word of the row's names: its index, any case; else every word in the message. */
static int set_choice(const struct opt *opt, const char *arg, int *field, struct parse_state *ps)
{
	char label[48], shown[40], valid[128];
	size_t used = 0;

	for (int i = 0; opt->names[i]; i++) {
		if (!strcasecmp(arg, opt->names[i])) {
			*field = i;
			return 0;
		}
		used += (size_t)snprintf(valid + used, sizeof(valid) - used, "%s%s",
					 i ? ", " : "", opt->names[i]);
	}
	return set_err(ps->err, ps->errlen, "%s: unknown %s '%s' (valid: %s)",
		       opt_label(opt, label, sizeof(label)), opt->what,
		       shorten(arg, shown, sizeof(shown)), valid);
}

static int set_string(const struct opt *opt, const char *arg, const char **field,
		      struct parse_state *ps)
{
	char label[48];
	size_t len = strlen(arg);

	if (len < (size_t)opt->min)
		return set_err(ps->err, ps->errlen, "%s: empty %s name",
			       opt_label(opt, label, sizeof(label)), opt->what);
	if (opt->max && len > (size_t)opt->max)
		return set_err(ps->err, ps->errlen, "%s: longer than %.0f bytes",
			       opt_label(opt, label, sizeof(label)), opt->max);
	*field = arg;
	return 0;
}

/* Store one option's argument by its row's type; 0, -1 (message in err), or 1 to stop. */
static int set_value(const struct opt *opt, const char *arg, struct parse_state *ps)
{
	void *field = (char *)ps->cfg + opt->off;
	char range[64];
	int ret = 0;

	switch (opt->type) {
	case T_CALL:
		break;
	case T_FLAG:
		*(bool *)field = true;
		break;
	case T_INT:
	case T_LONG:
	case T_ULONG:
		ret = set_integer(opt, arg, field, ps);
		break;
	case T_DOUBLE:
		ret = parse_double(arg, opt->min, opt->max, field);
		if (ret) {
			snprintf(range, sizeof(range), "%s from %g to %g", opt->what, opt->min, opt->max);
			return number_error(opt, arg, ret, range, ps);
		}
		break;
	case T_STRING:
		ret = set_string(opt, arg, field, ps);
		break;
	case T_CHOICE:
		ret = set_choice(opt, arg, field, ps);
		break;
	}
	if (ret)
		return ret;
	ps->cfg->sched_given |= opt->group == G_TASK;
	return opt->set ? opt->set(opt, arg, ps) : 0;
}

/* --vary's task knob: one option, by its long name, set in cfg as the command line would. */
static int option_apply(struct config *cfg, const char *name, const char *arg, char *err,
			size_t errlen)
{
	bool given[ARRAY_SIZE(opts)] = { false };
	struct parse_state ps = { .cfg = cfg, .given = given, .err = err, .errlen = errlen };

	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (!strcmp(opts[i].name, name))
			return set_value(&opts[i], arg, &ps) ? -1 : 0;
	return set_err(err, errlen, "no option --%s", name);
}

/* -W, -X, -w, -x: a benchmark or load name into its slot of ps->sel. */
static int select_workload(const struct opt *opt, const char *arg, struct parse_state *ps)
{
	static const char slots[] = "WXwx";	/* the order of ps->sel */
	int slot = (int)(strchr(slots, opt->id) - slots);
	unsigned need = slot < 2 ? WL_BENCH : WL_LOAD;
	char names[256], label[48], shown[40];
	int i = workload_find(arg);

	if (slot == 0 && workload_spec(arg))
		return set_rtapp_input(opt, arg, ps);
	if (slot == 0 && group_spec(arg))
		return group_parse(ps->cfg, arg, ps->err, ps->errlen) ? -1 : 0;
	if (i >= 0 && workloads[i].not_by_name)
		return set_err(ps->err, ps->errlen, "%s %s: %s", opt_label(opt, label, sizeof(label)),
			       workloads[i].name, workloads[i].not_by_name);
	if (i >= 0 && (workloads[i].flags & need)) {
		ps->sel[slot] |= 1u << i;
		return 0;
	}
	workload_names(need, names, sizeof(names));
	return set_err(ps->err, ps->errlen, "%s: unknown %s '%s' (valid: %s)",
		       opt_label(opt, label, sizeof(label)),
		       need == WL_BENCH ? "benchmark" : "load", shorten(arg, shown, sizeof(shown)),
		       names);
}

/* -W FILE.json, --workload FILE: the file read now, and its benchmark selected. */
static int set_rtapp_input(const struct opt *opt UNUSED, const char *arg, struct parse_state *ps)
{
	if (rtapp_input_option(ps->cfg, arg, ps->err, ps->errlen))
		return -1;
	ps->sel[0] |= 1u << workload_rtapp();
	return 0;
}

/* --period given: a workload file's timers follow it, else they keep rt-app's own timing. */
static int note_periods_given(const struct opt *opt UNUSED, const char *arg UNUSED,
			      struct parse_state *ps)
{
	ps->cfg->periods_given = true;
	return 0;
}

/* -l: a given value is used as is, never replaced by calibration. */
static int note_loops_given(const struct opt *opt UNUSED, const char *arg UNUSED,
			    struct parse_state *ps)
{
	ps->cfg->loops_given = true;
	return 0;
}

static int set_ncpus(const struct opt *opt UNUSED, const char *arg, struct parse_state *ps)
{
	return ncpus_option(ps->cfg, arg, ps->err, ps->errlen) ? -1 : 0;
}

/* --work cpu|loops: remembered as given, so that -l and -b can be checked against it. */
static int set_work(const struct opt *opt, const char *arg, struct parse_state *ps)
{
	char label[48], shown[40];

	if (!strcasecmp(arg, "cpu"))
		ps->cfg->work = WORK_CPU;
	else if (!strcasecmp(arg, "loops"))
		ps->cfg->work = WORK_LOOPS;
	else
		return set_err(ps->err, ps->errlen, "%s: unknown work '%s' (valid: cpu, loops)",
			       opt_label(opt, label, sizeof(label)), shorten(arg, shown, sizeof(shown)));
	return 0;
}

/* --vary-order abba|blocks and --vary-ready FILE|S, read in vary.c */
static int set_vary_order(const struct opt *opt UNUSED, const char *arg, struct parse_state *ps)
{
	return vary_order_option(ps->cfg, arg, ps->err, ps->errlen);
}

static int set_vary_ready(const struct opt *opt UNUSED, const char *arg, struct parse_state *ps)
{
	return vary_ready_option(ps->cfg, arg, ps->err, ps->errlen);
}

/* Was the option called name given? */
static bool given(const struct parse_state *ps, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (!strcmp(opts[i].name, name))
			return ps->given[i];
	return false;
}

/* -l and -b are loops mode's; --work cpu with either is a contradiction. */
static int resolve_work(struct parse_state *ps)
{
	struct config *cfg = ps->cfg;

	if (!cfg->loops_given && !cfg->recalibrate)
		return 0;
	if (given(ps, "work") && cfg->work == WORK_CPU)
		return set_err(ps->err, ps->errlen, "--work cpu and %s contradict: loops per ms "
			       "are for --work loops", cfg->loops_given ? "-l" : "-b");
	cfg->work = WORK_LOOPS;
	return 0;
}

static int show_help(const struct opt *opt UNUSED, const char *arg UNUSED,
		     struct parse_state *ps UNUSED)
{
	print_help();
	return 1;
}

static int show_version(const struct opt *opt UNUSED, const char *arg UNUSED,
			struct parse_state *ps UNUSED)
{
	printf("interbench %s\n", INTERBENCH_VERSION);
	return 1;
}

/*
 * Variant v's configuration: a copy of base with --vary's value applied, and
 * checked as the command line's own would be. Parsing checks every variant
 * this way; the run makes its copies with it once (run/configs.c).
 */
int variant_config_of(const struct config *base, int v, struct config *out, char *err,
		      size_t errlen)
{
	const char *val = base->variants[v].value;
	char e[400];

	*out = *base;
	if (v >= base->nvariants || base->vary_kind != VARY_TASK || !val[0])
		return 0;
	if (option_apply(out, base->vary_option, val, e, sizeof(e)) ||
	    knobs_validate(out, e, sizeof(e)))
		return set_err(err, errlen, "--vary %s: %s", base->variants[v].label, e);
	out->cpu_load_given |= !strcmp(base->vary_option, "cpu-load");
	for (size_t i = 0; i < nr_workloads; i++)
		if ((cfg_benches(out) & (1u << i)) && refuse_class(out, &workloads[i], e, sizeof(e)))
			return set_err(err, errlen, "--vary %s: %s", base->variants[v].label, e);
	return 0;
}

/*
 * --vary: the spec, preempt's modes as the kernel lists them (-2: it cannot
 * be read, exit 1), each variant checked. A task knob also given as its
 * option is a contradiction: which value would "default" be?
 */
static int check_variants(struct parse_state *ps)
{
	struct config *cfg = ps->cfg, *c;
	char *err = ps->err;
	size_t errlen = ps->errlen;
	int ret = 0;

	if (!cfg->vary_spec && (given(ps, "vary-order") || given(ps, "vary-ready")))
		return set_err(err, errlen, "--vary-%s without --vary: nothing to switch",
			       given(ps, "vary-order") ? "order" : "ready");
	if (!cfg->vary_spec)
		return 0;
	if (vary_parse(cfg, err, errlen))
		return -1;
	if (given(ps, "vary-ready") && cfg->vary_kind != VARY_EXEC)
		return set_err(err, errlen, "--vary-ready is for exec='s programs, not --vary %s",
			       cfg->vary_name);
	if (cfg->vary_kind == VARY_TASK && given(ps, cfg->vary_option))
		return set_err(err, errlen, "--vary %s and --%s both set it: give its values to "
			       "--vary alone (default: as without the option)", cfg->vary_name,
			       cfg->vary_option);
	if (!strcmp(cfg->vary_name, "fps") && !((cfg_benches(cfg) | cfg->loads) &
						    (1u << workload_find("Render") |
						     1u << workload_find("Game"))))
		return set_err(err, errlen, "--vary fps sets Render's and Game's frame rate; name "
			       "one with -W or -w");
	cfg->fps_given |= !strcmp(cfg->vary_name, "fps");
	if (vary_preempt_modes(cfg, err, errlen))
		return -2;
	c = malloc(sizeof(*c));
	if (!c)
		return set_err(err, errlen, "out of memory for --vary");
	for (int v = 0; v < cfg->nvariants && !ret; v++)
		ret = variant_config_of(cfg, v, c, err, errlen);
	free(c);
	return ret;
}

/* --compare's checks: only the options that make sense with it, and a file. */
static int validate_compare(const struct parse_state *ps)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (ps->given[i] && !opts[i].with_compare)
			return set_err(ps->err, ps->errlen,
				       "--compare takes only --runs, --plot, -q and --dry-run, not --%s",
				       opts[i].name);
	if (ps->cfg->ncompare < 1)
		return set_err(ps->err, ps->errlen, "--compare needs at least one file");
	return 0;
}

/* Checks that need more than one option, done once before anything runs. */
static int validate(struct parse_state *ps)
{
	struct config *cfg = ps->cfg;
	char *err = ps->err;
	size_t errlen = ps->errlen;

	if (!!cfg->custom_pct != !!cfg->custom_interval_us)
		return set_err(err, errlen, "-C and -I define the Custom task together; give both");
	if (cfg->loops_given && cfg->recalibrate)
		return set_err(err, errlen, "-l and -b contradict: either set loops per ms or measure them");
	if (resolve_work(ps))
		return -1;
	if (cfg->restore_only) {
		for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
			if (ps->given[i] && strcmp(opts[i].name, "restore") &&
			    strcmp(opts[i].name, "quiet"))
				return set_err(err, errlen, "--restore does only that: not with --%s",
					       opts[i].name);
		return 0;
	}
	if (cfg->compare_mode)
		return validate_compare(ps);
	if (cfg->compare_runs)
		return set_err(err, errlen, "--runs picks runs to compare: only with --compare");
	if (cfg->explain && cfg->no_split)
		return set_err(err, errlen, "--explain and --no-split contradict: --explain shows "
			       "the split");
	if (cfg->json_path && cfg->csv_path && !strcmp(cfg->json_path, "-") &&
	    !strcmp(cfg->csv_path, "-"))
		return set_err(err, errlen, "--json - and --csv - cannot both use stdout");
	if (cfg->plot_path && !strcmp(cfg->plot_path, "-"))
		return set_err(err, errlen, "--plot: needs a file name, not -");
	if (cfg->timeline_path && !strcmp(cfg->timeline_path, "-"))
		return set_err(err, errlen, "--timeline: needs a file name, not -");
	if (cfg->timeline_max != TIMELINE_MAX_DEFAULT && !cfg->timeline_path)
		return set_err(err, errlen, "--timeline-max needs --timeline FILE");
	cfg->cpu_load_given = cfg->cpu_load > 0;	/* else a --ncpus row's is its count */
	if (!cfg->cpu_load)
		cfg->cpu_load = usable_cpus();
	if (knobs_validate(cfg, err, errlen) || resolve_selection(cfg, ps->sel, err, errlen) ||
	    check_fps(cfg, err, errlen) || check_custom(cfg, err, errlen) ||
	    rtapp_input_validate(cfg, err, errlen))
		return -1;
	return check_variants(ps);
}

/* getopt_long's view of opts[]: the short string (with ':' first) and the long table. */
static void getopt_tables(char *shorts, struct option *longs)
{
	*shorts++ = ':';	/* tell a missing argument from an unknown option */
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		longs[i] = (struct option){ opts[i].name, opts[i].arg ? required_argument :
					    no_argument, NULL, opt_val(&opts[i]) };
		if (opts[i].id) {
			*shorts++ = (char)opts[i].id;
			if (opts[i].arg)
				*shorts++ = ':';
		}
	}
	*shorts = '\0';
	longs[ARRAY_SIZE(opts)] = (struct option){ 0 };
}

/* getopt_long's '?' or ':' as one line. */
static int getopt_error(int c, char **argv, struct parse_state *ps)
{
	char label[48];

	if (c == ':')
		return set_err(ps->err, ps->errlen, "%s needs an argument",
			       optopt ? opt_label(find_opt(optopt), label, sizeof(label)) :
			       argv[optind - 1]);
	if (optopt && optopt < LONG_ONLY)
		return set_err(ps->err, ps->errlen, "unknown option -%c (see --help)", optopt);
	return set_err(ps->err, ps->errlen, "unknown option '%.40s' (see --help)",
		       argv[optind - 1]);
}

/* What follows the options: --compare's files, else nothing. */
static int operands(int argc, char **argv, struct parse_state *ps)
{
	struct config *cfg = ps->cfg;

	if (!cfg->compare_mode && optind < argc)
		return set_err(ps->err, ps->errlen, "unexpected argument '%.40s' (see --help)",
			       argv[optind]);
	for (; optind < argc; optind++) {
		if (cfg->ncompare == MAX_COMPARE)
			return set_err(ps->err, ps->errlen, "--compare: at most %d files",
				       MAX_COMPARE);
		cfg->compare[cfg->ncompare++] = argv[optind];
	}
	return 0;
}

/*
 * Parse argv into cfg, which nothing writes after. PARSE_USAGE and
 * PARSE_REFUSED leave one line in err; PARSE_EXIT_OK means --help or
 * --version was printed.
 */
enum parse_status parse_options(int argc, char **argv, struct config *cfg,
				char *err, size_t errlen)
{
	struct option longs[ARRAY_SIZE(opts) + 1];
	char shorts[3 * ARRAY_SIZE(opts) + 3];
	bool given[ARRAY_SIZE(opts)] = { false };
	struct parse_state ps = { .cfg = cfg, .given = given, .err = err, .errlen = errlen };
	int c, ret;

	config_defaults(cfg);
	cfg->argc = argc;
	cfg->argv = argv;
	getopt_tables(shorts, longs);
	optind = 0;		/* full re-initialisation: tests parse many times */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct opt *opt = find_opt(c);

		if (c == '?' || c == ':') {
			getopt_error(c, argv, &ps);
			return PARSE_USAGE;
		}
		given[opt - opts] = true;
		ret = set_value(opt, optarg, &ps);
		if (ret)
			return ret > 0 ? PARSE_EXIT_OK : PARSE_USAGE;
	}
	if (operands(argc, argv, &ps))
		return PARSE_USAGE;
	ret = validate(&ps);
	return !ret ? PARSE_RUN : ret == -2 ? PARSE_REFUSED : PARSE_USAGE;
}
