// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_miss_explain.c - unit tests of the core: missed periods explained from synthetic
 * records and scheduler events. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/defs.h"
#include "core/miss_explain.h"

#include "tests/unit.h"

/* A clock of 10 ms periods from 1000 s; the row began 1 ms before its first period. */
static const struct period_log clock10 = { .start0 = 1000 * NSEC_PER_SEC,
					   .num = 10 * NSEC_PER_MSEC, .den = 1 };
#define T0 (1000 * NSEC_PER_SEC - NSEC_PER_MSEC)
#define S3 (1000 * NSEC_PER_SEC + 30 * NSEC_PER_MSEC)	/* period 3's start */
#define AT(us) (S3 + (uint64_t)(us) * NSEC_PER_USEC)

#define WOKEN (PREC_WOKEN | PREC_DONE)
#define REC(fl, wake, run, done) { .t_wake = AT(wake), .t_run = AT(run), .t_done = AT(done), \
	.k = 3, .flags = (fl), .wake_cpu = 0, .run_cpu = 1 }
#define EV(tp, us, c, p, st) { .ts = AT(us), .cpu = 1, .pid = (p), .prio = 120, .comm = c, \
	.type = (tp), .state = (st) }
#define WAKE(us) EV(SE_WAKEUP, us, "ib-waker", 900, 0)
#define IN(us, c, p, st) EV(SE_SWITCH_IN, us, c, p, st)
#define OUT(us, c, p, st) EV(SE_SWITCH_OUT, us, c, p, st)

struct missx_case {
	const char *name;
	struct period_rec rec;
	bool read, lost;		/* the trace's */
	int nev;
	struct sched_ev ev[8];
	/* what its miss says */
	uint32_t late, woke, waited, ran, preempted, blocked;
	int npreempt;
	unsigned flags;
	const char *behind, *by;	/* "" none */
	double queued, running, preempted_s, blocked_s;	/* the shares; NAN unknown */
};

static const struct missx_case cases[] = {
	{ "no trace: woke, waited and ran from the records alone",
	  REC(WOKEN, 50, 1050, 13000), false, false, 0, { { 0 } },
	  3000, 50, 1000, 11950, 0, 0, 0, 0, "", "",
	  1000.0 / 12950, NAN, NAN, NAN },
	{ "behind a Burn thread, preempted once by a kworker",
	  REC(WOKEN, 50, 1050, 13000), true, false, 4,
	  { WAKE(60), IN(1049, "ibload-Burn", 812, 'R'), OUT(5000, "kworker/1:0", 34, 'R'),
	    IN(5300, "kworker/1:0", 34, 'I') },
	  3000, 50, 1000, 11650, 300, 0, 1, MISS_TRACED, "ibload-Burn", "kworker/1:0",
	  1000.0 / 12950, 11650.0 / 12950, 300.0 / 12950, 0 },
	{ "the test's stall: blocked asleep, then woken and run again",
	  REC(WOKEN, 40, 100, 37100), true, false, 5,
	  { WAKE(45), IN(99, "swapper/1", 0, 'R'), OUT(7000, "swapper/1", 0, 'S'), WAKE(37000),
	    IN(37020, "swapper/1", 0, 'R') },
	  27100, 40, 60, 6980, 0, 30020, 0, MISS_TRACED, "swapper/1", "",
	  60.0 / 37060, 6980.0 / 37060, 0, 30020.0 / 37060 },
	{ "the stall, with the switch-ins from idle missing (as this kernel drops some)",
	  REC(WOKEN, 40, 100, 37100), true, false, 4,
	  { OUT(-3000, "swapper/1", 0, 'S'), WAKE(45), OUT(7000, "swapper/1", 0, 'S'),
	    WAKE(37000) },
	  27100, 40, 60, 7000, 0, 30000, 0, MISS_TRACED | MISS_NO_SWITCH_IN, "", "",
	  60.0 / 37060, 7000.0 / 37060, 0, 30000.0 / 37060 },
	{ "three preemptions: the longest names who took the CPU",
	  REC(WOKEN, 10, 20, 12000), true, false, 7,
	  { IN(19, "ibload-Burn", 812, 'R'), OUT(1000, "ibload-Burn", 812, 'R'),
	    IN(1500, "ibload-Burn", 812, 'R'), OUT(3000, "ibload-Burn", 813, 'R'),
	    IN(5000, "ibload-Burn", 813, 'R'), OUT(8000, "ksoftirqd/1", 20, 'R'),
	    IN(8100, "ksoftirqd/1", 20, 'S') },
	  2000, 10, 10, 9380, 2600, 0, 3, MISS_TRACED, "ibload-Burn", "ibload-Burn",
	  10.0 / 11990, 9380.0 / 11990, 2600.0 / 11990, 0 },
	{ "no wake-up (the period before overran): on its CPU throughout",
	  REC(PREC_DONE, 2000, 2000, 12500), true, false, 0, { { 0 } },
	  2500, 2000, 0, 10500, 0, 0, 0, MISS_TRACED | MISS_OVERRAN, "", "",
	  0, 1, 0, 0 },
	{ "woken while still on its CPU: no switch-in, none behind",
	  REC(WOKEN, 30, 35, 10400), true, false, 1,
	  { IN(-900, "ibload-Burn", 812, 'R') },
	  400, 30, 5, 10365, 0, 0, 0, MISS_TRACED, "", "",
	  5.0 / 10370, 10365.0 / 10370, 0, 0 },
	{ "preempted before its first stamp: part of its wait, not a preemption",
	  REC(WOKEN, 30, 1000, 11000), true, false, 4,
	  { WAKE(32), IN(40, "ibload-Burn", 812, 'R'), OUT(45, "kworker/1:0", 34, 'R'),
	    IN(999, "kworker/1:0", 34, 'I') },
	  1000, 30, 970, 10000, 0, 0, 0, MISS_TRACED, "ibload-Burn", "",
	  970.0 / 10970, 10000.0 / 10970, 0, 0 },
	{ "the trace lost events before this period: untold",
	  REC(WOKEN, 50, 1050, 13000), true, true, 1,
	  { OUT(12000, "ibload-Burn", 812, 'R') },
	  3000, 50, 1000, 11950, 0, 0, 0, 0, "", "",
	  1000.0 / 12950, NAN, NAN, NAN },
	{ "cut by the row's end: missed, and said so",
	  REC(PREC_WOKEN, 50, 60, 10050), true, false, 1,
	  { IN(59, "ibload-Burn", 812, 'R') },
	  50, 50, 10, 9990, 0, 0, 0, MISS_TRACED | MISS_CUT, "ibload-Burn", "",
	  10.0 / 10000, 9990.0 / 10000, 0, 0 },
};

static bool same_share(double got, double want)
{
	return isnan(want) ? isnan(got) : fabs(got - want) < 1e-9;
}

static bool check_case(const struct missx_case *c)
{
	struct sched_trace tr = { .ev = (struct sched_ev *)c->ev, .n = (size_t)c->nev,
				  .read = c->read, .lost = c->lost };
	struct miss_report r;
	const struct miss *m = &r.worst[0];

	missx_explain(&clock10, &c->rec, 1, &tr, T0, &r);
	EXPECT(r.missed == 1 && r.n == 1 && r.traced == !!(c->flags & MISS_TRACED),
	       "%s: missed %llu, kept %d, traced %llu", c->name, (unsigned long long)r.missed, r.n,
	       (unsigned long long)r.traced);
	EXPECT(m->period == 3 && m->at_ns == 41 * NSEC_PER_MSEC && m->cpu == 1,
	       "%s: period %u at %llu cpu %d", c->name, m->period, (unsigned long long)m->at_ns,
	       m->cpu);
	EXPECT(m->late_us == c->late && m->woke_us == c->woke && m->waited_us == c->waited,
	       "%s: late %u woke %u waited %u", c->name, m->late_us, m->woke_us, m->waited_us);
	EXPECT(m->ran_us == c->ran && m->preempted_us == c->preempted &&
	       m->blocked_us == c->blocked && m->npreempt == c->npreempt,
	       "%s: ran %u preempted %u (%d times) blocked %u", c->name, m->ran_us,
	       m->preempted_us, m->npreempt, m->blocked_us);
	EXPECT(m->flags == c->flags, "%s: flags %#x", c->name, m->flags);
	EXPECT(!strcmp(m->behind.comm, c->behind) && (m->behind.pid >= 0) == !!*c->behind,
	       "%s: behind '%s' %d", c->name, m->behind.comm, m->behind.pid);
	EXPECT(!strcmp(m->by.comm, c->by) && (m->by.pid >= 0) == !!*c->by, "%s: by '%s' %d",
	       c->name, m->by.comm, m->by.pid);
	EXPECT(same_share(r.share[MS_QUEUED], c->queued) &&
	       same_share(r.share[MS_RUNNING], c->running) &&
	       same_share(r.share[MS_PREEMPTED], c->preempted_s) &&
	       same_share(r.share[MS_BLOCKED], c->blocked_s), "%s: shares %g %g %g %g", c->name,
	       r.share[MS_QUEUED], r.share[MS_RUNNING], r.share[MS_PREEMPTED], r.share[MS_BLOCKED]);
	return true;
}

static bool test_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (!check_case(&cases[i]))
			return false;
	return true;
}

/* Eight periods, k = 0..7, each missed by k ms but the met ones: the five worst, in order. */
static bool test_worst(void)
{
	static const uint32_t late_ms[8] = { 3, 0, 7, 1, 7, 0, 9, 2 };
	struct period_rec rec[8];
	struct miss_report r;

	for (uint32_t k = 0; k < 8; k++) {
		uint64_t s = 1000 * NSEC_PER_SEC + k * 10 * NSEC_PER_MSEC;

		rec[k] = (struct period_rec){ .t_wake = s + 10000, .t_run = s + 20000, .k = k,
					      .flags = WOKEN, .run_cpu = -1, .wake_cpu = -1 };
		rec[k].t_done = s + 10 * NSEC_PER_MSEC + late_ms[k] * NSEC_PER_MSEC -
				(late_ms[k] ? 0 : NSEC_PER_MSEC);
	}
	missx_explain(&clock10, rec, 8, NULL, T0, &r);
	EXPECT(r.missed == 6 && r.n == 5 && !r.traced && !r.partial, "missed %llu, kept %d",
	       (unsigned long long)r.missed, r.n);
	EXPECT(r.worst[0].period == 6 && r.worst[1].period == 2 && r.worst[2].period == 4 &&
	       r.worst[3].period == 0 && r.worst[4].period == 7, "order %u %u %u %u %u",
	       r.worst[0].period, r.worst[1].period, r.worst[2].period, r.worst[3].period,
	       r.worst[4].period);
	EXPECT(r.worst[0].late_us == 9000 && r.worst[4].late_us == 2000, "late %u .. %u",
	       r.worst[0].late_us, r.worst[4].late_us);
	missx_explain(&clock10, rec + 1, 1, NULL, T0, &r);
	EXPECT(!r.missed && !r.n && isnan(r.share[MS_QUEUED]), "a met period explained");
	return true;
}

/* ---- a chain: the stage that made a frame late ---- */

#define FRAME(k) (1000 * NSEC_PER_SEC + (uint64_t)(k) * 10 * NSEC_PER_MSEC)
#define FUS(k, us) (FRAME(k) + (uint64_t)(us) * NSEC_PER_USEC)

static struct period_rec chain_rec(uint32_t k, uint64_t wake, uint64_t run, uint64_t done)
{
	return (struct period_rec){ .t_wake = wake, .t_run = run, .t_done = done, .k = k,
				    .flags = WOKEN, .wake_cpu = 0, .run_cpu = 1 };
}

/*
 * A head and two stages over five 10 ms frames: the head works 1.9 ms from
 * its wake-up, then stage A (hop 1) 1.95 ms, then stage B (hop 2) 3.85 ms,
 * the present at 8 ms. Frame 1: B blocks 6 ms (the trace says it slept);
 * frame 2: the head wakes 4 ms late (its timer), the stages run as ever;
 * frame 3 begins 4 ms late with no wake-up (the one before overran) and A
 * takes 1 ms more; frame 4 is met. Each miss is the story of the stage that
 * made it late: frame 3's is A's, not the late start's.
 */
static bool test_blame(void)
{
	static const struct sched_ev b_ev[] = {
		{ .ts = FUS(1, 4100), .cpu = 1, .pid = 77, .prio = -1, .comm = "ib-A",
		  .type = SE_WAKEUP },
		{ .ts = FUS(1, 4150), .cpu = 1, .pid = 812, .prio = 120, .comm = "ibload-Burn",
		  .type = SE_SWITCH_IN, .state = 'R' },
		{ .ts = FUS(1, 6000), .cpu = 1, .pid = 0, .prio = 120, .comm = "swapper/1",
		  .type = SE_SWITCH_OUT, .state = 'S' },
		{ .ts = FUS(1, 12000), .cpu = 1, .pid = 0, .prio = -1, .comm = "<idle>",
		  .type = SE_WAKEUP },
		{ .ts = FUS(1, 12010), .cpu = 1, .pid = 0, .prio = 120, .comm = "swapper/1",
		  .type = SE_SWITCH_IN, .state = 'R' },
	};
	struct sched_trace b_tr = { .ev = (struct sched_ev *)b_ev, .n = ARRAY_SIZE(b_ev),
				    .read = true };
	struct period_rec head[5], a[5], b[5];
	struct missx_stage st[3];
	struct miss_report r;
	const struct miss *m;

	for (uint32_t k = 0; k < 5; k++) {
		uint64_t d = k == 2 || k == 3 ? 4000 : 0;	/* frames 2, 3: the head late */
		uint64_t blocked = k == 1 ? 6000 : 0;		/* frame 1: B slept */
		uint64_t slow = k == 3 ? 1000 : 0;		/* frame 3: A slower */

		head[k] = chain_rec(k, FUS(k, 50 + d), FUS(k, 100 + d),
				    FUS(k, 8000 + d + blocked + slow));
		a[k] = chain_rec(k, FUS(k, 2000 + d), FUS(k, 2050 + d), FUS(k, 4000 + d + slow));
		b[k] = chain_rec(k, FUS(k, 4100 + d + slow), FUS(k, 4150 + d + slow),
				 FUS(k, 8000 + d + blocked + slow));
	}
	head[3].t_wake = head[3].t_run = FUS(3, 4000);	/* no wake-up: started late */
	head[3].flags = PREC_DONE;
	st[0] = (struct missx_stage){ .rec = head, .n = 5, .tr = NULL, .hop = 0 };
	st[1] = (struct missx_stage){ .rec = a, .n = 5, .tr = NULL, .hop = 1 };
	st[2] = (struct missx_stage){ .rec = b, .n = 5, .tr = &b_tr, .hop = 2 };
	missx_explain(&clock10, head, 5, NULL, T0, &r);
	EXPECT(r.n == 3 && r.worst[0].period == 1 && r.worst[1].period == 3 &&
	       r.worst[2].period == 2 && r.worst[0].hop == -1, "before: %d misses, frames %u %u "
	       "%u, hop %d", r.n, r.worst[0].period, r.worst[1].period, r.worst[2].period,
	       r.worst[0].hop);
	missx_blame(&clock10, st, 3, &r);
	m = &r.worst[0];
	EXPECT(m->hop == 2 && m->late_us == 4000 && m->woke_us == 4100 && m->waited_us == 50,
	       "frame 1: hop %d late %u woke %u waited %u", m->hop, m->late_us, m->woke_us,
	       m->waited_us);
	EXPECT((m->flags & MISS_TRACED) && m->blocked_us == 6010 && m->ran_us == 3840 &&
	       !strcmp(m->behind.comm, "ibload-Burn") && m->cpu == 1, "frame 1: flags %#x "
	       "blocked %u ran %u behind '%s'", m->flags, m->blocked_us, m->ran_us,
	       m->behind.comm);
	m = &r.worst[1];
	EXPECT(m->hop == 1 && m->late_us == 3000 && m->woke_us == 6000 && m->ran_us == 2950 &&
	       (m->flags & MISS_OVERRAN), "frame 3: hop %d late %u woke %u ran %u flags %#x",
	       m->hop, m->late_us, m->woke_us, m->ran_us, m->flags);
	m = &r.worst[2];
	EXPECT(m->hop == 0 && m->late_us == 2000 && m->woke_us == 4050 && m->waited_us == 50 &&
	       m->ran_us == 1900 && !(m->flags & MISS_TRACED), "frame 2: hop %d late %u woke %u "
	       "waited %u ran %u flags %#x", m->hop, m->late_us, m->woke_us, m->waited_us,
	       m->ran_us, m->flags);
	/* a frame no stage recorded keeps the head's whole story */
	missx_explain(&clock10, head, 5, NULL, T0, &r);
	st[1].n = st[2].n = 0;
	missx_blame(&clock10, st, 3, &r);
	EXPECT(r.worst[0].hop == -1 && r.worst[0].ran_us == 13900, "no stages: hop %d ran %u",
	       r.worst[0].hop, r.worst[0].ran_us);
	return true;
}

void unit_core_missx(void)
{
	check("missed deadlines: each story from records and events", test_cases());
	check("missed deadlines: the five worst, the most late first", test_worst());
	check("missed deadlines: a chain's, told by the stage that made the frame late",
	      test_blame());
}
