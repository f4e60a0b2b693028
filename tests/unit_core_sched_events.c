// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_sched_events.c - unit tests of the core: a trace instance's lines as one task's
 * scheduler events. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/defs.h"
#include "core/sched_events.h"

#include "tests/unit.h"

#define TASK 21013			/* the task of the lines below */
#define SEC(s, us) ((uint64_t)(s) * NSEC_PER_SEC + (uint64_t)(us) * NSEC_PER_USEC)

/* Lines of a 6.18 kernel's instance (mono clock), captured; what each says of the task. */
static const struct {
	const char *line;
	bool about;			/* an event of the task */
	struct sched_ev want;
} cases[] = {
	{ "           sleep-21151   [001] dNh3. 15149.921130: sched_wakeup: comm=python3 "
	  "pid=21013 prio=120 target_cpu=001", true,
	  { .ts = SEC(15149, 921130), .cpu = 1, .pid = 21151, .prio = -1, .comm = "sleep",
	    .type = SE_WAKEUP } },
	{ "          <idle>-0       [001] dNs5. 15149.922302: sched_wakeup: comm=python3 "
	  "pid=21013 prio=120 target_cpu=001", true,
	  { .ts = SEC(15149, 922302), .cpu = 1, .pid = 0, .prio = -1, .comm = "<idle>",
	    .type = SE_WAKEUP } },
	/* a kworker that was preempted ("R+") hands the CPU to the task */
	{ "    kworker/u8:1-7486    [001] d..2. 15150.344577: sched_switch: prev_comm=kworker/u8:1 "
	  "prev_pid=7486 prev_prio=120 prev_state=R+ ==> next_comm=python3 next_pid=21013 "
	  "next_prio=120", true,
	  { .ts = SEC(15150, 344577), .cpu = 1, .pid = 7486, .prio = 120, .comm = "kworker/u8:1",
	    .type = SE_SWITCH_IN, .state = 'R' } },
	/* a comm with spaces, both ways */
	{ "       my comm x-21014   [000] d..2. 15149.997825: sched_switch: prev_comm=my comm x "
	  "prev_pid=21014 prev_prio=120 prev_state=R ==> next_comm=python3 next_pid=21013 "
	  "next_prio=120", true,
	  { .ts = SEC(15149, 997825), .cpu = 0, .pid = 21014, .prio = 120, .comm = "my comm x",
	    .type = SE_SWITCH_IN, .state = 'R' } },
	{ "         python3-21013   [000] d..2. 15149.997771: sched_switch: prev_comm=python3 "
	  "prev_pid=21013 prev_prio=120 prev_state=D ==> next_comm=my comm x next_pid=21014 "
	  "next_prio=120", true,
	  { .ts = SEC(15149, 997771), .cpu = 0, .pid = 21014, .prio = 120, .comm = "my comm x",
	    .type = SE_SWITCH_OUT, .state = 'D' } },
	{ "         python3-21013   [001] d..2. 15149.919083: sched_switch: prev_comm=python3 "
	  "prev_pid=21013 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 "
	  "next_prio=120", true,
	  { .ts = SEC(15149, 919083), .cpu = 1, .pid = 0, .prio = 120, .comm = "swapper/1",
	    .type = SE_SWITCH_OUT, .state = 'S' } },
	{ "         python3-21013   [000] d..2. 15150.020094: sched_switch: prev_comm=python3 "
	  "prev_pid=21013 prev_prio=120 prev_state=R+ ==> next_comm=rcu_preempt next_pid=15 "
	  "next_prio=120", true,
	  { .ts = SEC(15150, 20094), .cpu = 0, .pid = 15, .prio = 120, .comm = "rcu_preempt",
	    .type = SE_SWITCH_OUT, .state = 'R' } },
	/* a real-time prev (prio 0) */
	{ "     migration/1-21      [001] d..2. 15149.980330: sched_switch: prev_comm=migration/1 "
	  "prev_pid=21 prev_prio=0 prev_state=S ==> next_comm=python3 next_pid=21013 "
	  "next_prio=120", true,
	  { .ts = SEC(15149, 980330), .cpu = 1, .pid = 21, .prio = 0, .comm = "migration/1",
	    .type = SE_SWITCH_IN, .state = 'S' } },
	{ "    kworker/u8:1-7486    [000] d..3. 15149.997692: sched_migrate_task: comm=python3 "
	  "pid=21013 prio=120 orig_cpu=1 dest_cpu=0", true,
	  { .ts = SEC(15149, 997692), .cpu = 0, .pid = 7486, .prio = -1, .comm = "kworker/u8:1",
	    .type = SE_MIGRATE } },
	/* its own timer's interrupt wakes it: the CPU is the line's, not the target */
	{ "          <idle>-0       [001] d.h3.  1543.063814: sched_waking: comm=python3 "
	  "pid=21013 prio=120 target_cpu=000", true,
	  { .ts = SEC(1543, 63814), .cpu = 1, .pid = 0, .prio = -1, .comm = "<idle>",
	    .type = SE_WAKING } },
	{ "     ibload-Burn-2848    [000] d.h2. 15150.001002: sched_waking: comm=python3 "
	  "pid=21013 prio=120 target_cpu=000", true,
	  { .ts = SEC(15150, 1002), .cpu = 0, .pid = 2848, .prio = -1, .comm = "ibload-Burn",
	    .type = SE_WAKING } },
	{ "          <idle>-0       [001] d.h3.  1543.063814: sched_waking: comm=sleep pid=29409 "
	  "prio=120 target_cpu=001", false, { 0 } },
	/* an exiting task whose name was not saved */
	{ "           <...>-15746   [001] d..2. 15129.858166: sched_switch: prev_comm=sleep "
	  "prev_pid=15746 prev_prio=120 prev_state=Z ==> next_comm=python3 next_pid=21013 "
	  "next_prio=120", true,
	  { .ts = SEC(15129, 858166), .cpu = 1, .pid = 15746, .prio = 120, .comm = "sleep",
	    .type = SE_SWITCH_IN, .state = 'Z' } },
	/* none of the task's */
	{ "            bash-15728   [001] d..2. 15129.853987: sched_switch: prev_comm=bash "
	  "prev_pid=15728 prev_prio=120 prev_state=S ==> next_comm=bash next_pid=15738 "
	  "next_prio=120", false, { 0 } },
	{ "              dd-15743   [001] dN.6. 15129.853940: sched_wakeup: comm=bash pid=15738 "
	  "prio=120 target_cpu=001", false, { 0 } },
	{ "# entries-in-buffer/entries-written: 371/371   #P:2", false, { 0 } },
	{ "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION", false, { 0 } },
	{ "CPU:1 [LOST 3 EVENTS]", false, { 0 } },
	{ "", false, { 0 } },
	/* cut short: no next_pid */
	{ "         python3-21013   [000] d..2. 15150.020094: sched_switch: prev_comm=python3 "
	  "prev_pid=21013 prev_prio=120 prev_state=R+ ==> next_comm=rcu_pre", false, { 0 } },
};

static bool test_parse(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct sched_ev *w = &cases[i].want;
		struct sched_tids ids = { .n = 1, .tid = { TASK } };
		struct sched_ev evs[SE_PER_LINE], ev;
		int n = sched_ev_parse(cases[i].line, &ids, evs);
		bool got = n > 0;

		ev = evs[0];
		EXPECT(n <= 1 && (!got || ev.who == 0), "line %zu: %d events, who %d", i, n, ev.who);

		EXPECT(got == cases[i].about, "line %zu: %s", i, got ? "parsed" : "not parsed");
		if (!got)
			continue;
		EXPECT(ev.type == w->type && ev.ts == w->ts && ev.cpu == w->cpu, "line %zu: type %d "
		       "ts %llu cpu %d", i, ev.type, (unsigned long long)ev.ts, ev.cpu);
		EXPECT(ev.pid == w->pid && ev.prio == w->prio && !strcmp(ev.comm, w->comm),
		       "line %zu: other '%s' %d prio %d", i, ev.comm, ev.pid, ev.prio);
		EXPECT(ev.state == w->state, "line %zu: state '%c'", i, ev.state ? ev.state : '0');
	}
	return true;
}

/* A chain's threads: each event says whose it is; a switch between two of them is two events. */
static bool test_parse_tids(void)
{
	static const struct sched_tids ids = { .n = 3, .tid = { 500, 501, 502 } };
	static const struct {
		const char *line;
		int n;
		struct sched_ev want[SE_PER_LINE];
	} lines[] = {
		{ "   ib-Game-render-501     [001] d..2. 100.000010: sched_switch: "
		  "prev_comm=ib-Game-render prev_pid=501 prev_prio=120 prev_state=S ==> "
		  "next_comm=ib-Game-comp next_pid=502 next_prio=120", 2,
		  { { .ts = SEC(100, 10), .cpu = 1, .pid = 502, .prio = 120, .comm = "ib-Game-comp",
		      .type = SE_SWITCH_OUT, .state = 'S', .who = 1 },
		    { .ts = SEC(100, 10), .cpu = 1, .pid = 501, .prio = 120,
		      .comm = "ib-Game-render", .type = SE_SWITCH_IN, .state = 'S', .who = 2 } } },
		{ "     ib-Game-502     [000] dN.4. 100.000020: sched_wakeup: comm=ib-Game-job0 "
		  "pid=500 prio=120 target_cpu=000", 1,
		  { { .ts = SEC(100, 20), .cpu = 0, .pid = 502, .prio = -1, .comm = "ib-Game",
		      .type = SE_WAKEUP, .who = 0 } } },
		{ "     ibload-Burn-900     [000] d..2. 100.000030: sched_switch: "
		  "prev_comm=ibload-Burn prev_pid=900 prev_prio=120 prev_state=R+ ==> "
		  "next_comm=ib-Game-comp next_pid=502 next_prio=120", 1,
		  { { .ts = SEC(100, 30), .cpu = 0, .pid = 900, .prio = 120, .comm = "ibload-Burn",
		      .type = SE_SWITCH_IN, .state = 'R', .who = 2 } } },
		{ "     ib-Game-job0-500     [000] d..2. 100.000040: sched_switch: "
		  "prev_comm=ib-Game-job0 prev_pid=500 prev_prio=120 prev_state=R+ ==> "
		  "next_comm=swapper/0 next_pid=0 next_prio=120", 1,
		  { { .ts = SEC(100, 40), .cpu = 0, .pid = 0, .prio = 120, .comm = "swapper/0",
		      .type = SE_SWITCH_OUT, .state = 'R', .who = 0 } } },
		/* another instance's stage, named as ours: not ours */
		{ "     ib-Game-job0-700     [000] dN.4. 100.000050: sched_wakeup: "
		  "comm=ib-Game-job0 pid=700 prio=120 target_cpu=000", 0, { { 0 } } },
		{ "     ib-Game-job0-700     [000] d..2. 100.000060: sched_switch: "
		  "prev_comm=ib-Game-job0 prev_pid=700 prev_prio=120 prev_state=S ==> "
		  "next_comm=swapper/0 next_pid=0 next_prio=120", 0, { { 0 } } },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct sched_ev ev[SE_PER_LINE];
		int n = sched_ev_parse(lines[i].line, &ids, ev);

		EXPECT(n == lines[i].n, "line %zu: %d events, want %d", i, n, lines[i].n);
		for (int k = 0; k < n && k < lines[i].n; k++) {
			const struct sched_ev *w = &lines[i].want[k], *e = &ev[k];

			EXPECT(e->type == w->type && e->ts == w->ts && e->cpu == w->cpu &&
			       e->who == w->who && e->state == w->state, "line %zu/%d: type %d "
			       "ts %llu cpu %d who %d state %c", i, k, e->type,
			       (unsigned long long)e->ts, e->cpu, e->who, e->state ? e->state : '0');
			EXPECT(e->pid == w->pid && e->prio == w->prio && !strcmp(e->comm, w->comm),
			       "line %zu/%d: other '%s' %d prio %d", i, k, e->comm, e->pid, e->prio);
		}
	}
	EXPECT(sched_tids_find(&ids, 502) == 2 && sched_tids_find(&ids, 7) < 0 &&
	       sched_tids_find(NULL, 500) < 0, "find");
	return true;
}

static bool test_lost_lines(void)
{
	EXPECT(sched_trace_says_lost("# entries-in-buffer/entries-written: 10/12   #P:2"),
	       "overwritten entries");
	EXPECT(!sched_trace_says_lost("# entries-in-buffer/entries-written: 12/12   #P:2"),
	       "a whole buffer");
	EXPECT(sched_trace_says_lost("CPU:0 [LOST 123 EVENTS]"), "a [LOST] mark");
	EXPECT(!sched_trace_says_lost(cases[0].line), "an event");
	return true;
}

/* The bound: events past it are not kept, and the trace says it lost some. */
static bool test_bound(void)
{
	struct sched_trace t = { 0 };
	struct sched_ev ev = { .type = SE_WAKEUP };
	size_t kept = 0;

	for (int i = 0; i < 700; i++) {
		ev.ts = (uint64_t)i;
		kept += sched_trace_add(&t, &ev, 600);
	}
	EXPECT(kept == 600 && t.n == 600 && t.lost && t.ev[599].ts == 599, "kept %zu, n %zu",
	       kept, t.n);
	sched_trace_free(&t);
	EXPECT(!t.ev && !t.n && !t.lost, "freed");
	return true;
}

void unit_core_sched_events(void)
{
	check("scheduler events: captured trace lines of one task", test_parse());
	check("scheduler events: a chain's threads, each event its thread's", test_parse_tids());
	check("scheduler events: the lines that say events were lost", test_lost_lines());
	check("scheduler events: bounded, and lost past the bound", test_bound());
}
