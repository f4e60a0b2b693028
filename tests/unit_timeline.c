// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_timeline.c - unit tests of --timeline: a synthetic row's events counted exactly,
 * its budget, its CPU tracks, and the file as the rows grow it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/accounting.h"
#include "core/defs.h"
#include "lib/util.h"
#include "model/record.h"
#include "timeline/timeline.h"
#include "cli/options.h"
#include "model/plan.h"

#include "tests/unit.h"

/*
 * Video's clock from 1 s: periods 0..11. Period 3's work ends 20 ms past
 * its deadline (missed) and period 4 passes meanwhile (dropped); the task
 * runs for 5 as it overruns (no wake-up); it wakes for 6 after 6 has ended
 * (dropped), so works for 7; it runs for 11, the row's last, after its end
 * (dropped: no work).
 */
#define T0 NSEC_PER_SEC
static const struct period_log vlog = { .start0 = T0, .num = NSEC_PER_SEC, .den = 60,
					.counted = 12, .nrec = 10, .tid_task = 100,
					.tid_waker = 101 };

static uint64_t vstart(uint64_t k)
{
	struct period_clock c = period_log_clock(&vlog);

	return period_start(&c, k);
}

static void video_records(struct period_rec *p)
{
	static const uint32_t ks[] = { 0, 1, 2, 3, 5, 6, 8, 9, 10, 11 };

	for (size_t i = 0; i < ARRAY_SIZE(ks); i++) {
		uint64_t s = vstart(ks[i]);

		p[i] = (struct period_rec){ .k = ks[i], .t_wake = s + 20000, .t_run = s + 50000,
					    .t_done = s + 7000000, .queue_ns = 10000,
					    .flags = PREC_WOKEN | PREC_QUEUE | PREC_DONE,
					    .wake_cpu = 1, .run_cpu = 0 };
	}
	p[3].t_done = vstart(4) + 20 * NSEC_PER_MSEC;		/* misses, 4 passes */
	p[4].flags = PREC_DONE;					/* 5: overran into it */
	p[4].t_wake = p[4].t_run = p[3].t_done;
	p[4].t_done = p[4].t_run + 6000000;
	p[5].t_wake = vstart(7) + 1000;				/* 6: ran after its end */
	p[5].t_run = vstart(7) + 3000;
	p[5].t_done = vstart(7) + 8000000;
	p[5].skipped = 1;
	p[9].flags = PREC_WOKEN | PREC_NOWORK;			/* after the row: dropped */
	p[9].t_done = p[9].t_run;
}

static struct tl_row video_row(const struct timeline_row *d)
{
	return (struct tl_row){ .pid = 1, .cpus_pid = 3, .name = "Video / None pass 1",
				.bench = "Video", .unit = "", .status = "ok", .reason = "", .d = d };
}

static size_t occurrences(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* The row written whole: its events, counted as written. */
static bool write_row(const struct tl_row *r, const struct tl_cut *cut, struct tl_names *nm,
		      struct sbuf *sb, uint64_t *n)
{
	struct tl_emit e = { .sb = sb };

	sb_init(sb);
	tl_row_events(r, cut, nm, &e);
	*n = e.n;
	EXPECT(!sb->failed, "out of memory");
	EXPECT(occurrences(sb->buf ? sb->buf : "", "{\"ph\":") == e.n, "%llu counted, %zu written",
	       (unsigned long long)e.n, occurrences(sb->buf ? sb->buf : "", "{\"ph\":"));
	return true;
}

static bool test_video_row(void)
{
	struct period_rec p[10];
	struct timeline_row d = { .t_go = T0 - 500000, .period_log = &vlog, .periods = p };
	struct tl_row r = video_row(&d);
	struct tl_names nm = { 0 };
	struct tl_cut cut;
	struct sbuf sb;
	uint64_t n;
	char want[128];

	video_records(p);
	tl_row_cut(&r, &nm, 1000, &cut);
	EXPECT(!cut.first && !cut.dropped && !cut.out, "a row within its budget was cut");
	if (!write_row(&r, &cut, &nm, &sb, &n))
		return false;
	EXPECT(n == cut.events, "the cut counted %llu, %llu written", (unsigned long long)cut.events,
	       (unsigned long long)n);
	EXPECT(occurrences(sb.buf, "\"name\":\"wakeup latency\"") == 9 &&
	       occurrences(sb.buf, "\"name\":\"timer latency\"") == 9, "a slice per wake-up");
	EXPECT(occurrences(sb.buf, "\"name\":\"work\"") == 9, "a work slice per period worked");
	EXPECT(occurrences(sb.buf, "\"name\":\"missed deadline\"") == 1, "one missed deadline");
	EXPECT(occurrences(sb.buf, "\"name\":\"dropped period\"") == 3, "periods 4, 6 and 11 dropped");
	snprintf(want, sizeof(want), "\"name\":\"missed deadline\",\"pid\":1,\"tid\":100,\"ts\":%llu.%03llu",
		 (unsigned long long)vstart(4) / 1000, (unsigned long long)vstart(4) % 1000);
	EXPECT(strstr(sb.buf, want), "no miss at period 3's deadline: %s", want);
	EXPECT(strstr(sb.buf, "\"period\":3,\"missed_by_ms\":20.000000"), "missed by 20 ms");
	EXPECT(strstr(sb.buf, "\"name\":\"queue wait\",\"pid\":1,\"tid\":100,\"ts\":1000040.000,"
			      "\"dur\":10.000"), "the queue wait after the wake path");
	EXPECT(strstr(sb.buf, "\"tid\":101,\"ts\":0,\"args\":{\"name\":\"ib-waker\"}"), "the waker named");
	EXPECT(sb.buf[0] == '\n' && sb.buf[1] == '{', "the first event of the file has no comma");
	sb_free(&sb);
	return true;
}

/* Every budget: the row's events within it, the least cut that fits, its periods said. */
static bool test_budget(void)
{
	struct period_rec p[10];
	struct timeline_row d = { .t_go = T0, .period_log = &vlog, .periods = p };
	struct tl_row r = video_row(&d);
	struct tl_names nm = { 0 };

	video_records(p);
	for (uint64_t budget = 0; budget < 70; budget++) {
		struct tl_cut cut, less;
		struct sbuf sb;
		uint64_t n;

		tl_row_cut(&r, &nm, budget, &cut);
		if (!write_row(&r, &cut, &nm, &sb, &n))
			return false;
		sb_free(&sb);
		EXPECT(n <= budget && n == cut.events, "budget %llu: %llu events",
		       (unsigned long long)budget, (unsigned long long)n);
		EXPECT(cut.out == (budget < 5), "budget %llu: out %d", (unsigned long long)budget,
		       cut.out);
		if (cut.out) {
			EXPECT(cut.dropped == vlog.counted, "a row left out drops all its periods");
			continue;
		}
		EXPECT(cut.dropped == (cut.first < vlog.nrec ? p[cut.first].k : vlog.counted),
		       "budget %llu: %llu dropped for a cut at %llu", (unsigned long long)budget,
		       (unsigned long long)cut.dropped, (unsigned long long)cut.first);
		if (!cut.first)
			continue;
		less = (struct tl_cut){ .first = cut.first - 1 };
		if (!write_row(&r, &less, &nm, &sb, &n))
			return false;
		sb_free(&sb);
		EXPECT(n > budget, "budget %llu: a cut at %llu would have fit",
		       (unsigned long long)budget, (unsigned long long)less.first);
	}
	return true;
}

/* --explain's waits on CPU tracks: a CPUs process and a track per CPU, named once in the file. */
static bool test_cpu_tracks(void)
{
	struct sched_ev ev[] = {
		{ .ts = T0 + 10, .cpu = 1, .type = SE_WAKEUP },
		{ .ts = T0 + 60, .cpu = 1, .pid = 42, .prio = 120, .comm = "ibload-Burn",
		  .type = SE_SWITCH_IN },
		{ .ts = T0 + 90, .cpu = 3, .pid = 7, .prio = 100, .comm = "k\"w",
		  .type = SE_SWITCH_OUT, .state = 'R' },
		{ .ts = T0 + 95, .cpu = 1, .pid = 8, .prio = 120, .comm = "x",
		  .type = SE_SWITCH_IN },
	};
	struct sched_trace tr = { .ev = ev, .n = ARRAY_SIZE(ev) };
	struct timeline_row d = { .t_go = T0, .trace = &tr };
	struct tl_row r = video_row(&d);
	struct tl_names nm = { 0 };
	struct tl_cut cut;
	struct sbuf sb;
	uint64_t n;

	tl_row_cut(&r, &nm, 100, &cut);
	if (!write_row(&r, &cut, &nm, &sb, &n))
		return false;
	EXPECT(n == 4 + 2 + 2 + 2, "%llu events: the row's 4, the CPUs process, 2 CPUs, 2 waits",
	       (unsigned long long)n);
	EXPECT(strstr(sb.buf, "\"name\":\"ibload-Burn\",\"pid\":3,\"tid\":16777217,\"ts\":1000000.010,"
			      "\"dur\":0.050,\"args\":{\"pid\":42,\"prio\":120"), "the wait behind Burn");
	EXPECT(strstr(sb.buf, "\"name\":\"k\\\"w\""), "a comm with a quote, escaped");
	EXPECT(strstr(sb.buf, "\"args\":{\"name\":\"CPU 3\"}"), "CPU 3 named");
	sb_free(&sb);
	r.pid = 2;
	tl_row_cut(&r, &nm, 100, &cut);
	if (!write_row(&r, &cut, &nm, &sb, &n))
		return false;
	EXPECT(n == 4 + 2, "the next row names no CPU again: %llu events", (unsigned long long)n);
	sb_free(&sb);
	return true;
}

static bool dir_holds(const char *dir, int want)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.' || (e->d_name[1] && strcmp(e->d_name, ".."));
	if (d)
		closedir(d);
	return n == want;
}

/* The file through a run: valid and counted after every row, final at the end, no shadow. */
static bool test_file(void)
{
	static struct config cfg;
	struct cell cells[2] = { { 0 } };
	struct plan plan = { .ncells = 2, .cells = cells };
	struct run_record rec;
	struct timeline tl;
	struct period_rec p[10];
	struct timeline_row d = { .t_go = T0, .period_log = &vlog, .periods = p };
	char dir[] = "/tmp/ib-unit-tl.XXXXXX", path[64], *text = NULL;
	size_t len = 0;
	FILE *f;

	EXPECT(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/t.json", dir);
	config_defaults(&cfg);
	cfg.timeline_path = path;
	cfg.timeline_max = 60;
	record_init(&rec, &cfg, NULL, &plan, 1796489340);
	video_records(p);
	EXPECT(!timeline_begin(&tl, &rec) && tl.budget == 30 && dir_holds(dir, 2), "begin");
	for (int i = 0; i < 2; i++) {
		struct result *res = run_new_result(&rec);

		EXPECT(res, "out of memory");
		snprintf(res->bench, sizeof(res->bench), "Video");
		snprintf(res->load, sizeof(res->load), i ? "Burn" : "None");
		timeline_add_row(&tl, &rec, &d);
		EXPECT(!tl.failed && tl.rows == i + 1 && tl.events <= 30u * (i + 1), "row %d", i);
	}
	EXPECT(!timeline_end(&tl, &rec) && dir_holds(dir, 1), "end: the shadow is left");
	f = fopen(path, "r");
	EXPECT(f && getdelim(&text, &len, '\0', f) > 0, "cannot read %s", path);
	fclose(f);
	EXPECT(!strncmp(text, "{\"traceEvents\":[\n{", 18), "the head: %.40s", text);
	EXPECT(occurrences(text, "{\"ph\":") == tl.events && occurrences(text, "\"ph\":\"M\"") == 8,
	       "%zu events, said %llu", occurrences(text, "{\"ph\":"), (unsigned long long)tl.events);
	EXPECT(strstr(text, "\"rows\":2,") && strstr(text, "\"complete\":true") &&
	       strstr(text, "\"name\":\"Video / Burn pass 1\""), "the tail: %s", strstr(text, "\n]"));
	EXPECT(strstr(text, "\"dropped_periods\":") && tl.dropped > 0, "periods dropped");
	free(text);
	unlink(path);
	EXPECT(!timeline_begin(&tl, &rec) && dir_holds(dir, 2), "begin again");
	timeline_abort(&tl);
	EXPECT(dir_holds(dir, 0), "an aborted timeline leaves nothing");
	rmdir(dir);
	record_free(&rec);
	return true;
}

void unit_timeline(void)
{
	check("timeline: a Video row's slices, misses and drops, counted as written",
	      test_video_row());
	check("timeline: every budget holds, with the least cut, its dropped periods said",
	      test_budget());
	check("timeline: who ran instead on CPU tracks, each named once in the file",
	      test_cpu_tracks());
	check("timeline: the file valid after each row, final at the end, nothing left",
	      test_file());
}
