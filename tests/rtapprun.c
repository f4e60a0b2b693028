// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/rtapprun.c - runs an rt-app workload file through the engine in this process, as a
 * bench process would, and prints each thread object's figures on a line. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "lib/util.h"
#include "task/rtapp.h"
#include "task/rtapp_run.h"

/*
 * usage: rtapprun [--waker] [--waker-prio N] [--no-split] [--watchdog-ms N] [--loops LPM]
 *                 [--nice N] FILE SECONDS
 * (--waker: a timer's thread is woken by its waker, --wake waker's; else by its own timer)
 * Loads and checks FILE as -W FILE.json would, runs it for SECONDS
 * (decimals allowed) and prints, per thread object in file order:
 *   name=T instances=1 end=stopped wakeups=N timer_wakeups=N resume_wakeups=N
 *   wake_mean_ns=N wake_max_ns=N timer_mean_ns=N timer_max_ns=N met=N missed=N
 *   dropped=0 slack_mean_us=X slack_min_us=X wu_lat_mean_us=X wu_lat_max_us=X
 *   queue_mean_ns=N path_mean_ns=N cross_cpu=N migrations=N events=N
 *   work_ratio=X waits_on=...
 * then "run status=ok|failed wall_ms=X reason=...". --nice N schedules
 * every thread SCHED_OTHER at nice N whatever the file says, as -B does
 * through rtapp_run_params. Exit 0 when the run
 * went as it should, 1 when it failed, 2 when the file was refused.
 */

struct opts {
	struct rtapp_run_params p;
	const char *file;
	double seconds;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	long v;
	int i = 1;

	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--no-split")) {
			o->p.split = false;
			continue;
		}
		if (!strcmp(a, "--waker")) {
			o->p.wake = WAKE_WAKER;
			continue;
		}
		if (parse_long(argv[i + 1], -20, 100000000, &v))
			die("%s: not a number: %s", a, argv[i + 1]);
		if (!strcmp(a, "--waker-prio") && v >= 0 && v <= 99)
			o->p.waker_prio = (int)v;
		else if (!strcmp(a, "--watchdog-ms") && v >= 0)
			o->p.watchdog_ns = (uint64_t)v * NSEC_PER_MSEC;
		else if (!strcmp(a, "--loops") && v > 0)
			o->p.work = WORK_LOOPS, o->p.loops_per_ms = (unsigned long)v;
		else if (!strcmp(a, "--nice") && v <= 19)
			o->p.sched_set = true, o->p.sched = (struct task_sched){ .policy = POL_OTHER,
				.nice = (int)v, .util_min = -1, .util_max = -1 };
		else
			die("unknown option or value: %s %s", a, argv[i + 1]);
		i++;
	}
	if (argc - i != 2)
		die("usage: rtapprun [--waker] [--waker-prio N] [--no-split] [--watchdog-ms N] "
		    "[--loops LPM] [--nice N] FILE SECONDS");
	o->file = argv[i];
	if (parse_double(argv[i + 1], 0.001, 3600, &o->seconds))
		die("SECONDS: want 0.001 to 3600, got %s", argv[i + 1]);
}

/* What this machine allows, for rtapp_check(). */
static void limits_of(struct rtapp_limits *lim)
{
	struct rlimit rl;

	*lim = (struct rtapp_limits){ .max_threads = RTAPP_MAX_THREADS, .nproc_room = -1,
				      .stack_bytes = RTAPP_RUN_STACK, .ncpus = online_cpus() };
	if (!getrlimit(RLIMIT_NPROC, &rl) && rl.rlim_cur != RLIM_INFINITY)
		lim->nproc_room = (long)rl.rlim_cur;
}

static double us(double ns)
{
	return ns / 1e3;
}

static void print_obj(const struct rtapp_obj_result *o)
{
	const struct split_result *sp = &o->split;

	printf("name=%s instances=%d end=%s wakeups=%llu timer_wakeups=%llu resume_wakeups=%llu",
	       o->name, o->instances, rtapp_end_name(o->end),
	       (unsigned long long)o->wake.r.n, (unsigned long long)o->timer_wakeups,
	       (unsigned long long)o->resume_wakeups);
	printf(" wake_mean_ns=%.0f wake_max_ns=%llu timer_mean_ns=%.0f timer_max_ns=%llu",
	       o->wake.r.mean, (unsigned long long)(o->wake.r.n ? o->wake.r.max : 0),
	       o->timer.r.mean, (unsigned long long)(o->timer.r.n ? o->timer.r.max : 0));
	printf(" met=%llu missed=%llu dropped=%llu slack_mean_us=%.1f slack_min_us=%.1f",
	       (unsigned long long)o->periods.met, (unsigned long long)o->periods.missed,
	       (unsigned long long)o->dropped, us(span_mean(&o->periods.slack)),
	       us((double)o->periods.slack.min));
	printf(" wu_lat_mean_us=%.1f wu_lat_max_us=%.1f", us(span_mean(&o->periods.wu_lat)),
	       us((double)o->periods.wu_lat.max));
	printf(" queue_mean_ns=%.0f path_mean_ns=%.0f cross_cpu=%llu migrations=%llu",
	       sp->state == SPLIT_ON ? sp->queue.r.mean : -1.0,
	       sp->state == SPLIT_ON ? sp->path.r.mean : -1.0,
	       (unsigned long long)sp->cross_cpu, (unsigned long long)sp->migrations);
	printf(" events=%llu work_ratio=%.3f waits_on=%s\n", (unsigned long long)o->events,
	       rtapp_work_ratio(o), o->waits_on);
}

int main(int argc, char **argv)
{
	struct opts o = { .p = { .work = WORK_CPU, .wake = WAKE_TIMER,
				 .slack_ns = TIMER_SLACK_DEFAULT_NS, .waker_prio = 41,
				 .split = true } };
	struct rtapp_file f = { 0 };
	struct rtapp_limits lim;
	struct rtapp_result *res;
	char err[1024], note[1024];
	int ret;

	progname = "rtapprun";
	parse_args(argc, argv, &o);
	limits_of(&lim);
	if (rtapp_load(&f, o.file, err, sizeof(err)) || rtapp_check(&f, &lim, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		rtapp_free(&f);
		return 2;
	}
	rtapp_ignored_note(&f, note, sizeof(note));
	if (note[0])
		fprintf(stderr, "%s\n", note);
	res = calloc(1, sizeof(*res));
	if (!res)
		die("out of memory for the results (%zu bytes)", sizeof(*res));
	ret = rtapp_run(&f, &o.p, (uint64_t)(o.seconds * 1e9), NULL, res);
	for (int i = 0; i < res->nobjs; i++)
		print_obj(&res->obj[i]);
	printf("run status=%s wall_ms=%.1f reason=%s\n", ret ? "failed" : "ok",
	       (double)res->wall_ns / 1e6, res->reason);
	free(res);
	rtapp_free(&f);
	return ret ? 1 : 0;
}
