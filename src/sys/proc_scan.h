/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys/proc_scan.h - every process's CPU time read from /proc at one instant, and what the
 * processes outside a run's tree used between two such scans. */
#ifndef SYS_PROC_SCAN_H
#define SYS_PROC_SCAN_H

#include <stdint.h>
#include <sys/types.h>

#include "core/proc_cpu.h"

struct proc_scan {
	struct proc_cpu *p;		/* every process, sorted by pid; NULL: no scan */
	size_t n;
	uint64_t wall;			/* CLOCK_MONOTONIC at the scan */
	unsigned long long busy;	/* /proc/stat: every CPU's task ticks */
};

struct foreign {			/* what the others used between two scans */
	double pct;			/* percent of one CPU, averaged; < 0: not measured */
	char top[16];			/* the busiest of them, "" when none is known */
	double top_pct;			/* its share, percent of one CPU */
};

int proc_scan_take(struct proc_scan *s);	/* 0, or -errno (s empty) */
void proc_scan_free(struct proc_scan *s);
void foreign_between(const struct proc_scan *a, const struct proc_scan *b, pid_t root,
		     struct foreign *f);
uint64_t proc_children_cpu_ns(void);	/* this process's descendants, reaped and live */

#endif
