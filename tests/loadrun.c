// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/loadrun.c - runs loads alone through load_process(), as the orchestrator does, and says how each stopped. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interbench.h"

/*
 * usage: loadrun [--window-ms N] [--settle-ms N] [--cycles N] [--disk MAJ:MIN]
 *                INTERBENCH-OPTIONS
 * The interbench options (-w, -l, -L, --work-dir, --file-mib, ...) select and
 * size the loads, parsed by the real parser. For each selected load, cycles
 * times: fork it in a process group of its own, wait for it to be ready, let
 * it settle, send 'B', wait the window, send 'S', read its result, wait for
 * the load process to end by itself, note whether anything of its group is
 * still there, kill and reap the group. One line per run:
 *   Write intensity=123 MiB/s stop_ms=12.3 status=0 left=0 window_ms=500 reason=
 * stop_ms runs from 'S' to the last process of the group gone. With --disk,
 * disk_mib is what the block device MAJ:MIN read during the window (from
 * /proc/diskstats) and reported_mib the load's own account of it.
 */

struct run_opts {
	long window_ms, settle_ms, cycles;
	bool disk;
	unsigned dmaj, dmin;
};

#define READY_NS (10 * NSEC_PER_SEC)
#define RESULT_NS (1500 * NSEC_PER_MSEC)	/* as the orchestrator waits */

static pid_t self;

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

/* Read len bytes before the deadline; false on EOF, error or timeout. */
static bool read_by(int fd, void *buf, size_t len, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t done = 0;

	while (done < len) {
		uint64_t now = now_ns();
		ssize_t r;

		if (now >= deadline)
			return false;
		if (poll(&p, 1, (int)((deadline - now) / NSEC_PER_MSEC) + 1) <= 0)
			continue;
		r = read(fd, (char *)buf + done, len - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		done += (size_t)r;
	}
	return true;
}

static void NORETURN load_child(int li, struct load_ctx *ctx, int ctl, int res)
{
	char name[16];

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != self)
		_exit(1);
	signal(SIGPIPE, SIG_DFL);
	snprintf(name, sizeof(name), "ibload-%s", workloads[li].name);
	prctl(PR_SET_NAME, name);
	load_process(&workloads[li], ctx, ctl, res);
	_exit(0);
}

/* One start, window and stop of load li; prints its line; false if it went wrong. */
static bool run_once(int li, struct load_ctx *ctx, const struct run_opts *o)
{
	const struct workload *wl = &workloads[li];
	struct load_result res = { .status = -1, .intensity = -1.0 };
	uint64_t t_b, t_s, t_end, d0 = 0, d1 = 0;
	int ctl[2], rp[2], left, st;
	bool got;
	char c;
	pid_t pid, r;

	t_b = now_ns();
	if (pipe2(ctl, O_CLOEXEC) < 0 || pipe2(rp, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(ctl[1]);
		close(rp[0]);
		load_child(li, ctx, ctl[0], rp[1]);
	}
	setpgid(pid, pid);
	close(ctl[0]);
	close(rp[1]);
	if (!read_by(rp[0], &c, 1, now_ns() + READY_NS)) {
		snprintf(res.reason, sizeof(res.reason), "not ready within 10 s");
	} else {
		sleep_ns((uint64_t)o->settle_ms * NSEC_PER_MSEC);
		if (o->disk)
			d0 = disk_read_bytes(o);
		t_b = now_ns();
		write_full(ctl[1], "B", 1);
		sleep_ns((uint64_t)o->window_ms * NSEC_PER_MSEC);
	}
	t_s = now_ns();
	write_full(ctl[1], "S", 1);
	got = read_by(rp[0], &res, sizeof(res), t_s + RESULT_NS);
	if (o->disk)
		d1 = disk_read_bytes(o);
	if (!got) {
		res.status = -1;
		if (!res.reason[0])
			snprintf(res.reason, sizeof(res.reason), "no result within 1.5 s");
	}
	/* the load process must end by itself, having ended everything it started */
	while ((r = waitpid(pid, &st, WNOHANG)) == 0 && now_ns() < t_s + RESULT_NS)
		sleep_ns(NSEC_PER_MSEC / 2);
	left = r != pid || kill(-pid, 0) == 0;	/* itself, or members it left behind */
	kill(-pid, SIGKILL);
	while ((r = waitpid(-pid, &st, 0)) > 0 || (r < 0 && errno == EINTR))
		;
	while (waitpid(-1, &st, WNOHANG) > 0)	/* anything reparented to us */
		;
	t_end = now_ns();
	close(ctl[1]);
	close(rp[0]);
	printf("%s intensity=%.4g %s stop_ms=%.1f status=%d left=%d window_ms=%.0f", wl->name,
	       res.intensity, wl->unit, (double)(t_end - t_s) / 1e6, res.status, left,
	       (double)(t_s - t_b) / 1e6);
	if (o->disk)
		printf(" disk_mib=%.1f reported_mib=%.1f", (double)(d1 - d0) / MIB,
		       res.intensity * (double)(t_s - t_b) / 1e9);
	printf(" reason=%s\n", res.reason);
	fflush(stdout);
	return got && !left;
}

int main(int argc, char **argv)
{
	static struct config cfg;
	struct run_opts o = { .window_ms = 1000, .cycles = 1 };
	struct load_ctx ctx = { .read_fd = -1, .write_fd = -1 };
	char err[512];
	int bad = 0;

	progname = "loadrun";
	strip_options(&argc, argv, &o);
	if (parse_options(argc, argv, &cfg, err, sizeof(err)) != PARSE_RUN)
		die("%s", err);
	if (!cfg.loops_given)
		die("give -l LOOPS_PER_MS");
	self = getpid();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	signal(SIGPIPE, SIG_IGN);
	ctx.cfg = &cfg;
	if (load_prepare_files(&cfg, cfg.loads, &ctx, NULL, err, sizeof(err)))
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
