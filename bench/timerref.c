// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/timerref.c - the reference a periodic task's latency is held against: a plain thread that
 * sleeps on its own absolute timer, stamps its run first thing, then burns its work in CPU time. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

/*
 * usage: timerref [--period-ns N] [--work-pct P | --x] [--seconds S] [--tick-ns T]
 *                 [--exact] [--slack-ns NS]
 * Nothing of interbench's code: the same shape of task as interbench's (a
 * period, its work as thread CPU time, the period shortened by one tick over
 * the run unless --exact, as --period swept does; --x: frame k of a 100 ms
 * period needs k % 101 ms, X's sweep), woken the way real audio and video
 * threads are, by clock_nanosleep(TIMER_ABSTIME) at timer slack --slack-ns
 * (1 by default). A period reached after its start (the one before overran)
 * is no sample. One line:
 *   samples=N mean_ns=M p50_ns=A p99_ns=B max_ns=C met=D missed=E
 * the latency of each wake-up being its run's stamp less its period's start.
 */

#define NS 1000000000ULL
#define MS 1000000ULL

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

/* Spin until the thread's CPU clock has advanced by ns. */
static void burn(uint64_t ns)
{
	uint64_t until = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < until)
		for (volatile int i = 0; i < 200; i++)
			;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank q-quantile of n sorted values. */
static uint64_t rank(const uint64_t *v, size_t n, double q)
{
	size_t r = (size_t)(q * (double)n);

	if ((double)r < q * (double)n)
		r++;
	return v[r ? r - 1 : 0];
}

struct ref {
	uint64_t period, tick;
	double pct, seconds;
	long slack;
	int x, exact;
};

static void args(int argc, char **argv, struct ref *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--x"))
			o->x = 1;
		else if (!strcmp(a, "--exact"))
			o->exact = 1;
		else if (v && !strcmp(a, "--period-ns") && i++)
			o->period = strtoull(v, NULL, 10);
		else if (v && !strcmp(a, "--work-pct") && i++)
			o->pct = strtod(v, NULL);
		else if (v && !strcmp(a, "--seconds") && i++)
			o->seconds = strtod(v, NULL);
		else if (v && !strcmp(a, "--tick-ns") && i++)
			o->tick = strtoull(v, NULL, 10);
		else if (v && !strcmp(a, "--slack-ns") && i++)
			o->slack = strtol(v, NULL, 10);
		else {
			fprintf(stderr, "timerref: bad argument %s\n", a);
			exit(2);
		}
	}
	if (o->x)
		o->period = 100 * MS;
	if (!o->period || o->seconds <= 0 || o->slack < 1 || o->pct <= 0 || o->pct > 100) {
		fprintf(stderr, "timerref: a period, seconds, a slack of 1 ns or more, 0 < work <= 100 %%\n");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	struct ref o = { .period = 50 * MS, .tick = 4 * MS, .pct = 5, .seconds = 2, .slack = 1 };
	uint64_t n, p, t0, *lat, met = 0, missed = 0, sum = 0;
	size_t got = 0;

	args(argc, argv, &o);
	n = (uint64_t)(o.seconds * 1e9) / o.period;
	p = o.exact || !n ? o.period : o.period - o.tick / n;	/* swept: a tick over the run */
	lat = calloc(n + 1, sizeof(*lat));
	if (!lat || prctl(PR_SET_TIMERSLACK, (unsigned long)o.slack, 0UL, 0UL, 0UL))
		return 1;
	t0 = clock_ns(CLOCK_MONOTONIC) + MS;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t s = t0 + k * p, t_run, work;
		struct timespec ts = { .tv_sec = (time_t)(s / NS), .tv_nsec = (long)(s % NS) };

		if (clock_ns(CLOCK_MONOTONIC) < s) {
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
				;
			t_run = clock_ns(CLOCK_MONOTONIC);
			lat[got++] = t_run - s;
			sum += t_run - s;
		}
		work = o.x ? (k % 101) * MS * p / o.period : (uint64_t)((double)p * o.pct / 100);
		burn(work);
		if (clock_ns(CLOCK_MONOTONIC) <= s + p)
			met++;
		else
			missed++;
	}
	qsort(lat, got, sizeof(*lat), cmp_u64);
	printf("samples=%zu mean_ns=%.0f p50_ns=%llu p99_ns=%llu max_ns=%llu met=%llu missed=%llu\n",
	       got, got ? (double)sum / (double)got : 0.0,
	       (unsigned long long)(got ? rank(lat, got, 0.5) : 0),
	       (unsigned long long)(got ? rank(lat, got, 0.99) : 0),
	       (unsigned long long)(got ? lat[got - 1] : 0), (unsigned long long)met,
	       (unsigned long long)missed);
	free(lat);
	return 0;
}
