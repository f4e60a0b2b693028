// SPDX-License-Identifier: GPL-2.0-or-later
/* loads.c - the background loads, the load process around them, and the one registry. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "interbench.h"

bool load_stopping(struct load_ctx *ctx)
{
	return atomic_load_explicit(&ctx->stop, memory_order_relaxed);
}

/* Sleep in short slices so a stop request is seen within 10 ms. */
static int load_none(struct load_ctx *ctx)
{
	while (!load_stopping(ctx))
		sleep_ns(10 * NSEC_PER_MSEC);
	return 0;
}

/* ---- Burn: -L threads spinning the calibrated loop ---- */

static void *burn_thread(void *arg)
{
	struct load_ctx *ctx = arg;

	while (!load_stopping(ctx))
		burn_loops(ctx->cfg->loops_per_ms);
	return NULL;
}

/* Start n copies of fn(ctx); returns how many started, reason set on failure. */
static int spawn_threads(struct load_ctx *ctx, pthread_t *t, int n, void *(*fn)(void *))
{
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = pthread_create(&t[i], NULL, fn, ctx);
		if (ret) {
			snprintf(ctx->reason, sizeof(ctx->reason),
				 "pthread_create: %s", strerror(ret));
			break;
		}
	}
	return i;
}

static void join_threads(pthread_t *t, int n)
{
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static int load_burn(struct load_ctx *ctx)
{
	int n = ctx->cfg->cpu_load, started;
	pthread_t *t = calloc((size_t)n, sizeof(*t));

	if (!t) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory for %d threads", n);
		return -ENOMEM;
	}
	started = spawn_threads(ctx, t, n, burn_thread);
	join_threads(t, started);
	free(t);
	return started == n ? 0 : -EAGAIN;
}

/* ---- Video, X and Custom as loads: the simulation, unmeasured ---- */

static int load_sim(struct load_ctx *ctx, const char *name)
{
	struct sim_params p;
	int ret;

	sim_params_init(&p, &workloads[workload_find(name)], ctx->cfg);
	ret = sim_run(&p, 0, &ctx->stop, NULL, &ctx->ctr->sim);
	if (ret)
		snprintf(ctx->reason, sizeof(ctx->reason), "%s load: %s", name, strerror(-ret));
	return ret;
}

static int load_video(struct load_ctx *ctx)
{
	return load_sim(ctx, "Video");
}

static int load_x(struct load_ctx *ctx)
{
	return load_sim(ctx, "X");
}

static int load_custom(struct load_ctx *ctx)
{
	return load_sim(ctx, "Custom");
}

/* ---- the registry: benchmarks in bench order, loads in load order ---- */

const struct workload workloads[] = {
	{
		.name = "None", .flags = WL_LOAD,
		.what = "an idle machine",
		.load = load_none, .intensity = INT_NONE, .unit = "",
	}, {
		.name = "Audio", .flags = WL_BENCH | WL_RT,
		.what = "2.5 ms of CPU every 50 ms (5 %)",
		.model = SIM_PERIODIC, .period_num = 50 * NSEC_PER_MSEC, .period_den = 1,
		.work_ns = 2500 * NSEC_PER_USEC,
	}, {
		.name = "Video", .flags = WL_BENCH | WL_LOAD | WL_RT,
		.what = "6.67 ms of CPU every 1/60 s (40 %)",
		.model = SIM_PERIODIC, .period_num = NSEC_PER_SEC, .period_den = 60,
		.work_ns = 6666667,
		.load = load_video, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "X", .flags = WL_BENCH | WL_LOAD,
		.what = "100 ms frames; frame k of a 101-frame sweep needs k ms",
		.model = SIM_SWEEP, .period_num = 100 * NSEC_PER_MSEC, .period_den = 1,
		.load = load_x, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Gaming", .flags = WL_BENCH | WL_NODEADLINE,
		.what = "100 ms units of CPU work back to back, no deadlines",
		.model = SIM_FLAT,
	}, {
		.name = "Burn", .flags = WL_LOAD,
		.what = "-L threads spinning on the CPU",
		.load = load_burn, .intensity = INT_CPUS, .unit = "CPUs",
	}, {
		.name = "Custom", .flags = WL_BENCH | WL_LOAD | WL_RT | WL_CUSTOM,
		.what = "-C percent of CPU every -I microseconds",
		.model = SIM_PERIODIC,
		.load = load_custom, .intensity = INT_PCT, .unit = "% CPU",
	},
};
const size_t nr_workloads = ARRAY_SIZE(workloads);

int workload_find(const char *name)
{
	for (size_t i = 0; i < nr_workloads; i++)
		if (!strcasecmp(name, workloads[i].name))
			return (int)i;
	return -1;
}

/* "Audio, Video, ..." of the workloads having every flag in need. */
void workload_names(unsigned need, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr_workloads && used < len; i++) {
		if ((workloads[i].flags & need) != need)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 workloads[i].name);
	}
}

/* ---- the load process ---- */

struct snapshot {
	uint64_t wall, cpu, units, achieved, dropped;
};

static void take_snapshot(struct load_ctx *ctx, struct snapshot *s)
{
	s->wall = now_ns();
	s->cpu = process_cpu_ns();
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

#define LOAD_STOP_NS (900 * NSEC_PER_MSEC)

/*
 * The body of a load process: start the load, say ready, then obey the
 * orchestrator: 'B' opens the measured window, 'S' closes it and stops the
 * load, whose result (intensity, and why it ended early) goes back.
 */
int load_process(const struct workload *wl, struct load_ctx *ctx, int ctl_fd, int res_fd)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	struct load_result res = { .status = ROW_OK, .intensity = -1.0 };
	struct runner r = { .wl = wl, .ctx = ctx };
	struct snapshot begin, end;
	pthread_t t;
	uint64_t deadline;
	char cmd = 0;
	int ret;

	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: calls return EINTR */
	ctx->ctr = mmap(NULL, sizeof(*ctx->ctr), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx->ctr == MAP_FAILED)
		return -errno;
	memset(ctx->ctr, 0, sizeof(*ctx->ctr));
	ret = pthread_create(&t, NULL, runner_main, &r);
	if (ret)
		return -ret;
	take_snapshot(ctx, &begin);
	if (write_full(res_fd, "R", 1) != 1)
		return -EPIPE;
	while (read_full(ctl_fd, &cmd, 1) == 1 && cmd != 'S') {
		if (cmd == 'B')
			take_snapshot(ctx, &begin);
	}
	take_snapshot(ctx, &end);
	atomic_store(&ctx->stop, 1);
	deadline = now_ns() + LOAD_STOP_NS;
	while (!atomic_load(&r.done) && now_ns() < deadline) {
		kick_threads();
		sleep_ns(5 * NSEC_PER_MSEC);
	}
	if (!atomic_load(&r.done)) {
		res.status = ROW_FAILED;
		snprintf(res.reason, sizeof(res.reason), "%s load did not stop within 1 s",
			 wl->name);
	} else {
		pthread_join(t, NULL);
		if (r.ret) {
			res.status = ROW_FAILED;
			snprintf(res.reason, sizeof(res.reason), "%s load stopped early: %.150s",
				 wl->name, ctx->reason[0] ? ctx->reason : strerror(-r.ret));
		}
	}
	res.intensity = intensity(wl, &begin, &end);
	if (cmd == 'S')
		write_full(res_fd, &res, sizeof(res));
	return 0;
}

/* Nothing of issue 2's loads needs a file; the file loads add theirs here. */
int load_prepare_files(const struct config *cfg, unsigned need, struct load_ctx *ctx,
		       volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	(void)cfg;
	(void)need;
	(void)stop;
	(void)err;
	(void)errlen;
	ctx->read_fd = -1;
	ctx->write_fd = -1;
	return 0;
}

void load_close_files(struct load_ctx *ctx)
{
	if (ctx->read_fd >= 0)
		close(ctx->read_fd);
	if (ctx->write_fd >= 0)
		close(ctx->write_fd);
	ctx->read_fd = ctx->write_fd = -1;
}
