// SPDX-License-Identifier: GPL-2.0-or-later
/* calibrate.c - loops_per_ms: measure it, save it with the machine's identity, load it. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interbench.h"
#include "sysinfo.h"

/* The unit of simulated work; the empty asm keeps the compiler from folding it. */
void burn_loops(uint64_t loops)
{
	for (uint64_t i = 0; i < loops; i++)
		__asm__ __volatile__("" : "+r"(i));
}

#define CAL_WARMUP_NS (250 * NSEC_PER_MSEC)	/* lets the clock frequency settle */
#define CAL_BATCH_MS 10				/* CPU time per measurement */
#define CAL_WINDOW 15				/* batches judged together */
#define CAL_AGREE 11				/* of them within the tolerance */
#define CAL_VERIFY 5				/* batches after the pause */
#define CAL_PAUSE_NS (100 * NSEC_PER_MSEC)
#define CAL_BUDGET_NS (2500 * NSEC_PER_MSEC)	/* stays under the 3 s target */
#define CAL_TOLERANCE 0.01

/* Loops per ms of this thread's CPU time, over one batch of about ms. */
static double measure_rate(double lpm, unsigned ms)
{
	uint64_t loops = (uint64_t)(lpm * ms), c0, c1;

	c0 = thread_cpu_ns();
	burn_loops(loops);
	c1 = thread_cpu_ns();
	if (c1 <= c0)
		return lpm;
	return (double)loops * 1e6 / (double)(c1 - c0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[CAL_WINDOW];

	memcpy(s, v, (size_t)n * sizeof(*v));
	qsort(s, (size_t)n, sizeof(s[0]), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static int agreeing(const double *v, int n, double m)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += fabs(v[i] - m) <= m * CAL_TOLERANCE;
	return k;
}

/* Run on the CPU we are on now, so the estimate is of one CPU. */
static bool pin_here(cpu_set_t *saved)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(*saved), saved) < 0)
		return false;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) == 0;
}

/*
 * Measure loops_per_ms at normal priority (it is CPU time that is measured,
 * so being preempted does not matter and RT throttling cannot be tripped).
 * Of the last 15 batches, 11 must lie within 1 % of their median, so a
 * short disturbance (an interrupt storm, a busy hyperthread sibling) does
 * not move the estimate; then 5 more batches after a pause must agree.
 * Returns 0; 1 when it would not settle within the budget (the median of
 * the last window is used); -EINTR when stopped.
 */
int calibrate_measure(unsigned long *lpm, double *spread, uint64_t *took_ns,
		      volatile sig_atomic_t *stop)
{
	uint64_t t0 = now_ns(), c0;
	double est, win[CAL_WINDOW], ver[CAL_VERIFY], m = 0.0, sorted[CAL_WINDOW];
	cpu_set_t saved;
	bool pinned = pin_here(&saved);
	int n = 0, ret = 1;

	c0 = thread_cpu_ns();
	est = 0;
	while (now_ns() - t0 < CAL_WARMUP_NS) {
		burn_loops(100000);
		est += 100000;
	}
	est = est * 1e6 / (double)(thread_cpu_ns() - c0 + 1);

	while (now_ns() - t0 < CAL_BUDGET_NS) {
		if (stop && *stop) {
			ret = -EINTR;
			break;
		}
		win[n++ % CAL_WINDOW] = measure_rate(est, CAL_BATCH_MS);
		if (n < CAL_WINDOW)
			continue;
		m = median(win, CAL_WINDOW);
		est = m;
		if (agreeing(win, CAL_WINDOW, m) < CAL_AGREE)
			continue;
		sleep_ns(CAL_PAUSE_NS);
		for (int i = 0; i < CAL_VERIFY; i++)
			ver[i] = measure_rate(m, CAL_BATCH_MS);
		if (fabs(median(ver, CAL_VERIFY) - m) <= m * CAL_TOLERANCE) {
			ret = 0;
			break;
		}
		n = 0;		/* the machine changed: start a new window */
	}
	if (pinned)
		sched_setaffinity(0, sizeof(saved), &saved);
	if (n >= CAL_WINDOW || ret == 0) {
		memcpy(sorted, win, sizeof(win));
		qsort(sorted, CAL_WINDOW, sizeof(sorted[0]), cmp_double);
		/* spread of the middle two thirds of the window */
		*spread = (sorted[CAL_WINDOW - 3] - sorted[2]) / m;
	} else {
		m = est;
		*spread = 1.0;
	}
	*lpm = m >= 1.0 ? (unsigned long)(m + 0.5) : 1;
	*took_ns = now_ns() - t0;
	return ret;
}

/* 0 when the file holds a value for this CPU and kernel; else -errno. */
int calibration_load(const char *path, unsigned long *lpm)
{
	char buf[1024], model[256], release[256], *line, *save = NULL;
	char want_model[256], want_release[256];
	bool have_model = false, have_release = false;
	long v = 0;
	int ret;

	ret = read_small_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	sysinfo_cpu_model(want_model, sizeof(want_model));
	sysinfo_kernel_release(want_release, sizeof(want_release));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "loops_per_ms ", 13)) {
			if (parse_long(line + 13, 1, 1L << 40, &v))
				return -EINVAL;
		} else if (!strncmp(line, "cpu_model ", 10)) {
			snprintf(model, sizeof(model), "%s", line + 10);
			have_model = true;
		} else if (!strncmp(line, "kernel_release ", 15)) {
			snprintf(release, sizeof(release), "%s", line + 15);
			have_release = true;
		}
	}
	if (!v || !have_model || !have_release)
		return -EINVAL;
	if (strcmp(model, want_model) || strcmp(release, want_release))
		return -ESTALE;
	*lpm = (unsigned long)v;
	return 0;
}

int calibration_save(const char *path, unsigned long lpm)
{
	char buf[1024], model[256], release[256];
	int len;

	sysinfo_cpu_model(model, sizeof(model));
	sysinfo_kernel_release(release, sizeof(release));
	len = snprintf(buf, sizeof(buf),
		       "# interbench: iterations of the busy loop per ms of CPU time\n"
		       "loops_per_ms %lu\ncpu_model %s\nkernel_release %s\n",
		       lpm, model, release);
	return replace_file(path, buf, (size_t)len);
}
