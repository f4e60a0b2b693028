// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_proc_cpu.c - unit tests of the core: /proc's stat lines read, a run's process
 * tree summed, and the CPU that tasks not of it used. */
#include <math.h>
#include <string.h>

#include "core/defs.h"
#include "core/proc_cpu.h"
#include "tests/unit.h"

/* A name with spaces and parentheses: the fields count from its last ')'. */
static bool test_parse(void)
{
	static const char line[] = "4242 (a (b) c) R 17 4242 4242 0 -1 4194560 120 0 0 0 "
				   "250 31 7 2 20 0 3 0 987654 1000 100 18446744073709551615";
	struct proc_cpu p;
	unsigned long long busy;

	EXPECT(!proc_cpu_parse(line, &p), "parse");
	EXPECT(p.pid == 4242 && p.ppid == 17 && p.pgrp == 4242, "ids %d %d %d", p.pid, p.ppid,
	       p.pgrp);
	EXPECT(p.own == 281 && p.reaped == 9 && p.start == 987654, "times %llu %llu %llu", p.own,
	       p.reaped, p.start);
	EXPECT(!strcmp(p.comm, "a (b) c"), "comm '%s'", p.comm);
	EXPECT(proc_cpu_parse("4242 no name", &p) < 0, "a line without a name");
	EXPECT(!proc_stat_busy("cpu  100 5 40 9000 12 3 4 6 0 0\ncpu0 1 2 3", &busy) &&
	       busy == 145, "busy %llu: user + nice + system", busy);
	EXPECT(proc_stat_busy("intr 1 2 3", &busy) < 0, "not the cpu line");
	return true;
}

#define P(pid, ppid, start, own, reaped) { pid, ppid, pid, start, own, reaped, "p" }

/*
 * The run is 100 (a load 101 under it, whose child 102 runs a command 103);
 * 200 and 300 are not the run's. Between the scans 102 ended, reaped by
 * 101 (its time moved to 101's reaped), 103 ran on, 300 left and a new 301
 * came, and pid 200 is another process of the same pid.
 */
static struct proc_cpu scan_a[] = {
	P(100, 1, 10, 50, 0), P(101, 100, 11, 5, 0), P(102, 101, 12, 30, 0),
	P(103, 102, 13, 40, 0), P(200, 1, 20, 1000, 0), P(300, 1, 30, 10, 0),
};
static struct proc_cpu scan_b[] = {
	P(100, 1, 10, 52, 0), P(101, 100, 11, 6, 35), P(103, 101, 13, 90, 0),
	P(200, 1, 25, 70, 0), P(301, 1, 31, 80, 0),
};

static bool test_tree(void)
{
	unsigned long long top;
	int i;

	proc_cpu_sort(scan_a, ARRAY_SIZE(scan_a));
	proc_cpu_sort(scan_b, ARRAY_SIZE(scan_b));
	EXPECT(proc_in_tree(scan_a, ARRAY_SIZE(scan_a), 103, 100), "103 is the run's");
	EXPECT(!proc_in_tree(scan_a, ARRAY_SIZE(scan_a), 200, 100), "200 is not");
	EXPECT(proc_tree_ticks(scan_a, ARRAY_SIZE(scan_a), 100, true) == 125, "tree a %llu",
	       proc_tree_ticks(scan_a, ARRAY_SIZE(scan_a), 100, true));
	/* 52 + 6 + 35 + 90: 102's 35 counted once, by its reaper */
	EXPECT(proc_tree_ticks(scan_b, ARRAY_SIZE(scan_b), 100, true) == 183, "tree b %llu",
	       proc_tree_ticks(scan_b, ARRAY_SIZE(scan_b), 100, true));
	EXPECT(proc_tree_ticks(scan_b, ARRAY_SIZE(scan_b), 101, false) == 125, "under 101 %llu",
	       proc_tree_ticks(scan_b, ARRAY_SIZE(scan_b), 101, false));
	i = proc_top_other(scan_a, ARRAY_SIZE(scan_a), scan_b, ARRAY_SIZE(scan_b), 100, &top);
	/* 301 is new (80); 200 is a new process too (70), not 1000 less */
	EXPECT(i >= 0 && scan_b[i].pid == 301 && top == 80, "top %d: %llu",
	       i >= 0 ? scan_b[i].pid : -1, top);
	return true;
}

static bool test_foreign_pct(void)
{
	EXPECT(fabs(foreign_cpu_pct(1.9e9, 1.0e9, 1e9) - 90.0) < 1e-9, "a loop beside the run");
	EXPECT(foreign_cpu_pct(1.0e9, 1.02e9, 1e9) == 0.0, "the run's own, rounded: never < 0");
	EXPECT(fabs(foreign_cpu_pct(3.5e9, 0.5e9, 2e9) - 150.0) < 1e-9, "1.5 CPUs over 2 s");
	EXPECT(foreign_cpu_pct(1e9, 0, 0) < 0, "no time: not measured");
	return true;
}

void unit_core_proc_cpu(void)
{
	check("proc: a stat line read, names with spaces and parentheses", test_parse());
	check("proc: the run's tree summed, each tick once; the busiest other", test_tree());
	check("proc: foreign CPU is the busy time less the run's", test_foreign_pct());
}
