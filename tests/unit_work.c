// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_work.c - unit tests: the CPU-time burn on a fake clock, calibration, its file,
 * the marks. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/record.h"
#include "child/child.h"
#include "model/config.h"
#include "model/plan.h"
#include "task/task.h"

#include "tests/unit.h"

/* ---- the CPU-time burn, on a fake thread whose loop speed we choose ---- */

struct fake_cpu {
	double cpu, wall;		/* ns */
	double rate;			/* loops per ns now */
	double slow_at, slow_rate;	/* from CPU time slow_at on, the loop runs at slow_rate */
	double read_ns;			/* what one clock read costs (a system call) */
	int reads;
};

static uint64_t fake_cpu_ns(void *arg)
{
	struct fake_cpu *f = arg;

	f->cpu += f->read_ns;
	f->wall += f->read_ns;
	f->reads++;
	return (uint64_t)f->cpu;
}

static uint64_t fake_wall_ns(void *arg)
{
	return (uint64_t)((struct fake_cpu *)arg)->wall;
}

static void fake_spin(uint64_t loops, void *arg)
{
	struct fake_cpu *f = arg;
	double left = (double)loops;

	while (left > 0) {
		double rate = f->slow_at && f->cpu >= f->slow_at ? f->slow_rate : f->rate;
		double until = f->slow_at && f->cpu < f->slow_at ? f->slow_at - f->cpu : 1e18;
		double ns = left / rate < until ? left / rate : until;

		f->cpu += ns;
		f->wall += ns * 1.5;	/* preempted a third of the time: no CPU time */
		left -= ns * rate;
		if (left < 1e-6)
			break;
	}
}

struct burn_case {
	const char *name;
	uint64_t work_ns;
	double rate, slow_at, slow_rate, read_ns;
};

static const struct burn_case burn_cases[] = {
	{ "Audio's 2.5 ms", 2500000, 3.5, 0, 0, 800 },
	{ "Video's 6.67 ms", 6666667, 3.5, 0, 0, 800 },
	{ "X's 100 ms frame", 100000000, 1.5, 0, 0, 800 },
	{ "a 50 us work", 50000, 3.5, 0, 0, 800 },
	{ "a 1 us work", 1000, 3.5, 0, 0, 300 },
	{ "an SMT sibling halves the speed mid-work", 2500000, 3.5, 1200000, 1.75, 800 },
	{ "the loop gets twice as fast mid-work", 2500000, 1.5, 800000, 3.0, 800 },
	{ "the speed drops to a third near the end", 2500000, 3.5, 2490000, 1.2, 800 },
};

/* Done when the CPU clock has advanced by the work, overshooting by at most 20 us. */
static bool test_burn_case(const struct burn_case *c)
{
	struct fake_cpu f = { .cpu = 1e9, .wall = 5e9, .rate = c->rate, .read_ns = c->read_ns,
			      .slow_rate = c->slow_rate };
	struct burn_clock clk = { fake_cpu_ns, fake_wall_ns, fake_spin, &f };
	struct burner b = { .mode = WORK_CPU, .clk = &clk };
	uint64_t done = 0, t0;
	bool cut;

	for (int period = 0; period < 3; period++) {	/* the rate is learnt, then kept */
		f.slow_at = c->slow_at ? f.cpu + c->slow_at : 0;
		f.reads = 0;
		t0 = (uint64_t)f.cpu;
		done = burn_work(&b, c->work_ns, &cut);
		EXPECT(!cut && done == c->work_ns, "period %d: done %llu, cut %d", period,
		       (unsigned long long)done, cut);
		EXPECT(f.cpu - t0 >= c->work_ns, "period %d: stopped %.0f ns short", period,
		       c->work_ns - (f.cpu - t0));
		EXPECT(f.cpu - t0 - c->work_ns <= 20000, "period %d: overshoot %.0f ns", period,
		       f.cpu - t0 - c->work_ns);
		EXPECT(c->work_ns < 2500000 || f.cpu - t0 - c->work_ns <= c->work_ns / 100,
		       "period %d: overshoot %.0f ns, over 1 %%", period, f.cpu - t0 - c->work_ns);
		EXPECT(f.reads <= 40 + (int)(c->work_ns / BURN_CHUNK_MAX_NS), "%d clock reads",
		       f.reads);
	}
	/* a long enough work spends its CPU spinning, not reading the clock */
	EXPECT(fabs(burner_loop_speed(&b) / 1e3 - c->rate) < 0.05 * c->rate || c->slow_at ||
	       c->work_ns < 1000000,
	       "loop speed %g per us", burner_loop_speed(&b));
	return true;
}

/* The row's end (or a stop) ends a burn wherever it is, with the part done. */
static bool test_burn_end(void)
{
	struct fake_cpu f = { .cpu = 0, .wall = 1e9, .rate = 2.0, .read_ns = 500 };
	struct burn_clock clk = { fake_cpu_ns, fake_wall_ns, fake_spin, &f };
	struct burner b = { .mode = WORK_CPU, .clk = &clk, .end_ns = (uint64_t)(1e9 + 30e6) };
	atomic_int stop = 0;
	uint64_t done;
	bool cut;

	done = burn_work(&b, 10 * NSEC_PER_SEC, &cut);	/* 10 s of work, 30 ms of row left */
	EXPECT(cut, "not cut at the end");
	EXPECT(f.wall >= 1e9 + 30e6 && f.wall <= 1e9 + 31e6, "stopped at wall %.0f", f.wall);
	EXPECT(done > 15000000 && done < 25000000, "partial work %llu ns",
	       (unsigned long long)done);
	b = (struct burner){ .mode = WORK_LOOPS, .loops_per_ms = 2000000, .clk = &clk,
			     .stop = &stop };
	atomic_store(&stop, 1);
	done = burn_work(&b, NSEC_PER_SEC, &cut);
	EXPECT(cut && done == 0, "loops mode ignored the stop: %llu", (unsigned long long)done);
	atomic_store(&stop, 0);
	done = burn_work(&b, NSEC_PER_MSEC, &cut);
	EXPECT(!cut && done == NSEC_PER_MSEC && b.loops == 2000000, "1 ms = %llu loops",
	       (unsigned long long)b.loops);
	return true;
}

static bool test_chunk_rule(void)
{
	EXPECT(burn_chunk_loops(0.0, 5000000) > 0, "no first chunk");
	EXPECT(burn_chunk_loops(2.0, 10000000) == 2 * BURN_CHUNK_MAX_NS, "chunk not capped");
	EXPECT(burn_chunk_loops(2.0, 100000) == 100000, "not half of what is left");
	EXPECT(burn_chunk_loops(2.0, 1500) == 3000, "the tail is not all that is left");
	EXPECT(burn_chunk_loops(2.0, 0) == 1, "no progress at the end");
	return true;
}

/* ---- calibration: the fastest consistent batches ---- */

struct fastest_case {
	const char *name;
	double rates[16];
	int n, need;
	bool found;
	double want;		/* within 0.5 % */
};

static const struct fastest_case fastest_cases[] = {
	{ "steady", { 100, 100.2, 99.9, 100.1, 99.8, 100 }, 6, 5, true, 100 },
	{ "disturbed batches only slow down", { 70, 100, 85, 99.8, 60, 100.3, 99.9, 100.1, 40 },
	  9, 5, true, 100 },
	{ "a lone fast batch is a glitch", { 150, 100, 100.2, 99.9, 100.1, 99.8 }, 6, 5, true,
	  100 },
	{ "two regimes: the faster when it is consistent",
	  { 50, 50.1, 49.9, 50.2, 50, 100, 100.4, 99.8, 100.1, 100.2 }, 10, 5, true, 100.1 },
	{ "too spread to settle", { 100, 97, 94, 91, 88, 85, 82, 79 }, 8, 5, false, 0 },
	{ "the issue's 100 % spread", { 720016, 1510000, 1550000, 1560000, 3500000 }, 5, 3,
	  false, 0 },
	{ "fewer batches than needed", { 100, 100 }, 2, 5, false, 0 },
};

static bool test_fastest(const struct fastest_case *c)
{
	double best = 0;
	bool found = cal_fastest(c->rates, c->n, 0.01, c->need, &best);

	EXPECT(found == c->found, "found %d, want %d (best %g)", found, c->found, best);
	EXPECT(!found || fabs(best - c->want) <= 0.005 * c->want, "best %g, want %g", best,
	       c->want);
	return true;
}

/* ---- the saved calibration's identity ---- */

static bool test_cal_file(void)
{
	struct cal_identity id = {
		"Golden CPU @ 3.00GHz", "6.18.44", "0123456789abcdef", "schedutil", "boost=1",
		"on/1",
	}, other;
	char buf[2048], copy[2048];
	unsigned long lpm = 0;
	int n = cal_format(buf, sizeof(buf), 3500000, &id);

	EXPECT(n > 0 && (size_t)n < sizeof(buf), "format gave %d", n);
	memcpy(copy, buf, sizeof(buf));
	EXPECT(cal_parse(copy, &id, &lpm) == 0 && lpm == 3500000, "round trip gave %lu", lpm);
	for (int k = 0; k < 6; k++) {		/* each part of the identity matters */
		other = id;
		((char *)&other + (size_t[]){ offsetof(struct cal_identity, cpu_model),
			offsetof(struct cal_identity, kernel_release),
			offsetof(struct cal_identity, build),
			offsetof(struct cal_identity, governor),
			offsetof(struct cal_identity, boost),
			offsetof(struct cal_identity, smt) }[k])[0] ^= 1;
		memcpy(copy, buf, sizeof(buf));
		EXPECT(cal_parse(copy, &other, &lpm) == -ESTALE, "part %d of the identity ignored",
		       k);
	}
	snprintf(copy, sizeof(copy), "loops_per_ms 5\ncpu_model %s\nkernel_release %s\n",
		 id.cpu_model, id.kernel_release);	/* an older file: no build, no governor */
	EXPECT(cal_parse(copy, &id, &lpm) == -ESTALE, "an older file's value was used");
	snprintf(copy, sizeof(copy), "loops_per_ms banana\n");
	EXPECT(cal_parse(copy, &id, &lpm) == -EINVAL, "garbage accepted");
	return true;
}

/* ---- the text table's marks ---- */

struct mark_case {
	const char *name;
	double ratio, speed, samples, periods, fastest;
	unsigned want;
	const char *text;
};

static const struct mark_case mark_cases[] = {
	{ "all well", 1.01, 3400, 100, 100, 3500, 0, "" },
	{ "work_ratio 2.9 % off is not marked", 0.971, 3400, 100, 100, 3500, 0, "" },
	{ "work_ratio high", 1.05, 3400, 100, 100, 3500, MARK_WORK, "work_ratio 1.05" },
	{ "work_ratio low (loops mode, a slower CPU)", 0.82, 3400, 100, 100, 3500, MARK_WORK,
	  "work_ratio 0.82" },
	{ "loop_speed 10 % below is not marked", 1.0, 3150, 100, 100, 3500, 0, "" },
	{ "loop_speed 20 % below", 1.0, 2800, 100, 100, 3500, MARK_SPEED, "loop_speed -20%" },
	{ "periods overran into", 1.0, 3500, 95, 101, 3500, MARK_SAMPLES,
	  "95 samples, 101 periods" },
	{ "all three", 0.5, 1000, 1, 10, 3500, MARK_WORK | MARK_SPEED | MARK_SAMPLES,
	  "work_ratio 0.50, loop_speed -71%, 1 samples, 10 periods" },
	{ "Gaming: no ratio, no periods", NAN, 3500, 20, NAN, 3500, 0, "" },
};

static bool test_marks(const struct mark_case *c)
{
	struct result r;
	char buf[128], note[512];
	unsigned m;

	result_init(&r);
	r.value[RF_WORK_RATIO] = c->ratio;
	r.value[RF_LOOP_SPEED] = c->speed;
	r.value[RF_SAMPLES] = c->samples;
	r.value[RF_MET] = c->periods;
	r.value[RF_MISSED] = r.value[RF_DROPPED] = 0;
	m = result_marks(&r, c->fastest, buf, sizeof(buf));
	EXPECT(m == c->want, "marks %#x, want %#x", m, c->want);
	EXPECT(!strcmp(buf, c->text), "'%s', want '%s'", buf, c->text);
	result_marks_note(m, note, sizeof(note));
	EXPECT(!strchr(note, '\n'), "the note is more than one line");
	EXPECT(!(m & MARK_SPEED) || strstr(note, "10 %"), "note: %s", note);
	r.status = ROW_FAILED;
	EXPECT(!result_marks(&r, c->fastest, buf, sizeof(buf)), "a failed row is marked");
	return true;
}

void unit_work(void)
{
	char name[160];

	check("work: a chunk is half of what is left, capped; the tail all of it",
	      test_chunk_rule());
	for (size_t i = 0; i < ARRAY_SIZE(burn_cases); i++) {
		snprintf(name, sizeof(name), "work: CPU-time burn of %s", burn_cases[i].name);
		check(name, test_burn_case(&burn_cases[i]));
	}
	check("work: a burn stops at the row's end or a stop, with the part done", test_burn_end());
	for (size_t i = 0; i < ARRAY_SIZE(fastest_cases); i++) {
		snprintf(name, sizeof(name), "calibration: %s", fastest_cases[i].name);
		check(name, test_fastest(&fastest_cases[i]));
	}
	check("calibration: the file holds for one identity only", test_cal_file());
	for (size_t i = 0; i < ARRAY_SIZE(mark_cases); i++) {
		snprintf(name, sizeof(name), "marks: %s", mark_cases[i].name);
		check(name, test_marks(&mark_cases[i]));
	}
}
