/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/proc_cpu.h - processes' CPU time from /proc's text: a run's own tree, the CPU the
 * others used over a row, and the busiest of them. */
#ifndef CORE_PROC_CPU_H
#define CORE_PROC_CPU_H

#include <stdbool.h>
#include <stddef.h>

struct proc_cpu {		/* one process, from /proc/PID/stat */
	int pid, ppid, pgrp;
	unsigned long long start;	/* starttime: with pid, which process this is */
	unsigned long long own;		/* utime + stime, ticks: its threads, live and gone */
	unsigned long long reaped;	/* cutime + cstime: the children it has reaped */
	char comm[16];
};

int proc_cpu_parse(const char *stat, struct proc_cpu *p);	/* 0, or -EINVAL */
int proc_stat_busy(const char *text, unsigned long long *busy);	/* /proc/stat: 0, -EINVAL */
void proc_cpu_sort(struct proc_cpu *p, size_t n);		/* by pid, for the lookups */
bool proc_in_tree(const struct proc_cpu *p, size_t n, int pid, int root);
unsigned long long proc_tree_ticks(const struct proc_cpu *p, size_t n, int root,
				   bool with_root);
int proc_top_other(const struct proc_cpu *a, size_t na, const struct proc_cpu *b, size_t nb,
		   int root, unsigned long long *ticks);
double foreign_cpu_pct(double busy_ns, double own_ns, double wall_ns);

#endif
