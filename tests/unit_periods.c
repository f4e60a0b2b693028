// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_periods.c - unit tests: every periodic task and load runs swept periods by default,
 * with its work and deadline kept, and --period exact runs 0.31's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/render_work.h"
#include "model/workloads.h"
#include "run/options.h"
#include "run/params.h"
#include "task/task.h"

#include "tests/unit.h"

/* A period's work over its period, as the task runs it (X: frame 50's). */
static double share_of(const struct sim_params *p)
{
	uint64_t work = p->model == SIM_SWEEP ? scale_work(&p->scale, 50 * NSEC_PER_MSEC) :
			p->model == SIM_RENDER ? render_work_ns(p->period_num, p->period_den, 0) :
			p->work_ns;

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

		if (workloads[i].model == SIM_FLAT || !workloads[i].period_num)
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
}
