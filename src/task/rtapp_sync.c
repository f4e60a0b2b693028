// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_sync.c - what an rt-app workload's threads share as it runs: mutexes, conditions
 * as queues of stamped wake-ups, barriers, and waits that the row's end cuts short. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/rtapp_engine.h"

/*
 * A thread blocks only on its own futex word (or its waker's, or a mutex):
 * whoever wakes it bumps the word, then wakes it, so a wake that comes
 * between its last look and its wait is never lost, and the row's end
 * reaches every waiting thread the same way.
 */
static void futex_wait_until(_Atomic uint32_t *word, uint32_t val, const struct timespec *until)
{
	syscall(SYS_futex, word, FUTEX_WAIT_BITSET_PRIVATE, val, until, NULL,
		FUTEX_BITSET_MATCH_ANY);
}

static void futex_wake_all(_Atomic uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

/*
 * A mutex of the file inherits priority when the file asks for it; every
 * inner lock always does, so that the engine's own few stores never leave a
 * high-priority thread behind a preempted one.
 */
int rt_res_init(struct rt_res *r, const struct rtapp_res *m, bool pi)
{
	pthread_mutexattr_t a;
	int ret;

	memset(r, 0, sizeof(*r));
	atomic_init(&r->holder, -1);
	pthread_mutexattr_init(&a);
	ret = pthread_mutexattr_setprotocol(&a, m->type != RTAPP_RES_MUTEX || pi ?
					    PTHREAD_PRIO_INHERIT : PTHREAD_PRIO_NONE);
	if (!ret)
		ret = pthread_mutex_init(&r->lock, &a);
	pthread_mutexattr_destroy(&a);
	r->inited = !ret;
	return -ret;
}

void rt_res_destroy(struct rt_res *r, const struct rtapp_res *m)
{
	(void)m;
	if (r->inited)
		pthread_mutex_destroy(&r->lock);
	r->inited = false;
}

void rt_kick(struct rt_thread *thr)
{
	atomic_fetch_add(&thr->word, 1);
	futex_wake_all(&thr->word);
}

/* A thread ended or failed: the controller looks at once. */
void rt_post_news(struct rt_run *run)
{
	atomic_fetch_add(&run->news, 1);
	futex_wake_all(&run->news);
}

bool rt_quit(struct rt_run *run)
{
	return atomic_load_explicit(&run->quit, memory_order_relaxed);
}

/* Until until_ns (CLOCK_MONOTONIC); false when the row's end came first. */
bool rt_sleep_until(struct rt_thread *thr, uint64_t until_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(until_ns / NSEC_PER_SEC),
			       .tv_nsec = (long)(until_ns % NSEC_PER_SEC) };

	for (;;) {
		uint32_t v = atomic_load(&thr->word);

		if (atomic_load(&thr->run->quit))
			return false;
		if (now_ns() >= until_ns)
			return true;
		futex_wait_until(&thr->word, v, &ts);
	}
}

/* Under r->lock. */
static void queue_add(struct rt_res *r, struct rt_waiter *w)
{
	atomic_store(&w->woken, 0);
	w->next = NULL;
	w->queued = true;
	if (r->tail)
		r->tail->next = w;
	else
		r->head = w;
	r->tail = w;
}

/* Under r->lock: w taken out, wherever it is (the row's end). */
static void queue_remove(struct rt_res *r, struct rt_waiter *w)
{
	struct rt_waiter **pp = &r->head, *prev = NULL;

	while (*pp && *pp != w) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	if (!*pp)
		return;
	*pp = w->next;
	if (r->tail == w)
		r->tail = prev;
	w->queued = false;
}

void rt_enqueue(struct rt_res *r, struct rt_thread *thr)
{
	pthread_mutex_lock(&r->lock);
	queue_add(r, &thr->wt);
	pthread_mutex_unlock(&r->lock);
}

/* Under r->lock: the first waiter out, stamped, woken. */
static bool wake_head(struct rt_res *r, int by)
{
	struct rt_waiter *w = r->head;

	if (!w)
		return false;
	r->head = w->next;
	if (!r->head)
		r->tail = NULL;
	w->queued = false;
	w->by = by;
	w->wake_cpu = sched_getcpu();
	/* Nothing may run between this stamp and the wakee's. */
	w->t_wake = now_ns();
	atomic_store_explicit(&w->woken, 1, memory_order_release);
	rt_kick(w->thr);
	return true;
}

/* signal: the first in line, if any (a signal nobody waits for is lost). */
void rt_wake_first(struct rt_res *r, int by)
{
	pthread_mutex_lock(&r->lock);
	wake_head(r, by);
	pthread_mutex_unlock(&r->lock);
}

/* resume, broad: every waiter, each stamped just before its own wake. */
void rt_wake_all(struct rt_res *r, int by)
{
	pthread_mutex_lock(&r->lock);
	while (wake_head(r, by))
		;
	pthread_mutex_unlock(&r->lock);
}

/*
 * Block until woken from r's queue (after rt_enqueue()): t_run, stamped
 * first thing once the wake is seen; 0 at the row's end, out of the queue.
 */
uint64_t rt_block(struct rt_thread *thr, struct rt_res *r)
{
	for (;;) {
		uint32_t v = atomic_load(&thr->word);

		if (atomic_load_explicit(&thr->wt.woken, memory_order_acquire))
			return now_ns();
		if (atomic_load(&thr->run->quit))
			break;
		futex_wait_until(&thr->word, v, NULL);
		/* woken first, then the stamp: a wake for someone else leaves none */
		if (atomic_load_explicit(&thr->wt.woken, memory_order_acquire))
			return now_ns();
	}
	pthread_mutex_lock(&r->lock);
	if (thr->wt.queued)
		queue_remove(r, &thr->wt);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

/*
 * rt-app's barrier: the users-th thread to reach it wakes those waiting
 * and goes on; the others wait for it.
 */
void rt_barrier(struct rt_thread *thr, struct rt_res *r, int users)
{
	pthread_mutex_lock(&r->lock);
	if (++r->arrived >= users) {
		r->arrived = 0;
		while (wake_head(r, RTAPP_BARRIER))
			;
		pthread_mutex_unlock(&r->lock);
		return;
	}
	queue_add(r, &thr->wt);
	pthread_mutex_unlock(&r->lock);
	rt_block(thr, r);
}
