// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_explain.c - unit tests: the wake-up split, the trace's culprits, the --explain line. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "output/compare.h"
#include "output/output.h"
#include "run/child.h"
#include "run/config.h"
#include "run/plan.h"
#include "run/run.h"
#include "sys/sys.h"
#include "task/task.h"

#include "tests/unit.h"

/* ---- the split ---- */

/*
 * (latency, run delay before blocking, run delay after running), as recorded
 * by the task of Audio runs against None, Burn and with -u; two had the run
 * delay grow by more than the latency (a preemption outside t_wake..t_run).
 */
static const uint64_t recorded[][3] = {
	{ 9698, 712697, 715702 },	{ 53432, 10110455, 10110455 },
	{ 61658, 14738033, 14738033 },	{ 64684, 28088724, 28088724 },
	{ 2524517, 17236130, 19738436 },	{ 2551337, 66378937, 68910386 },
	{ 12547074, 109583632, 122108155 },	{ 12373, 116086, 120504 },
	{ 21641, 11704312, 11713079 },	{ 2030667, 19818171, 21797141 },
	{ 11381, 3983650, 4024025 },	{ 9267, 46266, 71374 },
	{ 0, 500, 700 },		{ 1000, 900, 800 },	/* and two made up: no */
};							/* latency; a delay that shrank */

static bool test_split_recorded(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(recorded); i++) {
		uint64_t lat = recorded[i][0], q, p, grew;

		split_of(lat, recorded[i][1], recorded[i][2], &q, &p);
		grew = recorded[i][2] > recorded[i][1] ? recorded[i][2] - recorded[i][1] : 0;
		EXPECT(q + p == lat, "sample %zu: %llu + %llu != %llu", i, (unsigned long long)q,
		       (unsigned long long)p, (unsigned long long)lat);
		EXPECT(q == (grew < lat ? grew : lat), "sample %zu: queue wait %llu", i,
		       (unsigned long long)q);
	}
	return true;
}

static bool test_parse_schedstat(void)
{
	uint64_t runs = 0, rd = 0;

	EXPECT(!parse_schedstat("148297 1221310 2\n", &rd, &runs) && runs == 2 && rd == 1221310,
	       "run delay %llu, runs %llu", (unsigned long long)rd, (unsigned long long)runs);
	EXPECT(parse_schedstat("", &rd, &runs) < 0, "empty text parsed");
	EXPECT(parse_schedstat("12 x 3\n", &rd, &runs) < 0, "a word parsed");
	EXPECT(parse_schedstat("12 34\n", &rd, &runs) < 0, "two fields parsed");
	return true;
}

static bool test_split_count(void)
{
	static const int cases[][5] = {	/* wake, run, prev -> cross, migrations */
		{ 0, 0, -1, 0, 0 }, { 1, 0, -1, 1, 0 }, { 0, 0, 1, 0, 1 }, { 1, 0, 1, 1, 1 },
		{ -1, 0, 0, 0, 0 }, { 0, -1, 1, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct split_result r = { .state = SPLIT_ON };

		split_count(&r, cases[i][0], cases[i][1], cases[i][2]);
		EXPECT(r.cross_cpu == (uint64_t)cases[i][3] && r.migrations == (uint64_t)cases[i][4],
		       "case %zu: cross %llu migrations %llu", i, (unsigned long long)r.cross_cpu,
		       (unsigned long long)r.migrations);
	}
	return true;
}

/* The task's probe on a file that stands for schedstat, rewritten between the reads. */
static bool test_probe_file(void)
{
	char path[] = "/tmp/ib-unit-schedstat.XXXXXX";
	static struct split_result res;
	struct split_probe pr;
	struct latency sum;
	int fd = mkstemp(path);
	bool ok = true;

	EXPECT(fd >= 0, "mkstemp");
	latency_init(&sum);
	setenv("INTERBENCH_TEST_SCHEDSTAT", path, 1);
	ok = pwrite(fd, "0 0 1\n", 6, 0) == 6;	/* not yet charged CPU, but run once */
	split_probe_open(&pr, &res, 42);
	for (size_t i = 0; ok && i < ARRAY_SIZE(recorded); i++) {
		char line[64];
		int n = snprintf(line, sizeof(line), "%-20llu %-20llu 1\n", 5000ULL,
				 (unsigned long long)recorded[i][1]);

		ok = pwrite(fd, line, (size_t)n, 0) == n;
		split_before(&pr);
		n = snprintf(line, sizeof(line), "%-20llu %-20llu 1\n", 5000ULL,
			     (unsigned long long)recorded[i][2]);
		ok = ok && pwrite(fd, line, (size_t)n, 0) == n;
		split_after(&pr, recorded[i][0], (int)(i % 2));
		latency_add(&sum, recorded[i][0]);
	}
	split_probe_close(&pr);
	unsetenv("INTERBENCH_TEST_SCHEDSTAT");
	unlink(path);
	close(fd);
	EXPECT(ok, "writing %s", path);
	EXPECT(res.state == SPLIT_ON && res.t_first == 42, "state %d", res.state);
	EXPECT(res.queue.r.n == ARRAY_SIZE(recorded) && res.path.r.n == res.queue.r.n,
	       "%llu samples", (unsigned long long)res.queue.r.n);
	EXPECT(fabs(res.queue.r.mean + res.path.r.mean - sum.r.mean) < 1e-6 * sum.r.mean,
	       "means %.3f + %.3f != %.3f", res.queue.r.mean, res.path.r.mean, sum.r.mean);
	EXPECT(res.queue.r.max <= sum.r.max && res.path.r.max <= sum.r.max, "a part above the max");
	EXPECT(res.cross_cpu == ARRAY_SIZE(recorded) / 2, "cross %llu",
	       (unsigned long long)res.cross_cpu);
	return true;
}

static bool test_probe_none(void)
{
	static struct split_result res;
	struct split_probe pr;

	setenv("INTERBENCH_TEST_SCHEDSTAT", "/nonexistent/schedstat", 1);
	split_probe_open(&pr, &res, 1);
	unsetenv("INTERBENCH_TEST_SCHEDSTAT");
	split_before(&pr);
	split_after(&pr, 1000, 0);
	split_probe_close(&pr);
	EXPECT(res.state == SPLIT_NO_SCHEDSTAT, "state %d", res.state);
	EXPECT(res.queue.r.n == 0 && res.path.r.n == 0, "samples without schedstat");
	return true;
}

/* ---- who ran instead ---- */

#define W "        ib-waker-2903    [001] d..3.  "
#define S(who) "     " who "    [000] d..2.  "

/* Lines as the instance's trace file has them (task 2845); the wake-ups are at 2181.1xxxxx. */
static const char *const trace_lines[] = {
	"# tracer: nop",
	"#",
	"# entries-in-buffer/entries-written: 12/12   #P:2",
	/* before the window: not counted */
	W "2181.000010: sched_wakeup: comm=ib-Audio pid=2845 prio=120 target_cpu=000",
	S("interbench-2840") "2181.000020: sched_switch: prev_comm=interbench prev_pid=2840 "
	"prev_prio=120 prev_state=S ==> next_comm=ib-Audio next_pid=2845 next_prio=120",
	/* 3 ms behind a Burn thread that was preempted */
	W "2181.100000: sched_wakeup: comm=ib-Audio pid=2845 prio=120 target_cpu=000",
	W "2181.100001: sched_migrate_task: comm=ib-Audio pid=2845 prio=120 orig_cpu=1 dest_cpu=0",
	S("ibload-Burn-2848") "2181.103000: sched_switch: prev_comm=ibload-Burn prev_pid=2848 "
	"prev_prio=120 prev_state=R ==> next_comm=ib-Audio next_pid=2845 next_prio=120",
	/* a switch-in after a preemption: no wake-up, not counted */
	S("ibload-Burn-2848") "2181.104000: sched_switch: prev_comm=ibload-Burn prev_pid=2848 "
	"prev_prio=120 prev_state=R ==> next_comm=ib-Audio next_pid=2845 next_prio=120",
	/* 1 ms behind the other Burn thread */
	W "2181.150000: sched_wakeup: comm=ib-Audio pid=2845 prio=120 target_cpu=001",
	S("ibload-Burn-2849") "2181.151000: sched_switch: prev_comm=ibload-Burn prev_pid=2849 "
	"prev_prio=120 prev_state=R ==> next_comm=ib-Audio next_pid=2845 next_prio=120",
	/* 0.5 ms behind a task whose name has spaces, which then slept */
	W "2181.200000: sched_wakeup: comm=ib-Audio pid=2845 prio=120 target_cpu=000",
	S("Web Content-77") "2181.200500: sched_switch: prev_comm=Web Content prev_pid=77 "
	"prev_prio=120 prev_state=S ==> next_comm=ib-Audio next_pid=2845 next_prio=120",
	/* 0.25 ms behind a kworker; 2 us after idle */
	W "2181.250000: sched_wakeup: comm=ib-Audio pid=2845 prio=120 target_cpu=000",
	S("kworker/0:1-12") "2181.250250: sched_switch: prev_comm=kworker/0:1 prev_pid=12 "
	"prev_prio=120 prev_state=I ==> next_comm=ib-Audio next_pid=2845 next_prio=120",
	W "2181.300000: sched_wakeup: comm=ib-Audio pid=2845 prio=120 target_cpu=000",
	S("<idle>-0") "2181.300002: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=ib-Audio next_pid=2845 next_prio=120",
	/* another task's events, and a wait longer than any latency: not counted */
	W "2181.350000: sched_wakeup: comm=other pid=9 prio=120 target_cpu=000",
	S("<idle>-0") "2181.351000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=other next_pid=9 next_prio=120",
	W "2181.400000: sched_wakeup: comm=ib-Audio pid=2845 prio=120 target_cpu=000",
	S("bash-5") "2181.480000: sched_switch: prev_comm=bash prev_pid=5 prev_prio=120 "
	"prev_state=R ==> next_comm=ib-Audio next_pid=2845 next_prio=120",
};

static void tally_lines(struct ran_tally *t, const char *const *lines, size_t n)
{
	ran_tally_init(t, 2845, 2181050000000ULL, 10 * NSEC_PER_MSEC);
	for (size_t i = 0; i < n; i++)
		ran_tally_line(t, lines[i]);
}

static bool test_ran_instead(void)
{
	static struct ran_tally t;
	struct ran_instead ri;

	tally_lines(&t, trace_lines, ARRAY_SIZE(trace_lines));
	ran_tally_result(&t, &ri);
	EXPECT(t.total == 4752000, "total %llu ns", (unsigned long long)t.total);
	EXPECT(ri.state == RAN_OK && ri.matched == 5 && !ri.lost, "matched %llu, lost %d",
	       (unsigned long long)ri.matched, ri.lost);
	EXPECT(ri.n == 3, "%d names", ri.n);
	EXPECT(!strcmp(ri.top[0].comm, "ibload-Burn") && ri.top[0].threads == 2 &&
	       ri.top[0].pid == 2848 && ri.top[0].prio == 120, "first %s %d (%d threads)",
	       ri.top[0].comm, ri.top[0].pid, ri.top[0].threads);
	EXPECT(fabs(ri.top[0].share - 4.0 / 4.752) < 1e-9 && ri.top[0].preempted == 1.0,
	       "share %.6f, preempted %.3f", ri.top[0].share, ri.top[0].preempted);
	EXPECT(!strcmp(ri.top[1].comm, "Web Content") && ri.top[1].pid == 77 &&
	       ri.top[1].preempted == 0.0, "second %s %d", ri.top[1].comm, ri.top[1].pid);
	EXPECT(!strcmp(ri.top[2].comm, "kworker/0:1"), "third %s", ri.top[2].comm);
	return true;
}

static bool test_ran_lost(void)
{
	static const char *const a[] = { "# entries-in-buffer/entries-written: 10/12   #P:2" };
	static const char *const b[] = { "CPU:1 [LOST 3 EVENTS]" };
	static struct ran_tally t;
	struct ran_instead ri;

	tally_lines(&t, a, 1);
	ran_tally_result(&t, &ri);
	EXPECT(ri.lost && ri.n == 0, "overwritten entries not seen as lost");
	tally_lines(&t, b, 1);
	ran_tally_result(&t, &ri);
	EXPECT(ri.lost, "[LOST] not seen");
	tally_lines(&t, trace_lines, 3);
	ran_tally_result(&t, &ri);
	EXPECT(!ri.lost && ri.n == 0 && ri.state == RAN_OK, "an empty trace");
	return true;
}

/* ---- the line ---- */

static bool test_explain_line(void)
{
	struct ran_instead ri = { .state = RAN_OK, .n = 2, .top = {
		{ "ibload-Burn", 2848, 120, 2, 0.97, 1.0 }, { "kworker/1:1", 12, 120, 1, 0.03, 0 } } };
	struct result r;
	char line[640];

	result_init(&r);
	snprintf(r.load, sizeof(r.load), "Burn");
	r.v[RF_SAMPLES] = 200;
	r.v[RF_TMEAN] = 3000;
	r.v[RF_QMEAN] = 910000, r.v[RF_QP99] = 3700000;
	r.v[RF_PMEAN] = 60000, r.v[RF_PP99] = 120000;
	r.v[RF_QUEUED] = 96, r.v[RF_CROSS_CPU] = 102, r.v[RF_MIGRATIONS] = 6;
	r.ran = ri;
	explain_line(line, sizeof(line), &r, 1e6);
	EXPECT(!strcmp(line, "Burn: queue wait 0.910 mean / 3.70 p99, wake path 0.0600 / 0.120; "
		       "48 % of wake-ups queued behind another task, 51 % woken from another CPU, "
		       "3.0 % migrated; ran instead: ibload-Burn 97 %, kworker/1:1 3.0 %"),
	       "got '%s'", line);
	r.v[RF_QMEAN] = NAN;
	r.ran = (struct ran_instead){ .state = RAN_UNKNOWN };
	explain_line(line, sizeof(line), &r, 1e6);
	EXPECT(strstr(line, "no queue wait / wake path (the kernel keeps no schedstat)") &&
	       !strstr(line, "ran instead"), "without schedstat: '%s'", line);
	r.v[RF_CROSS_CPU] = NAN;
	explain_line(line, sizeof(line), &r, 1e6);
	EXPECT(!strcmp(line, "Burn: not split (--no-split)"), "--no-split: '%s'", line);
	r.v[RF_TMEAN] = NAN;
	explain_line(line, sizeof(line), &r, 1e6);
	EXPECT(!strcmp(line, "Burn: no wake-ups to split"), "Gaming: '%s'", line);
	return true;
}

void unit_explain(void)
{
	check("split: queue wait + wake path = latency for every recorded sample",
	      test_split_recorded());
	check("split: schedstat's text", test_parse_schedstat());
	check("split: cross-CPU wake-ups and migrations", test_split_count());
	check("split: the task's probe reads before and after each wait", test_probe_file());
	check("split: no schedstat gives no samples, not zeros", test_probe_none());
	check("ran instead: recorded trace lines, weighted by queue wait", test_ran_instead());
	check("ran instead: lost events and an empty trace", test_ran_lost());
	check("--explain: the line under a table", test_explain_line());
}
