// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_golden.c - every output of fixed synthetic runs, checked byte for byte against
 * tests/golden/. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/period.h"
#include "lib/util.h"
#include "model/workloads.h"
#include "report/report.h"
#include "formats/format.h"
#include "compare/compare.h"
#include "plot/plot.h"
#include "child/child.h"
#include "cli/options.h"
#include "model/plan.h"
#include "run/row.h"
#include "cli/derive.h"
#include "sys/machine.h"
#include "task/task.h"

#include "tests/unit.h"
#include "formats/readers.h"

static char golden_dir[4096];	/* tests/golden, absolute: some checks run elsewhere */

/*
 * GOLDEN_UPDATE=1 tests/unit writes the files instead of checking them: only
 * when an output is meant to change, and the diff then shows how. Each check
 * that wrote its file fails, saying so: a rewrite is never a pass.
 */
static bool updating(void)
{
	const char *u = getenv("GOLDEN_UPDATE");

	return u && !strcmp(u, "1");
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
			*len = (size_t)n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

/* The output named name against its golden file (or, updating, written to it). */
static bool golden_same(const char *name, const char *text, size_t len)
{
	char path[4200];
	size_t glen, i;
	char *g;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", golden_dir, name);
	EXPECT(text, "%s: no output", name);
	if (updating()) {
		EXPECT(replace_file(path, text, len) == 0, "%s: cannot write it", name);
		EXPECT(false, "%s rewritten (GOLDEN_UPDATE=1): read its diff, then run the tests "
		       "without it", name);
	}
	g = slurp(path, &glen);
	EXPECT(g, "%s: cannot read the golden file", name);
	for (i = 0; i < len && i < glen && text[i] == g[i]; i++)
		;
	ok = i == len && i == glen;
	if (!ok)
		snprintf(detail, sizeof(detail), "%s differs at byte %zu of %zu (golden %zu): '%.60s'",
			 name, i, len, glen, text + (i < len ? i : len));
	free(g);
	return ok;
}

static bool golden_file(const char *name, const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	bool ok = golden_same(name, text, len);

	free(text);
	return ok;
}

/* ---- the synthetic runs ---- */

static const struct machine golden_sys = {
	.kernel_release = "6.18.44-golden", .kernel_version = "#1 SMP PREEMPT_DYNAMIC Golden",
	.hostname = "golden-host", .preemption = "full", .preemption_source = "debugfs",
	.preempt_dynamic = 1, .hz = 250, .cpu_model = "Golden CPU @ 3.00GHz", .cpus_online = 2,
	.cpus_usable = 2, .mem_limit_bytes = SI_UNKNOWN, .work_dir_in_memory = 0,
	.cpufreq_governor = "schedutil", .clocksource = "tsc", .sched_rt_runtime_us = 950000,
	.sched_rt_period_us = 1000000, .timer_slack_ns = 50000, .pm_qos_us = SI_UNKNOWN,
	.mem_kib = 16318412, .swap_kib = 0, .work_dir_fs = "ext4",
	.work_dir_device = "/dev/vda1", .io_scheduler = "none", .kernel_cmdline = "ro quiet",
	.sched_ext = "enabled", .sched_ext_ops = "scx_golden", .autogroup = 1,
};

struct golden_row {
	const char *bench, *load;
	int pass;
	int status;
	bool has_bench;			/* the bench process gave numbers */
	uint64_t base_ns, spread_ns;	/* latencies base + (x % spread) */
	int samples;
	double intensity;		/* < 0: not measured */
	const char *reason;
	double slower;			/* loop speed this much below the others (a mark) */
	int unwoken;			/* periods without a wakeup (a mark) */
};

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/*
 * A bench's answer: with the waker (run a), the waker's timer latency too;
 * on its own timer (run b, real-time), its slack as read back, none.
 */
static struct bench_result *fake_bench(const struct golden_row *g, uint64_t seed, bool waker)
{
	struct bench_result *b = calloc(1, sizeof(*b));
	bool nodl = workloads[workload_find(g->bench)].flags & WL_NODEADLINE;

	if (!b)
		return NULL;
	b->status = g->status;
	latency_init(&b->wake);
	latency_init(&b->timer);
	b->timer_slack_ns = waker || nodl ? -1 : 0;
	for (int i = 0; i < g->samples; i++) {
		uint64_t x = lcg(&seed), y = lcg(&seed);

		latency_add(&b->wake, g->base_ns + x % g->spread_ns);
		if (waker)
			latency_add(&b->timer, 1000 + y % 5000);
	}
	b->acct.met = (uint64_t)g->samples - (uint64_t)g->samples / 7;
	b->acct.missed = (uint64_t)g->samples / 9;
	b->acct.dropped = (uint64_t)g->samples / 7 - (uint64_t)g->samples / 9;
	b->pct_cpu = 100.0 * (double)(b->acct.met + b->acct.missed) / g->samples;
	b->pct_deadlines = nodl ? -1.0 : 100.0 * (double)b->acct.met / g->samples;
	if (g->spread_ns < 100)
		b->pct_cpu = b->pct_deadlines = 100.0;
	b->task_cpu_ns = 123456789 + seed % 1000;
	b->wall_ns = 2000345678;
	if (!nodl)	/* Gaming has no periods and so no work_ratio */
		b->work_ns = 122000000 + seed % 3000000;
	b->acct.dropped += (uint64_t)g->unwoken;
	b->burn_cpu_ns = 120000000 + seed % 1000;
	b->loops = (uint64_t)(b->burn_cpu_ns * 3.5 * (1.0 - g->slower));
	return b;
}

/* A run as the orchestrator holds it: its rows as they ended, its record, its text. */
struct golden_run {
	struct run_record rec;
	struct plan plan;
	struct report out;
	struct live_files files;
	struct row *rows;
	int nrows;
	bool live_ok;			/* each file after each row as it should be */
};

static void add_rows(struct golden_run *run, const struct golden_row *g, size_t n, bool waker)
{
	run->rows = calloc(n, sizeof(*run->rows));
	for (size_t i = 0; i < n; i++) {
		struct row *row = &run->rows[run->nrows++];

		row->bench = workload_find(g[i].bench);
		row->load = workload_find(g[i].load);
		row->pass = g[i].pass;
		row->status = g[i].status;
		snprintf(row->reason, sizeof(row->reason), "%s", g[i].reason ? g[i].reason : "");
		row->bench_res = g[i].has_bench ? fake_bench(&g[i], 17 + i, waker) : NULL;
		row->load_res.status = ROW_OK;
		row->load_res.intensity = g[i].intensity;
		row->load_res.cpus = row->load_res.cpus_want = row->load_res.restarts = -1.0;
		row->load_due = NAN;
		row->foreign = (struct foreign){ .pct = g[i].has_bench ? 1.5 + 0.25 * (double)i :
						 -1.0 };
		if (!strcmp(g[i].load, "Burn") && g[i].intensity >= 0) {
			row->load_res.cpus = g[i].intensity;	/* the last, 1.7, short of 0.9 x 1.9 */
			row->load_due = 1.9;
		}
		if (i == 9)	/* a foreign load beside Gaming and Burn */
			row->foreign = (struct foreign){ .pct = 42.0, .top = "stress-ng",
							 .top_pct = 40.1 };
		row->load_stop_ns = g[i].has_bench ? 1234567 + i : 0;
	}
}

#define NOSPC "Write load stopped early: write: No space left on device"

/* Audio, X and Gaming against None, Video, Burn and Write, twice, with --percentiles. */
static const struct golden_row rows_a[] = {
	{ "Audio", "None", 0, ROW_OK, true, 4000, 300000, 500, -1, NULL, 0, 0 },
	{ "Audio", "Video", 0, ROW_OK, true, 9000, 2000000, 400, 99.96, NULL, 0, 0 },
	{ "Audio", "Burn", 0, ROW_OK, true, 50000, 9000000, 400, 1.94, NULL, 0, 0 },
	{ "Audio", "Write", 0, ROW_OK, true, 20000, 500000, 400, 0, NOSPC, 0, 0 },
	{ "X", "None", 0, ROW_OK, true, 3000, 90, 300, -1, NULL, 0, 0 },
	{ "X", "Burn", 0, ROW_FAILED, false, 0, 1, 0, -1, "load process died", 0, 0 },
	{ "X", "Write", 0, ROW_OK, true, 700000, 60000000, 200, 2583.4, NULL, 0, 0 },
	{ "Gaming", "None", 0, ROW_OK, true, 100, 5000, 300, -1, NULL, 0, 0 },
	{ "Gaming", "Video", 0, ROW_OK, true, 1000000, 30000000, 100, 66.66, NULL, 0, 0 },
	{ "Gaming", "Burn", 0, ROW_OK, true, 5000000, 90000000, 100, 1.8, NULL, 0, 0 },
	{ "Gaming", "Write", 0, ROW_OK, true, 100000, 2000000, 100, 512, NULL, 0, 0 },
	{ "Audio", "None", 1, ROW_OK, true, 4100, 310000, 500, -1, NULL, 0, 0 },
	{ "Audio", "Video", 1, ROW_OK, true, 9500, 2100000, 400, 99.95, NULL, 0, 0 },
	{ "Audio", "Burn", 1, ROW_OK, true, 48000, 8000000, 400, 1.96, NULL, 0, 0 },
	{ "Audio", "Write", 1, ROW_FAILED, true, 20000, 500000, 400, -1, "bench process died", 0, 0 },
	{ "X", "None", 1, ROW_OK, true, 3100, 80, 300, -1, NULL, 0, 0 },
	{ "X", "Burn", 1, ROW_OK, true, 600000, 50000000, 200, 1.99, NULL, 0, 0 },
	{ "X", "Write", 1, ROW_OK, true, 650000, 61000000, 200, 2401, NULL, 0, 0 },
	{ "Gaming", "None", 1, ROW_OK, true, 110, 5100, 300, -1, NULL, 0, 0 },
	{ "Gaming", "Video", 1, ROW_OK, true, 900000, 31000000, 100, 70.1, NULL, 0, 0 },
	{ "Gaming", "Burn", 1, ROW_OK, true, 5100000, 91000000, 100, 1.7, NULL, 0, 0 },
	{ "Gaming", "Write", 1, ROW_OK, true, 90000, 1900000, 100, 498, NULL, 0, 0 },
};

/* Real-time Audio and Video against None and X, interrupted after them. */
static const struct golden_row rows_b[] = {
	{ "Audio", "None", 0, ROW_OK, true, 1500, 20000, 600, -1, NULL, 0, 0 },
	{ "Audio", "X", 0, ROW_OK, true, 2500, 90000, 600, 98.2, NULL, 0.2, 0 },
	{ "Video", "None", 0, ROW_OK, true, 1800, 30000, 600, -1, NULL, 0, 3 },
	{ "Video", "X", 0, ROW_FAILED, false, 0, 1, 0, -1, "bench process timed out", 0, 0 },
};

static char *golden_argv[] = { "./interbench", "-t", "2", "--json", "r.json", NULL };

static void golden_config(struct config *cfg, bool rt)
{
	config_defaults(cfg);
	cfg->seconds = 2;
	cfg->cpu_load = 2;
	cfg->fps = cfg->fps_ran = 144;	/* as validation leaves it: a run key */
	cfg->argc = 5;
	cfg->argv = golden_argv;
	cfg->console_only = true;
	cfg->quiet = true;
	if (!rt) {
		cfg->work = WORK_LOOPS;		/* run a in loops mode, run b in CPU mode */
		cfg->wake = WAKE_WAKER;		/* run a woken by the waker, b by its own timer */
		cfg->loops_per_ms = 1181869;
		cfg->benches = 1u << workload_find("Audio") | 1u << workload_find("X") |
			       1u << workload_find("Gaming");
		cfg->loads = 1u << workload_find("None") | 1u << workload_find("Video") |
			     1u << workload_find("Burn") | 1u << workload_find("Write");
		cfg->repeat = 2;
		cfg->percentiles = true;
		cfg->comment = "before";
		return;
	}
	cfg->benches = 1u << workload_find("Audio") | 1u << workload_find("Video");
	cfg->loads = 1u << workload_find("None") | 1u << workload_find("X");
	cfg->realtime = true;
	cfg->policy = POL_FIFO;
	cfg->explain = true;
	cfg->load_nice = 5;
	cfg->repeat = 1;
	cfg->comment = "after, with \"quotes\"";
}

struct golden_out {
	char dir[64];
	char *text;
	size_t len;
};

/* A file holds what was built into sb: the version a live file has between two rows. */
static bool file_holds(const char *path, struct sbuf *sb, int nres)
{
	size_t len;
	char *text = slurp(path, &len);
	bool same = text && !sb->failed && len == sb->len && !memcmp(text, sb->buf, len);

	if (!same)
		snprintf(detail, sizeof(detail), "%s after %d rows is not the record so far", path,
			 nres);
	free(text);
	sb_free(sb);
	return same;
}

/* The JSON mid-run: the head, every result so far, a tail that says it is not complete. */
static bool live_files_hold(const struct golden_run *run)
{
	const struct run_record *rec = &run->rec;
	struct sbuf sb;

	sb_init(&sb);
	json_head(&sb, rec);
	for (int i = 0; i < rec->nres; i++)
		json_result_at(&sb, rec, i);
	json_tail(&sb, rec, false);
	if (!file_holds(rec->cfg->json_path, &sb, rec->nres))
		return false;
	sb_init(&sb);
	build_csv(&sb, rec);
	return file_holds(rec->cfg->csv_path, &sb, rec->nres);
}

/*
 * Run b's latency strips, from period records as a bench process sends
 * them over the row's 2 s: Audio with X woke in its first second only (a
 * gap), Video's ring lost its first second (unknown, not empty).
 */
static void fake_strip(const struct golden_run *run, int i, struct result *r)
{
	static struct period_rec rec[200];
	const uint64_t start = 7000000000ULL, sec = 1000000000ULL;
	bool video = !strcmp(workloads[run->rows[i].bench].name, "Video");
	struct period_log h = { .start0 = start, .num = 50000000,
				.den = video ? 3 : 1 };
	uint64_t seed = 5 + (uint64_t)i;
	size_t n = 0;

	if (!r || !run->rows[i].bench_res)
		return;
	for (uint64_t k = 0; n < ARRAY_SIZE(rec); k++) {
		uint64_t t = start + k * h.num / h.den + 1500, lat = 2000 + lcg(&seed) % 30000;

		if (t >= start + 2 * sec || (i == 1 && t >= start + sec))
			break;
		if (i == 2 && t < start + sec) {
			h.lost++;
			continue;
		}
		rec[n++] = (struct period_rec){ .t_wake = t, .t_run = t + lat, .t_done = t + lat + 900,
						.k = (uint32_t)k, .flags = PREC_WOKEN | PREC_DONE,
						.wake_cpu = 0, .run_cpu = 1 };
	}
	h.nrec = n;
	result_set_strip(r, &h, rec, n, start, 2.0);
}

/* The run as run/main.c drives it: header, each row's result into the record, tables, the
 * files grown by each row, summary; then the files' final versions. */
static void golden_drive(struct golden_run *run, struct golden_out *o)
{
	const struct config *cfg = run->rec.cfg;
	FILE *text = open_memstream(&o->text, &o->len);
	struct result *r;

	run->out.text = text;
	run->live_ok = !report_files_begin(&run->files, &run->rec) && live_files_hold(run);
	report_header(&run->out, &run->rec);
	for (int i = 0; i < run->nrows; i++) {
		const struct row *row = &run->rows[i];

		if (!i || row->bench != run->rows[i - 1].bench) {
			if (i)
				report_table_end(&run->out, &run->rec);
			report_heading(&run->out, &run->rec, row->bench, 0);
		}
		r = row_result(&run->rec, row, run->rec.cfg);
		if (cfg->realtime)
			fake_strip(run, i, r);
		report_row(&run->out, &run->rec, run->rec.nres - 1);
		report_files_row(&run->files, &run->rec);
		run->live_ok = run->live_ok && live_files_hold(run);
	}
	report_table_end(&run->out, &run->rec);
	if (cfg->repeat > 1)
		report_summary(&run->out, &run->rec);
	run->rec.end = run->rec.start + 60;
	if (run->rec.interrupted)
		report_interrupted(&run->out, &run->rec);
	report_files_end(&run->files, &run->rec);
	plot_run(&run->rec, cfg->plot_path);
	fclose(text);
}

/* Video's period k of the fake periods below, from 5000 s, and a time in it in us. */
#define GOLD_START0 (5000 * NSEC_PER_SEC)
static uint64_t gold_at(uint64_t k, uint64_t us)
{
	return GOLD_START0 + (k * NSEC_PER_SEC + 59) / 60 + us * NSEC_PER_USEC;
}

/*
 * --explain's misses on a row of Video: eight periods and the task's events.
 * Period 2 waits behind Xorg and is preempted twice; 3 begins late (2
 * overran) and is preempted; 5 blocks 12 ms; 7 is cut by the row's end.
 * Woken by its own timer (run b), each wake-up's sched_waking is in the
 * trace (wake: its offset), but period 1's, which the trace lost.
 */
static void fake_misses(struct row *row)
{
	static const struct { uint32_t k; uint8_t fl; uint64_t wake, run, done; } p[] = {
		{ 0, PREC_WOKEN | PREC_DONE, 40, 60, 6800 }, { 1, PREC_WOKEN | PREC_DONE, 30, 45, 6700 },
		{ 2, PREC_WOKEN | PREC_DONE, 50, 3950, 20750 }, { 3, PREC_DONE, 4090, 4090, 17690 },
		{ 4, PREC_DONE, 1030, 1030, 7630 }, { 5, PREC_WOKEN | PREC_DONE, 40, 60, 18680 },
		{ 6, PREC_DONE, 2020, 2020, 8620 }, { 7, PREC_WOKEN, 50, 70, 16667 },
	};
	static const struct { uint32_t k; uint64_t us; uint8_t type; char state; const char *comm;
			      int pid, prio; } e[] = {
		{ 0, 40, SE_WAKING, 0, "<idle>", 0, -1 },
		{ 2, 50, SE_WAKING, 0, "cc1", 4242, -1 },
		{ 2, 60, SE_WAKEUP, 0, "cc1", 4242, -1 },
		{ 2, 3949, SE_SWITCH_IN, 'R', "Xorg", 812, 120 },
		{ 2, 5000, SE_SWITCH_OUT, 'R', "kworker/1:0", 34, 120 },
		{ 2, 5300, SE_SWITCH_IN, 'I', "kworker/1:0", 34, 120 },
		{ 2, 8000, SE_SWITCH_OUT, 'R', "cc1", 4242, 120 },
		{ 2, 17900, SE_SWITCH_IN, 'R', "cc1", 4242, 120 },
		{ 3, 6000, SE_SWITCH_OUT, 'R', "cc1", 4242, 120 },
		{ 3, 13000, SE_SWITCH_IN, 'R', "cc1", 4242, 120 },
		{ 5, 40, SE_WAKING, 0, "<idle>", 0, -1 },
		{ 5, 50, SE_SWITCH_IN, 'R', "swapper/1", 0, 120 },
		{ 5, 3000, SE_SWITCH_OUT, 'S', "swapper/1", 0, 120 },
		{ 5, 15000, SE_WAKEUP, 0, "<idle>", 0, -1 },
		{ 5, 15020, SE_SWITCH_IN, 'R', "swapper/1", 0, 120 },
		{ 7, 50, SE_WAKING, 0, "<idle>", 0, -1 },
		{ 7, 60, SE_SWITCH_IN, 'R', "Xorg", 812, 120 },
	};
	static struct period_rec rec[ARRAY_SIZE(p)];
	static struct sched_ev ev[ARRAY_SIZE(e)];

	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		bool woken = p[i].fl & PREC_WOKEN;

		rec[i] = (struct period_rec){ .t_wake = gold_at(p[i].k, woken ? 0 : p[i].wake),
					      .t_run = gold_at(p[i].k, p[i].run),
					      .t_done = gold_at(p[i].k, p[i].done), .k = p[i].k,
					      .flags = p[i].fl | (woken ? PREC_TIMER : 0),
					      .wake_cpu = -1, .run_cpu = 1 };
	}
	rec[ARRAY_SIZE(p) - 1].t_done = gold_at(8, 0);
	for (size_t i = 0; i < ARRAY_SIZE(e); i++) {
		uint64_t t = gold_at(e[i].k, e[i].us);

		ev[i] = (struct sched_ev){ .ts = t - t % NSEC_PER_USEC,
					   .cpu = e[i].type == SE_WAKING ? 0 : 1, .pid = e[i].pid,
					   .prio = e[i].prio, .type = e[i].type,
					   .state = e[i].state };
		snprintf(ev[i].comm, sizeof(ev[i].comm), "%s", e[i].comm);
	}
	row->period_log = (struct period_log){ .start0 = GOLD_START0, .num = NSEC_PER_SEC, .den = 60,
					 .counted = 8, .nrec = ARRAY_SIZE(p) };
	row->periods = rec;
	row->t_go = GOLD_START0 - 2 * NSEC_PER_MSEC;
	row->trace = (struct sched_trace){ .ev = ev, .n = ARRAY_SIZE(e), .cap = ARRAY_SIZE(e),
					   .read = true };
}

/* --explain on run b: each wake-up split at a fixed share, and who ran instead of one row. */
static void fake_split(struct golden_run *run)
{
	static const struct ran_instead ran = { .state = RAN_OK, .n = 2, .matched = 590, .top = {
		{ "ibload-X", 4242, 120, 1, 0.8125, 0.75 }, { "kworker/1:1", 77, 120, 1, 0.125, 0 } } };

	for (int i = 0; i < run->nrows; i++) {
		struct bench_result *b = run->rows[i].bench_res;
		uint64_t seed = 99 + (uint64_t)i;

		if (!b)
			continue;
		b->split.state = SPLIT_ON;
		latency_init(&b->split.queue);
		latency_init(&b->split.path);
		for (uint64_t k = 0; k < b->wake.r.n; k++) {
			uint64_t lat = 1000 + lcg(&seed) % 40000, q = lat / (2 + k % 5);

			latency_add(&b->split.queue, q);
			latency_add(&b->split.path, lat - q);
			b->split.queued += q > lat - q;
		}
		b->split.migrations = b->wake.r.n / 17;	/* its own timer: woken from where, */
							/* the trace alone knows */
		if (!strcmp(workloads[run->rows[i].load].name, "X"))
			run->rows[i].ran = ran;
		if (!strcmp(workloads[run->rows[i].bench].name, "Video"))
			fake_misses(&run->rows[i]);
	}
}

static void golden_run(struct golden_run *run, struct config *cfg, bool rt, const char *dir,
		       char paths[3][128])
{
	golden_config(cfg, rt);
	memset(run, 0, sizeof(*run));
	if (plan_build(&run->plan, cfg))
		return;
	record_init(&run->rec, cfg, &golden_sys, &run->plan, rt ? 1796493000 : 1796489340);
	knobs_of_config(cfg, &run->rec.knobs);
	snprintf(run->rec.kernel, sizeof(run->rec.kernel), "%s", golden_sys.kernel_release);
	snprintf(run->rec.date, sizeof(run->rec.date), "%s", rt ? "202611291950" :
		 "202611291849");
	run->rec.waker_rt = true;
	run->rec.interrupted = rt ? SIGINT : 0;
	snprintf(paths[0], 128, "%s/%s.json", dir, rt ? "b" : "a");
	snprintf(paths[1], 128, "%s/%s.csv", dir, rt ? "b" : "a");
	snprintf(paths[2], 128, "%s/%s.svg", dir, rt ? "b" : "a");
	cfg->json_path = paths[0];
	cfg->csv_path = paths[1];
	cfg->plot_path = paths[2];
	if (rt) {
		add_rows(run, rows_b, ARRAY_SIZE(rows_b), false);
		fake_split(run);
	} else
		add_rows(run, rows_a, ARRAY_SIZE(rows_a), true);
}

static void free_run(struct golden_run *run)
{
	for (int i = 0; i < run->nrows; i++)
		free(run->rows[i].bench_res);
	free(run->rows);
	record_free(&run->rec);
	plan_free(&run->plan);
}

/* --compare FILE... as the command runs it, its standard output captured. */
static char *golden_compare(const char *dir, const char *const *files, int n,
			    const char *plot, size_t *len)
{
	struct config cfg;
	char out[128];
	int fd, saved;

	config_defaults(&cfg);
	cfg.compare_mode = true;
	cfg.ncompare = n;
	for (int i = 0; i < n; i++)
		cfg.compare[i] = files[i];
	cfg.plot_path = plot;
	snprintf(out, sizeof(out), "%s/compare.txt", dir);
	fflush(stdout);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	saved = dup(STDOUT_FILENO);
	if (fd < 0 || saved < 0)
		return NULL;
	dup2(fd, STDOUT_FILENO);
	close(fd);
	compare_main(&cfg);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return slurp(out, len);
}

static void check_compare(const char *name, const char *dir, const char *const *files, int n,
			  const char *plot_name)
{
	char plot[128], cname[160];
	size_t len;
	char *text;

	snprintf(plot, sizeof(plot), "%s/compare.svg", dir);
	text = golden_compare(dir, files, n, plot_name ? plot : NULL, &len);
	snprintf(cname, sizeof(cname), "golden: --compare %s", name);
	check(cname, golden_same(name, text, len));
	free(text);
	if (plot_name) {
		snprintf(cname, sizeof(cname), "golden: --compare --plot %s", plot_name);
		check(cname, golden_file(plot_name, plot));
	}
}

static void check_run(const char *tag, struct golden_out *o, char paths[3][128])
{
	static const char *const ext[] = { "json", "csv", "svg" };
	char name[64], cname[96];

	snprintf(name, sizeof(name), "run-%s.log", tag);
	snprintf(cname, sizeof(cname), "golden: run %s: text table and log", tag);
	check(cname, golden_same(name, o->text, o->len));
	for (int k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "run-%s.%s", tag, ext[k]);
		snprintf(cname, sizeof(cname), "golden: run %s: %s", tag, ext[k]);
		check(cname, golden_file(name, paths[k]));
	}
}

/* Each machine key of the live run (golden_sys knows them all) as read back. */
static bool same_machine_keys(const struct run_record *live, const struct run_record *back,
			      const char *from)
{
	for (int k = 0; k < MK_COUNT; k++)
		EXPECT(*machine_value(&live->mach, k) &&
		       !strcmp(machine_value(&back->mach, k), machine_value(&live->mach, k)),
		       "%s: %s '%s', want '%s'", from, machine_keys[k].column,
		       machine_value(&back->mach, k), machine_value(&live->mach, k));
	return true;
}

/*
 * Every number a result holds, every run key and machine key, comes back
 * from our CSV as the file keeps it: a field or key added to its table is
 * read by --compare with no more code.
 */
static bool csv_round_trip(const struct golden_run *run, const char *path)
{
	struct result_file f = { .nruns = 0 };
	const struct result *live = run->rec.res;
	char err[256];
	bool ok = false;

	if (results_read(path, &f, err, sizeof(err))) {
		snprintf(detail, sizeof(detail), "%s", err);
		goto out;
	}
	if (f.nruns != 1 || f.runs[0].nres != run->nrows) {
		snprintf(detail, sizeof(detail), "%d runs, %d results; want 1, %d", f.nruns,
			 f.nruns ? f.runs[0].nres : 0, run->nrows);
		goto out;
	}
	for (int i = 0; i < run->nrows; i++) {
		for (int k = 0; k < RF_COUNT; k++) {
			double want = result_file_value(&live[i], k);
			double got = f.runs[0].res[i].value[k];

			if (isnan(want) != isnan(got) ||
			    (!isnan(want) && fabs(got - want) > 1e-9 * fabs(want))) {
				snprintf(detail, sizeof(detail), "row %d field %d: %.17g, want %.17g",
					 i, k, got, want);
				goto out;
			}
		}
	}
	for (int k = 0; k < RK_COUNT; k++) {
		char want[RK_LEN];

		run_key_text(run->rec.cfg, k, want, sizeof(want));
		if (strcmp(f.runs[0].key[k], want)) {
			snprintf(detail, sizeof(detail), "%s '%s', want '%s'", run_keys[k].name,
				 f.runs[0].key[k], want);
			goto out;
		}
	}
	ok = same_machine_keys(&run->rec, &f.runs[0], "CSV");
out:
	results_free(&f);
	return ok;
}

/* The machine keys of a live run and of its log read back: HZ, CPU model, command line, ... */
static bool log_round_trip(const struct golden_run *run, const char *path)
{
	struct result_file f = { .nruns = 0 };
	char err[256];
	bool ok;

	if (results_read(path, &f, err, sizeof(err))) {
		snprintf(detail, sizeof(detail), "%s: %s", path, err);
		return false;
	}
	ok = f.nruns == 1 && same_machine_keys(&run->rec, &f.runs[0], "log");
	if (f.nruns != 1)
		snprintf(detail, sizeof(detail), "%s: %d runs", path, f.nruns);
	results_free(&f);
	return ok;
}

/* Nothing hidden in dir: the live files' shadows are gone once the run has ended. */
static bool no_hidden(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool none = d != NULL;

	while (d && (e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(detail, sizeof(detail), "%s/%s left", dir, e->d_name);
			none = false;
		}
	if (d)
		closedir(d);
	return none;
}

/* What the runs and comparisons left in dir, then dir. */
static void remove_dir(const char *dir)
{
	static const char *const names[] = {
		"a.json", "a.csv", "a.svg", "a.log", "b.json", "b.csv", "b.svg", "b.log",
		"compare.txt", "compare.svg",
	};
	char path[160];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	if (rmdir(dir))
		warn("cannot remove %s: %s", dir, strerror(errno));
}

void unit_golden(void)
{
	static struct config cfg_a, cfg_b;
	static struct golden_run run_a, run_b;
	struct golden_out oa = { .len = 0 }, ob = { .len = 0 };
	char dir[] = "/tmp/ib-golden.XXXXXX", pa[3][128], pb[3][128], log_a[160], log_b[160];
	const char *tz = getenv("TZ");
	char *old_tz = tz ? strdup(tz) : NULL;

	if (!getcwd(golden_dir, sizeof(golden_dir) - 16) || !mkdtemp(dir)) {
		skip("golden", strerror(errno));
		return;
	}
	strcat(golden_dir, "/tests/golden");
	setenv("TZ", "UTC", 1);
	tzset();
	golden_run(&run_a, &cfg_a, false, dir, pa);
	golden_drive(&run_a, &oa);
	golden_run(&run_b, &cfg_b, true, dir, pb);
	golden_drive(&run_b, &ob);
	check_run("a", &oa, pa);
	check_run("b", &ob, pb);
	check("golden: JSON and CSV after every row hold the rows so far; no shadow left after",
	      run_a.live_ok && run_b.live_ok && no_hidden(dir));
	check("golden: every result field, run key and machine key read back from the CSV",
	      csv_round_trip(&run_a, pa[1]) && csv_round_trip(&run_b, pb[1]));
	snprintf(log_a, sizeof(log_a), "%s/a.log", dir);
	snprintf(log_b, sizeof(log_b), "%s/b.log", dir);
	replace_file(log_a, oa.text, oa.len);
	replace_file(log_b, ob.text, ob.len);
	check("golden: every machine key read back from the log",
	      log_round_trip(&run_a, log_a) && log_round_trip(&run_b, log_b));
	{
		const char *old[] = { "tests/fixtures/2.6.12.log",
				      "tests/fixtures/2.6.12-RT-V0.7.51-32.log" };
		const char *ours[] = { "tests/fixtures/ours-before.log",
				       "tests/fixtures/ours-after.csv" };
		const char *rep[] = { "tests/fixtures/repeat-a.log", "tests/fixtures/repeat-b.log" };
		const char *mine[] = { "a.log", "a.csv", "b.log", "b.csv" };
		int top = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		check_compare("compare-0.31.txt", dir, old, 2, "compare-0.31.svg");
		check_compare("compare-ours.txt", dir, ours, 2, "compare-ours.svg");
		check_compare("compare-repeat.txt", dir, rep, 2, NULL);
		/* in dir, so that the file names in the labels are always the same */
		if (top >= 0 && !chdir(dir)) {
			check_compare("compare-run.txt", ".", mine, 4, "compare-run.svg");
			if (fchdir(top))
				warn("cannot go back to the source directory");
		}
		if (top >= 0)
			close(top);
	}
	free_run(&run_a);
	free_run(&run_b);
	free(oa.text);
	free(ob.text);
	if (old_tz)
		setenv("TZ", old_tz, 1);
	else
		unsetenv("TZ");
	tzset();
	free(old_tz);
	remove_dir(dir);
}
