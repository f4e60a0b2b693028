// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/splitcost.c - the task CPU the wake-up split and the period record cost per period: warm,
 * and after a sleep. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/record.h"
#include "run/child.h"
#include "model/config.h"
#include "model/plan.h"
#include "task/task.h"

static struct split_result res;

static bool probe_open(struct split_probe *pr)
{
	split_probe_open(pr, &res, 1);
	if (res.state == SPLIT_ON)
		return true;
	fprintf(stderr, "splitcost: no schedstat on this kernel\n");
	return false;
}

/* The thread CPU time of n calls of step, per call in ns. */
static double per_call(long n, void (*step)(struct split_probe *, long), struct split_probe *pr)
{
	uint64_t t0 = thread_cpu_ns();

	for (long i = 0; i < n; i++)
		step(pr, i);
	return (double)(thread_cpu_ns() - t0) / (double)n;
}

static void split_step(struct split_probe *pr, long i)
{
	int cpu;

	split_before(pr);
	split_after(pr, 1000 + (uint64_t)i % 5000, 0, &cpu);
}

/*
 * What a period's record costs the task (--timeline, --explain, --plot):
 * the record filled from stamps it has anyway, and pushed into a ring that
 * has wrapped, as a row's does once it is full.
 */
#define RING_CAP 65536
static struct period_rec ring_store[RING_CAP];
static struct period_ring ring = { .rec = ring_store, .cap = RING_CAP };

static void record_step(struct split_probe *pr, long i)
{
	struct period_rec rec = { .k = (uint32_t)i, .wake_cpu = 0, .run_cpu = 1 };

	(void)pr;
	rec.t_wake = (uint64_t)i * 1000;
	rec.t_run = rec.t_wake + 5000;
	rec.t_done = rec.t_run + 700000;
	rec.queue_ns = (uint32_t)i & 0xfff;
	rec.flags = PR_WOKEN | PR_QUEUE | PR_DONE;
	period_ring_push(&ring, &rec);
	__asm__ volatile("" : : "r"(&ring) : "memory");	/* the stores are not optimised out */
}

static void ref_step(struct split_probe *pr, long i)
{
	(void)pr;
	(void)i;
	syscall(SYS_getppid);
}

/*
 * Warm: what the task does for the split in each period, with nothing else:
 * the switch count before it blocks (the read it saves when the task was
 * not preempted), the read and sched_getcpu() after it runs, and two
 * samples into the statistics; then the reference, getppid(). The thread
 * CPU time per period in ns of each, the best of a few batches (a
 * disturbance only adds time).
 */
static int warm(long n)
{
	double best = 0, ref = 0;

	for (int batch = 0; batch < 5; batch++) {
		struct split_probe pr;
		double per, r;

		if (!probe_open(&pr))
			return 1;
		per = per_call(n, split_step, &pr);
		r = per_call(n, ref_step, &pr);
		split_probe_close(&pr);
		if (!batch || per < best)
			best = per;
		if (!batch || r < ref)
			ref = r;
	}
	printf("%.0f %.0f\n", best, ref);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Cold: as in a row, where the split's reads come just before the task
 * sleeps and just after it wakes, with the caches and TLBs whatever the
 * sleep left them. Every period of period_us runs the split, as a row does;
 * every other one times it (its step before the sleep and its step after,
 * on the monotonic clock), and the rest time a reference instead: the
 * cheapest system call there is (getppid), first thing after the sleep. Prints the
 * medians in ns: split, then reference.
 */
static int cold(long period_us, long n)
{
	uint64_t *t = calloc(2 * (size_t)n, sizeof(*t)), next = now_ns(), t0, t1, before;
	struct split_probe pr;
	struct timespec ts;
	int cpu;

	if (!t || !probe_open(&pr)) {
		free(t);
		return 1;
	}
	for (long k = 0; k < 2 * n; k++) {
		int ref = k % 2;	/* this period times the reference */

		t0 = now_ns();
		split_before(&pr);
		before = now_ns() - t0;
		next += (uint64_t)period_us * 1000;
		ts.tv_sec = (time_t)(next / 1000000000);
		ts.tv_nsec = (long)(next % 1000000000);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		t0 = now_ns();
		if (ref)
			syscall(SYS_getppid);
		t1 = now_ns();
		split_after(&pr, 1000, 0, &cpu);
		t[ref * n + k / 2] = ref ? t1 - t0 : before + now_ns() - t1;
	}
	split_probe_close(&pr);
	qsort(t, (size_t)n, sizeof(*t), cmp_u64);
	qsort(t + n, (size_t)n, sizeof(*t), cmp_u64);
	printf("%llu %llu\n", (unsigned long long)t[n / 2], (unsigned long long)t[n + n / 2]);
	free(t);
	return 0;
}

/*
 * The record's cost per period and the reference's (getppid), thread CPU
 * ns, the best of five batches of n each.
 */
static int record(long n)
{
	double best = 0, ref = 0;

	memset(ring_store, 0, sizeof(ring_store));	/* touched before, as a row's ring is */
	for (int batch = 0; batch < 5; batch++) {
		double per = per_call(n, record_step, NULL), r = per_call(n, ref_step, NULL);

		if (!batch || per < best)
			best = per;
		if (!batch || r < ref)
			ref = r;
	}
	printf("%.1f %.1f\n", best, ref);
	return 0;
}

/*
 * splitcost [N]: warm, N times; splitcost --cold PERIOD_US N: around sleeps;
 * splitcost --record N: the period record, N times.
 */
int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--record")) {
		long n = atol(argv[2]);

		return n > 0 ? record(n) : 2;
	}
	if (argc == 4 && !strcmp(argv[1], "--cold")) {
		long period = atol(argv[2]), n = atol(argv[3]);

		return period > 0 && n > 0 ? cold(period, n) : 2;
	}
	long n = argc > 1 ? atol(argv[1]) : 100000;

	return n > 0 ? warm(n) : 2;
}
