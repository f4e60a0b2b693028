/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/rtapp.h - an rt-app workload file (-W FILE.json) as plain data: its threads, their
 * phases and events in file order, the named objects they share, and the checks that refuse
 * a workload that could not run before anything starts. */
#ifndef TASK_RTAPP_H
#define TASK_RTAPP_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/arena.h"
#include "lib/json_read.h"

/*
 * The grammar is rt-app 1.0's (its tutorial.txt), raw or after its workgen
 * preprocessor: an event is recognised by its key's prefix, so "run", "run1"
 * and "run_decode" are all run events (workgen makes repeated keys unique by
 * appending a number), and a bare "suspend" key suspends on the thread's own
 * name, as workgen fills it in.
 */

enum rtapp_policy {
	RTAPP_OTHER,			/* "SCHED_OTHER": priority is a nice value */
	RTAPP_FIFO,			/* "SCHED_FIFO" */
	RTAPP_RR,			/* "SCHED_RR" */
	RTAPP_DEADLINE,			/* "SCHED_DEADLINE": the dl- keys */
};

enum rtapp_kind {
	/*
	 * run: rt-app spins a loop calibrated to take that long on the
	 * calibration CPU, so a slower CPU or a lower frequency makes it
	 * longer. interbench burns it as the thread's own CPU time (--work
	 * cpu, doc/design.md), which neither the CPU's speed nor preemption
	 * changes; --work loops is rt-app's meaning.
	 */
	RTAPP_RUN,
	/* runtime: rt-app spins until that much wall time has passed since the event began,
	 * preempted or not; the engine decides how to burn it */
	RTAPP_RUNTIME,
	RTAPP_SLEEP,			/* a relative sleep of usec */
	RTAPP_TIMER,			/* sleep until the timer's next expiry: the one before */
					/* (at first the use case's start) plus usec */
	RTAPP_SUSPEND,			/* wait on the condition of that name (its mutex around) */
	RTAPP_RESUME,			/* broadcast that condition, its mutex around */
	RTAPP_LOCK,
	RTAPP_UNLOCK,
	RTAPP_WAIT,			/* wait on the condition, the mutex held */
	RTAPP_SIGNAL,			/* wake one waiter of the condition */
	RTAPP_BROAD,			/* wake every waiter of the condition */
	RTAPP_SYNC,			/* signal the condition and wait on it, the mutex held */
	RTAPP_BARRIER,			/* wait until every user of the barrier reaches it */
	RTAPP_YIELD,			/* sched_yield() */
};

/*
 * The named objects the events share, one per name and type, as rt-app
 * creates them ("resources"). A suspend or resume of "X" uses the condition
 * "X" and the mutex "X": the same ones that wait, signal, broad, sync, lock
 * and unlock name "X" use. A condition does not count: a resume or signal
 * while nobody waits is lost.
 */
enum rtapp_res_type {
	RTAPP_RES_MUTEX,
	RTAPP_RES_COND,
	RTAPP_RES_TIMER,		/* shared by every thread that names it, unless unique */
	RTAPP_RES_BARRIER,
};

struct rtapp_res {
	enum rtapp_res_type type;
	const char *name;
	int line;			/* its first use */
	int users;			/* barrier: the events that name it, the count rt-app waits for */
	bool unique;			/* timer whose name begins "unique": one per thread instance */
	bool absolute;			/* timer: "mode": "absolute", a late expiry kept; else one */
					/* found past restarts the timer from now */
};

struct rtapp_event {
	enum rtapp_kind kind;
	const char *key;		/* as written: "run1" */
	int line;
	long long usec;			/* run, runtime, sleep: how long; timer: its period */
	int res;			/* index in rtapp_file.res: the timer, the mutex of lock and */
					/* unlock, the condition of the rest, the barrier; -1: none */
	int mutex;			/* wait, sync: the mutex they need held; suspend, resume: */
					/* the mutex of the same name they take; else -1 */
};

struct rtapp_sched {
	enum rtapp_policy policy;
	int priority;			/* SCHED_OTHER: nice -20..19; FIFO, RR: 1..99; else unused */
	long long dl_runtime_us;	/* SCHED_DEADLINE: 0 unless given */
	long long dl_period_us;		/* default: dl_runtime_us */
	long long dl_deadline_us;	/* default: dl_period_us */
	int policy_line;		/* where each was given, for the checks' messages; 0: */
	int priority_line;		/* not given (a default) */
	int dl_line;
};

struct rtapp_cpus {
	const int *cpu;			/* the affinity, in the order given */
	size_t n;			/* 0: every CPU the run allows */
	int line;
};

struct rtapp_phase {
	const char *name;		/* its key under "phases"; the thread's when it has none */
	int line;
	long loop;			/* runs in a row before the next phase; -1: forever */
	bool own_sched;			/* it sets policy, priority or dl- keys of its own */
	bool own_cpus;			/* it sets "cpus" of its own */
	struct rtapp_sched sched;	/* in effect in the phase: the thread's, its own keys on top */
	struct rtapp_cpus cpus;		/* in effect in the phase: its own, else the thread's */
	struct rtapp_event *events;	/* in file order */
	size_t nevents;
};

struct rtapp_thread {
	const char *name;		/* its key under "tasks"; every instance has it */
	int line;
	int instances;			/* "instance": threads made from this object */
	long loop;			/* rounds of all its phases; -1: forever */
	long long delay_us;		/* "delay": its start after the use case's (its */
					/* timers count from there too) */
	bool phases_given;		/* false: its own events are its one phase */
	struct rtapp_sched sched;
	struct rtapp_cpus cpus;
	struct rtapp_phase *phases;
	size_t nphases;
};

struct rtapp_global {
	long duration_s;		/* -1: until every thread has ended */
	enum rtapp_policy default_policy;
	bool pi_enabled;		/* mutexes inherit priority */
	bool cumulative_slack;		/* a phase's slack adds its timers' up, not the last one */
};

#define RTAPP_MAX_IGNORED 16

struct rtapp_file {
	const char *path;		/* as the messages name it */
	struct rtapp_global global;
	struct rtapp_thread *threads;	/* in file order */
	size_t nthreads;
	struct rtapp_res *res;
	size_t nres;
	const char *ignored[RTAPP_MAX_IGNORED];	/* keys accepted without effect, file order */
	size_t nignored;
	struct arena mem;		/* everything above lives here */
};

/*
 * The model of a parsed document, which it copies what it keeps from (doc
 * may be freed after): 0, or -1 with one line in err, "FILE:LINE: where:
 * what", naming the key refused and where it is ("tasks.T.phases.P").
 * rtapp_free() frees f whatever the outcome (or a zeroed f).
 */
int rtapp_read(struct rtapp_file *f, const struct json_doc *doc, char *err, size_t errlen);
/* The same from the file at path, read with json_read_file(). */
int rtapp_load(struct rtapp_file *f, const char *path, char *err, size_t errlen);
void rtapp_free(struct rtapp_file *f);

/* "FILE: accepted without effect: KEY (why), ..." for the engine to print; "" when none. */
void rtapp_ignored_note(const struct rtapp_file *f, char *buf, size_t len);

/* What the machine allows, found by the caller so that the checks stay pure. */
struct rtapp_limits {
	long max_threads;		/* a fixed cap: RTAPP_MAX_THREADS */
	long nproc_room;		/* threads RLIMIT_NPROC still allows; < 0: no limit */
	unsigned long long stack_bytes;	/* of one thread */
	unsigned long long mem_bytes;	/* available for their stacks; 0: unknown */
	int ncpus;			/* "cpus" must name CPUs below it; 0: unknown */
};

#define RTAPP_MAX_THREADS 1024

/*
 * Refuses, with one line naming the file, line, thread and key, what would
 * hang, deadlock or not start: a resume, signal or broad nobody waits for, a
 * suspend or wait nobody wakes, a barrier one thread would meet alone, a
 * phase that ends holding a mutex or unlocks one it does not hold, a wait
 * without its mutex, a cycle in the order threads take mutexes, priorities
 * and SCHED_DEADLINE parameters out of range, CPUs the machine lacks, and
 * more threads (or stacks) than lim allows.
 */
int rtapp_check(const struct rtapp_file *f, const struct rtapp_limits *lim, char *err,
		size_t errlen);

int rtapp_nthreads(const struct rtapp_file *f);		/* every instance of every thread */
bool rtapp_woken(const struct rtapp_thread *t);		/* waits on a timer or a condition */
bool rtapp_timed(const struct rtapp_thread *t);		/* uses a timer */
const char *rtapp_kind_name(enum rtapp_kind k);		/* "run" */
const char *rtapp_policy_name(enum rtapp_policy p);	/* "SCHED_OTHER" */

#endif
