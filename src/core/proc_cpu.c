// SPDX-License-Identifier: GPL-2.0-or-later
/* core/proc_cpu.c - processes' CPU time from /proc's text: a run's own tree, the CPU the
 * others used over a row, and the busiest of them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/proc_cpu.h"

#define TREE_DEPTH_MAX 64	/* a parent chain longer than this is a loop in a torn scan */

/*
 * "pid (comm) state ppid pgrp ... utime stime cutime cstime ... starttime":
 * the name may hold spaces and parentheses, so the fields are counted from
 * its last ')'. utime is field 14, starttime 22 (proc(5)).
 */
int proc_cpu_parse(const char *stat, struct proc_cpu *p)
{
	const char *open = strchr(stat, '('), *close = strrchr(stat, ')');
	unsigned long long ut, st, cut, cst, start;
	int n;

	if (!open || !close || close < open)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	if (sscanf(stat, "%d", &p->pid) != 1)
		return -EINVAL;
	n = (int)(close - open - 1);
	snprintf(p->comm, sizeof(p->comm), "%.*s", n < 15 ? n : 15, open + 1);
	if (sscanf(close + 1, " %*c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu "
		   "%*d %*d %*d %*d %llu", &p->ppid, &p->pgrp, &ut, &st, &cut, &cst, &start) != 7)
		return -EINVAL;
	p->own = ut + st;
	p->reaped = cut + cst;
	p->start = start;
	return 0;
}

/* The first line of /proc/stat: the ticks tasks ran, user + nice + system (not irq, softirq,
 * steal or idle: no task's). */
int proc_stat_busy(const char *text, unsigned long long *busy)
{
	unsigned long long user, nice, sys;

	if (sscanf(text, "cpu %llu %llu %llu", &user, &nice, &sys) != 3)
		return -EINVAL;
	*busy = user + nice + sys;
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_cpu *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

void proc_cpu_sort(struct proc_cpu *p, size_t n)
{
	if (n)
		qsort(p, n, sizeof(*p), by_pid);
}

static const struct proc_cpu *find(const struct proc_cpu *p, size_t n, int pid)
{
	struct proc_cpu key = { .pid = pid };

	return n ? bsearch(&key, p, n, sizeof(*p), by_pid) : NULL;
}

/* Whether pid is root or a descendant of it, by the parents of the (sorted) scan. */
bool proc_in_tree(const struct proc_cpu *p, size_t n, int pid, int root)
{
	for (int depth = 0; depth < TREE_DEPTH_MAX && pid > 0; depth++) {
		const struct proc_cpu *q;

		if (pid == root)
			return true;
		q = find(p, n, pid);
		if (!q)
			return false;
		pid = q->ppid;
	}
	return false;
}

/*
 * The CPU time of root's tree in a scan: each live descendant's own and
 * reaped time (every tick counted once: by the process while it lives, by
 * whoever reaped it after); root's too with with_root (else only what it
 * reaped).
 */
unsigned long long proc_tree_ticks(const struct proc_cpu *p, size_t n, int root, bool with_root)
{
	unsigned long long t = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i].pid == root)
			t += (with_root ? p[i].own : 0) + p[i].reaped;
		else if (proc_in_tree(p, n, p[i].pid, root))
			t += p[i].own + p[i].reaped;
	}
	return t;
}

/*
 * The process outside root's tree that used the most CPU between scans a
 * and b (sorted): its index in b, its ticks in *ticks; -1 when none ran.
 * One new since a counts its whole time.
 */
int proc_top_other(const struct proc_cpu *a, size_t na, const struct proc_cpu *b, size_t nb,
		   int root, unsigned long long *ticks)
{
	int top = -1;

	*ticks = 0;
	for (size_t i = 0; i < nb; i++) {
		const struct proc_cpu *was = find(a, na, b[i].pid);
		unsigned long long d = b[i].own;

		if (was && was->start == b[i].start)
			d = b[i].own >= was->own ? b[i].own - was->own : 0;
		if (d > *ticks && !proc_in_tree(b, nb, b[i].pid, root)) {
			*ticks = d;
			top = (int)i;
		}
	}
	return top;
}

/* Percent of one CPU the others used: the tasks' busy time less the run's own, never below 0. */
double foreign_cpu_pct(double busy_ns, double own_ns, double wall_ns)
{
	double d = busy_ns - own_ns;

	if (!(wall_ns > 0))
		return -1.0;
	return d > 0 ? 100.0 * d / wall_ns : 0.0;
}
