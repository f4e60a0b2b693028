/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/rtapp_engine.h - what the rt-app engine's own sources share: a run's state, its threads
 * and the objects they share, and the calls between the engine's parts; only task/rtapp_*.c
 * that run a workload use it. */
#ifndef TASK_RTAPP_ENGINE_H
#define TASK_RTAPP_ENGINE_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/rtapp_periods.h"
#include "task/rtapp_run.h"
#include "task/waker.h"

#define RT_MAX_HELD 16			/* mutexes a thread holds at once (as rtapp_check's) */

/* What a thread is doing, as the watchdog reads it. */
enum rt_state {
	RT_SETUP,			/* before the use case starts */
	RT_BUSY,			/* running its events */
	RT_TIMED,			/* a timer, sleep or delay: time ends it */
	RT_LOCK,			/* waiting for a mutex */
	RT_COND,			/* waiting on a condition (suspend, wait, sync) */
	RT_BARRIER,			/* waiting at a barrier */
	RT_ENDED,
};

/* A thread's place in a condition's (or barrier's) queue, and how it was woken. */
struct rt_waiter {
	struct rt_waiter *next;		/* the queue's, under its lock */
	struct rt_thread *thr;
	bool queued;			/* under the queue's lock */
	_Atomic int woken;		/* set by the waking thread after the stamp */
	int by;				/* the waking event's enum rtapp_kind */
	uint64_t t_wake;		/* the stamp, just before the wake */
	int wake_cpu;
};

/*
 * The named objects of the file, by rtapp_file.res index. lock is the
 * mutex of a mutex (the file's, with priority inheritance if asked), and
 * the inner lock of the others, only ever held for a few stores.
 */
struct rt_res {
	pthread_mutex_t lock;
	bool inited;
	_Atomic int holder;		/* mutex: the thread holding it, -1: none */
	struct rt_waiter *head, *tail;	/* condition, barrier: who waits, in order */
	int arrived;			/* barrier: threads there now */
	struct rtapp_timer timer;	/* a shared timer's schedule */
};

struct rt_unique {		/* a "unique" timer: one per thread instance */
	int res;
	struct rtapp_timer timer;
};

struct rt_counts {		/* a thread's own figures, pooled into its object at the end */
	uint64_t timer_wakeups, resume_wakeups, events;
	struct timer_periods periods;
	uint64_t cpu0, cpu_ns, work_ns;
};

struct rt_run;

struct rt_thread {		/* one instance of one thread object */
	struct rt_run *run;
	const struct rtapp_thread *t;
	int obj, inst, idx;		/* its object, instance and place in run->thr */
	pthread_t pt;
	bool created;
	bool timed;			/* it has a timer: it sleeps on its own, or its waker's */
	struct waker *w;		/* its waker (--wake waker); NULL: none */
	long timer_slack;		/* its own timer's, read back after its last phase's */
					/* scheduling; -1: it sleeps on none */
	int waker_prio;
	bool waker_on;			/* its waker was started */
	_Atomic uint32_t word;		/* its one futex: bumped by whoever wakes it */
	struct rt_waiter wt;
	_Atomic int doing;		/* rt_doing(): state, event kind, resource */
	_Atomic uint64_t progress;	/* events done: the watchdog's sign of life */
	_Atomic int ready;		/* set up, waiting for the start */
	_Atomic int end;		/* enum rtapp_end; 0 while it runs */
	bool deadlocked;		/* blocked in the deadlock that ended the run */
	char reason[REASON_LEN];	/* why it failed */
	int err;			/* and the -errno of it */
	int held[RT_MAX_HELD];		/* the mutexes it holds, in order taken */
	int nheld;
	struct burner bn;
	struct split_probe probe;
	bool probing;
	uint64_t base;			/* its start: the use case's plus its delay */
	const struct rtapp_sched *sched_now;	/* applied; NULL: none yet */
	const struct rtapp_cpus *cpus_now;
	struct rt_unique *unique;	/* its unique timers */
	int nunique;
	struct rt_counts c;
	int32_t tid;			/* its thread id, once it runs */
	struct period_ring *ring;	/* where it records (its object's first instance's */
					/* only), or NULL */
	uint32_t nrec;			/* records it made: the next one's k */
};

struct rt_run {
	const struct rtapp_file *f;
	const struct rtapp_run_params *p;
	struct rtapp_result *res;	/* the caller's: written by the controller alone */
	struct rtapp_obj_result *obj;	/* what the threads measure into, copied to res at */
					/* the end (a thread left behind never writes res) */
	atomic_int quit;		/* every thread returns: the burner's stop too */
	_Atomic uint32_t gate;		/* 1: the use case has started */
	_Atomic uint32_t news;		/* bumped when a thread ends or fails */
	uint64_t t0, end_ns;		/* the use case's start and the row's end */
	cpu_set_t allowed;		/* what "every CPU" means: the caller's */
	struct rt_res *rs;		/* f->nres */
	struct rt_thread *thr;
	int nthr;
	struct waker *wakers;		/* one per thread with a timer */
	int nwakers;
	pthread_mutex_t obj_lock[RTAPP_RUN_MAX_OBJS];	/* an object's histograms, which */
							/* its instances share */
};

/* usec of the file as the run times it: scaled by --period swept's factor, if any. */
static inline uint64_t rt_ns(const struct rt_run *run, long long usec)
{
	const struct rtapp_run_params *p = run->p;
	uint64_t ns = (uint64_t)usec * NSEC_PER_USEC;

	if (!p->time_num || !p->time_den)
		return ns;
	return (uint64_t)((unsigned __int128)ns * p->time_num / p->time_den);
}

/* A thread's doing as one word, so that the watchdog reads it whole. */
static inline int rt_doing(enum rt_state s, int kind, int res)
{
	return (int)s | kind << 4 | (res + 1) << 9;
}

static inline enum rt_state rt_doing_state(int d)
{
	return (enum rt_state)(d & 15);
}

static inline int rt_doing_kind(int d)
{
	return (d >> 4) & 31;
}

static inline int rt_doing_res(int d)
{
	return (d >> 9) - 1;
}

/* rtapp_sync.c: the objects threads share, and the waits that stop */
int rt_res_init(struct rt_res *r, const struct rtapp_res *m, bool pi);
void rt_res_destroy(struct rt_res *r, const struct rtapp_res *m);
void rt_kick(struct rt_thread *thr);
void rt_post_news(struct rt_run *run);
bool rt_quit(struct rt_run *run);
bool rt_sleep_until(struct rt_thread *thr, uint64_t until_ns);
void rt_enqueue(struct rt_res *r, struct rt_thread *thr);
void rt_wake_first(struct rt_res *r, int by);
void rt_wake_all(struct rt_res *r, int by);
uint64_t rt_block(struct rt_thread *thr, struct rt_res *r);
void rt_barrier(struct rt_thread *thr, struct rt_res *r, int users);

/* rtapp_exec.c: one event, measured */
void rt_exec(struct rt_thread *thr, const struct rtapp_phase *ph, size_t e, bool last_round);
void rt_release_all(struct rt_thread *thr);

/* rtapp_sched.c: a thread's scheduling and CPUs, from the model or the row's knobs */
int rt_apply_phase(struct rt_thread *thr, const struct rtapp_phase *ph);
int rt_waker_prio(const struct rtapp_thread *t, const struct rtapp_run_params *p);

/* rtapp_worker.c: a thread's life */
void *rt_thread_main(void *arg);

/* rtapp_watch.c: the watchdog's judgement and its reason */
bool rt_all_blocked(const struct rt_run *run);
void rt_say_deadlock(struct rt_run *run, uint64_t still_ns);

#endif
