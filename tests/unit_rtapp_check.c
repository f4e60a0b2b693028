// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_rtapp_check.c - unit tests of the checks of an rt-app file before it runs: who
 * wakes whom, mutexes, deadlocks, limits, priorities, SCHED_DEADLINE and CPUs. */
#include <stdio.h>
#include <string.h>

#include "core/defs.h"
#include "task/rtapp.h"

#include "tests/unit.h"

struct check_case {
	const char *what;
	const char *json;			/* ' for " */
	const struct rtapp_limits *lim;		/* NULL: no limit but RTAPP_MAX_THREADS */
	const char *want;			/* the error line; NULL: it passes */
};

static const struct rtapp_limits open_limits = {
	.max_threads = RTAPP_MAX_THREADS, .nproc_room = -1,
};
static const struct rtapp_limits nproc_10 = { .max_threads = 1024, .nproc_room = 10 };
static const struct rtapp_limits mem_64m = {
	.max_threads = 1024, .nproc_room = -1, .stack_bytes = 8 << 20, .mem_bytes = 64 << 20,
};
static const struct rtapp_limits two_cpus = { .max_threads = 1024, .nproc_room = -1, .ncpus = 2 };

static const struct check_case cases[] = {
	/* who wakes whom */
	{ "two threads that resume each other pass",
	  "{'tasks': {'a': {'run': 1, 'resume': 'b', 'suspend'}, "
	  "'b': {'run': 1, 'resume': 'a', 'suspend'}}}", NULL, NULL },
	{ "a resume nobody suspends on",
	  "{'tasks': {'a': {'run': 1,\n 'resume': 'b'}, 'b': {'run': 1}}}", NULL,
	  "t.json:2: tasks.a: 'resume' of 'b': no other thread suspends or waits on 'b'" },
	{ "a signal nobody waits on",
	  "{'tasks': {'a': {'lock': 'm', 'signal': 'q', 'unlock': 'm'}}}", NULL,
	  "t.json:1: tasks.a: 'signal' of 'q': no other thread suspends or waits on 'q'" },
	{ "a broad nobody waits on",
	  "{'tasks': {'a': {'broad1': 'q'}, 'b': {'broad': 'q'}}}", NULL,
	  "t.json:1: tasks.a: 'broad1' of 'q': no other thread suspends or waits on 'q'" },
	{ "a suspend nobody resumes",
	  "{'tasks': {'a': {'run': 1,\n 'suspend'}}}", NULL,
	  "t.json:2: tasks.a: 'suspend' on 'a': no other thread resumes or signals 'a', so it "
	  "would wait forever" },
	{ "a suspend only its own thread resumes",
	  "{'tasks': {'a': {'resume': 'a', 'suspend': 'a'}}}", NULL,
	  "t.json:1: tasks.a: 'resume' of 'a': no other thread suspends or waits on 'a'" },
	{ "a suspend another instance of the thread resumes passes",
	  "{'tasks': {'a': {'instance': 2, 'resume': 'a', 'suspend': 'a'}}}", NULL, NULL },
	{ "a wait nobody signals",
	  "{'tasks': {'a': {'lock': 'm', 'wait': {'ref': 'q', 'mutex': 'm'}, 'unlock': 'm'}}}",
	  NULL, "t.json:1: tasks.a: 'wait' on 'q': no other thread resumes or signals 'q', so "
	  "it would wait forever" },
	{ "a signal wakes a suspend of the same name (one condition)",
	  "{'tasks': {'a': {'suspend': 'x'}, 'b': {'signal': 'x', 'run': 1}}}", NULL, NULL },
	{ "a sync with a thread that signals and waits passes",
	  "{'tasks': {'a': {'lock': 'm', 'sync': {'ref': 'q', 'mutex': 'm'}, 'unlock': 'm'}, "
	  "'b': {'lock': 'm', 'wait': {'ref': 'q', 'mutex': 'm'}, 'signal': 'q', 'unlock': 'm'}}}",
	  NULL, NULL },
	{ "a barrier two threads meet passes",
	  "{'tasks': {'a': {'run': 1, 'barrier': 'B'}, 'b': {'sleep': 1, 'barrier': 'B'}}}",
	  NULL, NULL },
	{ "a barrier one thread would meet alone",
	  "{'tasks': {'a': {'barrier': 'B', 'run': 1,\n 'barrier1': 'B'}}}", NULL,
	  "t.json:1: tasks.a: 'barrier' 'B': no other thread meets it, so it would wait for "
	  "itself forever" },
	{ "a barrier named once passes (rt-app lets its one user through)",
	  "{'tasks': {'a': {'barrier': 'B', 'run': 1}}}", NULL, NULL },
	/* mutexes */
	{ "a phase that ends holding a mutex",
	  "{'tasks': {'a': {'phases': {'p': {'run': 1,\n 'lock': 'm', 'run1': 1}, "
	  "'q': {'unlock': 'm'}}}}}", NULL,
	  "t.json:2: tasks.a.phases.p: phase 'p' ends holding mutex 'm', locked here: it must "
	  "unlock it before it ends" },
	{ "an unlock of a mutex not held",
	  "{'tasks': {'a': {'run': 1,\n 'unlock': 'm'}}}", NULL,
	  "t.json:2: tasks.a: 'unlock' of mutex 'm' it does not hold" },
	{ "a lock of a mutex already held",
	  "{'tasks': {'a': {'lock': 'm',\n 'lock1': 'm', 'unlock': 'm', 'unlock1': 'm'}}}", NULL,
	  "t.json:2: tasks.a: 'lock1' of mutex 'm' it already holds (locked at line 1): it "
	  "would wait for itself" },
	{ "a wait without its mutex held",
	  "{'tasks': {'a': {'wait': {'ref': 'q', 'mutex': 'm'}}, 'b': {'signal': 'q'}}}", NULL,
	  "t.json:1: tasks.a: 'wait' on 'q' without holding its mutex 'm': lock it first" },
	{ "a sync without its mutex held",
	  "{'tasks': {'a': {'lock': 'n', 'sync': {'ref': 'q', 'mutex': 'm'}, 'unlock': 'n'}, "
	  "'b': {'lock': 'm', 'wait': {'ref': 'q', 'mutex': 'm'}, 'signal': 'q', 'unlock': 'm'}}}",
	  NULL, "t.json:1: tasks.a: 'sync' on 'q' without holding its mutex 'm': lock it first" },
	{ "a resume while holding the mutex of its name",
	  "{'tasks': {'a': {'lock': 'b', 'resume': 'b', 'unlock': 'b'}, 'b': {'suspend'}}}", NULL,
	  "t.json:1: tasks.a: 'resume' of 'b' while holding mutex 'b', which it takes itself: "
	  "it would wait for itself" },
	{ "more mutexes held than the checks follow",
	  "{'tasks': {'a': {'lock': 'a', 'lock1': 'b', 'lock2': 'c', 'lock3': 'd', 'lock4': 'e', "
	  "'lock5': 'f', 'lock6': 'g', 'lock7': 'h', 'lock8': 'i', 'lock9': 'j', 'lock10': 'k', "
	  "'lock11': 'l', 'lock12': 'm', 'lock13': 'n', 'lock14': 'o', 'lock15': 'p', "
	  "'lock16': 'q'}}}", NULL,
	  "t.json:1: tasks.a: 'lock16' of mutex 'q': more than 16 mutexes held at once" },
	/* the order mutexes are taken in */
	{ "two threads that take two mutexes in the same order pass",
	  "{'tasks': {'a': {'lock': 'A', 'lock1': 'B', 'unlock': 'B', 'unlock1': 'A'}, "
	  "'b': {'lock': 'A', 'lock1': 'B', 'unlock': 'B', 'unlock1': 'A'}}}", NULL, NULL },
	{ "two threads that take two mutexes in opposite orders",
	  "{'tasks': {\n'a': {'lock': 'A', 'lock1': 'B', 'unlock': 'B', 'unlock1': 'A'},\n"
	  "'b': {'lock': 'B', 'lock1': 'A', 'unlock': 'A', 'unlock1': 'B'}}}", NULL,
	  "t.json:2: tasks.a: threads take mutexes in an order that can deadlock: tasks.a holds "
	  "'A' and takes 'B' (line 2), tasks.b holds 'B' and takes 'A' (line 3)" },
	{ "one thread alone may take them in both orders",
	  "{'tasks': {'a': {'phases': {'p': {'lock': 'A', 'lock1': 'B', 'unlock': 'B', "
	  "'unlock1': 'A'}, 'q': {'lock': 'B', 'lock1': 'A', 'unlock': 'A', 'unlock1': 'B'}}}}}",
	  NULL, NULL },
	{ "but two instances of it can deadlock",
	  "{'tasks': {'a': {'instance': 2, 'phases': {\n'p': {'lock': 'A', 'lock1': 'B', "
	  "'unlock': 'B', 'unlock1': 'A'},\n'q': {'lock': 'B', 'lock1': 'A', 'unlock': 'A', "
	  "'unlock1': 'B'}}}}}", NULL,
	  "t.json:2: tasks.a.phases.p: threads take mutexes in an order that can deadlock: "
	  "tasks.a.phases.p holds 'A' and takes 'B' (line 2), tasks.a.phases.q holds 'B' and "
	  "takes 'A' (line 3)" },
	{ "three threads around a cycle of three mutexes",
	  "{'tasks': {\n'a': {'lock': 'A', 'lock1': 'B', 'unlock': 'B', 'unlock1': 'A'},\n"
	  "'b': {'lock': 'B', 'lock1': 'C', 'unlock': 'C', 'unlock1': 'B'},\n"
	  "'c': {'lock': 'C', 'lock1': 'A', 'unlock': 'A', 'unlock1': 'C'}}}", NULL,
	  "t.json:2: tasks.a: threads take mutexes in an order that can deadlock: tasks.a holds "
	  "'A' and takes 'B' (line 2), tasks.b holds 'B' and takes 'C' (line 3), tasks.c holds "
	  "'C' and takes 'A' (line 4)" },
	{ "a mutex held across a wait, taken in the opposite order by another thread",
	  "{'tasks': {\n'a': {'lock': 'A', 'lock1': 'm', 'wait': {'ref': 'q', 'mutex': 'm'}, "
	  "'unlock': 'm', 'unlock1': 'A'},\n'b': {'lock': 'm', 'lock1': 'A', 'signal': 'q', "
	  "'unlock': 'A', 'unlock1': 'm'}}}", NULL,
	  "t.json:2: tasks.a: threads take mutexes in an order that can deadlock: tasks.a holds "
	  "'A' and takes 'm' (line 2), tasks.b holds 'm' and takes 'A' (line 3)" },
	/* limits */
	{ "RTAPP_MAX_THREADS threads pass",
	  "{'tasks': {'a': {'instance': 1000, 'run': 1}, 'b': {'instance': 24, 'run': 1}}}",
	  NULL, NULL },
	{ "more threads than RTAPP_MAX_THREADS",
	  "{'tasks': {'a': {'instance': 1000, 'run': 1},\n 'b': {'instance': 25, 'run': 1}}}",
	  NULL, "t.json:2: tasks.b: its instances make 1025 threads: more than the 1024 "
	  "interbench runs" },
	{ "more threads than RLIMIT_NPROC allows",
	  "{'tasks': {'a': {'instance': 11, 'run': 1}}}", &nproc_10,
	  "t.json:1: tasks.a: its instances make 11 threads: more than the 10 RLIMIT_NPROC "
	  "still allows" },
	{ "stacks that fit the memory pass", "{'tasks': {'a': {'instance': 8, 'run': 1}}}",
	  &mem_64m, NULL },
	{ "more stacks than the memory",
	  "{'tasks': {'a': {'instance': 8, 'run': 1}, 'b': {'run': 1}}}", &mem_64m,
	  "t.json:1: tasks.b: its instances make 9 threads, whose stacks (8192 KiB each) need "
	  "more than the 64 MiB available" },
	/* scheduling */
	{ "a nice value of 20",
	  "{'tasks': {'a': {'run': 1,\n 'priority': 20}}}", NULL,
	  "t.json:2: tasks.a: 'priority' 20 is out of range for SCHED_OTHER (a nice value, -20 "
	  "to 19)" },
	{ "a SCHED_FIFO priority of 0",
	  "{'tasks': {'a': {'policy': 'SCHED_FIFO', 'priority': 0, 'run': 1}}}", NULL,
	  "t.json:1: tasks.a: 'priority' 0 is out of range for SCHED_FIFO (1 to 99)" },
	{ "a SCHED_RR priority of 100 in a phase",
	  "{'tasks': {'a': {'policy': 'SCHED_RR', 'phases': {'p': {\n'priority': 100, "
	  "'run': 1}}}}}", NULL,
	  "t.json:2: tasks.a.phases.p: 'priority' 100 is out of range for SCHED_RR (1 to 99)" },
	{ "a nice value left from the thread is reset by a phase's new policy",
	  "{'tasks': {'a': {'priority': -5, 'phases': {'p': {'policy': 'SCHED_FIFO', "
	  "'run': 1}}}}}", NULL, NULL },
	{ "a priority with SCHED_DEADLINE",
	  "{'tasks': {'a': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 100, 'priority': 5, "
	  "'run': 1}}}", NULL,
	  "t.json:1: tasks.a: 'priority' has no meaning for SCHED_DEADLINE" },
	{ "SCHED_DEADLINE without a runtime",
	  "{'tasks': {'a': {'policy': 'SCHED_DEADLINE', 'run': 1}}}", NULL,
	  "t.json:1: tasks.a: SCHED_DEADLINE needs a 'dl-runtime' above 0 µs" },
	{ "SCHED_DEADLINE with a deadline past its period",
	  "{'tasks': {'a': {'policy': 'SCHED_DEADLINE',\n 'dl-runtime': 100, 'dl-deadline': "
	  "2000, 'dl-period': 1000, 'run': 1}}}", NULL,
	  "t.json:2: tasks.a: SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period (here "
	  "100, 2000 and 1000 µs)" },
	{ "SCHED_DEADLINE with a runtime past its deadline",
	  "{'tasks': {'a': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 600, 'dl-deadline': 500, "
	  "'dl-period': 1000, 'run': 1}}}", NULL,
	  "t.json:1: tasks.a: SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period (here "
	  "600, 500 and 1000 µs)" },
	{ "consistent SCHED_DEADLINE parameters pass",
	  "{'tasks': {'a': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 500, 'dl-deadline': 500, "
	  "'dl-period': 1000, 'run': 1}}}", NULL, NULL },
	{ "dl- keys with another policy",
	  "{'tasks': {'a': {'policy': 'SCHED_FIFO', 'dl-period': 1000, 'run': 1}}}", NULL,
	  "t.json:1: tasks.a: the dl- keys apply to SCHED_DEADLINE only (the policy is "
	  "SCHED_FIFO)" },
	{ "a phase's dl- keys checked as the thread's",
	  "{'tasks': {'a': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 10, 'phases': {'p': "
	  "{\n'dl-runtime': 20, 'dl-period': 10, 'run': 1}}}}}", NULL,
	  "t.json:2: tasks.a.phases.p: SCHED_DEADLINE needs dl-runtime <= dl-deadline <= "
	  "dl-period (here 20, 10 and 10 µs)" },
	/* CPUs */
	{ "CPUs the machine has pass",
	  "{'tasks': {'a': {'cpus': [0, 1], 'run': 1}}}", &two_cpus, NULL },
	{ "a CPU the machine lacks",
	  "{'tasks': {'a': {'cpus': [0, 2], 'run': 1}}}", &two_cpus,
	  "t.json:1: tasks.a: 'cpus' names CPU 2: the machine has CPUs 0 to 1" },
	{ "a phase's CPU the machine lacks",
	  "{'tasks': {'a': {'phases': {'p': {\n'cpus': [3], 'run': 1}}}}}", &two_cpus,
	  "t.json:2: tasks.a.phases.p: 'cpus' names CPU 3: the machine has CPUs 0 to 1" },
	{ "CPUs are not checked when the count is unknown",
	  "{'tasks': {'a': {'cpus': [4095], 'run': 1}}}", NULL, NULL },
};

static bool test_check(const struct check_case *c)
{
	struct rtapp_file f;
	char err[1024] = "";
	int ret = unit_rtapp_read(c->json, &f, err, sizeof(err));

	if (!ret)
		ret = rtapp_check(&f, c->lim ? c->lim : &open_limits, err, sizeof(err));
	rtapp_free(&f);
	if (!c->want) {
		EXPECT(!ret, "refused: %.900s", err);
		return true;
	}
	EXPECT(ret < 0, "passed");
	EXPECT(!strcmp(err, c->want), "\n  '%.480s'\n  want '%.480s'", err, c->want);
	EXPECT(!strchr(err, '\n'), "more than one line");
	return true;
}

static bool test_nthreads(void)
{
	struct rtapp_file f;
	char err[512];
	int n;

	EXPECT(!unit_rtapp_read("{'tasks': {'a': {'instance': 3, 'run': 1}, 'b': {'run': 1}}}",
				&f, err, sizeof(err)), "%s", err);
	n = rtapp_nthreads(&f);
	rtapp_free(&f);
	EXPECT(n == 4, "%d threads, want 4", n);
	return true;
}

void unit_rtapp_check(void)
{
	char name[200];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(name, sizeof(name), "rtapp_check: %s%s", cases[i].what,
			 cases[i].want ? ": refused" : "");
		check(name, test_check(&cases[i]));
	}
	check("rtapp_nthreads() counts every instance", test_nthreads());
}
