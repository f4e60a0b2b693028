// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_instances.c - unit tests of --instances: copies' results pooled, the worst named. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "model/record.h"
#include "run/row.h"

#include "tests/unit.h"

/* A periodic copy: samples at lat[], its periods and CPU times. */
static struct bench_result *copy_of(const uint64_t *lat, int n, uint64_t met, uint64_t missed,
				    uint64_t cpu, uint64_t work)
{
	struct bench_result *b = calloc(1, sizeof(*b));

	latency_init(&b->wake);
	latency_init(&b->timer);
	for (int i = 0; i < n; i++)
		latency_add(&b->wake, lat[i]);
	b->acct = (struct acct){ .met = met, .missed = missed };
	b->pct_deadlines = 100.0 * (double)met / (double)(met + missed);
	b->pct_cpu = 100.0;
	b->task_cpu_ns = cpu;
	b->work_ns = work;
	b->wall_ns = 1000000000;
	return b;
}

/* Two copies of one benchmark, pooled: sums, merged histogram, worst by p99. */
static bool pool_two(void)
{
	static const uint64_t a[] = { 1000, 2000, 3000 }, b[] = { 50000, 60000 };
	struct row all[2] = { { .status = ROW_OK }, { .status = ROW_OK } }, rows[1];
	struct bench_result *p;
	struct instance_set *s;

	all[0].bench_res = copy_of(a, 3, 9, 1, 600, 500);
	all[1].bench_res = copy_of(b, 2, 5, 5, 400, 500);
	instances_pool(rows, all, 1, 2);
	p = rows[0].bench_res, s = rows[0].inst;
	EXPECT(s && s->n == 2, "no figures");
	EXPECT(p->wake.r.n == 5 && p->wake.r.min == 1000 && p->wake.r.max == 60000,
	       "pooled n %llu min %llu max %llu", (unsigned long long)p->wake.r.n,
	       (unsigned long long)p->wake.r.min, (unsigned long long)p->wake.r.max);
	EXPECT(fabs(p->wake.r.mean - 23200.0) < 1e-6, "mean %g", p->wake.r.mean);
	EXPECT(p->acct.met == 14 && p->acct.missed == 6, "periods %llu/%llu",
	       (unsigned long long)p->acct.met, (unsigned long long)p->acct.missed);
	EXPECT(fabs(p->pct_deadlines - 70.0) < 1e-9, "pct %g: from the sums", p->pct_deadlines);
	EXPECT(p->task_cpu_ns == 1000 && p->work_ns == 1000, "cpu %llu work %llu",
	       (unsigned long long)p->task_cpu_ns, (unsigned long long)p->work_ns);
	EXPECT(s->f[0].samples == 3 && s->f[1].samples == 2, "samples %g %g", s->f[0].samples,
	       s->f[1].samples);
	EXPECT(s->f[0].pct_deadlines == 90.0 && s->f[1].pct_deadlines == 50.0, "own pct");
	EXPECT(s->worst == 1 && s->f[1].p99_ns > 50000, "worst #%d", s->worst + 1);
	row_free(&all[1]);
	row_free(&rows[0]);
	return true;
}

/* A copy that failed fails the pooled row, naming it. */
static bool pool_failed(void)
{
	static const uint64_t a[] = { 1000 };
	struct row all[2] = { { .status = ROW_OK }, { .status = ROW_FAILED } }, rows[1];

	snprintf(all[1].reason, sizeof(all[1].reason), "bench process did not start");
	all[0].bench_res = copy_of(a, 1, 1, 0, 1, 1);
	instances_pool(rows, all, 1, 2);
	EXPECT(rows[0].status == ROW_FAILED &&
	       !strcmp(rows[0].reason, "instance #2: bench process did not start"),
	       "status %d: %s", rows[0].status, rows[0].reason);
	EXPECT(rows[0].inst && rows[0].inst->worst == 0 && isnan(rows[0].inst->f[1].samples),
	       "figures of the failed copy");
	row_free(&all[1]);
	row_free(&rows[0]);
	return true;
}

/* A Game copy: copy_of()'s wake-ups, and n frames of frame_ms with their histograms. */
static void game_row(struct row *r, const uint64_t *lat, int nl, int n, uint64_t frame_ms)
{
	struct chain_summary *c;

	r->bench = workload_find("Game");
	r->bench_res = copy_of(lat, nl, (uint64_t)n, 0, 1, 1);
	r->hists = calloc(1, sizeof(*r->hists));
	c = &r->bench_res->chain;
	*c = (struct chain_summary){ .kind = CHAIN_GAME, .nhops = 1, .done = (uint64_t)n,
				     .stutters = 1, .dsp_max = NAN };
	latency_init(&r->hists->time);
	latency_init(&r->hists->input);
	r->hists->hop[0] = r->bench_res->wake;
	for (int i = 0; i < n; i++)
		latency_add(&r->hists->time, frame_ms * 1000000);
	r->hists->span_ns = 1000000000;
	r->hists->period_ns = 16666667;
	chain_summarise(c, r->hists);
}

/* A chain's copies: its frames pooled, the worst the copy with the slowest frames. */
static bool pool_chain(void)
{
	static const uint64_t a[] = { 90000 }, b[] = { 1000 };
	struct row all[2] = { { .status = ROW_OK }, { .status = ROW_OK } }, rows[1];
	const struct chain_summary *c;
	struct instance_set *s;

	game_row(&all[0], a, 1, 60, 16);
	game_row(&all[1], b, 1, 30, 33);
	instances_pool(rows, all, 1, 2);
	c = &rows[0].bench_res->chain, s = rows[0].inst;
	EXPECT(c->done == 90 && c->stutters == 2 && c->hop[0].n == 2, "frames %llu stutters %llu",
	       (unsigned long long)c->done, (unsigned long long)c->stutters);
	EXPECT(fabs(c->fps - 45.0) < 1e-9, "fps %g: a copy's", c->fps);
	EXPECT(c->time[CS_MAX] == 33000000 && c->time[CS_MIN] == 16000000, "times %g..%g",
	       c->time[CS_MIN], c->time[CS_MAX]);
	EXPECT(!rows[0].hists, "the histograms are freed once pooled");
	EXPECT(s && s->worst == 1 && s->f[1].chain_p99_ns > 30e6 && s->f[0].fps == 60.0 &&
	       s->f[1].stutters == 1, "worst #%d: by frame time, not by wake-up",
	       s ? s->worst + 1 : 0);
	row_free(&all[1]);
	row_free(&rows[0]);
	return true;
}

void unit_instances(void)
{
	check("instances: a chain's frames pooled, the worst by frame time", pool_chain());
	check("instances: two copies pooled, the worst by p99", pool_two());
	check("instances: a failed copy fails the row", pool_failed());
}
