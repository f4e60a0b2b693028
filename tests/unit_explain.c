// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_explain.c - unit tests: the task's side of the split and the --explain line. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "report/report.h"
#include "child/child.h"
#include "model/config.h"
#include "model/plan.h"
#include "task/task.h"

#include "tests/unit.h"

/* ---- the split ---- */

#include "tests/split_samples.h"

/* The task's probe on a file that stands for schedstat, rewritten between the reads. */
static bool test_probe_file(void)
{
	char path[] = "/tmp/ib-unit-schedstat.XXXXXX";
	static struct split_result res;
	struct split_probe pr;
	struct latency sum;
	int fd = mkstemp(path), cpu;
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
		split_after(&pr, recorded[i][0], (int)(i % 2), &cpu);
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
	int cpu;

	setenv("INTERBENCH_TEST_SCHEDSTAT", "/nonexistent/schedstat", 1);
	split_probe_open(&pr, &res, 1);
	unsetenv("INTERBENCH_TEST_SCHEDSTAT");
	split_before(&pr);
	split_after(&pr, 1000, 0, &cpu);
	split_probe_close(&pr);
	EXPECT(res.state == SPLIT_NO_SCHEDSTAT, "state %d", res.state);
	EXPECT(res.queue.r.n == 0 && res.path.r.n == 0, "samples without schedstat");
	return true;
}

/* ---- the line ---- */

/* Burn's row of 200 periods woken, its queue wait and wake path (mean, p99) split as given. */
static void split_row(struct result *r, double q, double q99, double p, double p99)
{
	result_init(r);
	snprintf(r->load, sizeof(r->load), "Burn");
	r->value[RF_SAMPLES] = r->value[RF_MET] = 200;
	r->value[RF_QMEAN] = q, r->value[RF_QP99] = q99;
	r->value[RF_PATH_MEAN] = p, r->value[RF_PATH_P99] = p99;
}

static bool test_explain_line(void)
{
	struct ran_instead ri = { .state = RAN_OK, .n = 2, .top = {
		{ "ibload-Burn", 2848, 120, 2, 0.97, 1.0 }, { "kworker/1:1", 12, 120, 1, 0.03, 0 } } };
	struct result r;
	char line[640];

	split_row(&r, 910000, 3700000, 60000, 120000);
	r.value[RF_TMEAN] = 3000;
	r.value[RF_QUEUED] = 96, r.value[RF_CROSS_CPU] = 102, r.value[RF_MIGRATIONS] = 6;
	r.value[RF_CPU_KNOWN] = 200;
	r.ran = ri;
	explain_line(line, sizeof(line), &r, 1e6, NULL, false);
	EXPECT(!strcmp(line, "Burn: queue wait 0.910 mean / 3.70 p99, wake path 0.0600 / 0.120; "
		       "48 % of wake-ups queued behind another task, 51 % woken from another CPU, "
		       "3.0 % migrated; ran instead: ibload-Burn 97 %, kworker/1:1 3.0 %"),
	       "got '%s'", line);
	r.value[RF_QMEAN] = NAN;
	r.ran = (struct ran_instead){ .state = RAN_UNKNOWN };
	explain_line(line, sizeof(line), &r, 1e6, NULL, false);
	EXPECT(strstr(line, "no queue wait / wake path (the kernel keeps no schedstat)") &&
	       !strstr(line, "ran instead"), "without schedstat: '%s'", line);
	r.value[RF_CROSS_CPU] = r.value[RF_MIGRATIONS] = NAN;
	explain_line(line, sizeof(line), &r, 1e6, NULL, false);
	EXPECT(!strcmp(line, "Burn: not split (--no-split)"), "--no-split: '%s'", line);
	r.value[RF_MET] = NAN;
	explain_line(line, sizeof(line), &r, 1e6, NULL, false);
	EXPECT(!strcmp(line, "Burn: no wake-ups to split"), "Gaming: '%s'", line);
	return true;
}

/*
 * --wake timer: no waker's stamp, so the wake path holds the timer's part;
 * where the trace held the kernel's sched_waking, the timer's and the
 * scheduler's parts come first, and the CPU it was woken on is the
 * trace's (the share of the wake-ups whose CPU is known).
 */
static bool test_explain_line_timer(void)
{
	struct result r;
	char line[640];

	split_row(&r, 100000, 2000000, 20000, 50000);
	r.value[RF_QUEUED] = 20, r.value[RF_MIGRATIONS] = 4, r.value[RF_CPU_KNOWN] = 0;
	explain_line(line, sizeof(line), &r, 1e6, NULL, true);
	EXPECT(!strcmp(line, "Burn: queue wait 0.100 mean / 2.00 p99, timer and wake path "
		       "0.0200 / 0.0500; 10 % of wake-ups queued behind another task, 2.0 % "
		       "migrated"), "without the trace: '%s'", line);
	r.value[RF_STAMPED] = 198;
	r.value[RF_TMEAN] = 8000, r.value[RF_TP99] = 20000;
	r.value[RF_SMEAN] = 112000, r.value[RF_SP99] = 2080000;
	r.value[RF_CPU_KNOWN] = 198, r.value[RF_CROSS_CPU] = 99;
	explain_line(line, sizeof(line), &r, 1e6, NULL, true);
	EXPECT(!strcmp(line, "Burn: timer 0.00800 mean / 0.0200 p99, scheduler 0.112 / 2.08 (at "
		       "the kernel's sched_waking, 198 of 200 wake-ups); queue wait 0.100 mean / "
		       "2.00 p99, timer and wake path 0.0200 / 0.0500; 10 % of wake-ups queued "
		       "behind another task, 50 % woken from another CPU, 2.0 % migrated"),
	       "with the trace: '%s'", line);
	split_row(&r, 100000, 2000000, 20000, 50000);	/* a workload file's thread, resumed */
	r.rtapp = true;
	r.value[RF_MET] = NAN, r.value[RF_TIMER_WAKEUPS] = 0, r.value[RF_RESUME_WAKEUPS] = 200;
	r.value[RF_MIGRATIONS] = 4, r.value[RF_CPU_KNOWN] = 0;
	explain_line(line, sizeof(line), &r, 1e6, NULL, true);
	EXPECT(strstr(line, "p99, wake path 0.0200 / 0.0500;"), "a resumed thread: '%s'", line);
	return true;
}

void unit_explain(void)
{
	check("split: the task's probe reads before and after each wait", test_probe_file());
	check("split: no schedstat gives no samples, not zeros", test_probe_none());
	check("--explain: the line under a table", test_explain_line());
	check("--explain: a timer's wake-up, with and without the kernel's stamp",
	      test_explain_line_timer());
}
