// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_periods.c - unit tests: every periodic task and load runs swept periods by default,
 * with its work and deadline kept, and --period exact runs 0.31's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/render_work.h"
#include "model/workloads.h"
#include "cli/options.h"
#include "cli/derive.h"
#include "task/task.h"

#include "tests/unit.h"

/* A period's work over its period, as the task runs it (X's, Render's: frame 50's). */
static double share_of(const struct sim_params *p)
{
	uint64_t work = p->frame_work ? p->frame_work(p, 50) : p->work_ns;

	return (double)work * (double)p->period_den / (double)p->period_num;
}

/*
 * Each workload with a period, swept in a row of -t 2 at a 4 ms tick: its
 * period is the nominal one less 4 ms over the row's periods, and its CPU
 * share is the exact mode's within 0.1 %.
 */
static bool test_every_task(void)
{
	struct config swept, exact;
	char err[256];

	EXPECT(unit_parse_words("-t 2 -C 5 -I 50000", &swept, err, sizeof(err)) == PARSE_RUN,
	       "%s", err);
	EXPECT(unit_parse_words("-t 2 -C 5 -I 50000 --period exact", &exact, err,
				sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(swept.periods == PERIOD_SWEPT && exact.periods == PERIOD_EXACT, "the defaults");
	swept.period_drift_ns = exact.period_drift_ns = 4 * NSEC_PER_MSEC;
	for (size_t i = 0; i < nr_workloads; i++) {
		struct sim_params s, e;
		double ps, pe;

		if (!workloads[i].period_num)
			continue;
		sim_params_init(&s, &workloads[i], &swept);
		sim_params_init(&e, &workloads[i], &exact);
		ps = (double)s.period_num / (double)s.period_den;
		pe = (double)e.period_num / (double)e.period_den;
		EXPECT(s.scale.periods >= 1 &&
		       fabs(pe - ps - 4e6 / (double)s.scale.periods) < 1.0,
		       "%s: swept %.1f ns against exact %.1f over %llu periods", workloads[i].name,
		       ps, pe, (unsigned long long)s.scale.periods);
		EXPECT(!e.scale.periods && e.scale.wnum == e.scale.wden, "%s: exact scaled",
		       workloads[i].name);
		EXPECT(fabs(share_of(&s) / share_of(&e) - 1) < 1e-3, "%s: share %.6f against %.6f",
		       workloads[i].name, share_of(&s), share_of(&e));
	}
	return true;
}

/*
 * Audio's wake-ups against a Video load's periods, in 8 bins of Video's
 * period: how many bins a row of -t 2 visits. Exact, or both swept by the
 * same tick, Video's three periods are Audio's one and the phase between
 * them is the row's first, all of it; the load's own period more of drift
 * walks Audio's wake-ups through all of Video's.
 */
static int bins_against(const struct sim_params *bench, const struct sim_params *load)
{
	struct period_clock b = { .num = bench->period_num, .den = bench->period_den,
				  .nperiods = UINT64_MAX };
	struct period_clock l = { .start0 = 1234567, .num = load->period_num,
				  .den = load->period_den, .nperiods = UINT64_MAX };
	bool seen[8] = { false };
	int n = 0;

	for (uint64_t k = 0; period_start(&b, k) < 2 * NSEC_PER_SEC; k++) {
		uint64_t t = period_start(&b, k) + 2 * NSEC_PER_SEC;	/* after the load began */
		uint64_t j = period_index_at(&l, t), into = t - period_start(&l, j);
		uint64_t len = period_start(&l, j + 1) - period_start(&l, j);

		seen[into * 8 / len] = true;
	}
	for (int i = 0; i < 8; i++)
		n += seen[i];
	return n;
}

static bool test_load_phase(void)
{
	struct config swept, exact;
	struct sim_params a, v, v_bench, ae, ve;
	char err[256];

	EXPECT(unit_parse_words("-t 2", &swept, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(unit_parse_words("-t 2 --period exact", &exact, err, sizeof(err)) == PARSE_RUN,
	       "%s", err);
	swept.period_drift_ns = exact.period_drift_ns = 4 * NSEC_PER_MSEC;
	sim_params_init(&a, &workloads[workload_find("Audio")], &swept);
	sim_params_init_beside(&v, &workloads[workload_find("Video")], &swept);
	sim_params_init(&v_bench, &workloads[workload_find("Video")], &swept);
	sim_params_init(&ae, &workloads[workload_find("Audio")], &exact);
	sim_params_init_beside(&ve, &workloads[workload_find("Video")], &exact);
	EXPECT(bins_against(&ae, &ve) == 1, "exact: %d bins", bins_against(&ae, &ve));
	EXPECT(bins_against(&a, &v_bench) <= 2, "both by a tick: %d bins", bins_against(&a, &v_bench));
	EXPECT(bins_against(&a, &v) == 8, "the load by its period more: %d bins", bins_against(&a, &v));
	EXPECT(fabs((double)v.work_ns * (double)v.period_den / (double)v.period_num - 0.4) < 1e-3,
	       "the load's share %.4f", (double)v.work_ns * (double)v.period_den /
	       (double)v.period_num);
	return true;
}

/* A bad mode names the two there are. */
static bool test_refused(void)
{
	struct config cfg;
	char err[256] = "";

	EXPECT(unit_parse_words("--period tick", &cfg, err, sizeof(err)) == PARSE_USAGE,
	       "--period tick accepted");
	EXPECT(strstr(err, "swept") && strstr(err, "exact"), "message: %s", err);
	return true;
}

void unit_periods(void)
{
	check("--period: every periodic task and load is swept by default, its share kept, and "
	      "exact with --period exact", test_every_task());
	check("--period: an unknown mode is a usage error naming swept and exact", test_refused());
	check("--period: a periodic load's phase walks through the benchmark's; exact, it stays",
	      test_load_phase());
}
