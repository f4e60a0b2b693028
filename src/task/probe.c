// SPDX-License-Identifier: GPL-2.0-or-later
/* task/probe.c - the task's side of the split: its schedstat read before it blocks and after
 * it runs. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/task.h"

static bool read_run_delay(int fd, uint64_t *run_delay, uint64_t *runs)
{
	char buf[96];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	return !parse_schedstat(buf, run_delay, runs);
}

/* How often this thread has left its CPU, by blocking or by preemption. */
static uint64_t thread_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return UINT64_MAX;
	return (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

/*
 * Open the calling thread's schedstat once (a test may name another file
 * in INTERBENCH_TEST_SCHEDSTAT, such as one that does not exist). A kernel
 * without CONFIG_SCHED_INFO has no such file; one that says a thread that is
 * running has never been run ("0 0 0") keeps no such statistics: both give
 * the CPUs only.
 */
void split_probe_open(struct split_probe *pr, struct split_result *res, uint64_t t_first)
{
	const char *path = getenv("INTERBENCH_TEST_SCHEDSTAT");
	uint64_t rd, runs = 0;

	memset(pr, 0, sizeof(*pr));
	pr->fd = -1;
	pr->prev_cpu = -1;
	pr->res = res;
	if (!res)
		return;
	res->t_first = t_first;
	res->state = SPLIT_NO_SCHEDSTAT;
	pr->fd = open(path ? path : "/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	pr->run_offset = -(int64_t)thread_switches();	/* first: a switch then shows */
	if (pr->fd >= 0 && (!read_run_delay(pr->fd, &rd, &runs) || !runs)) {
		close(pr->fd);
		pr->fd = -1;
	}
	if (pr->fd < 0)
		return;
	pr->run_offset += (int64_t)runs;
	res->state = SPLIT_ON;
	latency_init(&res->queue);
	latency_init(&res->path);
}

void split_probe_close(struct split_probe *pr)
{
	if (pr->fd >= 0)
		close(pr->fd);
	pr->fd = -1;
}

/*
 * Before posting the request: the run delay so far. It grows only while the
 * task waits to run, so a task that has not left its CPU since the read
 * after its last wake-up still has that value. Whether it left is told by
 * its times run then (schedstat's third field) against its switches out
 * now: while it runs, the two differ by a constant, taken at the start. One
 * cheaper system call instead of the schedstat read, for the same number;
 * any doubt (a switch, no count) reads schedstat again.
 */
void split_before(struct split_probe *pr)
{
	uint64_t runs, sw;

	if (pr->after && (sw = thread_switches()) != UINT64_MAX &&
	    (int64_t)sw + pr->run_offset == (int64_t)pr->after_runs) {
		pr->run_delay = pr->after_delay;
		pr->have = true;
		return;
	}
	pr->have = pr->fd >= 0 && read_run_delay(pr->fd, &pr->run_delay, &runs);
}

/*
 * After t_run is stamped: the wake-up of latency lat, woken from wake_cpu.
 * Its queue wait, UINT64_MAX when not known; the CPU it runs on in *run_cpu.
 */
uint64_t split_after(struct split_probe *pr, uint64_t lat, int wake_cpu, int *run_cpu)
{
	struct split_result *r = pr->res;
	uint64_t rd = 0, runs = 0, queue = UINT64_MAX, path;
	int cpu;

	*run_cpu = -1;
	if (!r)
		return UINT64_MAX;
	cpu = sched_getcpu();
	*run_cpu = cpu;
	pr->after = pr->fd >= 0 && read_run_delay(pr->fd, &rd, &runs);
	pr->after_delay = rd;
	pr->after_runs = runs;
	if (pr->have && pr->after) {
		split_of(lat, pr->run_delay, rd, &queue, &path);
		latency_add(&r->queue, queue);
		latency_add(&r->path, path);
		r->queued += queue > path;
	}
	pr->have = false;
	split_count(r, wake_cpu, cpu, pr->prev_cpu);
	pr->prev_cpu = cpu;
	return queue;
}
