// SPDX-License-Identifier: GPL-2.0-or-later
/* loads.c - the one registry of all workloads, and the load process that runs a load. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "child.h"
#include "loads.h"

bool load_stopping(struct load_ctx *ctx)
{
	return atomic_load_explicit(&ctx->stop, memory_order_relaxed);
}

/* reason = "call: error"; returns -err, for one-line failure exits. */
int set_reason(char *reason, size_t len, const char *call, int err)
{
	snprintf(reason, len, "%s: %s", call, strerror(err));
	return -err;
}

/* ---- the registry: benchmarks in bench order, loads in load order; 0.31's first ---- */

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
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "X", .flags = WL_BENCH | WL_LOAD,
		.what = "100 ms frames; frame k of a 101-frame sweep needs k ms",
		.model = SIM_SWEEP, .period_num = 100 * NSEC_PER_MSEC, .period_den = 1,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Gaming", .flags = WL_BENCH | WL_NODEADLINE,
		.what = "100 ms units of CPU work back to back, no deadlines",
		.model = SIM_FLAT,
	}, {
		.name = "Burn", .flags = WL_LOAD,
		.what = "-L threads spinning on the CPU",
		.load = load_burn, .intensity = INT_CPUS, .unit = "CPUs",
	}, {
		.name = "Write", .flags = WL_LOAD | WL_WRITE_FILE,
		.what = "streams writes to a file in the work directory, through to the disk",
		.load = load_write, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Read", .flags = WL_LOAD | WL_READ_FILE,
		.what = "reads a file from the disk over and over, the page cache dropped each pass",
		.load = load_read, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Ring", .flags = WL_LOAD,
		.what = "max(2, -L) threads passing a token around a ring",
		.load = load_ring, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Compile", .flags = WL_LOAD | WL_FILES,
		.what = "Burn, Write and Read at once, like make -j L; intensity: its I/O",
		.load = load_compile, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Memload", .flags = WL_LOAD,
		.what = "touches and copies around most of MemAvailable (and half the free swap)",
		.load = load_memload, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Hack", .flags = WL_LOAD,
		.what = "hackbench: -L groups of processes messaging over socket pairs",
		.load = load_hack, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Net", .flags = WL_LOAD,
		.what = "a stream of small messages over loopback TCP",
		.load = load_net, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Custom", .flags = WL_BENCH | WL_LOAD | WL_RT | WL_CUSTOM,
		.what = "-C percent of CPU every -I microseconds",
		.model = SIM_PERIODIC,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "ProAudio", .flags = WL_BENCH | WL_LOAD | WL_RT | WL_OPTIN,
		.what = "0.667 ms of CPU every 128 frames at 48 kHz (2.667 ms, 25 %)",
		.model = SIM_PERIODIC, .period_num = 128 * NSEC_PER_SEC, .period_den = 48000,
		.work_ns = 666667,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Render", .flags = WL_BENCH | WL_LOAD | WL_OPTIN,
		.what = "frames at --fps (144); frame work sweeps 20 % -> 80 % -> 20 % over 120",
		.model = SIM_RENDER, .period_num = NSEC_PER_SEC, .period_den = 144,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Input", .flags = WL_BENCH | WL_LOAD | WL_RT | WL_OPTIN,
		.what = "a 1 kHz input device: 50 us of CPU every 1 ms",
		.model = SIM_PERIODIC, .period_num = NSEC_PER_MSEC, .period_den = 1,
		.work_ns = 50 * NSEC_PER_USEC,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
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

/* Which of the Read and Write files (WL_READ_FILE, WL_WRITE_FILE) the selected loads use. */
unsigned load_files_needed(uint32_t loads)
{
	unsigned files = 0;

	for (size_t i = 0; i < nr_workloads; i++)
		if (loads & (1u << i))
			files |= workloads[i].flags & WL_FILES;
	return files;
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
	struct load_ctx *ctx;
	int ret;
	atomic_int done;
};

static void *runner_main(void *arg)
{
	struct runner *r = arg;

	r->ret = r->ctx->wl->load(r->ctx);
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
		child_fail(res_fd, "%s load: mmap of its counters: %s", ctx->wl->name,
			   strerror(-ret));
		return ret;
	}
	memset(ctx->ctr, 0, sizeof(*ctx->ctr));
	ret = pthread_create(t, NULL, runner_main, r);
	if (ret) {
		child_fail(res_fd, "%s load: pthread_create: %s", ctx->wl->name, strerror(ret));
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
			 ctx->wl->name, LOAD_STOP_NS / NSEC_PER_MSEC);
		return;
	}
	pthread_join(t, NULL);
	if (r->ret) {
		res->status = ROW_FAILED;
		snprintf(res->reason, sizeof(res->reason), "%s load stopped early: %.150s",
			 ctx->wl->name, ctx->reason[0] ? ctx->reason : strerror(-r->ret));
	}
}

/*
 * The body of a load process: start the load, say ready, then obey the
 * orchestrator: MSG_BEGIN opens the measured window, MSG_STOP closes it and
 * stops the load, whose result (intensity, and why it ended early) goes
 * back. A load that cannot start says why (MSG_ERROR) and returns < 0.
 */
int load_process(const struct workload *wl, struct load_ctx *ctx, int ctl_fd, int res_fd)
{
	struct load_result res = { .status = ROW_OK, .intensity = -1.0 };
	struct runner r = { .ctx = ctx };
	struct snapshot begin, end;
	enum child_msg m;
	pthread_t t;
	int ret;

	ctx->wl = wl;
	ret = load_launch(ctx, &r, &t, res_fd);
	if (ret)
		return ret;
	take_snapshot(ctx, &begin);
	if (child_ready(res_fd))
		return -EPIPE;
	while ((m = child_next(ctl_fd)) != MSG_STOP && m != MSG_NONE) {
		if (m == MSG_BEGIN)
			take_snapshot(ctx, &begin);
	}
	take_snapshot(ctx, &end);
	load_halt(ctx, &r, t, &res);
	res.intensity = intensity(wl, &begin, &end);
	res.cache_kept = atomic_load(&ctx->ctr->cached_passes) > 0;
	if (m == MSG_STOP)
		write_full(res_fd, &res, sizeof(res));
	return 0;
}
