// SPDX-License-Identifier: GPL-2.0-or-later
/* task/sched_policy.c - the scheduling knobs as data: the classes' names, their checks, a
 * deadline task's parameters, the attributes read back. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "task/task.h"

const char *const policy_names[] = {
	[POL_OTHER] = "other", [POL_BATCH] = "batch", [POL_IDLE] = "idle",
	[POL_FIFO] = "fifo", [POL_RR] = "rr", [POL_DEADLINE] = "deadline", NULL,
};
const char *const load_policy_names[] = { "other", "batch", "idle", NULL };

bool policy_is_rt(int policy)
{
	return policy == POL_FIFO || policy == POL_RR || policy == POL_DEADLINE;
}

int policy_of(int policy, bool realtime)
{
	if (policy >= 0)
		return policy;
	return realtime ? POL_FIFO : POL_OTHER;
}

/*
 * SCHED_DEADLINE for a task of fixed work: deadline = period, rounded down
 * to whole ns (the reservation is then a hair larger, never smaller), and
 * 1.25 x the work as runtime, rounded up, so the task's own overhead and a
 * cache-cold period do not throttle it; never more than the period.
 */
void dl_params(uint64_t period_num, uint64_t period_den, uint64_t work_ns, uint64_t *runtime,
	       uint64_t *period)
{
	uint64_t p = period_num / period_den, r = (work_ns * 5 + 3) / 4;

	*period = p;
	*runtime = r < p ? r : p;
}

/* A percentage as the kernel's utilization scale, rounded to nearest. */
int uclamp_value(int pct)
{
	return pct < 0 ? -1 : (pct * UCLAMP_SCALE + 50) / 100;
}

/* Nothing to ask of the kernel: the task stays as 0.31 ran it. */
bool task_sched_is_default(const struct task_sched *ts)
{
	return ts->policy == POL_OTHER && !ts->slice_ns && ts->util_min < 0 && ts->util_max < 0;
}

/* What sched_getattr() read back against what was set: 0, or one line in err. */
int sched_readback(const struct task_sched *want, const struct ib_sched_attr *got, char *err,
		   size_t errlen)
{
	if (want->slice_ns && got->sched_runtime != want->slice_ns)
		return set_err(err, errlen, "--slice %llu: the kernel did not keep it (the task's "
			       "slice reads back as %llu us; a custom EEVDF slice needs Linux 6.12 "
			       "or later)", (unsigned long long)(want->slice_ns / NSEC_PER_USEC),
			       (unsigned long long)(got->sched_runtime / NSEC_PER_USEC));
	if ((want->util_min >= 0 && got->sched_util_min != (uint32_t)want->util_min) ||
	    (want->util_max >= 0 && got->sched_util_max != (uint32_t)want->util_max))
		return set_err(err, errlen, "--uclamp-min/--uclamp-max: the kernel did not keep "
			       "them (read back %u-%u of %d)", got->sched_util_min,
			       got->sched_util_max, UCLAMP_SCALE);
	return 0;
}

/* Why the kernel refused the task's scheduling, in one line; returns -err. */
int sched_error(const struct task_sched *ts, const char *bench, int step, int err,
		long long rt_runtime_us, long long rt_period_us, char *buf, size_t len)
{
	const char *pol = policy_names[ts->policy];

	if (step == SCHED_STEP_UCLAMP && err == EOPNOTSUPP)
		snprintf(buf, len, "--uclamp-min/--uclamp-max: this kernel has no utilization "
			 "clamping (CONFIG_UCLAMP_TASK)");
	else if (step == SCHED_STEP_UCLAMP)
		snprintf(buf, len, "--uclamp-min/--uclamp-max: sched_setattr: %s%s", strerror(err),
			 err == EPERM ? " (raising a clamp needs root or CAP_SYS_NICE)" : "");
	else if (ts->policy == POL_DEADLINE && err == EBUSY)
		snprintf(buf, len, "--policy deadline: admission control refused %s's %llu us "
			 "every %llu us: the deadline bandwidth limit is sched_rt_runtime_us=%lld "
			 "of sched_rt_period_us=%lld per CPU (/proc/sys/kernel), less what other "
			 "deadline tasks hold", bench,
			 (unsigned long long)(ts->dl_runtime_ns / NSEC_PER_USEC),
			 (unsigned long long)(ts->dl_period_ns / NSEC_PER_USEC), rt_runtime_us,
			 rt_period_us);
	else if (err == EPERM)
		snprintf(buf, len, "--policy %s: not permitted: run as root or grant CAP_SYS_NICE%s",
			 pol, ts->policy == POL_DEADLINE ? ", with every CPU allowed (no taskset)" :
			 "");
	else
		snprintf(buf, len, "--policy %s%s: sched_setattr for %s: %s", pol,
			 ts->slice_ns ? " --slice" : "", bench, strerror(err));
	return -err;
}
