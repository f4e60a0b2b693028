// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/splitcost.c - the task CPU the wake-up split costs per period: its reads, timed alone. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "interbench.h"

/*
 * What the task does for the split in each period, with nothing else: the
 * switch count before it blocks (the read it saves when the task was not
 * preempted), the read and sched_getcpu() after it runs, and two
 * samples into the statistics. Prints the thread CPU time per period in ns,
 * the best of a few batches (a disturbance only adds time).
 */
int main(int argc, char **argv)
{
	static struct split_result res;
	long n = argc > 1 ? atol(argv[1]) : 100000;
	double best = 0;

	if (n <= 0)
		return 2;
	for (int batch = 0; batch < 5; batch++) {
		struct split_probe pr;
		uint64_t t0;
		double per;

		split_probe_open(&pr, &res, 1);
		if (res.state != SPLIT_ON) {
			fprintf(stderr, "splitcost: no schedstat on this kernel\n");
			return 1;
		}
		t0 = thread_cpu_ns();
		for (long i = 0; i < n; i++) {
			split_before(&pr);
			split_after(&pr, 1000 + (uint64_t)i % 5000, 0);
		}
		per = (double)(thread_cpu_ns() - t0) / (double)n;
		split_probe_close(&pr);
		if (!batch || per < best)
			best = per;
	}
	printf("%.0f\n", best);
	return 0;
}
