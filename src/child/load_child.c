// SPDX-License-Identifier: GPL-2.0-or-later
/* child/load_child.c - the load process: a load run on the orchestrator's word, its intensity
 * measured over the window. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/workloads.h"
#include "child/child.h"
#include "child/protocol.h"
#include "child/row_child.h"
#include "sys/proc_scan.h"

struct snapshot {
	uint64_t wall, cpu, side, restarts, units, achieved, dropped;
};

/* Command's CPU is its processes' (a scan of /proc: once a second, not for the others). */
static void take_snapshot(const struct workload *wl, struct load_ctx *ctx, struct snapshot *s)
{
	s->wall = now_ns();
	s->cpu = wl->intensity == INT_TREE ? proc_children_cpu_ns() : process_cpu_ns();
	s->side = atomic_load(&ctx->ctr->side_ns);
	s->restarts = atomic_load(&ctx->ctr->restarts);
	s->units = atomic_load(&ctx->ctr->units);
	s->achieved = atomic_load(&ctx->ctr->sim.achieved);
	s->dropped = atomic_load(&ctx->ctr->sim.dropped);
}

static double intensity(const struct workload *wl, const struct snapshot *a,
			const struct snapshot *b)
{
	double secs = (double)(b->wall - a->wall) / 1e9;
	uint64_t ach = b->achieved - a->achieved, drop = b->dropped - a->dropped;

	if (secs <= 0)
		return -1.0;
	switch (wl->intensity) {
	case INT_RATE:
		return (double)(b->units - a->units) * wl->unit_scale / secs;
	case INT_CPUS:
	case INT_TREE:
		return (double)(b->cpu - a->cpu) / 1e9 / secs;
	case INT_PCT:
		return ach + drop ? 100.0 * (double)ach / (double)(ach + drop) : 0.0;
	case INT_NONE:
		break;
	}
	return -1.0;
}

struct runner {
	const struct workload *wl;
	struct load_ctx *ctx;
	int ret;
	atomic_int done;
};

static void *runner_main(void *arg)
{
	struct runner *r = arg;

	r->ret = r->wl->load(r->ctx);
	atomic_store(&r->done, 1);
	return NULL;
}

static void on_sigusr1(int sig)
{
	(void)sig;		/* only there to interrupt blocking calls */
}

/* Interrupt every other thread of this process out of a blocking call. */
static void kick_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	pid_t self = (pid_t)syscall(SYS_gettid), pid = getpid();
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		long tid;

		if (parse_long(e->d_name, 1, 1L << 30, &tid) || tid == self)
			continue;
		syscall(SYS_tgkill, pid, (pid_t)tid, SIGUSR1);
	}
	closedir(d);
}

/*
 * What the load itself gets to stop: every load must be gone within 1 s of
 * the stop request, the last process of it included, and the load process
 * needs the rest of that second to answer and exit.
 */
#define LOAD_STOP_NS (900 * NSEC_PER_MSEC)

/* Counters shared with the load's own sub-processes, and the thread that runs the load. */
static int load_launch(struct load_ctx *ctx, struct runner *r, pthread_t *t, int res_fd)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	int ret;

	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: calls return EINTR */
	ctx->ctr = mmap(NULL, sizeof(*ctx->ctr), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx->ctr == MAP_FAILED) {
		ret = -errno;
		child_fail(res_fd, "%s load: mmap of its counters: %s", ctx->name,
			   strerror(-ret));
		return ret;
	}
	memset(ctx->ctr, 0, sizeof(*ctx->ctr));
	ret = pthread_create(t, NULL, runner_main, r);
	if (ret) {
		child_fail(res_fd, "%s load: pthread_create: %s", ctx->name, strerror(ret));
		return -ret;
	}
	return 0;
}

/* Stop the load, kicking it out of blocking calls, and say how it ended. */
static void load_halt(struct load_ctx *ctx, struct runner *r, pthread_t t,
		      struct load_result *res)
{
	uint64_t deadline = now_ns() + LOAD_STOP_NS;

	atomic_store(&ctx->stop, 1);
	while (!atomic_load(&r->done) && now_ns() < deadline) {
		kick_threads();
		sleep_ns(5 * NSEC_PER_MSEC);
	}
	if (!atomic_load(&r->done)) {
		res->status = ROW_FAILED;
		snprintf(res->reason, sizeof(res->reason), "%s load did not stop within %llu ms",
			 ctx->name, LOAD_STOP_NS / NSEC_PER_MSEC);
		return;
	}
	pthread_join(t, NULL);
	if (r->ret) {
		res->status = ROW_FAILED;
		snprintf(res->reason, sizeof(res->reason), "%s load stopped early: %.150s",
			 ctx->name, ctx->reason[0] ? ctx->reason : strerror(-r->ret));
	}
}

/*
 * The window's seconds from *last to s as samples of the intensity over
 * time: n of them, of the same value when a late tick (the load process
 * kept from its CPU) spans more than one, so each bin stays a second.
 */
static void add_seconds(const struct workload *wl, struct series *ps, struct snapshot *last,
			const struct snapshot *s, uint64_t n)
{
	double v = intensity(wl, last, s);

	for (uint64_t i = 0; v >= 0 && i < n; i++)
		series_add(ps, v);
	*last = *s;
}

/*
 * The orchestrator's commands until MSG_STOP (or its end): MSG_BEGIN opens
 * the window at *begin. While it is open, a snapshot each second (the
 * ticks keep to the window's start, so they do not drift) gives the
 * intensity of that second; at the stop, a last part of a second counts as
 * a sample when it is at least half of one (its numbers are in the row's
 * intensity either way). The last command.
 */
static enum child_msg load_window(const struct workload *wl, struct load_ctx *ctx, int ctl_fd,
				  struct snapshot *begin, struct series *ps)
{
	struct snapshot last = *begin, now;
	uint64_t tick = 0;
	bool open = false;
	enum child_msg m;

	for (;;) {
		m = open ? child_next_by(ctl_fd, begin->wall + (tick + 1) * NSEC_PER_SEC) :
		    child_next(ctl_fd);
		if (m == MSG_STOP || m == MSG_NONE)
			break;
		if (m == MSG_BEGIN) {
			take_snapshot(wl, ctx, begin);
			last = *begin;
			series_init(ps, begin->wall, NSEC_PER_SEC);
			tick = 0;
			open = true;
		} else if (m == MSG_TIMEOUT) {
			uint64_t n;

			take_snapshot(wl, ctx, &now);
			n = (now.wall - begin->wall) / NSEC_PER_SEC - tick;
			add_seconds(wl, ps, &last, &now, n ? n : 1);
			tick += n ? n : 1;
		}
	}
	take_snapshot(wl, ctx, &now);
	if (open && now.wall - last.wall >= NSEC_PER_SEC / 2)
		add_seconds(wl, ps, &last, &now, 1);
	series_close(ps);
	return m;
}

/*
 * The rest of its work, beside its intensity: the CPUs its CPU side kept
 * busy, against what its threads could (the CPUs allowed it, -L at most)
 * and what the rest of the load process used; Command's restarts.
 */
static void load_work(const struct workload *wl, const struct load_ctx *ctx,
		      const struct snapshot *a, const struct snapshot *b, struct load_result *res)
{
	double secs = (double)(b->wall - a->wall) / 1e9, side = (double)(b->side - a->side);
	int cpus = allowed_cpus();

	res->cpus = res->cpus_want = res->restarts = -1.0;
	res->cpus_other = 0;
	if (secs <= 0)
		return;
	if (wl->flags & WL_CPU_SIDE) {
		res->cpus = side / 1e9 / secs;
		res->cpus_want = ctx->par.cpu_load < cpus ? ctx->par.cpu_load : cpus;
		res->cpus_other = (double)(b->cpu - a->cpu) > side ?
				  ((double)(b->cpu - a->cpu) - side) / 1e9 / secs : 0;
	}
	if (wl->intensity == INT_TREE) {
		res->cpus = res->intensity;
		res->restarts = (double)(b->restarts - a->restarts);
	}
}

/*
 * The body of a load process: start the load, say ready, then obey the
 * orchestrator: MSG_BEGIN opens the measured window, MSG_STOP closes it and
 * stops the load, whose result (intensity, each second's too, and why it
 * ended early) goes back. A load that cannot start says why (MSG_ERROR)
 * and returns < 0.
 */
int load_process(const struct workload *wl, struct load_ctx *ctx, int ctl_fd, int res_fd)
{
	struct load_result res = { .status = ROW_OK, .intensity = -1.0 };
	struct runner r = { .wl = wl, .ctx = ctx };
	struct snapshot begin, end;
	enum child_msg m;
	pthread_t t;
	int ret;

	ctx->name = wl->name;
	ret = load_launch(ctx, &r, &t, res_fd);
	if (ret)
		return ret;
	take_snapshot(wl, ctx, &begin);
	if (child_ready(res_fd))
		return -EPIPE;
	m = load_window(wl, ctx, ctl_fd, &begin, &res.persec);
	take_snapshot(wl, ctx, &end);
	load_halt(ctx, &r, t, &res);
	res.intensity = intensity(wl, &begin, &end);
	load_work(wl, ctx, &begin, &end, &res);
	res.cache_kept = atomic_load(&ctx->ctr->cached_passes) > 0;
	if (m == MSG_STOP)
		pipe_send(res_fd, TAG_LOAD_RESULT, &res, sizeof(res));
	return 0;
}
