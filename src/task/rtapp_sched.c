// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_sched.c - an rt-app workload thread's scheduling and CPUs, from its phase or from
 * the row's knobs, applied in the thread, and its waker's priority. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/rtapp_engine.h"
#include "task/rtapp_parts.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

#define FIFO_MAX 99

static void say(struct rt_thread *thr, const char *fmt, ...) PRINTF(2, 3);
static void say(struct rt_thread *thr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(thr->reason, sizeof(thr->reason), fmt, ap);
	va_end(ap);
}

/* "tasks.T.phases.P" and, for one of several instances, " (instance N)". */
static void where_of(const struct rt_thread *thr, const struct rtapp_phase *ph, char *buf,
		     size_t len)
{
	char where[RTAPP_WHERE_LEN];

	rtapp_where(thr->t, ph, where, sizeof(where));
	if (thr->t->instances > 1)
		snprintf(buf, len, "%s (instance %d)", where, thr->inst);
	else
		snprintf(buf, len, "%s", where);
}

static const char *why_refused(int err, enum rtapp_policy pol)
{
	if (err == EPERM)
		return pol == RTAPP_DEADLINE ? " (SCHED_DEADLINE needs root or CAP_SYS_NICE, "
		       "and every CPU allowed)" : " (needs root or CAP_SYS_NICE)";
	if (err == EBUSY && pol == RTAPP_DEADLINE)
		return " (admission control: not enough deadline bandwidth left, "
		       "/proc/sys/kernel/sched_rt_runtime_us)";
	return "";
}

static int model_sched(struct rt_thread *thr, const struct rtapp_phase *ph)
{
	const struct rtapp_sched *s = &ph->sched;
	struct ib_sched_attr a = { .size = sizeof(a) };
	char where[RTAPP_WHERE_LEN + 24];
	int err;

	if (s->policy == RTAPP_OTHER) {
		a.sched_policy = SCHED_OTHER;
		a.sched_nice = s->priority;
	} else if (s->policy == RTAPP_DEADLINE) {
		a.sched_policy = SCHED_DEADLINE;
		a.sched_runtime = (uint64_t)s->dl_runtime_us * NSEC_PER_USEC;
		a.sched_deadline = (uint64_t)s->dl_deadline_us * NSEC_PER_USEC;
		a.sched_period = (uint64_t)s->dl_period_us * NSEC_PER_USEC;
	} else {
		a.sched_policy = s->policy == RTAPP_FIFO ? SCHED_FIFO : SCHED_RR;
		a.sched_priority = (uint32_t)s->priority;
	}
	if (!syscall(SYS_sched_setattr, 0, &a, 0))
		return 0;
	err = errno;
	where_of(thr, ph, where, sizeof(where));
	if (s->policy == RTAPP_DEADLINE)
		say(thr, "%s: sched_setattr SCHED_DEADLINE "
			 "%lld/%lld/%lld us: %s%s", where, s->dl_runtime_us, s->dl_deadline_us,
			 s->dl_period_us, strerror(err), why_refused(err, s->policy));
	else
		say(thr, "%s: sched_setattr %s %s %d: %s%s",
			 where, rtapp_policy_name(s->policy),
			 s->policy == RTAPP_OTHER ? "nice" : "priority", s->priority,
			 strerror(err), why_refused(err, s->policy));
	return -err;
}

/* The row's knobs instead of the file's: once, for every phase. */
static int knob_sched(struct rt_thread *thr, const struct rtapp_phase *ph)
{
	char why[REASON_LEN], where[RTAPP_WHERE_LEN + 24];
	int ret = sched_apply(&thr->run->p->sched, thr->t->name, why, sizeof(why));

	if (!ret)
		return 0;
	where_of(thr, ph, where, sizeof(where));
	say(thr, "%s: %s", where, why);
	return ret;
}

static bool same_sched(const struct rtapp_sched *a, const struct rtapp_sched *b)
{
	return a->policy == b->policy && a->priority == b->priority &&
	       a->dl_runtime_us == b->dl_runtime_us && a->dl_period_us == b->dl_period_us &&
	       a->dl_deadline_us == b->dl_deadline_us;
}

static bool same_cpus(const struct rtapp_cpus *a, const struct rtapp_cpus *b)
{
	return a->n == b->n && (!a->n || !memcmp(a->cpu, b->cpu, a->n * sizeof(*a->cpu)));
}

/* "0,2,3" into buf, for the message. */
static void cpu_list(const struct rtapp_cpus *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n && used + 1 < len; i++) {
		int got = snprintf(buf + used, len - used, "%s%d", i ? "," : "", c->cpu[i]);

		used += got > 0 ? (size_t)got : 0;
	}
}

/* No CPUs named: every CPU the row allows (the caller's affinity, as the thread began). */
static int apply_cpus(struct rt_thread *thr, const struct rtapp_phase *ph)
{
	const struct rtapp_cpus *c = &ph->cpus;
	char where[RTAPP_WHERE_LEN + 24], list[128];
	cpu_set_t set;
	int err;

	if (!c->n) {
		set = thr->run->allowed;
	} else {
		CPU_ZERO(&set);
		for (size_t i = 0; i < c->n; i++)
			CPU_SET((size_t)c->cpu[i], &set);
	}
	if (!sched_setaffinity(0, sizeof(set), &set))
		return 0;
	err = errno;
	where_of(thr, ph, where, sizeof(where));
	cpu_list(c, list, sizeof(list));
	say(thr, "%s: sched_setaffinity to CPUs %s: %s%s",
		 where, c->n ? list : "(all allowed)", strerror(err),
		 err == EINVAL ? " (none of them is allowed to this row)" : "");
	return -err;
}

/*
 * On entering a phase, in the thread: what it asks that is not already in
 * effect. 0, or -errno with thr->reason naming the thread and the call.
 */
int rt_apply_phase(struct rt_thread *thr, const struct rtapp_phase *ph)
{
	const struct rtapp_run_params *p = thr->run->p;
	int ret;

	if (!thr->sched_now || (!p->sched_set && !same_sched(thr->sched_now, &ph->sched))) {
		ret = p->sched_set ? knob_sched(thr, ph) : model_sched(thr, ph);
		if (ret)
			return ret;
		thr->sched_now = &ph->sched;
	}
	if (!thr->cpus_now || !same_cpus(thr->cpus_now, &ph->cpus)) {
		ret = apply_cpus(thr, ph);
		if (ret)
			return ret;
		thr->cpus_now = &ph->cpus;
	}
	return 0;
}

/*
 * Its waker runs above it: one priority above the highest SCHED_FIFO or
 * SCHED_RR one it takes; the highest of all for a SCHED_DEADLINE thread,
 * which outranks every SCHED_FIFO thread; the row's for SCHED_OTHER.
 */
int rt_waker_prio(const struct rtapp_thread *t, const struct rtapp_run_params *p)
{
	int top = 0;
	bool dl = false;

	if (p->sched_set) {
		dl = p->sched.policy == POL_DEADLINE;
		if (p->sched.policy == POL_FIFO || p->sched.policy == POL_RR)
			top = p->sched.rt_priority;
	}
	for (size_t i = 0; !p->sched_set && i < t->nphases; i++) {
		const struct rtapp_sched *s = &t->phases[i].sched;

		dl |= s->policy == RTAPP_DEADLINE;
		if ((s->policy == RTAPP_FIFO || s->policy == RTAPP_RR) && s->priority > top)
			top = s->priority;
	}
	if (dl)
		return FIFO_MAX;
	if (top)
		top = top + 1 > FIFO_MAX ? FIFO_MAX : top + 1;
	return top > p->waker_prio ? top : p->waker_prio;
}
