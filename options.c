// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - the one table of command-line options: parsing, validation, --help. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interbench.h"

enum {				/* long-only options */
	OPT_WORK_DIR = 256,
	OPT_JSON,
	OPT_CSV,
	OPT_PLOT,
	OPT_PM_QOS,
	OPT_TRACE_ABOVE,
	OPT_PERCENTILES,
	OPT_REPEAT,
	OPT_COMPARE,
	OPT_RT_PRIORITY,
	OPT_MEMLOAD_MIB,
	OPT_FILE_MIB,
	OPT_DRY_RUN,
};

enum group { G_SELECT, G_TIMING, G_SCHED, G_OUTPUT, G_COMPARE, G_OTHER, G_COUNT };

static const char *const group_title[G_COUNT] = {
	[G_SELECT] = "Benchmarks and loads",
	[G_TIMING] = "Timing",
	[G_SCHED] = "Scheduling",
	[G_OUTPUT] = "Output",
	[G_COMPARE] = "Comparing runs",
	[G_OTHER] = "Other",
};

struct opt {
	int id;			/* short letter or OPT_* */
	const char *name;	/* long form */
	const char *arg;	/* argument's name, NULL for a flag */
	enum group group;
	const char *help;
};

static const struct opt opts[] = {
	{ 'W', "bench", "NAME", G_SELECT, "only this benchmark (repeatable)" },
	{ 'X', "exclude-bench", "NAME", G_SELECT, "not this benchmark (repeatable)" },
	{ 'w', "load", "NAME", G_SELECT, "only this load (repeatable)" },
	{ 'x', "exclude-load", "NAME", G_SELECT, "not this load (repeatable)" },
	{ 'C', "custom-cpu", "PCT", G_SELECT, "Custom task: CPU percent of each interval (1-100)" },
	{ 'I', "custom-interval", "USEC", G_SELECT, "Custom task: interval in microseconds (>= 100)" },
	{ 'L', "cpu-load", "N", G_SELECT, "Burn threads, Ring size, Hack groups (default: CPUs)" },
	{ OPT_MEMLOAD_MIB, "memload-mib", "MIB", G_SELECT, "Memload size (default: from MemAvailable)" },
	{ OPT_FILE_MIB, "file-mib", "MIB", G_SELECT, "Write/Read file size (default: from free space)" },
	{ 't', "time", "SECONDS", G_TIMING, "seconds per row, decimals allowed (default 30)" },
	{ 'l', "loops-per-ms", "N", G_TIMING, "use N loops per ms instead of calibrating" },
	{ 'b', "recalibrate", NULL, G_TIMING, "measure loops per ms even if saved" },
	{ OPT_REPEAT, "repeat", "N", G_TIMING, "run the whole matrix N times (default 1)" },
	{ OPT_DRY_RUN, "dry-run", NULL, G_TIMING, "check the options, print the rows and the time, exit" },
	{ 'r', "realtime", NULL, G_SCHED, "benchmark with SCHED_FIFO tasks (root or CAP_SYS_NICE)" },
	{ OPT_RT_PRIORITY, "rt-priority", "N", G_SCHED, "SCHED_FIFO priority of a -r task; waker +1 (default 40)" },
	{ 'B', "bench-nice", "N", G_SCHED, "nice level of the benchmark (-20..19)" },
	{ 'N', "load-nice", "N", G_SCHED, "nice level of the load (-20..19)" },
	{ 'u', "uniprocessor", NULL, G_SCHED, "run everything on one CPU" },
	{ OPT_PM_QOS, "pm-qos", "USEC", G_SCHED, "hold /dev/cpu_dma_latency at USEC during the run" },
	{ 'c', "console", NULL, G_OUTPUT, "console only: do not append to <kernel release>.log" },
	{ 'm', "comment", "TEXT", G_OUTPUT, "comment line for the log and results" },
	{ OPT_WORK_DIR, "work-dir", "DIR", G_OUTPUT, "where files are made (default: current directory)" },
	{ OPT_JSON, "json", "FILE", G_OUTPUT, "write every result as JSON (- for stdout)" },
	{ OPT_CSV, "csv", "FILE", G_OUTPUT, "write every result as CSV (- for stdout)" },
	{ OPT_PLOT, "plot", "FILE", G_OUTPUT, "draw latency distributions as SVG" },
	{ OPT_PERCENTILES, "percentiles", NULL, G_OUTPUT, "add p99 and p99.9 columns to the tables" },
	{ OPT_TRACE_ABOVE, "trace-above", "USEC", G_OUTPUT, "mark tracefs and stop tracing on a latency above USEC" },
	{ 'q', "quiet", NULL, G_OUTPUT, "no progress line" },
	{ OPT_COMPARE, "compare", NULL, G_COMPARE, "compare the logs or CSV files named after the options" },
	{ 'h', "help", NULL, G_OTHER, "this help" },
	{ 'V', "version", NULL, G_OTHER, "the version" },
};

/*
 * The load runs alone for 1 s before each row (SPEC section 3). The test
 * suite, which runs some eighty rows only to check what they print, may
 * shorten that with INTERBENCH_TEST_SETTLE_MS (0 to 1000); anything else in
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
	cfg->repeat = 1;
	cfg->rt_priority = 40;
	cfg->settle_ns = settle_from_env(getenv("INTERBENCH_TEST_SETTLE_MS"));
}

static const struct opt *find_opt(int id)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (opts[i].id == id)
			return &opts[i];
	return NULL;
}

/* "-t/--time" for messages. */
static const char *opt_label(int id, char *buf, size_t len)
{
	const struct opt *o = find_opt(id);

	if (!o)
		snprintf(buf, len, "option");
	else if (o->id < 256)
		snprintf(buf, len, "-%c/--%s", o->id, o->name);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

void print_help(void)
{
	printf("Usage: interbench [OPTION]...            run the benchmark\n"
	       "       interbench --compare FILE FILE...  compare runs\n"
	       "How late do interactive tasks get the CPU while the machine is busy?\n");
	for (int g = 0; g < G_COUNT; g++) {
		printf("\n%s:\n", group_title[g]);
		for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
			const struct opt *o = &opts[i];
			char left[48];

			if (o->group != (enum group)g)
				continue;
			if (o->id < 256)
				snprintf(left, sizeof(left), "-%c, --%s%s%s", o->id, o->name,
					 o->arg ? " " : "", o->arg ? o->arg : "");
			else
				snprintf(left, sizeof(left), "    --%s%s%s", o->name,
					 o->arg ? " " : "", o->arg ? o->arg : "");
			printf("  %-28s %s\n", left, o->help);
		}
	}
	printf("\nBenchmarks: ");
	for (size_t i = 0, first = 1; i < nr_workloads; i++) {
		if (!(workloads[i].flags & WL_BENCH))
			continue;
		printf("%s%s", first ? "" : ", ", workloads[i].name);
		first = 0;
	}
	printf("\nLoads:      ");
	for (size_t i = 0, first = 1; i < nr_workloads; i++) {
		if (!(workloads[i].flags & WL_LOAD))
			continue;
		printf("%s%s", first ? "" : ", ", workloads[i].name);
		first = 0;
	}
	printf("\n\nA full run takes about 20 minutes; see interbench(8).\n");
}

static int number_error(char *err, size_t errlen, int id, const char *arg, int ret,
			const char *range)
{
	char label[48];
	char shown[40];

	/* keep the line short, whatever the user typed */
	snprintf(shown, sizeof(shown), "%.32s%s", arg, strlen(arg) > 32 ? "..." : "");
	return set_err(err, errlen, "%s: '%s' is %s (expected %s)", opt_label(id, label, sizeof(label)),
		    shown, ret == -ERANGE ? "out of range" : "not a number", range);
}

static int get_long(int id, const char *arg, long min, long max, long *out,
		    char *err, size_t errlen)
{
	char range[64];
	int ret = parse_long(arg, min, max, out);

	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "an integer from %ld to %ld", min, max);
	return number_error(err, errlen, id, arg, ret, range);
}

static int select_name(int id, const char *arg, unsigned need, uint32_t *mask,
		       char *err, size_t errlen)
{
	char names[256], label[48], shown[40];
	int i = workload_find(arg);

	if (i >= 0 && (workloads[i].flags & need)) {
		*mask |= 1u << i;
		return 0;
	}
	workload_names(need, names, sizeof(names));
	snprintf(shown, sizeof(shown), "%.32s%s", arg, strlen(arg) > 32 ? "..." : "");
	return set_err(err, errlen, "%s: unknown %s '%s' (valid: %s)",
		    opt_label(id, label, sizeof(label)),
		    need == WL_BENCH ? "benchmark" : "load", shown, names);
}

static int parse_one(int id, const char *arg, struct config *cfg, uint32_t sel[4],
		     char *err, size_t errlen)
{
	long v;
	int ret = 0;

	switch (id) {
	case 'l':
		ret = get_long(id, arg, 1, 1L << 40, &v, err, errlen);
		cfg->loops_per_ms = (unsigned long)v;
		cfg->loops_given = true;
		break;
	case 'L':
		ret = get_long(id, arg, 1, 4096, &v, err, errlen);
		cfg->cpu_load = (int)v;
		break;
	case 't':
		ret = parse_double(arg, 0.1, 86400.0, &cfg->seconds);
		if (ret)
			return number_error(err, errlen, id, arg, ret,
					    "seconds from 0.1 to 86400");
		break;
	case 'B':
		ret = get_long(id, arg, -20, 19, &v, err, errlen);
		cfg->bench_nice = (int)v;
		break;
	case 'N':
		ret = get_long(id, arg, -20, 19, &v, err, errlen);
		cfg->load_nice = (int)v;
		break;
	case 'C':
		ret = get_long(id, arg, 1, 100, &v, err, errlen);
		cfg->custom_pct = (int)v;
		break;
	case 'I':
		ret = get_long(id, arg, 100, 10000000, &v, err, errlen);
		cfg->custom_interval_us = v;
		break;
	case 'm':
		if (strlen(arg) > 1024)
			return set_err(err, errlen, "-m/--comment: longer than 1024 bytes");
		cfg->comment = arg;
		break;
	case 'W':
		return select_name(id, arg, WL_BENCH, &sel[0], err, errlen);
	case 'X':
		return select_name(id, arg, WL_BENCH, &sel[1], err, errlen);
	case 'w':
		return select_name(id, arg, WL_LOAD, &sel[2], err, errlen);
	case 'x':
		return select_name(id, arg, WL_LOAD, &sel[3], err, errlen);
	case 'b': cfg->recalibrate = true; break;
	case 'c': cfg->console_only = true; break;
	case 'r': cfg->realtime = true; break;
	case 'u': cfg->uniprocessor = true; break;
	case 'q': cfg->quiet = true; break;
	case OPT_PERCENTILES: cfg->percentiles = true; break;
	case OPT_DRY_RUN: cfg->dry_run = true; break;
	case OPT_WORK_DIR:
		if (!*arg)
			return set_err(err, errlen, "--work-dir: empty directory name");
		cfg->work_dir = arg;
		break;
	case OPT_JSON:
	case OPT_CSV:
	case OPT_PLOT:
		if (!*arg)
			return set_err(err, errlen, "--%s: empty file name", find_opt(id)->name);
		*(id == OPT_JSON ? &cfg->json_path : id == OPT_CSV ? &cfg->csv_path :
		  &cfg->plot_path) = arg;
		break;
	case OPT_PM_QOS:
		ret = get_long(id, arg, 0, 2000000000, &cfg->pm_qos_us, err, errlen);
		break;
	case OPT_TRACE_ABOVE:
		ret = get_long(id, arg, 1, 1000000000, &cfg->trace_above_us, err, errlen);
		break;
	case OPT_REPEAT:
		ret = get_long(id, arg, 1, 1000, &v, err, errlen);
		cfg->repeat = (int)v;
		break;
	case OPT_RT_PRIORITY:
		ret = get_long(id, arg, 1, 98, &v, err, errlen);
		cfg->rt_priority = (int)v;
		break;
	case OPT_MEMLOAD_MIB:
		ret = get_long(id, arg, 1, 1L << 30, &cfg->memload_mib, err, errlen);
		break;
	case OPT_FILE_MIB:
		ret = get_long(id, arg, 1, 1L << 30, &cfg->file_mib, err, errlen);
		break;
	default:
		return set_err(err, errlen, "internal: option %d has no parser", id);
	}
	return ret;
}

/* Which benchmarks and loads run, from -W/-X/-w/-x, -r and -C/-I. */
static int resolve_selection(struct config *cfg, const uint32_t sel[4], char *err,
			     size_t errlen)
{
	bool custom = cfg->custom_pct && cfg->custom_interval_us;
	uint32_t benches = 0, loads = 0;
	char names[256];

	for (size_t i = 0; i < nr_workloads; i++) {
		const struct workload *wl = &workloads[i];
		bool exists = custom || !(wl->flags & WL_CUSTOM);
		uint32_t bit = 1u << i;

		if ((sel[0] & bit) && !exists)
			return set_err(err, errlen, "-W %s needs -C and -I to define it", wl->name);
		if ((sel[2] & bit) && !exists)
			return set_err(err, errlen, "-w %s needs -C and -I to define it", wl->name);
		if ((sel[0] & bit) && cfg->realtime && !(wl->flags & WL_RT)) {
			workload_names(WL_BENCH | WL_RT, names, sizeof(names));
			return set_err(err, errlen, "-W %s cannot run real time (-r); real-time benchmarks: %s",
				    wl->name, names);
		}
		if ((wl->flags & WL_BENCH) && exists &&
		    (!cfg->realtime || (wl->flags & WL_RT)) &&
		    (sel[0] ? (sel[0] & bit) : 1) && !(sel[1] & bit))
			benches |= bit;
		if ((wl->flags & WL_LOAD) && exists &&
		    (sel[2] ? (sel[2] & bit) : 1) && !(sel[3] & bit))
			loads |= bit;
	}
	if (!benches)
		return set_err(err, errlen, "no benchmark left to run (check -W, -X and -r)");
	if (!loads)
		return set_err(err, errlen, "no load left to run (check -w and -x)");
	if (benches == loads && !(benches & (benches - 1)))
		return set_err(err, errlen, "nothing to run: a benchmark is never run against itself");
	cfg->benches = benches;
	cfg->loads = loads;
	return 0;
}

/* Checks that need more than one option, done once before anything runs. */
static int validate(struct config *cfg, const uint32_t sel[4], bool given[],
		    char *err, size_t errlen)
{
	struct stat st;

	if (!!cfg->custom_pct != !!cfg->custom_interval_us)
		return set_err(err, errlen, "-C and -I define the Custom task together; give both");
	if (cfg->loops_given && cfg->recalibrate)
		return set_err(err, errlen, "-l and -b contradict: either set loops per ms or measure them");
	if (cfg->compare_mode) {
		for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
			int id = opts[i].id;

			if (given[i] && id != OPT_COMPARE && id != OPT_PLOT && id != 'q' &&
			    id != OPT_DRY_RUN)
				return set_err(err, errlen,
					    "--compare takes only --plot, -q and --dry-run, not --%s",
					    opts[i].name);
		}
		if (cfg->ncompare < 1)
			return set_err(err, errlen, "--compare needs at least one file");
		return 0;
	}
	if (cfg->json_path && cfg->csv_path && !strcmp(cfg->json_path, "-") &&
	    !strcmp(cfg->csv_path, "-"))
		return set_err(err, errlen, "--json - and --csv - cannot both use stdout");
	if (stat(cfg->work_dir, &st) < 0)
		return set_err(err, errlen, "--work-dir: '%.200s': %s", cfg->work_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return set_err(err, errlen, "--work-dir: '%.200s' is not a directory", cfg->work_dir);
	if (access(cfg->work_dir, W_OK | X_OK) < 0)
		return set_err(err, errlen, "--work-dir: cannot write in '%.200s': %s",
			    cfg->work_dir, strerror(errno));
	if (cfg->plot_path && !strcmp(cfg->plot_path, "-"))
		return set_err(err, errlen, "--plot: needs a file name, not -");
	if (!cfg->cpu_load)
		cfg->cpu_load = online_cpus();
	return resolve_selection(cfg, sel, err, errlen);
}

/*
 * Parse argv into cfg. PARSE_USAGE leaves one line in err; PARSE_EXIT_OK
 * means --help or --version was printed.
 */
enum parse_status parse_options(int argc, char **argv, struct config *cfg,
				char *err, size_t errlen)
{
	struct option longs[ARRAY_SIZE(opts) + 1];
	char shorts[3 * ARRAY_SIZE(opts) + 3], *sp = shorts;
	bool given[ARRAY_SIZE(opts)] = { false };
	uint32_t sel[4] = { 0 };	/* -W, -X, -w, -x */
	int c, idx;

	config_defaults(cfg);
	cfg->argc = argc;
	cfg->argv = argv;
	*sp++ = ':';		/* tell a missing argument from an unknown option */
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		longs[i] = (struct option){ opts[i].name, opts[i].arg ? required_argument :
					    no_argument, NULL, opts[i].id };
		if (opts[i].id < 256) {
			*sp++ = (char)opts[i].id;
			if (opts[i].arg)
				*sp++ = ':';
		}
	}
	*sp = '\0';
	longs[ARRAY_SIZE(opts)] = (struct option){ 0 };

	optind = 0;		/* full re-initialisation: tests parse many times */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, &idx)) != -1) {
		const struct opt *o;

		if (c == '?') {
			if (optopt && optopt < 256)
				set_err(err, errlen, "unknown option -%c (see --help)", optopt);
			else
				set_err(err, errlen, "unknown option '%.40s' (see --help)",
				     argv[optind - 1]);
			return PARSE_USAGE;
		}
		if (c == ':') {
			char label[48];

			set_err(err, errlen, "%s needs an argument",
			     optopt ? opt_label(optopt, label, sizeof(label)) : argv[optind - 1]);
			return PARSE_USAGE;
		}
		o = find_opt(c);
		given[o - opts] = true;
		if (c == 'h') {
			print_help();
			return PARSE_EXIT_OK;
		}
		if (c == 'V') {
			printf("interbench %s\n", INTERBENCH_VERSION);
			return PARSE_EXIT_OK;
		}
		if (c == OPT_COMPARE) {
			cfg->compare_mode = true;	/* files follow */
			continue;
		}
		if (parse_one(c, optarg, cfg, sel, err, errlen))
			return PARSE_USAGE;
	}
	if (cfg->compare_mode) {
		for (; optind < argc; optind++) {
			if (cfg->ncompare == MAX_COMPARE) {
				set_err(err, errlen, "--compare: at most %d files", MAX_COMPARE);
				return PARSE_USAGE;
			}
			cfg->compare[cfg->ncompare++] = argv[optind];
		}
	} else if (optind < argc) {
		set_err(err, errlen, "unexpected argument '%.40s' (see --help)", argv[optind]);
		return PARSE_USAGE;
	}
	if (validate(cfg, sel, given, err, errlen))
		return PARSE_USAGE;
	return PARSE_RUN;
}
