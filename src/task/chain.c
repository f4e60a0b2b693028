// SPDX-License-Identifier: GPL-2.0-or-later
/* task/chain.c - what Game and AudioGraph share: stamped hops (futex and eventfd), stages
 * that work and stall, shared memory, the chain's processes. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "task/chain.h"

/* ---- the hops ---- */

static void futex_op(_Atomic uint32_t *addr, int op, uint32_t val, bool shared)
{
	syscall(SYS_futex, addr, shared ? op : op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/* The waker's side of a futex hop: the slot filled, stamped, then the wake. */
void slot_post(struct wake_slot *s, uint32_t k, bool shared)
{
	s->k = k;
	s->wake_cpu = sched_getcpu();
	s->t_wake = now_ns();		/* nothing may run between this stamp and the wakee's */
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_release);
	futex_op(&s->seq, FUTEX_WAKE, 1, shared);
}

/* A wake that carries no frame: the quit, seen by a wakee that checks it. */
void slot_kick(struct wake_slot *s, bool shared)
{
	atomic_fetch_add(&s->seq, 1);
	futex_op(&s->seq, FUTEX_WAKE, INT_MAX, shared);
}

/* The wakee's side: block until seq moves past *seen; t_run, or 0 once *quit is set. */
uint64_t slot_wait(struct wake_slot *s, uint32_t *seen, bool shared, _Atomic int *quit)
{
	uint32_t v;

	while ((v = atomic_load_explicit(&s->seq, memory_order_acquire)) == *seen) {
		if (atomic_load(quit))
			return 0;
		futex_op(&s->seq, FUTEX_WAIT, *seen, shared);
	}
	*seen = v;
	if (atomic_load(quit))
		return 0;
	return now_ns();
}

/* The waker's side of an eventfd hop (to another process). */
void efd_post(struct wake_slot *s, int fd, uint32_t k)
{
	uint64_t one = 1;

	s->k = k;
	s->wake_cpu = sched_getcpu();
	s->t_wake = now_ns();
	atomic_fetch_add_explicit(&s->seq, 1, memory_order_release);
	if (write(fd, &one, sizeof(one)) < 0)
		s->t_wake = 0;		/* no wake-up: nothing to measure */
}

/* The wakee's: a blocking read; t_run, or 0 once *quit is set (or the fd fails). */
uint64_t efd_wait(int fd, _Atomic int *quit)
{
	uint64_t v, t;

	for (;;) {
		ssize_t n = read(fd, &v, sizeof(v));

		t = now_ns();
		if (atomic_load(quit))
			return 0;
		if (n == (ssize_t)sizeof(v))
			return t;
		if (n < 0 && errno != EINTR)
			return 0;
	}
}

/*
 * The head's wait for the chain's completion, bounded: a stage that died or
 * never answers must not hold the row. 0 with *t_run stamped, or -ETIMEDOUT.
 * The stamp is the first thing after poll() returns, before the read that
 * takes the signal (a signal already there when the head came to wait is
 * stamped at once: it did not wait).
 */
int efd_wait_for(int fd, uint64_t until_ns, uint64_t *t_run)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t v, t = now_ns();

	*t_run = t;
	for (;;) {
		if (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))	/* non-blocking */
			return 0;
		t = now_ns();
		if (t >= until_ns)
			return -ETIMEDOUT;
		poll(&pfd, 1, (int)((until_ns - t) / NSEC_PER_MSEC) + 1);
		*t_run = now_ns();
	}
}

void hop_init(struct hop_meas *h)
{
	latency_init(&h->lat);
	h->split = (struct split_result){ .state = SPLIT_OFF };
}

/*
 * The wake-up just stamped at t_run, of the slot's stamp: its latency and
 * its split, and the stage's record of the frame begun (its t_wake read
 * now, before the slot can be filled again).
 */
void hop_record(struct stage *st, const struct wake_slot *s, uint64_t t_run)
{
	uint64_t lat, q;
	int cpu;

	st->cur = (struct period_rec){ .t_wake = t_run, .t_run = t_run, .k = s->k,
				       .wake_cpu = -1, .run_cpu = -1 };
	if (!st->hop || !s->t_wake || !wake_latency(s->t_wake, t_run, &lat))
		return;
	latency_add(&st->hop->lat, lat);
	q = split_after(&st->probe, lat, s->wake_cpu, &cpu);
	st->cur.t_wake = s->t_wake;
	st->cur.flags = PREC_WOKEN | (q <= UINT32_MAX ? PREC_QUEUE : 0);
	st->cur.queue_ns = q <= UINT32_MAX ? (uint32_t)q : 0;
	st->cur.wake_cpu = (int16_t)s->wake_cpu;
	st->cur.run_cpu = (int16_t)cpu;
}

/* Its work for frame k done, now, before it wakes the next stage: the record into its ring. */
void stage_record(struct stage *st, uint32_t k)
{
	if (!st->ring)
		return;
	st->cur.t_done = now_ns();
	st->cur.k = k;
	st->cur.flags |= PREC_DONE;
	period_ring_push(st->ring, &st->cur);
}

/* Hop i's histogram and split into h, named in c: the wake-ups of lat, their split sp. */
static void hop_put(struct chain_summary *c, struct chain_hists *h, int i, const char *name,
		    const struct latency *lat, const struct split_result *sp)
{
	snprintf(c->hop[i].name, sizeof(c->hop[i].name), "%s", name);
	h->hop[i] = *lat;
	h->split[i] = sp->state == SPLIT_ON;
	h->queue[i] = sp->queue.r;
	h->path[i] = sp->path.r;
}

void hop_summary(struct chain_summary *c, struct chain_hists *h, int i, const char *name,
		 const struct hop_meas *m)
{
	hop_put(c, h, i, name, &m->lat, &m->split);
}

/* The head's hop is the task's own wake-up, measured as every task's. */
void hop_from_task(struct chain_summary *c, struct chain_hists *h, const char *name,
		   const struct bench_result *res)
{
	hop_put(c, h, 0, name, &res->wake, &res->split);
}

/*
 * Each hop's wakee by name: the stage whose wake-ups it measures (hops is
 * the chain's hop_meas array, the summary's hop 1 + h); the first is the
 * head's, st[0].
 */
void hop_threads(struct chain_summary *sum, const struct stage *st, int n,
		 const struct hop_meas *hops)
{
	snprintf(sum->hop[0].thread, sizeof(sum->hop[0].thread), "%s", st[0].comm);
	for (int i = 0; i < n; i++) {
		long h = st[i].hop ? 1 + (st[i].hop - hops) : -1;

		if (h > 0 && h < sum->nhops)
			snprintf(sum->hop[h].thread, sizeof(sum->hop[h].thread), "%s", st[i].comm);
	}
}

/* ---- stages ---- */

void stage_init(struct stage *st, const struct sim_params *p, const char *comm,
		uint64_t work_ns, struct chain_base *b, struct hop_meas *hop)
{
	uint64_t w = work_ns ? work_ns : p->period_num / p->period_den / 20;

	*st = (struct stage){ .comm = comm, .work_ns = work_ns, .sched = p->sched,
			      .sched_set = p->sched_set, .hop = hop, .stall_k = -1,
			      .reason = b->reason, .base = b };
	st->probe.fd = -1;		/* no probe until stage_begin opens one */
	if (st->sched.policy == POL_DEADLINE)	/* its own runtime: its own work */
		dl_params(p->period_num, p->period_den, w, &st->sched.dl_runtime_ns,
			  &st->sched.dl_period_ns);
	st->bn = (struct burner){ .mode = p->work, .loops_per_ms = p->loops_per_ms };
	if (hop)
		hop_init(hop);
}

/*
 * INTERBENCH_TEST_STAGE_STALL=NAME:K:MS (test only): stage NAME (main,
 * job0, render, comp, driver, node0, mixer, ...) sleeps MS ms more after
 * its work in frame or cycle K. Anything malformed is no stall.
 */
void stage_stall_from_env(struct stage *st, const char *name)
{
	const char *s = getenv("INTERBENCH_TEST_STAGE_STALL");
	size_t n = strlen(name);
	long k, ms;
	char buf[48], *colon;

	if (!s || strncmp(s, name, n) || s[n] != ':' || strlen(s + n + 1) >= sizeof(buf))
		return;
	snprintf(buf, sizeof(buf), "%s", s + n + 1);
	colon = strchr(buf, ':');
	if (!colon)
		return;
	*colon = '\0';
	if (parse_long(buf, 0, INT_MAX, &k) || parse_long(colon + 1, 1, 10000, &ms))
		return;
	st->stall_k = (int)k;
	st->stall_ns = (uint64_t)ms * NSEC_PER_MSEC;
}

/* In the stage's own thread, first: its name, its knobs, its clocks and probe. */
int stage_begin(struct stage *st, struct chain_base *b)
{
	char why[REASON_LEN];
	int ret = 0;

	pthread_setname_np(pthread_self(), st->comm);
	st->tid = (int)syscall(SYS_gettid);
	if (st->sched_set && (ret = sched_apply(&st->sched, st->comm, why, sizeof(why)))) {
		if (!st->reason[0])
			snprintf(st->reason, REASON_LEN, "%s", why);
		atomic_store(&b->quit, 1);
	}
	if (st->hop)
		split_probe_open(&st->probe, &st->hop->split, now_ns());
	if (policy_is_rt(st->sched.policy))	/* not inherited by a fork: each process asks */
		mlockall(MCL_CURRENT | MCL_FUTURE);
	st->cpu0 = thread_cpu_ns();
	st->bn.end_cpu = st->cpu0;
	atomic_fetch_add(&b->ready, 1);
	return ret;
}

/* Its work for frame or cycle k (CPU mode: counted from its last work's end), and the stall. */
uint64_t stage_work(struct stage *st, uint32_t k)
{
	uint64_t done;
	bool cut;

	st->bn.end_ns = st->base->end_ns;	/* set by the head's first frame */
	st->bn.from_cpu = st->bn.end_cpu;
	done = burn_work(&st->bn, st->work_ns, &cut);
	st->work_sum += done;
	if (st->stall_k >= 0 && (uint32_t)st->stall_k == k)
		sleep_ns(st->stall_ns);
	return done;
}

/* Its loop's end: its CPU time; the probe closed. Before the next wait: its split's read. */
void stage_end(struct stage *st)
{
	st->cpu_ns = thread_cpu_ns() - st->cpu0;
	if (st->hop)
		split_probe_close(&st->probe);
}

/* ---- memory and processes ---- */

/* Shared with the chain's processes, touched now so that the row never faults on it. */
void *shared_alloc(size_t bytes)
{
	void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	memset(m, 0, bytes);
	return m;
}

void shared_free(void *m, size_t bytes)
{
	if (m)
		munmap(m, bytes);
}

/*
 * A process of the chain, named comm, running body: it dies with the bench
 * (PR_SET_PDEATHSIG), so that a killed bench leaves none behind.
 */
pid_t chain_fork(const char *comm, int (*body)(void *arg), void *arg)
{
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	prctl(PR_SET_NAME, comm);
	_exit(body(arg));
}

/* Wait for a chain process that was told to quit; killed if still there at until_ns. */
void chain_reap(pid_t pid, uint64_t until_ns)
{
	if (pid <= 0)
		return;
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (now_ns() >= until_ns) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return;
		}
		sleep_ns(NSEC_PER_MSEC);
	}
}

/*
 * The rings of the n stages drawn, sized as the head's (none when the head
 * records nothing), in shared memory: the stages of other processes write
 * them. hops is the chain's hop_meas array, whose hop h is the summary's
 * 1 + h (the head's is its first). Before the chain's processes fork; 0 or
 * -ENOMEM.
 */
int stage_rings_open(struct stage_rings *r, const struct sim_params *p, struct stage **st,
		     int n, const struct hop_meas *hops)
{
	*r = (struct stage_rings){ 0 };
	if (!p->ring || !p->ring->cap || !p->stages || n > STAGES_MAX)
		return 0;
	r->mem = shared_alloc((size_t)n * p->ring->cap * sizeof(*r->mem));
	if (!r->mem)
		return -ENOMEM;
	r->cap = p->ring->cap;
	r->n = n;
	for (int i = 0; i < n; i++) {
		r->ring[i] = (struct period_ring){ .rec = r->mem + (uint64_t)i * r->cap,
						   .cap = r->cap };
		r->st[i] = st[i];
		r->hop[i] = st[i]->hop ? 1 + (int32_t)(st[i]->hop - hops) : -1;
		st[i]->ring = &r->ring[i];
	}
	return 0;
}

/*
 * After the row, every stage gone: each ring copied, oldest first, into
 * the bench's stage_set (a stage whose copy finds no memory is sent with
 * no records), and the shared memory freed.
 */
void stage_rings_close(struct stage_rings *r, const struct sim_params *p)
{
	struct stage_set *out = p->stages;

	for (int i = 0; out && i < r->n; i++) {
		struct stage_periods *sp = &out->s[i];
		const struct period_ring *ring = &r->ring[i];

		*sp = (struct stage_periods){ .h = { .tid = r->st[i]->tid, .hop = r->hop[i],
						     .nrec = period_ring_kept(ring),
						     .lost = period_ring_lost(ring) } };
		snprintf(sp->h.comm, sizeof(sp->h.comm), "%s", r->st[i]->comm);
		if (sp->h.nrec)
			sp->rec = malloc(sp->h.nrec * sizeof(*sp->rec));
		if (sp->rec)
			period_ring_copy(ring, sp->rec);
		else
			sp->h.lost += sp->h.nrec, sp->h.nrec = 0;
		r->st[i]->ring = NULL;
	}
	if (out)
		out->n = (uint32_t)r->n;
	shared_free(r->mem, (size_t)r->n * r->cap * sizeof(*r->mem));
	*r = (struct stage_rings){ 0 };
}

/*
 * work_ratio over every thread that works: their CPU time over the work
 * asked of them. A head with no work of its own (AudioGraph's driver)
 * counts in neither.
 */
/* The summary, once the chain has stopped: the hops, their wakees, its totals into res. */
void chain_summary_end(const struct chain_parts *cp, struct chain_hists *h,
		       struct bench_result *res)
{
	struct chain_summary *sum = cp->sum;

	if (cp->start0)
		stage_end(&cp->st[0]);
	sum->nhops = 1 + cp->nhop;
	hop_from_task(sum, h, cp->head_hop, res);
	for (int i = 0; i < cp->nhop; i++)
		hop_summary(sum, h, 1 + i, cp->hop_name[i], &cp->hop[i]);
	hop_threads(sum, cp->st, cp->nstage, cp->hop);
	h->span_ns = cp->base->end_ns > cp->start0 ? cp->base->end_ns - cp->start0 : 0;
	chain_summarise(sum, h);
	res->chain = *sum;
	chain_totals(res, cp->st + 1, cp->nstage - 1, cp->head_works);
}

void chain_totals(struct bench_result *res, const struct stage *st, int n, bool head_works)
{
	if (!head_works) {
		res->task_cpu_ns = 0;
		res->work_ns = 0;
	}
	for (int i = 0; i < n; i++) {
		if (!st[i].work_ns)
			continue;
		res->task_cpu_ns += st[i].cpu_ns;
		res->work_ns += st[i].work_sum;
	}
}

/* The chain's start: until its n stages have begun (or one refused its knobs); 0 or -errno. */
int chain_ready(struct chain_base *b, int n)
{
	uint64_t until = now_ns() + 3 * NSEC_PER_SEC;

	while (atomic_load(&b->ready) < n && !b->reason[0] && now_ns() < until)
		sleep_ns(100 * NSEC_PER_USEC);
	if (b->reason[0])
		return -EPERM;
	return atomic_load(&b->ready) < n ? -ETIMEDOUT : 0;
}
