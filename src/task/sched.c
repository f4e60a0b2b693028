// SPDX-License-Identifier: GPL-2.0-or-later
/* task/sched.c - the scheduling knobs applied: the task's class, slice and clamps, the loads'
 * class, a trial run. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/task.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
/* include/uapi/linux/sched.h; <linux/sched.h> does not mix with <sched.h> */
#define IB_FLAG_KEEP_POLICY 0x08
#define IB_FLAG_KEEP_PARAMS 0x10
#define IB_FLAG_UTIL_CLAMP_MIN 0x20
#define IB_FLAG_UTIL_CLAMP_MAX 0x40

static const int kernel_policy[] = {
	[POL_OTHER] = SCHED_OTHER, [POL_BATCH] = SCHED_BATCH, [POL_IDLE] = SCHED_IDLE,
	[POL_FIFO] = SCHED_FIFO, [POL_RR] = SCHED_RR, [POL_DEADLINE] = SCHED_DEADLINE,
};

/* On the calling thread; 0 or -errno. */
static int set_attr(struct ib_sched_attr *a)
{
	a->size = sizeof(*a);
	return syscall(SYS_sched_setattr, 0, a, 0) ? -errno : 0;
}

static long long proc_number(const char *path)
{
	char buf[32];
	long v;

	if (read_small_file(path, buf, sizeof(buf)) || parse_long(buf, -1, LONG_MAX, &v))
		return -1;
	return v;
}

static int refused(const struct task_sched *ts, const char *bench, int step, int ret, char *err,
		   size_t errlen)
{
	return sched_error(ts, bench, step, -ret,
			   proc_number("/proc/sys/kernel/sched_rt_runtime_us"),
			   proc_number("/proc/sys/kernel/sched_rt_period_us"), err, errlen);
}

/* The class and its parameters, then the clamps, then what the kernel kept. */
int sched_apply(const struct task_sched *ts, const char *bench, char *err, size_t errlen)
{
	struct ib_sched_attr a = { .sched_policy = (uint32_t)kernel_policy[ts->policy] };
	int ret;

	if (ts->policy == POL_FIFO || ts->policy == POL_RR) {
		a.sched_priority = (uint32_t)ts->rt_priority;
	} else if (ts->policy == POL_DEADLINE) {
		a.sched_runtime = ts->dl_runtime_ns;
		a.sched_deadline = a.sched_period = ts->dl_period_ns;
	} else {
		a.sched_nice = ts->nice;
		a.sched_runtime = ts->slice_ns;	/* EEVDF's custom slice, 0: the default */
	}
	ret = set_attr(&a);
	if (ret)
		return refused(ts, bench, SCHED_STEP_POLICY, ret, err, errlen);
	if (ts->util_min >= 0 || ts->util_max >= 0) {
		memset(&a, 0, sizeof(a));
		a.sched_flags = IB_FLAG_KEEP_POLICY | IB_FLAG_KEEP_PARAMS;
		if (ts->util_min >= 0) {
			a.sched_flags |= IB_FLAG_UTIL_CLAMP_MIN;
			a.sched_util_min = (uint32_t)ts->util_min;
		}
		if (ts->util_max >= 0) {
			a.sched_flags |= IB_FLAG_UTIL_CLAMP_MAX;
			a.sched_util_max = (uint32_t)ts->util_max;
		}
		ret = set_attr(&a);
		if (ret)
			return refused(ts, bench, SCHED_STEP_UCLAMP, ret, err, errlen);
	}
	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0))
		return refused(ts, bench, SCHED_STEP_POLICY, -errno, err, errlen);
	return sched_readback(ts, &a, err, errlen) ? -ENOTSUP : 0;
}

/* --load-policy, in a load process before it starts its threads, which inherit it. */
int sched_load_policy(int policy)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (policy == POL_OTHER)
		return 0;
	return sched_setscheduler(0, kernel_policy[policy], &sp) ? -errno : 0;
}
