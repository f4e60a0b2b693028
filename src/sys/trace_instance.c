// SPDX-License-Identifier: GPL-2.0-or-later
/* sys/trace_instance.c - --explain's private tracefs instance: events about the task, read per
 * row. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/kernel_files.h"
#include "sys/trace_instance.h"

#define INSTANCE_PREFIX "interbench-"
#define BYTES_PER_PERIOD 640		/* its wake-up (sched_waking, sched_wakeup), its */
					/* switches in and out, a migration, a preemption or two */
#define BUFFER_CAP_KIB (128 * 1024)	/* all CPUs' buffers together, at most */
#define WINDOW_SLACK_NS (100 * NSEC_PER_USEC)	/* the trace prints whole microseconds */
#define EVENTS_PER_PERIOD 10		/* events a row keeps per period it kept, and more: */
#define EVENTS_PER_FRAME 24		/* a chain's thread's: its hops' wake-ups, its waits */
#define EVENTS_SLACK 1024
#define EVENTS_MAX (1u << 22)		/* at most (160 MiB), until the row's outputs are made */

/*
 * One instance per run, instances/interbench-<pid>: its own buffer, its own
 * events and filters, so the user's tracing (the top-level buffer,
 * --trace-above) is never touched. Only the process that made it removes it
 * (forked children inherit the atexit handler).
 */
static struct {
	char dir[PATH_MAX];		/* "" when there is none */
	pid_t owner;
	int pid;			/* the task of the armed row, 0: not armed */
	bool waking;			/* sched_waking is recorded */
} inst;

/* Write value into the instance's file name; 0 or -errno. */
static int put(const char *name, const char *value)
{
	char path[PATH_MAX + 64];
	ssize_t w;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", inst.dir, name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write_full(fd, value, strlen(value));
	close(fd);
	return w < 0 ? (int)w : 0;
}

/* Is pid a live process of the same program as ours (by its name)? */
static bool live_run(int pid)
{
	char path[64], comm[64], mine[64];

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	return !read_small_file(path, comm, sizeof(comm)) &&
	       !read_small_file("/proc/self/comm", mine, sizeof(mine)) && !strcmp(comm, mine);
}

/* Remove the instances of runs that are gone (killed); how many. */
int ran_trace_remove_stale(const char *instances)
{
	DIR *d = opendir(instances);
	struct dirent *e;
	char path[PATH_MAX + 300], *end;
	int removed = 0;
	long pid;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
			continue;
		pid = strtol(e->d_name + strlen(INSTANCE_PREFIX), &end, 10);
		if (*end || pid <= 0 || pid > INT_MAX ||
		    (pid != getpid() && live_run((int)pid)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", instances, e->d_name);
		removed += rmdir(path) == 0;
	}
	if (d)
		closedir(d);
	return removed;
}

void ran_trace_close(void)
{
	if (!inst.dir[0] || getpid() != inst.owner)
		return;
	put("tracing_on", "0");
	rmdir(inst.dir);
	inst.dir[0] = '\0';
}

/* Buffer for the longest row's wake-ups on one CPU (all may land on one), within a cap. */
static void size_buffer(uint64_t periods)
{
	uint64_t kib;
	char cur[32], v[PATH_MAX + 32];
	int cpus = online_cpus();

	kib = periods * BYTES_PER_PERIOD / 1024;
	if (cpus > 0 && kib > BUFFER_CAP_KIB / (uint64_t)cpus)
		kib = BUFFER_CAP_KIB / (uint64_t)cpus;
	snprintf(v, sizeof(v), "%s/buffer_size_kb", inst.dir);
	if (read_small_file(v, cur, sizeof(cur)) || strtoull(cur, NULL, 10) >= kib)
		return;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)kib);
	put("buffer_size_kb", v);	/* if it fails, the trace says it lost events */
}

/*
 * The instance's settings: off, mono clock, plain text, the three events,
 * and sched_waking where the kernel has it (the start of a wake-up: it
 * splits a wake-up by the task's own timer, core/split.h).
 */
static int set_up(uint64_t row_wakeups, char *why, size_t len)
{
	static const char *const opts[] = {
		"context-info", "noraw", "nohex", "nobin", "nolatency-format", "noverbose",
	};
	static const char *const events[] = {
		"events/sched/sched_switch/enable", "events/sched/sched_wakeup/enable",
		"events/sched/sched_migrate_task/enable",
	};
	int ret;

	if ((ret = put("tracing_on", "0")) || (ret = put("trace_clock", "mono")))
		return set_err(why, len, "cannot set up %s: %s", inst.dir, strerror(-ret));
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		put("trace_options", opts[i]);	/* an option this kernel lacks is its default */
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if ((ret = put(events[i], "1")))
			return set_err(why, len, "cannot enable %s/%s: %s", inst.dir, events[i],
				       strerror(-ret));
	inst.waking = !put("events/sched/sched_waking/enable", "1");
	size_buffer(row_wakeups);
	return 0;
}

/*
 * As root, where tracefs is: a fresh instance (after removing those of runs
 * that were killed), removed when the run exits, its buffer sized for
 * row_wakeups, the most wake-ups a row can have. 0, or -1 with why.
 */
int ran_trace_open(uint64_t row_wakeups, char *why, size_t len)
{
	char instances[256];
	const char *top;
	bool denied;

	if (geteuid() != 0)
		return set_err(why, len, "it needs root (a tracefs instance of its own)");
	top = find_tracefs(&denied);
	if (!top)
		return set_err(why, len, "tracefs is not available%s", denied ?
			       " (permission denied)" : "");
	snprintf(instances, sizeof(instances), "%s/instances", top);
	ran_trace_remove_stale(instances);
	snprintf(inst.dir, sizeof(inst.dir), "%s/" INSTANCE_PREFIX "%d", instances, (int)getpid());
	if (mkdir(inst.dir, 0700) < 0) {
		set_err(why, len, "cannot create %s: %s", inst.dir, strerror(errno));
		inst.dir[0] = '\0';
		return -1;
	}
	inst.owner = getpid();
	atexit(ran_trace_close);
	if (set_up(row_wakeups, why, len)) {
		ran_trace_close();
		return -1;
	}
	return 0;
}

/* Append " || " and fmt's text to f (len bytes), the first without " || "; false: no room. */
static bool filter_add(char *f, size_t len, const char *fmt, ...) PRINTF(3, 4);
static bool filter_add(char *f, size_t len, const char *fmt, ...)
{
	size_t at = strlen(f);
	va_list ap;
	int n;

	if (at && (size_t)snprintf(f + at, len - at, " || ") >= len - at)
		return false;
	at = strlen(f);
	va_start(ap, fmt);
	n = vsnprintf(f + at, len - at, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < len - at;
}

/*
 * Before a row's GO: record only events about its n tasks (pid[i], each
 * a member's first thread; none where <= 0) and the threads whose names
 * match a chain member's glob (threads[i], NULL for a single task; a
 * workload file's thread's name, its threads' ids known only later), from an empty
 * buffer: their switches in (next_pid) and out (prev_pid), their wake-ups
 * and migrations.
 */
void ran_trace_arm(const pid_t *pid, const char *const *threads, int n)
{
	char sw[TRACE_FILTER_LEN] = "", ev[TRACE_FILTER_LEN] = "";
	bool fit = true;

	inst.pid = 0;
	if (!inst.dir[0] || n < 1 || put("tracing_on", "0"))
		return;
	for (int i = 0; i < n && fit; i++) {
		if (pid[i] > 0)
			fit = filter_add(sw, sizeof(sw), "prev_pid == %d || next_pid == %d",
					 (int)pid[i], (int)pid[i]) &&
			      filter_add(ev, sizeof(ev), "pid == %d", (int)pid[i]);
		if (fit && threads[i])
			fit = filter_add(sw, sizeof(sw), "prev_comm ~ \"%s\" || next_comm ~ \"%s\"",
					 threads[i], threads[i]) &&
			      filter_add(ev, sizeof(ev), "comm ~ \"%s\"", threads[i]);
	}
	if (!fit || put("events/sched/sched_switch/filter", sw) ||
	    put("events/sched/sched_wakeup/filter", ev) ||
	    put("events/sched/sched_migrate_task/filter", ev) ||
	    (inst.waking && put("events/sched/sched_waking/filter", ev)) || put("trace", "") ||
	    put("tracing_on", "1"))
		return;
	inst.pid = (int)pid[0];
}

/* What a row's trace is read into: per thread, who ran instead and its events. */
struct reading {
	struct sched_tids ids;		/* the threads, as th */
	struct ran_thread th[SE_TIDS_MAX];
	struct ran_tally *tally;	/* [ids.n]: th[i].ran's, unused where NULL */
	uint64_t from[SE_TIDS_MAX];	/* events before it are of periods not kept */
	size_t most[SE_TIDS_MAX];	/* events kept at most, 0: none */
};

static void read_line(struct reading *r, const char *line)
{
	struct sched_ev ev[SE_PER_LINE];
	int n;

	if (sched_trace_says_lost(line)) {
		for (int i = 0; i < r->ids.n; i++) {
			r->th[i].trace->lost = true;
			r->tally[i].lost = true;
		}
		return;
	}
	n = sched_ev_parse(line, &r->ids, ev);
	for (int k = 0; k < n; k++) {
		int i = ev[k].who;

		if (r->th[i].ran)
			ran_tally_event(&r->tally[i], &ev[k]);
		if (r->most[i] && ev[k].ts >= r->from[i])
			sched_trace_add(r->th[i].trace, &ev[k], r->most[i]);
	}
}

/* Feed the instance's trace file to r, line by line; 0 or -errno. */
static int read_trace(struct reading *r)
{
	static char buf[65536];
	char path[PATH_MAX + 16];
	size_t have = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/trace", inst.dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0 || (n < 0 && errno == EINTR)) {
		char *line = buf, *nl;

		have += n > 0 ? (size_t)n : 0;
		buf[have] = '\0';
		while ((nl = memchr(line, '\n', have - (size_t)(line - buf)))) {
			*nl = '\0';
			read_line(r, line);
			line = nl + 1;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0;	/* a line this long is none of ours */
	}
	close(fd);
	return n < 0 ? -errno : 0;
}

/*
 * What thread i keeps: its events from its first record's wake-up, bounded
 * by its records (more per record in a chain, whose head waits for its
 * stages within each frame).
 */
static bool keep_of(struct reading *r, int i, size_t share, bool chain)
{
	const struct ran_thread *t = &r->th[i];
	size_t per = chain ? EVENTS_PER_FRAME : EVENTS_PER_PERIOD, want;

	if (!t->nrec || !t->rec)
		return false;
	r->from[i] = t->rec[0].t_wake > WINDOW_SLACK_NS ? t->rec[0].t_wake - WINDOW_SLACK_NS : 0;
	want = t->nrec < (EVENTS_MAX - EVENTS_SLACK) / per ?
	       (size_t)t->nrec * per + EVENTS_SLACK : EVENTS_MAX;
	r->most[i] = want < share ? want : share;
	return true;
}

/*
 * After a row: stop recording, and for each of its n threads th (each
 * member's task, then a chain's stages, by their ids), charge its wake-ups'
 * queue waits to what ran instead (where th[i].ran is asked for: waits from
 * th[i].t_first on, none longer than th[i].max_wait), and keep its events
 * of the periods kept (th[i].rec), all of them together bounded.
 */
void ran_trace_collect(struct ran_thread *th, int n)
{
	static struct ran_tally tally[SE_TIDS_MAX];	/* 85 KiB: not on the stack */
	struct reading r = { .tally = tally };
	bool any = false;

	if (n > SE_TIDS_MAX)
		n = SE_TIDS_MAX;
	for (int i = 0; i < n; i++)
		sched_trace_free(th[i].trace);
	if (!inst.dir[0])
		return;
	put("tracing_on", "0");
	for (int i = 0; i < n; i++) {
		int tid = th[i].tid;

		if (!inst.pid || tid <= 0) {
			if (th[i].ran)
				th[i].ran->state = RAN_FAILED;
			continue;
		}
		r.ids.tid[r.ids.n] = tid;
		r.th[r.ids.n] = th[i];
		any |= keep_of(&r, r.ids.n, (EVENTS_MAX - EVENTS_SLACK) / (size_t)n, th[i].chain);
		if (th[i].ran) {
			ran_tally_init(&tally[r.ids.n], tid, th[i].t_first > WINDOW_SLACK_NS ?
				       th[i].t_first - WINDOW_SLACK_NS : 0,
				       th[i].max_wait + 2 * NSEC_PER_USEC);
			any = true;
		}
		r.ids.n++;
	}
	if (!any) {
		inst.pid = 0;
		return;
	}
	if (read_trace(&r)) {
		for (int i = 0; i < r.ids.n; i++) {
			sched_trace_free(r.th[i].trace);
			if (r.th[i].ran)
				r.th[i].ran->state = RAN_FAILED;
		}
	} else {
		for (int i = 0; i < r.ids.n; i++) {
			r.th[i].trace->read = r.most[i] > 0;
			if (r.th[i].ran)
				ran_tally_result(&tally[i], r.th[i].ran);
		}
	}
	inst.pid = 0;
}
