// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/loadrun.c - runs loads alone through load_process(), as the orchestrator does, and
 * says how each stopped. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/workloads.h"
#include "model/record.h"
#include "child/child.h"
#include "child/protocol.h"
#include "cli/options.h"
#include "model/plan.h"
#include "run/row.h"
#include "cli/derive.h"
#include "task/task.h"

/*
 * usage: loadrun [--window-ms N] [--settle-ms N] [--cycles N] [--disk MAJ:MIN]
 *                INTERBENCH-OPTIONS
 * The interbench options (-w, -l, -L, --work-dir, --file-mib, ...) select and
 * size the loads, parsed by the real parser. For each selected load, cycles
 * times, through child.c as the orchestrator does: start it, wait for it to be
 * ready, let it settle, send MSG_BEGIN, wait the window, send MSG_STOP, read its
 * result, wait for the load process to end by itself, note whether anything of
 * its group is still there, kill and reap the group. One line per run:
 *   Write intensity=123 MiB/s stop_ms=12.3 status=0 left=0 window_ms=500 cached=0 reason=
 * stop_ms runs from MSG_STOP to the last process of the group gone. With --disk,
 * disk_mib is what the block device MAJ:MIN read during the window (from
 * /proc/diskstats) and reported_mib the load's own account of it. cached=1:
 * a Read pass found its file still in the page cache after the drop.
 */

struct run_opts {
	long window_ms, settle_ms, cycles;
	bool disk;
	unsigned dmaj, dmin;
};

#define READY_NS (10 * NSEC_PER_SEC)
#define RESULT_NS (1500 * NSEC_PER_MSEC)	/* as the orchestrator waits */

/* Take our own options out of argv; the rest is interbench's. */
static void strip_options(int *argc, char **argv, struct run_opts *o)
{
	int out = 1;

	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i], *v = i + 1 < *argc ? argv[i + 1] : NULL;
		long *dst = !strcmp(a, "--window-ms") ? &o->window_ms :
			    !strcmp(a, "--settle-ms") ? &o->settle_ms :
			    !strcmp(a, "--cycles") ? &o->cycles : NULL;

		if (dst) {
			if (parse_long(v, 0, 1000000, dst))
				die("%s: not a number: %s", a, v ? v : "(none)");
			i++;
		} else if (!strcmp(a, "--disk")) {
			if (!v || sscanf(v, "%u:%u", &o->dmaj, &o->dmin) != 2)
				die("--disk: want MAJ:MIN, got %s", v ? v : "(none)");
			o->disk = true;
			i++;
		} else {
			argv[out++] = argv[i];
		}
	}
	argv[out] = NULL;
	*argc = out;
}

/* Sectors the device has read, in bytes; 0 when it is not listed. */
static uint64_t disk_read_bytes(const struct run_opts *o)
{
	FILE *f = fopen("/proc/diskstats", "re");
	unsigned maj, min;
	unsigned long long sectors;
	char line[512];
	uint64_t bytes = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %*s %*u %*u %llu", &maj, &min, &sectors) == 3 &&
		    maj == o->dmaj && min == o->dmin)
			bytes = (uint64_t)sectors * 512;
	}
	fclose(f);
	return bytes;
}

static struct config cfg;	/* the command line, as interbench parses it */

struct load_arg {
	int li;
	struct load_ctx *ctx;
};

static int load_child(void *arg, int ctl, int res)
{
	struct load_arg *a = arg;
	char name[16];

	snprintf(name, sizeof(name), "ibload-%s", workloads[a->li].name);
	prctl(PR_SET_NAME, name);
	sim_params_init_beside(&a->ctx->par.sim, &workloads[a->li], &cfg);
	return load_process(&workloads[a->li], a->ctx, ctl, res) ? 1 : 0;
}

/* Let it settle, then open the window with MSG_BEGIN and keep it open; returns when it opened. */
static uint64_t run_window(struct child *c, const struct run_opts *o, uint64_t *d0)
{
	uint64_t t_b;

	sleep_ns((uint64_t)o->settle_ms * NSEC_PER_MSEC);
	if (o->disk)
		*d0 = disk_read_bytes(o);
	t_b = now_ns();
	child_tell(c, MSG_BEGIN);
	sleep_ns((uint64_t)o->window_ms * NSEC_PER_MSEC);
	return t_b;
}

/* One start, window and stop of load li; prints its line; false if it went wrong. */
static bool run_once(int li, struct load_ctx *ctx, const struct run_opts *o)
{
	const struct workload *wl = &workloads[li];
	struct load_result res = { .status = -1, .intensity = -1.0 };
	struct load_arg arg = { .li = li, .ctx = ctx };
	struct child c;
	uint64_t t_b, t_s, t_end, d0 = 0, d1 = 0;
	char why[REASON_LEN];
	bool got, left;
	int ret;

	t_b = now_ns();
	ret = child_start(&c, load_child, &arg);
	if (ret)
		die("fork: %s", strerror(-ret));
	ret = child_wait_ready(&c, now_ns() + READY_NS, NULL, why, sizeof(why));
	if (ret)
		snprintf(res.reason, sizeof(res.reason), "%s",
			 ret == -EREMOTEIO ? why : "not ready within 10 s");
	else
		t_b = run_window(&c, o, &d0);
	t_s = now_ns();
	child_tell(&c, MSG_STOP);
	got = pipe_receive(c.res, TAG_LOAD_RESULT, &res, sizeof(res), t_s + RESULT_NS, NULL,
			   why, sizeof(why)) == sizeof(res);
	if (o->disk)
		d1 = disk_read_bytes(o);
	if (!got) {
		res.status = -1;
		if (!res.reason[0])
			snprintf(res.reason, sizeof(res.reason), "no result within 1.5 s");
	}
	/* the load process must end by itself, having ended everything it started */
	left = !child_wait_exit(&c, t_s + RESULT_NS, NULL) || child_group_alive(&c);
	child_kill(&c);
	while (waitpid(-1, NULL, WNOHANG) > 0)	/* anything reparented to us */
		;
	t_end = now_ns();
	printf("%s intensity=%.4g %s stop_ms=%.1f status=%d left=%d window_ms=%.0f cached=%d",
	       wl->name, res.intensity, wl->unit, (double)(t_end - t_s) / 1e6, res.status, left,
	       (double)(t_s - t_b) / 1e6, res.cache_kept);
	if (o->disk)
		printf(" disk_mib=%.1f reported_mib=%.1f", (double)(d1 - d0) / MIB,
		       res.intensity * (double)(t_s - t_b) / 1e9);
	printf(" reason=%s\n", res.reason);
	fflush(stdout);
	return got && !left;
}

int main(int argc, char **argv)
{
	struct run_opts o = { .window_ms = 1000, .cycles = 1 };
	struct load_ctx ctx = { .read_fd = -1, .write_fd = -1 };
	char err[512];
	int bad = 0;

	progname = "loadrun";
	strip_options(&argc, argv, &o);
	if (parse_options(argc, argv, &cfg, err, sizeof(err)) != PARSE_RUN)
		die("%s", err);
	if (cfg.work == WORK_LOOPS && !cfg.loops_given)
		die("loops mode needs -l LOOPS_PER_MS");
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	signal(SIGPIPE, SIG_IGN);
	load_params_of(&cfg, &ctx.par);
	if (load_prepare_files(load_files_needed(cfg.loads), &ctx, NULL, err, sizeof(err)))
		die("%s", err);
	for (size_t li = 0; li < nr_workloads; li++) {
		if (!(cfg.loads & (1u << li)))
			continue;
		for (long i = 0; i < o.cycles; i++)
			bad += !run_once((int)li, &ctx, &o);
	}
	load_close_files(&ctx);
	return bad ? 1 : 0;
}
