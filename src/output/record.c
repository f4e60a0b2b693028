// SPDX-License-Identifier: GPL-2.0-or-later
/* output/record.c - the run record of a live run: its metadata once, its results as rows end, the walk of its cells. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "run/config.h"
#include "loads/loads.h"
#include "run/plan.h"
#include "sys/sys.h"

/* A live run's record: what every output says of the run, taken once at its start. */
void record_init(struct run_record *r, const struct config *cfg, const struct machine *sys,
		 const struct plan *plan, time_t start)
{
	struct tm tm;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->sys = sys;
	r->plan = plan;
	r->start = start;
	r->nruns = 1;
	r->seconds = cfg->seconds;
	localtime_r(&start, &tm);
	strftime(r->date, sizeof(r->date), "%Y%m%d%H%M", &tm);
	sysinfo_kernel_release(r->kernel, sizeof(r->kernel));
	snprintf(r->comment, sizeof(r->comment), "%s", cfg->comment ? cfg->comment : "");
	snprintf(r->work, sizeof(r->work), "%s", work_mode_name(cfg->work));
	for (int k = 0; k < RK_COUNT; k++)
		run_key_text(cfg, k, r->key[k], sizeof(r->key[k]));
}

void record_free(struct run_record *r)
{
	for (int i = 0; i < r->nres; i++)
		free(r->res[i].wake);
	free(r->res);
	r->res = NULL;
	r->nres = r->cap = 0;
}

/* The highest loop_speed of the results before upto: what a row's speed mark compares with. */
double record_fastest(const struct run_record *r, int upto)
{
	double fastest = 0.0;

	for (int i = 0; i < upto && i < r->nres; i++)
		if (r->res[i].v[RF_LOOP_SPEED] > fastest)
			fastest = r->res[i].v[RF_LOOP_SPEED];
	return fastest;
}

/* The results of one benchmark x load of the run (its passes), into list; how many. */
static int passes_of(const struct run_record *r, const char *bench, const char *load,
		     const struct result **list)
{
	int cnt = 0;

	for (int i = 0; i < r->nres; i++)
		if (!strcmp(r->res[i].bench, bench) && !strcmp(r->res[i].load, load))
			list[cnt++] = &r->res[i];
	return cnt;
}

/* Per cell of the plan's first pass, in its order: the summary of its passes. */
void report_each_summary(const struct run_record *rec,
			 void (*fn)(void *arg, const struct cell *c, const struct pass_summary *s),
			 void *arg)
{
	const struct result **list = calloc((size_t)rec->nres + 1, sizeof(*list));

	for (int i = 0; list && i < rec->plan->per_pass; i++) {
		const struct cell *c = &rec->plan->cells[i];
		struct pass_summary s;
		int n;

		n = passes_of(rec, workloads[c->bench].name, workloads[c->load].name, list);
		summarize_passes(list, n, &s);
		fn(arg, c, &s);
	}
	free(list);
}
