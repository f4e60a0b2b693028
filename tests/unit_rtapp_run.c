// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_rtapp_run.c - unit tests of the rt-app engine, each a run of a fraction of a
 * second: what it refuses before starting, loops that end, a prompt end whatever threads wait
 * on, barriers, a refused CPU list, a deadlock named. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "task/rtapp.h"
#include "task/rtapp_run.h"

#include "tests/unit.h"

static const struct rtapp_run_params params = {
	.work = WORK_CPU, .wake = WAKE_TIMER, .slack_ns = TIMER_SLACK_DEFAULT_NS, .waker_prio = 0,
	.split = true,
};

/* text (' for ") run for ms (0: until *stop) into *res, malloc'd; the run's return. */
static int run_text(const char *text, uint64_t ms, atomic_int *stop,
		    const struct rtapp_run_params *p, struct rtapp_result **res, uint64_t *took)
{
	struct rtapp_file f;
	char err[512];
	uint64_t t0;
	int ret;

	*res = calloc(1, sizeof(**res));
	if (!*res || unit_rtapp_read(text, &f, err, sizeof(err))) {
		snprintf(detail, sizeof(detail), "%s", *res ? err : "out of memory");
		rtapp_free(&f);
		return -EINVAL;
	}
	t0 = now_ns();
	ret = rtapp_run(&f, p ? p : &params, ms * NSEC_PER_MSEC, stop, *res);
	*took = now_ns() - t0;
	rtapp_free(&f);
	return ret;
}

static const struct rtapp_obj_result *obj(const struct rtapp_result *res, const char *name)
{
	for (int i = 0; i < res->nobjs; i++)
		if (!strcmp(res->obj[i].name, name))
			return &res->obj[i];
	return NULL;
}

static bool test_refused(void)
{
	char text[4096], name[140];
	struct rtapp_result *res;
	size_t n = snprintf(text, sizeof(text), "{'tasks': {");
	uint64_t took;
	int ret;

	for (int i = 0; i <= RTAPP_RUN_MAX_OBJS; i++)
		n += snprintf(text + n, sizeof(text) - n, "%s't%d': {'run': 1}", i ? ", " : "", i);
	snprintf(text + n, sizeof(text) - n, "}}");
	ret = run_text(text, 100, NULL, NULL, &res, &took);
	EXPECT(ret == -E2BIG && strstr(res->reason, "65 thread objects: more than the 64"),
	       "65 objects: %d %s", ret, res->reason);
	free(res);
	memset(name, 'n', 130);
	name[130] = '\0';
	snprintf(text, sizeof(text), "{'tasks': {'%s': {'run': 1}}}", name);
	ret = run_text(text, 100, NULL, NULL, &res, &took);
	EXPECT(ret == -ENAMETOOLONG && strstr(res->reason, "a name of 130 bytes") &&
	       res->status == ROW_FAILED, "a long name: %d %s", ret, res->reason);
	free(res);
	return true;
}

/* Three loops of a 5 ms timer: done well before the row's 2 s, three periods, six events. */
/*
 * Each way of waking a timer's thread: on its own timer no waker's delay
 * is kept and its slack is read back (1 ns), with its waker each timer
 * wake-up has the waker's delay too.
 */
static bool test_loops_end(void)
{
	static const struct rtapp_run_params waker = {
		.work = WORK_CPU, .wake = WAKE_WAKER, .slack_ns = 1, .split = true,
	};
	const struct rtapp_run_params *ways[] = { NULL, &waker };

	for (int w = 0; w < 2; w++) {
		struct rtapp_result *res;
		const struct rtapp_obj_result *o;
		uint64_t took, timers;
		int ret = run_text("{'tasks': {'a': {'loop': 3, 'run': 200, 'timer': {'ref': 'x', "
				   "'period': 5000}}}}", 2000, NULL, ways[w], &res, &took);

		o = obj(res, "a");
		EXPECT(!ret && o && o->end == RTAPP_END_DONE, "%d %s, ended %s", ret, res->reason,
		       o ? rtapp_end_name(o->end) : "?");
		EXPECT(took < 500 * NSEC_PER_MSEC, "3 loops of 5 ms took %.0f ms",
		       (double)took / 1e6);
		timers = w ? o->timer_wakeups : 0;
		EXPECT(o->periods.met + o->periods.missed == 3 && o->events == 6 &&
		       o->timer_wakeups <= 3 && o->wake.r.n == o->timer_wakeups &&
		       o->timer.r.n == timers && o->timer_slack_ns == (w ? -1 : 1),
		       "%s: periods %llu+%llu events %llu wake-ups %llu, timer %llu, slack %ld",
		       w ? "waker" : "own timer", (unsigned long long)o->periods.met,
		       (unsigned long long)o->periods.missed, (unsigned long long)o->events,
		       (unsigned long long)o->timer_wakeups, (unsigned long long)o->timer.r.n,
		       o->timer_slack_ns);
		free(res);
	}
	return true;
}

/* Waiting on a 5 s timer, a 5 s sleep, a condition, a barrier and a mutex: all end at once. */
static const char *const waiting =
	"{'tasks': {'slow': {'run': 10, 'timer': {'ref': 't', 'period': 5000000}},"
	" 'sleeper': {'sleep': 5000000, 'resume': 'w'}, 'w': {'suspend'},"
	" 'b1': {'run': 10, 'barrier': 'B'}, 'b2': {'sleep': 5000000, 'barrier': 'B'},"
	" 'h': {'lock': 'm', 'sleep': 5000000, 'unlock': 'm'},"
	" 'l': {'sleep': 1000, 'lock': 'm', 'unlock': 'm'}}}";

static bool all_stopped(const struct rtapp_result *res)
{
	for (int i = 0; i < res->nobjs; i++)
		EXPECT(res->obj[i].end == RTAPP_END_STOPPED, "%s ended %s", res->obj[i].name,
		       rtapp_end_name(res->obj[i].end));
	return true;
}

static bool test_prompt_end(void)
{
	struct rtapp_result *res;
	atomic_int stop = 1;
	uint64_t took;
	int ret = run_text(waiting, 200, NULL, NULL, &res, &took);

	EXPECT(!ret && res->status == ROW_OK, "%d %s", ret, res->reason);
	EXPECT(took < 700 * NSEC_PER_MSEC, "a 200 ms run took %.0f ms", (double)took / 1e6);
	if (!all_stopped(res))
		return false;
	free(res);
	ret = run_text(waiting, 0, &stop, NULL, &res, &took);
	EXPECT(!ret && took < 500 * NSEC_PER_MSEC, "told to stop at once: %d, %.0f ms, %s", ret,
	       (double)took / 1e6, res->reason);
	if (!all_stopped(res))
		return false;
	free(res);
	return true;
}

/* Two threads meeting at a barrier each loop, one slower: both do all their loops. */
static bool test_barrier(void)
{
	struct rtapp_result *res;
	uint64_t took;
	int ret = run_text("{'tasks': {'a': {'loop': 20, 'run': 1000, 'barrier': 'B'}, "
			   "'b': {'loop': 20, 'run': 50, 'barrier': 'B'}}}", 3000, NULL, NULL, &res,
			   &took);

	EXPECT(!ret, "%d %s", ret, res->reason);
	for (int i = 0; i < 2; i++)
		EXPECT(res->obj[i].end == RTAPP_END_DONE && res->obj[i].events == 40,
		       "%s: %s after %llu events", res->obj[i].name,
		       rtapp_end_name(res->obj[i].end), (unsigned long long)res->obj[i].events);
	EXPECT(took >= 20 * NSEC_PER_MSEC, "20 loops of 1 ms in %.1f ms", (double)took / 1e6);
	free(res);
	return true;
}

/* CPUs the machine cannot have: the run fails before it starts, naming thread and call. */
static bool test_refused_cpus(void)
{
	struct rtapp_result *res;
	uint64_t took;
	int ret = run_text("{'tasks': {'a': {'cpus': [4000], 'run': 10}, 'b': {'run': 10}}}",
			   1000, NULL, NULL, &res, &took);

	EXPECT(ret == -EINVAL && res->status == ROW_FAILED &&
	       !strncmp(res->reason, "tasks.a: sched_setaffinity to CPUs 4000: Invalid argument",
			57), "%d %s", ret, res->reason);
	EXPECT(obj(res, "a")->end == RTAPP_END_FAILED && obj(res, "b")->end == RTAPP_END_STOPPED,
	       "a %s, b %s", rtapp_end_name(obj(res, "a")->end),
	       rtapp_end_name(obj(res, "b")->end));
	EXPECT(took < 500 * NSEC_PER_MSEC, "it took %.0f ms to fail", (double)took / 1e6);
	free(res);
	return true;
}

/*
 * The checks pass it (no cycle in the order of mutexes), but holder keeps M
 * while it is suspended, and resumer needs M to resume it.
 */
static bool test_deadlock(void)
{
	struct rtapp_run_params p = params;
	struct rtapp_result *res;
	uint64_t took;
	int ret;

	p.watchdog_ns = 300 * NSEC_PER_MSEC;
	ret = run_text("{'tasks': {'holder': {'lock': 'M', 'suspend': 'S', 'unlock': 'M', "
		       "'run': 100}, 'resumer': {'run': 200, 'lock': 'M', 'resume': 'S', "
		       "'unlock': 'M'}}}", 5000, NULL, &p, &res, &took);
	EXPECT(ret == -EDEADLK && res->status == ROW_FAILED &&
	       strstr(res->reason, "holder (suspend 'S', holding 'M')") &&
	       strstr(res->reason, "resumer (lock 'M', held by holder)"), "%d %s", ret,
	       res->reason);
	EXPECT(obj(res, "holder")->end == RTAPP_END_DEADLOCK &&
	       !strcmp(obj(res, "resumer")->waits_on, "lock 'M', held by holder"),
	       "holder %s, resumer waits on %s", rtapp_end_name(obj(res, "holder")->end),
	       obj(res, "resumer")->waits_on);
	EXPECT(took < 1500 * NSEC_PER_MSEC, "found after %.0f ms", (double)took / 1e6);
	free(res);
	return true;
}

void unit_rtapp_run(void)
{
	check("rt-app engine: too many thread objects, a name too long: refused before running",
	      test_refused());
	check("rt-app engine: threads whose loops run out end the run early, periods counted",
	      test_loops_end());
	check("rt-app engine: the row's end or *stop ends threads on timers, sleeps, conditions, "
	      "barriers and mutexes at once", test_prompt_end());
	check("rt-app engine: a barrier holds the faster thread back each loop", test_barrier());
	check("rt-app engine: a CPU list the kernel refuses fails the run, naming the thread",
	      test_refused_cpus());
	check("rt-app engine: a deadlock the checks cannot see ends the run, naming who waits on "
	      "what", test_deadlock());
}
