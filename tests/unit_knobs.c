// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_knobs.c - unit tests: Render's sweep, the scheduling knobs as data, sched_ext and
 * autogroup. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "model/workloads.h"
#include "model/record.h"
#include "child/child.h"
#include "cli/options.h"
#include "model/plan.h"
#include "cli/derive.h"
#include "sys/machine.h"
#include "task/task.h"
#include "core/render_work.h"

#include "tests/unit.h"
#include "model/log_format.h"

/* Deadline = period (rounded down), runtime 1.25 x work (rounded up), never above the period. */
static bool test_dl_params(void)
{
	static const struct { uint64_t num, den, work, runtime, period; } cases[] = {
		{ 128 * NSEC_PER_SEC, 48000, 666667, 833334, 2666666 },	/* ProAudio */
		{ NSEC_PER_MSEC, 1, 50000, 62500, 1000000 },		/* Input */
		{ NSEC_PER_SEC, 60, 6666667, 8333334, 16666666 },	/* Video */
		{ 50 * NSEC_PER_MSEC, 1, 2500000, 3125000, 50000000 },	/* Audio */
		{ NSEC_PER_MSEC, 1, NSEC_PER_MSEC, NSEC_PER_MSEC, NSEC_PER_MSEC },	/* -C 100 */
		{ 100 * NSEC_PER_USEC, 1, 1000, 1250, 100000 },		/* -C 1 -I 100 */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t r, p;

		dl_params(cases[i].num, cases[i].den, cases[i].work, &r, &p);
		EXPECT(r == cases[i].runtime && p == cases[i].period,
		       "case %zu: runtime %llu period %llu, want %llu %llu", i,
		       (unsigned long long)r, (unsigned long long)p,
		       (unsigned long long)cases[i].runtime, (unsigned long long)cases[i].period);
	}
	return true;
}

/* What the bench task asks of the kernel, from the options. */
static bool test_task_sched(void)
{
	char *argv[] = { "interbench", "--policy", "deadline", "-W", "ProAudio", "--uclamp-max",
			 "50", "--period", "exact", NULL };
	struct sim_params p;
	struct config cfg;
	char err[256];

	EXPECT(parse_options(9, argv, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	sim_params_init(&p, &workloads[workload_find("ProAudio")], &cfg);
	EXPECT(p.sched.policy == POL_DEADLINE && p.sched.dl_runtime_ns == 833334 &&
	       p.sched.dl_period_ns == 2666666, "deadline %llu/%llu",
	       (unsigned long long)p.sched.dl_runtime_ns, (unsigned long long)p.sched.dl_period_ns);
	EXPECT(p.sched.util_min == -1 && p.sched.util_max == 512, "clamps %d-%d",
	       p.sched.util_min, p.sched.util_max);
	EXPECT(!task_sched_is_default(&p.sched), "deadline is not the default");
	config_defaults(&cfg);
	sim_params_init(&p, &workloads[workload_find("Audio")], &cfg);
	EXPECT(task_sched_is_default(&p.sched), "no knob: nothing to apply");
	EXPECT(uclamp_value(0) == 0 && uclamp_value(1) == 10 && uclamp_value(100) == UCLAMP_SCALE,
	       "uclamp scale");
	return true;
}

/* The kernel kept the slice and the clamps, or one line says what it did not keep. */
static bool test_readback(void)
{
	struct task_sched ts = { .policy = POL_OTHER, .slice_ns = 3000000, .util_min = -1,
				 .util_max = -1 };
	struct ib_sched_attr got = { .sched_runtime = 3000000 };
	char err[256] = "";

	EXPECT(!sched_readback(&ts, &got, err, sizeof(err)), "kept slice refused: %s", err);
	got.sched_runtime = 0;
	EXPECT(sched_readback(&ts, &got, err, sizeof(err)) && strstr(err, "--slice 3000: the kernel "
	       "did not keep it") && strstr(err, "6.12") && !strchr(err, '\n'), "'%s'", err);
	ts.slice_ns = 0;
	ts.util_max = 512;
	got.sched_util_max = 1024;
	EXPECT(sched_readback(&ts, &got, err, sizeof(err)) && strstr(err, "--uclamp"), "'%s'", err);
	return true;
}

/* Every refusal of the kernel names its cause, in one line. */
static bool test_sched_errors(void)
{
	static const struct { int policy, step, err; const char *want; } cases[] = {
		{ POL_DEADLINE, SCHED_STEP_POLICY, EBUSY,
		  "sched_rt_runtime_us=950000 of sched_rt_period_us=1000000" },
		{ POL_DEADLINE, SCHED_STEP_POLICY, EPERM, "no taskset" },
		{ POL_FIFO, SCHED_STEP_POLICY, EPERM, "--policy fifo: not permitted: run as root" },
		{ POL_OTHER, SCHED_STEP_UCLAMP, EOPNOTSUPP, "CONFIG_UCLAMP_TASK" },
		{ POL_OTHER, SCHED_STEP_UCLAMP, EPERM, "raising a clamp needs root" },
		{ POL_BATCH, SCHED_STEP_POLICY, EINVAL, "--policy batch: sched_setattr for Audio" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct task_sched ts = { .policy = cases[i].policy, .dl_runtime_ns = 833334,
					 .dl_period_ns = 2666666 };
		char buf[400];
		int ret = sched_error(&ts, "Audio", cases[i].step, cases[i].err, 950000, 1000000,
				      buf, sizeof(buf));

		EXPECT(ret == -cases[i].err && strstr(buf, cases[i].want) && !strchr(buf, '\n'),
		       "case %zu: '%s', want '%s'", i, buf, cases[i].want);
	}
	return true;
}

/* sched_ext's state from its sysfs text; autogroup's from its sysctl. */
static bool test_sched_class_text(void)
{
	static const struct { const char *state, *ops, *want; } cases[] = {
		{ NULL, NULL, "unavailable" },
		{ "disabled\n", "", "disabled" },
		{ "disabled\n", "scx_old\n", "disabled" },
		{ "enabled\n", "scx_lavd\n", "enabled: scx_lavd" },
		{ "enabled", NULL, "enabled" },
		{ "enabling\n", "scx_rusty\n", "enabling: scx_rusty" },
		{ "\n", NULL, "unknown" },
	};
	static const struct { const char *text; int want; } ag[] = {
		{ "1\n", 1 }, { "0", 0 }, { NULL, -1 }, { "", -1 }, { "yes", -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct machine si = { .autogroup = -1 };
		char buf[96];

		sysinfo_sched_ext(cases[i].state, cases[i].ops, si.sched_ext, sizeof(si.sched_ext),
				  si.sched_ext_ops, sizeof(si.sched_ext_ops));
		sysinfo_sched_ext_text(&si, buf, sizeof(buf));
		EXPECT(!strcmp(buf, cases[i].want), "case %zu: '%s', want '%s'", i, buf,
		       cases[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(ag); i++)
		EXPECT(sysinfo_autogroup(ag[i].text) == ag[i].want, "autogroup '%s'",
		       ag[i].text ? ag[i].text : "(none)");
	return true;
}

/* The log's Scheduling: line, written and read back; keys unknown to us are skipped. */
static bool test_knobs_line(void)
{
	char *argv[] = { "interbench", "--policy", "batch", "--slice", "3000", "--uclamp-min", "20",
			 "--load-policy", "idle", NULL };
	struct knob_values a, b;
	struct config cfg;
	char err[256], line[256];

	EXPECT(parse_options(9, argv, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	knobs_of_config(&cfg, &a);
	knobs_line(&a, line, sizeof(line));
	EXPECT(!strcmp(line, "Scheduling: policy batch, slice 3000 us, uclamp-min 20 %, "
		       "uclamp-max default, load-policy idle"), "'%s'", line);
	knobs_parse_line(line + strlen(LOG_MARK(LM_SCHEDULING)), &b);
	EXPECT(knobs_equal(&a, &b), "read back differs");
	knobs_parse_line("policy fifo, rt-priority 40, future-knob 7 ms, slice default", &b);
	EXPECT(!strcmp(b.v[KN_POLICY], "fifo") && !strcmp(b.v[KN_RT_PRIORITY], "40") &&
	       !b.v[KN_SLICE][0] && !b.v[KN_LOAD_POLICY][0], "partial line");
	EXPECT(!knobs_equal(&a, &b), "different knobs compare equal");
	return true;
}

void unit_knobs(void)
{
	check("knobs: deadline runtime and period from the period and work", test_dl_params());
	check("knobs: the task's scheduling from the options", test_task_sched());
	check("knobs: slice and clamps read back, or one line", test_readback());
	check("knobs: the kernel's refusals, each in one line", test_sched_errors());
	check("knobs: sched_ext and autogroup from their text", test_sched_class_text());
	check("knobs: the Scheduling: line, written and read back", test_knobs_line());
}
