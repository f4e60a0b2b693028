// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_check.c - the checks of an rt-app file's model before anything runs: limits,
 * scheduling parameters, CPUs, who wakes whom, barriers; then the lock checks. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "task/rtapp_parts.h"

int rtapp_nthreads(const struct rtapp_file *f)
{
	long long n = 0;

	for (size_t t = 0; t < f->nthreads; t++)
		n += f->threads[t].instances;
	return n > INT_MAX ? INT_MAX : (int)n;
}

/* A thread whose wake-ups are measured: it waits on timers or conditions. */
bool rtapp_woken(const struct rtapp_thread *t)
{
	for (size_t p = 0; p < t->nphases; p++)
		for (size_t e = 0; e < t->phases[p].nevents; e++)
			switch (t->phases[p].events[e].kind) {
			case RTAPP_TIMER:
			case RTAPP_SUSPEND:
			case RTAPP_WAIT:
			case RTAPP_SYNC:
				return true;
			default:
				break;
			}
	return false;
}

/* A thread that uses a timer: it has a waker, and timer periods to meet or miss. */
bool rtapp_timed(const struct rtapp_thread *t)
{
	for (size_t p = 0; p < t->nphases; p++)
		for (size_t e = 0; e < t->phases[p].nevents; e++)
			if (t->phases[p].events[e].kind == RTAPP_TIMER)
				return true;
	return false;
}

/* The first thread whose instances bring the total past a limit is the one named. */
static int check_limits(const struct rtapp_file *f, const struct rtapp_limits *lim, char *err,
			size_t errlen)
{
	unsigned long long mib = 1024 * 1024;
	long long n = 0;

	for (size_t t = 0; t < f->nthreads; t++) {
		const struct rtapp_thread *th = &f->threads[t];
		char where[RTAPP_WHERE_LEN];

		n += th->instances;
		rtapp_where(th, NULL, where, sizeof(where));
		if (lim->max_threads > 0 && n > lim->max_threads)
			return rtapp_fail(f->path, err, errlen, th->line, where, "its instances "
					  "make %lld threads: more than the %ld interbench runs",
					  n, lim->max_threads);
		if (lim->nproc_room >= 0 && n > lim->nproc_room)
			return rtapp_fail(f->path, err, errlen, th->line, where, "its instances "
					  "make %lld threads: more than the %ld RLIMIT_NPROC still "
					  "allows", n, lim->nproc_room);
		if (lim->mem_bytes && lim->stack_bytes &&
		    (unsigned long long)n > lim->mem_bytes / lim->stack_bytes)
			return rtapp_fail(f->path, err, errlen, th->line, where, "its instances "
					  "make %lld threads, whose stacks (%llu KiB each) need more "
					  "than the %llu MiB available", n, lim->stack_bytes / 1024,
					  lim->mem_bytes / mib);
	}
	return 0;
}

static int check_priority(const struct rtapp_file *f, const struct rtapp_sched *s,
			  const char *where, int line, char *err, size_t errlen)
{
	int pline = s->priority_line ? s->priority_line : line;

	switch (s->policy) {
	case RTAPP_OTHER:
		if (s->priority >= -20 && s->priority <= 19)
			return 0;
		return rtapp_fail(f->path, err, errlen, pline, where, "'priority' %d is out of "
				  "range for SCHED_OTHER (a nice value, -20 to 19)", s->priority);
	case RTAPP_FIFO:
	case RTAPP_RR:
		if (s->priority >= 1 && s->priority <= 99)
			return 0;
		return rtapp_fail(f->path, err, errlen, pline, where, "'priority' %d is out of "
				  "range for %s (1 to 99)", s->priority,
				  rtapp_policy_name(s->policy));
	case RTAPP_DEADLINE:
		if (!s->priority_line)
			return 0;
		return rtapp_fail(f->path, err, errlen, pline, where, "'priority' has no "
				  "meaning for SCHED_DEADLINE");
	}
	return 0;
}

/* As the kernel asks of sched_setattr(): 0 < runtime <= deadline <= period. */
static int check_dl(const struct rtapp_file *f, const struct rtapp_sched *s, bool dl_here,
		    const char *where, int line, char *err, size_t errlen)
{
	int dline = s->dl_line ? s->dl_line : line;

	if (s->policy != RTAPP_DEADLINE) {
		if (!dl_here)
			return 0;
		return rtapp_fail(f->path, err, errlen, dline, where, "the dl- keys apply to "
				  "SCHED_DEADLINE only (the policy is %s)",
				  rtapp_policy_name(s->policy));
	}
	if (s->dl_runtime_us <= 0)
		return rtapp_fail(f->path, err, errlen, dline, where, "SCHED_DEADLINE needs a "
				  "'dl-runtime' above 0 µs");
	if (s->dl_runtime_us > s->dl_deadline_us || s->dl_deadline_us > s->dl_period_us)
		return rtapp_fail(f->path, err, errlen, dline, where, "SCHED_DEADLINE needs "
				  "dl-runtime <= dl-deadline <= dl-period (here %lld, %lld and "
				  "%lld µs)", s->dl_runtime_us, s->dl_deadline_us,
				  s->dl_period_us);
	return 0;
}

static int check_cpus(const struct rtapp_file *f, const struct rtapp_cpus *c, int ncpus,
		      const char *where, char *err, size_t errlen)
{
	for (size_t i = 0; ncpus > 0 && i < c->n; i++)
		if (c->cpu[i] >= ncpus)
			return rtapp_fail(f->path, err, errlen, c->line, where, "'cpus' names CPU "
					  "%d: the machine has CPUs 0 to %d", c->cpu[i], ncpus - 1);
	return 0;
}

/* Each thread's and each phase's own scheduling and CPUs. */
static int check_threads(const struct rtapp_file *f, const struct rtapp_limits *lim,
			 char *err, size_t errlen)
{
	char where[RTAPP_WHERE_LEN];

	for (size_t t = 0; t < f->nthreads; t++) {
		const struct rtapp_thread *th = &f->threads[t];

		rtapp_where(th, NULL, where, sizeof(where));
		if (check_priority(f, &th->sched, where, th->line, err, errlen) ||
		    check_dl(f, &th->sched, th->sched.dl_line, where, th->line, err, errlen) ||
		    check_cpus(f, &th->cpus, lim->ncpus, where, err, errlen))
			return -1;
		for (size_t p = 0; p < th->nphases; p++) {
			const struct rtapp_phase *ph = &th->phases[p];
			bool dl_here = ph->sched.dl_line && ph->sched.dl_line != th->sched.dl_line;

			rtapp_where(th, ph, where, sizeof(where));
			if ((ph->own_sched &&
			     (check_priority(f, &ph->sched, where, ph->line, err, errlen) ||
			      check_dl(f, &ph->sched, dl_here, where, ph->line, err, errlen))) ||
			    (ph->own_cpus && check_cpus(f, &ph->cpus, lim->ncpus, where, err,
							errlen)))
				return -1;
		}
	}
	return 0;
}

/* Up to two of the threads that use a condition one way: enough to find one not t. */
struct users {
	int thread[2];
};

/* Who waits on each condition (suspend, wait, sync) and who wakes it (resume, signal,
 * broad, sync). */
struct cond_use {
	struct users waiters, wakers;
};

static bool waits(enum rtapp_kind k)
{
	return k == RTAPP_SUSPEND || k == RTAPP_WAIT || k == RTAPP_SYNC;
}

static bool wakes(enum rtapp_kind k)
{
	return k == RTAPP_RESUME || k == RTAPP_SIGNAL || k == RTAPP_BROAD || k == RTAPP_SYNC;
}

static void add_user(struct users *u, int t)
{
	if (u->thread[0] < 0)
		u->thread[0] = t;
	else if (u->thread[0] != t && u->thread[1] < 0)
		u->thread[1] = t;
}

/* Someone other than this thread, or another instance of it. */
static bool other_user(const struct users *u, const struct rtapp_file *f, int t)
{
	if (f->threads[t].instances > 1)
		return u->thread[0] >= 0;
	return (u->thread[0] >= 0 && u->thread[0] != t) || u->thread[1] >= 0;
}

/* Every use of a condition (and of a barrier, as a waiter), by thread. */
static struct cond_use *cond_uses(const struct rtapp_file *f)
{
	struct cond_use *use = malloc((f->nres + 1) * sizeof(*use));

	for (size_t r = 0; use && r < f->nres; r++)
		use[r] = (struct cond_use){ { { -1, -1 } }, { { -1, -1 } } };
	for (size_t t = 0; use && t < f->nthreads; t++) {
		for (size_t p = 0; p < f->threads[t].nphases; p++) {
			const struct rtapp_phase *ph = &f->threads[t].phases[p];

			for (size_t e = 0; e < ph->nevents; e++) {
				const struct rtapp_event *ev = &ph->events[e];

				if (waits(ev->kind) || ev->kind == RTAPP_BARRIER)
					add_user(&use[ev->res].waiters, (int)t);
				if (wakes(ev->kind))
					add_user(&use[ev->res].wakers, (int)t);
			}
		}
	}
	return use;
}

static int check_event_pairs(const struct rtapp_file *f, const struct cond_use *use, int t,
			     const struct rtapp_event *ev, const char *where, char *err,
			     size_t errlen)
{
	const char *name = ev->res >= 0 ? f->res[ev->res].name : "";

	if (waits(ev->kind) && !other_user(&use[ev->res].wakers, f, t))
		return rtapp_fail(f->path, err, errlen, ev->line, where, "'%s' on '%s': no "
				  "other thread resumes or signals '%s', so it would wait forever",
				  ev->key, name, name);
	if (wakes(ev->kind) && !other_user(&use[ev->res].waiters, f, t))
		return rtapp_fail(f->path, err, errlen, ev->line, where, "'%s' of '%s': no "
				  "other thread suspends or waits on '%s'", ev->key, name, name);
	if (ev->kind == RTAPP_BARRIER && f->res[ev->res].users > 1 &&
	    !other_user(&use[ev->res].waiters, f, t))
		return rtapp_fail(f->path, err, errlen, ev->line, where, "'%s' '%s': no other "
				  "thread meets it, so it would wait for itself forever", ev->key,
				  name);
	return 0;
}

static int check_pairs(const struct rtapp_file *f, char *err, size_t errlen)
{
	struct cond_use *use = cond_uses(f);
	char where[RTAPP_WHERE_LEN];
	int ret = 0;

	if (!use)
		return set_err(err, errlen, "%s: out of memory", f->path);
	for (size_t t = 0; !ret && t < f->nthreads; t++) {
		const struct rtapp_thread *th = &f->threads[t];

		for (size_t p = 0; !ret && p < th->nphases; p++) {
			rtapp_where(th, &th->phases[p], where, sizeof(where));
			for (size_t e = 0; !ret && e < th->phases[p].nevents; e++)
				ret = check_event_pairs(f, use, (int)t, &th->phases[p].events[e],
							where, err, errlen);
		}
	}
	free(use);
	return ret;
}

int rtapp_check(const struct rtapp_file *f, const struct rtapp_limits *lim, char *err,
		size_t errlen)
{
	if (check_limits(f, lim, err, errlen) || check_threads(f, lim, err, errlen) ||
	    check_pairs(f, err, errlen) || rtapp_check_locks(f, err, errlen))
		return -1;
	return rtapp_check_lock_order(f, err, errlen);
}
