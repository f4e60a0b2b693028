// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs.c - the scheduling knobs as data: checks, the task's attributes, the "Scheduling:" line. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "interbench.h"

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

void task_sched_of(const struct config *cfg, uint64_t period_num, uint64_t period_den,
		   uint64_t work_ns, struct task_sched *ts)
{
	memset(ts, 0, sizeof(*ts));
	ts->policy = policy_of(cfg->policy, cfg->realtime);
	ts->nice = cfg->bench_nice;
	ts->rt_priority = cfg->rt_priority;
	ts->slice_ns = (uint64_t)cfg->slice_us * NSEC_PER_USEC;
	if (ts->policy == POL_DEADLINE && period_den)
		dl_params(period_num, period_den, work_ns, &ts->dl_runtime_ns, &ts->dl_period_ns);
	ts->util_min = uclamp_value(cfg->uclamp_min);
	ts->util_max = uclamp_value(cfg->uclamp_max);
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

/* The checks of the knobs against each other and -r, -u, before anything runs. */
int knobs_validate(struct config *cfg, char *err, size_t errlen)
{
	int pol = cfg->policy;

	if (cfg->realtime && pol >= 0 && !policy_is_rt(pol))
		return set_err(err, errlen, "-r runs the benchmarks in a real-time class; "
			       "--policy %s contradicts it", policy_names[pol]);
	cfg->policy = pol = policy_of(pol, cfg->realtime);
	if (cfg->slice_us && pol != POL_OTHER && pol != POL_BATCH)
		return set_err(err, errlen, "--slice sets the EEVDF slice of an other or batch "
			       "task, not of --policy %s", policy_names[pol]);
	if (cfg->uclamp_min >= 0 && cfg->uclamp_max >= 0 && cfg->uclamp_min > cfg->uclamp_max)
		return set_err(err, errlen, "--uclamp-min %d is above --uclamp-max %d",
			       cfg->uclamp_min, cfg->uclamp_max);
	if (pol == POL_DEADLINE && cfg->uniprocessor)
		return set_err(err, errlen, "--policy deadline and -u contradict: a SCHED_DEADLINE "
			       "task must be allowed every CPU");
	return 0;
}

/* ---- the knobs as text ---- */

const struct knob_desc knob_descs[NR_KNOBS] = {
	[KN_POLICY] = { "policy", "policy", "", false },
	[KN_RT_PRIORITY] = { "rt-priority", "rt_priority", "", true },
	[KN_SLICE] = { "slice", "slice_us", " us", true },
	[KN_UCLAMP_MIN] = { "uclamp-min", "uclamp_min_pct", " %", true },
	[KN_UCLAMP_MAX] = { "uclamp-max", "uclamp_max_pct", " %", true },
	[KN_LOAD_POLICY] = { "load-policy", "load_policy", "", false },
};

static void knob_set(struct knob_values *kv, int k, bool set, long v)
{
	if (set)
		snprintf(kv->v[k], KNOB_LEN, "%ld", v);
}

void knobs_of_config(const struct config *cfg, struct knob_values *kv)
{
	int pol = policy_of(cfg->policy, cfg->realtime);

	memset(kv, 0, sizeof(*kv));
	kv->known = true;
	snprintf(kv->v[KN_POLICY], KNOB_LEN, "%s", policy_names[pol]);
	knob_set(kv, KN_RT_PRIORITY, pol == POL_FIFO || pol == POL_RR, cfg->rt_priority);
	knob_set(kv, KN_SLICE, cfg->slice_us, cfg->slice_us);
	knob_set(kv, KN_UCLAMP_MIN, cfg->uclamp_min >= 0, cfg->uclamp_min);
	knob_set(kv, KN_UCLAMP_MAX, cfg->uclamp_max >= 0, cfg->uclamp_max);
	snprintf(kv->v[KN_LOAD_POLICY], KNOB_LEN, "%s", load_policy_names[cfg->load_policy]);
}

/*
 * "key value[ unit], ..." of the knobs in which (NULL: all), rt-priority only
 * when it has a value; a knob left to the kernel reads "default".
 */
void knobs_text(const struct knob_values *kv, const bool *which, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < NR_KNOBS && n < len; k++) {
		const char *v = kv->v[k];

		if ((which && !which[k]) || (k == KN_RT_PRIORITY && !*v))
			continue;	/* rt-priority: only for fifo and rr */
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s%s", n ? ", " : "",
				      knob_descs[k].log, *v ? v : "default",
				      *v ? knob_descs[k].unit : "");
	}
}

/* The log's line, without its newline: "Scheduling: policy other, slice default, ..." */
void knobs_line(const struct knob_values *kv, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", LOG_SCHEDULING);

	if (n < len)
		knobs_text(kv, NULL, buf + n, len - n);
}

/* The text after "Scheduling: " back into values; keys it does not know are skipped. */
void knobs_parse_line(const char *s, struct knob_values *kv)
{
	memset(kv, 0, sizeof(*kv));
	kv->known = true;
	while (*s) {
		size_t item = strcspn(s, ","), key = strcspn(s, " ,");

		for (int k = 0; k < NR_KNOBS; k++) {
			const char *v = s + key + (s[key] == ' ');
			size_t vlen = item - (size_t)(v - s), ulen = strlen(knob_descs[k].unit);

			if (strlen(knob_descs[k].log) != key || strncmp(s, knob_descs[k].log, key) ||
			    v > s + item)
				continue;
			if (ulen && vlen > ulen && !strncmp(v + vlen - ulen, knob_descs[k].unit, ulen))
				vlen -= ulen;
			if (!(vlen == 7 && !strncmp(v, "default", 7)))
				snprintf(kv->v[k], KNOB_LEN, "%.*s", (int)vlen, v);
		}
		s += item;
		s += strspn(s, ", ");
	}
}

bool knobs_equal(const struct knob_values *a, const struct knob_values *b)
{
	if (a->known != b->known)
		return false;
	for (int k = 0; k < NR_KNOBS; k++)
		if (strcmp(a->v[k], b->v[k]))
			return false;
	return true;
}
