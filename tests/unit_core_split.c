// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_split.c - unit tests of the core: the wake-up split's arithmetic and the
 * trace's culprits. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/defs.h"
#include "core/period.h"
#include "core/sched_events.h"
#include "core/split.h"

#include "tests/split_samples.h"
#include "tests/unit.h"

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
		uint64_t known = cases[i][0] >= 0 && cases[i][1] >= 0;

		split_count(&r, cases[i][0], cases[i][1], cases[i][2]);
		EXPECT(r.cross_cpu == (uint64_t)cases[i][3] && r.migrations == (uint64_t)cases[i][4] &&
		       r.cpu_known == known, "case %zu: cross %llu of %llu known, migrations %llu",
		       i, (unsigned long long)r.cross_cpu, (unsigned long long)r.cpu_known,
		       (unsigned long long)r.migrations);
	}
	return true;
}

/* ---- the kernel's stamp of a wake-up by the task's own timer ---- */

#define US NSEC_PER_USEC
#define WAKING(t, c) { .ts = (t), .cpu = (c), .type = SE_WAKING }
#define TIMED(at, run, rcpu) { .t_wake = (at), .t_run = (run), .run_cpu = (rcpu), \
			       .flags = PREC_WOKEN | PREC_TIMER }

/*
 * Each record against the trace: the last sched_waking from its instant to
 * its run (each widened by the trace's half microsecond, the stamp then
 * held within them), none outside, none for a waker's or a trace unread.
 */
static bool test_kernel_waking(void)
{
	static const struct sched_ev ev[] = {
		{ .ts = 900 * US, .cpu = 0, .type = SE_WAKEUP },	/* not a sched_waking */
		WAKING(999 * US, 0),			/* before the first's instant: not its */
		WAKING(1020 * US, 1),			/* the first's: 20 us after, on CPU 1 */
		WAKING(2000 * US - 400, 0),		/* the second's, printed 0.4 us early */
		WAKING(3000 * US, 0), WAKING(3060 * US, 1),	/* the third's: the last */
		WAKING(4100 * US + 400, 0),		/* the fourth's, printed after its run */
	};
	static const struct {
		struct period_rec p;
		uint64_t want;
		int cpu;
	} cases[] = {
		{ TIMED(1000 * US, 1100 * US, 0), 1020 * US, 1 },
		{ TIMED(2000 * US, 2050 * US, 0), 2000 * US, 0 },
		{ TIMED(3000 * US, 3070 * US, 1), 3060 * US, 1 },
		{ TIMED(4000 * US, 4100 * US, 0), 4100 * US, 0 },
		{ TIMED(5000 * US, 5100 * US, 0), 0, -1 },	/* none in the trace */
		{ { .t_wake = 1000 * US, .t_run = 1100 * US, .flags = PREC_WOKEN }, 0, -1 },
		{ { .t_wake = 1000 * US, .t_run = 1100 * US, .flags = PREC_TIMER }, 0, -1 },
	};
	struct sched_trace tr = { .ev = (struct sched_ev *)ev, .n = ARRAY_SIZE(ev), .read = true };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int cpu;
		uint64_t w = kernel_waking(&tr, &cases[i].p, &cpu);

		EXPECT(w == cases[i].want && cpu == cases[i].cpu, "record %zu: %llu on CPU %d", i,
		       (unsigned long long)w, cpu);
	}
	tr.read = false;
	EXPECT(!kernel_waking(&tr, &cases[0].p, &(int){ 0 }), "a trace not read stamped");
	EXPECT(!kernel_waking(NULL, &cases[0].p, &(int){ 0 }), "no trace stamped");
	return true;
}

/*
 * A row's records split at the stamps: the timer's and the scheduler's parts
 * add up to each stamped wake-up's latency; the CPU it was woken on against
 * the one it ran on, where that is known.
 */
static bool test_kernel_split(void)
{
	static const struct sched_ev ev[] = {
		WAKING(1020 * US, 1), WAKING(2005 * US, 0), WAKING(3010 * US, 0),
	};
	static const struct period_rec rec[] = {
		TIMED(1000 * US, 1100 * US, 0),			/* 20 + 80, woken across */
		TIMED(2000 * US, 2015 * US, 0),			/* 5 + 10 */
		TIMED(3000 * US, 3500 * US, -1),		/* 10 + 490, its CPU not known */
		TIMED(4000 * US, 4300 * US, 0),			/* not stamped */
	};
	struct sched_trace tr = { .ev = (struct sched_ev *)ev, .n = ARRAY_SIZE(ev), .read = true };
	static struct kernel_split ks;

	latency_init(&ks.timer);
	latency_init(&ks.sched);
	kernel_split_of(&tr, rec, ARRAY_SIZE(rec), &ks);
	EXPECT(ks.timer.r.n == 3 && ks.sched.r.n == 3, "%llu stamped",
	       (unsigned long long)ks.timer.r.n);
	EXPECT(fabs(ks.timer.r.mean - 35.0 / 3 * US) < 1e-6 &&
	       fabs(ks.sched.r.mean - 580.0 / 3 * US) < 1e-6, "timer %.0f + sched %.0f ns",
	       ks.timer.r.mean, ks.sched.r.mean);
	EXPECT(ks.timer.r.max == 20 * US && ks.sched.r.max == 490 * US, "max %llu, %llu",
	       (unsigned long long)ks.timer.r.max, (unsigned long long)ks.sched.r.max);
	EXPECT(ks.cpu_known == 2 && ks.cross_cpu == 1, "%llu across of %llu known",
	       (unsigned long long)ks.cross_cpu, (unsigned long long)ks.cpu_known);
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
	/* 0.25 ms behind a kworker (its timer's sched_waking first: no wait of its own); 2 us */
	/* after idle */
	W "2181.249990: sched_waking: comm=ib-Audio pid=2845 prio=120 target_cpu=000",
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

void unit_core_split(void)
{
	check("split: queue wait + wake path = latency for every recorded sample",
	      test_split_recorded());
	check("split: schedstat's text", test_parse_schedstat());
	check("split: cross-CPU wake-ups and migrations", test_split_count());
	check("split: a timer's wake-up stamped by its sched_waking, the trace's rounding held",
	      test_kernel_waking());
	check("split: timer + scheduler = the latency of each wake-up the trace stamped",
	      test_kernel_split());
	check("ran instead: recorded trace lines, weighted by queue wait", test_ran_instead());
	check("ran instead: lost events and an empty trace", test_ran_lost());
}
