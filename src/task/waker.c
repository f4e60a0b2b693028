// SPDX-License-Identifier: GPL-2.0-or-later
/* task/waker.c - the waker: the task's request, the waker's sleep until it, the stamp and the
 * wake-up, and its end. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/waker.h"

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static bool stopping(atomic_int *stop)
{
	return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/*
 * Block until a request or the quit is posted. waiting and req are both
 * sequentially consistent, so either the task sees waiting and wakes us, or
 * we see its request before sleeping (and futex_wait rechecks req).
 */
static uint32_t waker_next_request(struct waker *w)
{
	uint32_t r;

	while ((r = atomic_load(&w->req)) == 0) {
		atomic_store(&w->waiting, 1);
		if (atomic_load(&w->req) == 0)
			futex_wait(&w->req, 0);
		atomic_store(&w->waiting, 0);
	}
	return r;
}

static void *waker_main(void *arg)
{
	struct waker *w = arg;
	uint64_t t, next = 0;

	pthread_setname_np(pthread_self(), "ib-waker");
	/*
	 * No slack by default: a SCHED_OTHER waker's 50 us default would let
	 * its timer fire with an earlier one in that window (the tick's, say),
	 * tying the wake-up's phase to it. A real-time waker has none anyway.
	 */
	prctl(PR_SET_TIMERSLACK, (unsigned long)w->slack_ns, 0UL, 0UL, 0UL);
	atomic_store(&w->tid, (int)syscall(SYS_gettid));
	for (;;) {
		/* the task will most likely ask for next: be asleep until then */
		if (next && atomic_load(&w->req) == 0 && sleep_until(next) == -EINTR &&
		    stopping(w->stop))
			break;
		if (waker_next_request(w) == 2)
			break;
		t = w->intended;
		next = w->next;
		atomic_store(&w->req, 0);
		while (now_ns() < t) {
			if (sleep_until(t) == -EINTR && stopping(w->stop))
				goto quit;
		}
		w->wake_cpu = sched_getcpu();
		/* Nothing may run between this stamp and the task's. */
		w->t_wake = now_ns();
		atomic_store_explicit(&w->go, 1, memory_order_release);
		futex_wake(&w->go);
	}
quit:
	atomic_store(&w->go, 1);
	futex_wake(&w->go);
	return NULL;
}

/*
 * Ask the waker for a wake-up at t, saying that the next request will most
 * likely be for next (0: there will be none), and block until the wake-up
 * comes; returns t_run.
 */
uint64_t wait_for_waker(struct waker *w, uint64_t t, uint64_t next)
{
	uint64_t t_run;

	w->intended = t;
	w->next = next;
	atomic_store(&w->go, 0);
	atomic_store(&w->req, 1);
	if (atomic_load(&w->waiting))
		futex_wake(&w->req);
	for (;;) {
		futex_wait(&w->go, 0);
		/*
		 * go first, then the stamp: a futex_wait that returns for no
		 * reason (a signal) just before the waker stamps t_wake must
		 * not leave a t_run from before it.
		 */
		if (atomic_load_explicit(&w->go, memory_order_acquire)) {
			t_run = now_ns();
			return t_run;
		}
	}
}

int waker_start(struct waker *w, int prio, long slack_ns, atomic_int *stop)
{
	pthread_attr_t attr;
	struct sched_param sp = { .sched_priority = prio };
	int ret;

	memset(w, 0, sizeof(*w));
	w->stop = stop;
	w->slack_ns = slack_ns;
	pthread_attr_init(&attr);
	if (prio > 0) {
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
	}
	ret = pthread_create(&w->thread, &attr, waker_main, w);
	pthread_attr_destroy(&attr);
	if (ret == EPERM && prio > 0)	/* not allowed: an ordinary waker */
		ret = pthread_create(&w->thread, NULL, waker_main, w);
	return -ret;
}

void waker_stop(struct waker *w)
{
	atomic_store(&w->req, 2);
	futex_wake(&w->req);
	pthread_join(w->thread, NULL);
}

static void on_waker_signal(int sig)
{
	(void)sig;
}

int waker_interrupts_on(struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = on_waker_signal };

	sigemptyset(&sa.sa_mask);
	return sigaction(WAKER_SIGNAL, &sa, old) ? -errno : 0;
}

void waker_interrupts_off(const struct sigaction *old)
{
	sigaction(WAKER_SIGNAL, old, NULL);
}

/*
 * The quit posted, and the signal sent again and again: one that comes
 * just before the waker goes to sleep is not seen by that sleep. Its stop
 * must be set, for the sleep it cuts short to end it.
 */
int waker_end(struct waker *w, uint64_t until_ns)
{
	for (;;) {
		atomic_store(&w->req, 2);
		futex_wake(&w->req);
		pthread_kill(w->thread, WAKER_SIGNAL);
		if (!pthread_tryjoin_np(w->thread, NULL))
			return 0;
		if (now_ns() >= until_ns)
			return -ETIMEDOUT;
		sleep_ns(100 * NSEC_PER_USEC);
	}
}

/* The task returns from wait_for_waker() with no fresh t_wake: it must look at its stop. */
void waker_let_go(struct waker *w)
{
	atomic_store(&w->go, 1);
	futex_wake(&w->go);
}
