// SPDX-License-Identifier: GPL-2.0-or-later
/* explain.c - where each wake-up's latency went: the split, the trace's culprits, the text line. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interbench.h"
#include "explain.h"
#include "result.h"

/* ---- the split, pure ---- */

/*
 * The run delay grows from the moment the task is enqueued (on a remote
 * wake-up, after the interrupt reached its CPU) until it is switched in; a
 * preemption between the read before blocking and the one after running
 * (both outside t_wake..t_run) would add to it too, hence the clip: the queue
 * wait never exceeds the latency, and the wake path is exactly the rest.
 */
void split_of(uint64_t lat, uint64_t rd_before, uint64_t rd_after, uint64_t *queue,
	      uint64_t *path)
{
	uint64_t q = rd_after > rd_before ? rd_after - rd_before : 0;

	*queue = q < lat ? q : lat;
	*path = lat - *queue;
}

/* "<cpu time> <run delay> <times run>\n" of /proc/.../schedstat; 0, or -1 if not that. */
int parse_schedstat(const char *text, uint64_t *run_delay, uint64_t *runs)
{
	unsigned long long c, d, n;
	int used = 0;

	if (sscanf(text, "%llu %llu %llu%n", &c, &d, &n, &used) != 3 || !used)
		return -1;
	*run_delay = d;
	*runs = n;
	return 0;
}

/* The CPUs of one wake-up: woken from another CPU, and moved since the previous one. */
void split_count(struct split_result *r, int wake_cpu, int run_cpu, int prev_cpu)
{
	if (run_cpu < 0)
		return;
	if (wake_cpu >= 0 && wake_cpu != run_cpu)
		r->cross_cpu++;
	if (prev_cpu >= 0 && prev_cpu != run_cpu)
		r->migrations++;
}

/* ---- the task's side: a read before it blocks, a read after it runs ---- */

static bool read_run_delay(int fd, uint64_t *run_delay, uint64_t *runs)
{
	char buf[96];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	return !parse_schedstat(buf, run_delay, runs);
}

/*
 * Open the calling thread's schedstat once (a test may name another file
 * in INTERBENCH_TEST_SCHEDSTAT, such as one that does not exist). A kernel
 * without CONFIG_SCHED_INFO has no such file; one that says a thread that is
 * running has never been run ("0 0 0") keeps no such statistics: both give
 * the CPUs only.
 */
/* How often this thread has left its CPU, by blocking or by preemption. */
static uint64_t thread_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return UINT64_MAX;
	return (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

void split_probe_open(struct split_probe *pr, struct split_result *res, uint64_t t_first)
{
	const char *path = getenv("INTERBENCH_TEST_SCHEDSTAT");
	uint64_t rd, runs = 0;

	memset(pr, 0, sizeof(*pr));
	pr->fd = -1;
	pr->prev_cpu = -1;
	pr->res = res;
	if (!res)
		return;
	res->t_first = t_first;
	res->state = SPLIT_NO_SCHEDSTAT;
	pr->fd = open(path ? path : "/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	pr->run_offset = -(int64_t)thread_switches();	/* first: a switch then shows */
	if (pr->fd >= 0 && (!read_run_delay(pr->fd, &rd, &runs) || !runs)) {
		close(pr->fd);
		pr->fd = -1;
	}
	if (pr->fd < 0)
		return;
	pr->run_offset += (int64_t)runs;
	res->state = SPLIT_ON;
	latency_init(&res->queue);
	latency_init(&res->path);
}

void split_probe_close(struct split_probe *pr)
{
	if (pr->fd >= 0)
		close(pr->fd);
	pr->fd = -1;
}

/*
 * Before posting the request: the run delay so far. It grows only while the
 * task waits to run, so a task that has not left its CPU since the read
 * after its last wake-up still has that value. Whether it left is told by
 * its times run then (schedstat's third field) against its switches out
 * now: while it runs, the two differ by a constant, taken at the start. One
 * cheaper system call instead of the schedstat read, for the same number;
 * any doubt (a switch, no count) reads schedstat again.
 */
void split_before(struct split_probe *pr)
{
	uint64_t runs, sw;

	if (pr->after && (sw = thread_switches()) != UINT64_MAX &&
	    (int64_t)sw + pr->run_offset == (int64_t)pr->after_runs) {
		pr->run_delay = pr->after_delay;
		pr->have = true;
		return;
	}
	pr->have = pr->fd >= 0 && read_run_delay(pr->fd, &pr->run_delay, &runs);
}

/* After t_run is stamped: the wake-up of latency lat, woken from wake_cpu. */
void split_after(struct split_probe *pr, uint64_t lat, int wake_cpu)
{
	struct split_result *r = pr->res;
	uint64_t rd = 0, runs = 0, queue, path;
	int run_cpu;

	if (!r)
		return;
	run_cpu = sched_getcpu();
	pr->after = pr->fd >= 0 && read_run_delay(pr->fd, &rd, &runs);
	pr->after_delay = rd;
	pr->after_runs = runs;
	if (pr->have && pr->after) {
		split_of(lat, pr->run_delay, rd, &queue, &path);
		latency_add(&r->queue, queue);
		latency_add(&r->path, path);
		r->queued += queue > path;
	}
	pr->have = false;
	split_count(r, wake_cpu, run_cpu, pr->prev_cpu);
	pr->prev_cpu = run_cpu;
}

/* ---- who ran instead: one row's trace, pure ---- */

void ran_tally_init(struct ran_tally *t, int pid, uint64_t t0, uint64_t max_wait)
{
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->t0 = t0;
	t->max_wait = max_wait;
}

/* "   1876.619728: sched_switch: " -> ns of the timestamp before at; 0 if none. */
static uint64_t stamp_before(const char *line, const char *at)
{
	const char *p = at, *dot = NULL;
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;

	while (p > line && (p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9')))
		p--;
	if (p == at)
		return 0;
	for (; p < at && *p != '.'; p++)
		sec = sec * 10 + (uint64_t)(*p - '0');
	dot = p;
	for (p = dot + 1; p < at && scale > 1; p++) {
		scale /= 10;
		frac += (uint64_t)(*p - '0') * scale;
	}
	return sec * NSEC_PER_SEC + frac;
}

/* The last occurrence of needle in [s, end). */
static const char *last_in(const char *s, const char *end, const char *needle)
{
	const char *hit = NULL, *p = s;
	size_t n = strlen(needle);

	while ((p = strstr(p, needle)) && p + n <= end) {
		hit = p;
		p++;
	}
	return hit;
}

static void tally_add(struct ran_tally *t, const char *comm, size_t clen, int pid, int prio,
		      bool preempted, uint64_t wait)
{
	int i;

	t->total += wait;
	t->matched++;
	if (clen >= RAN_COMM)
		clen = RAN_COMM - 1;
	for (i = 0; i < t->n; i++)
		if (t->slot[i].pid == pid && !strncmp(t->slot[i].comm, comm, clen) &&
		    !t->slot[i].comm[clen])
			break;
	if (i == t->n) {
		if (t->n == RAN_SLOTS)
			return;		/* counted in the total: the others' shares stay true */
		t->n++;
		memcpy(t->slot[i].comm, comm, clen);
		t->slot[i].comm[clen] = '\0';
		t->slot[i].pid = pid;
		t->slot[i].prio = prio;
	}
	t->slot[i].ns += wait;
	if (preempted)
		t->slot[i].preempted_ns += wait;
}

/* "prev_comm=C prev_pid=P prev_prio=Q prev_state=S ==> next_comm=N next_pid=T next_prio=R" */
static void tally_switch(struct ran_tally *t, const char *f, uint64_t ts)
{
	const char *comm = strstr(f, "prev_comm="), *end = f + strlen(f), *arrow, *pp, *np;
	char state[8];
	int pid, prio, next;

	arrow = last_in(f, end, " ==> next_comm=");
	if (!comm || !arrow || comm > arrow)
		return;
	comm += strlen("prev_comm=");
	pp = last_in(comm, arrow, " prev_pid=");
	np = last_in(arrow, end, " next_pid=");
	if (!pp || sscanf(pp, " prev_pid=%d prev_prio=%d prev_state=%7s", &pid, &prio, state) != 3 ||
	    !np || sscanf(np, " next_pid=%d", &next) != 1 || next != t->pid)
		return;
	if (t->woken && ts >= t->woken && ts - t->woken <= t->max_wait)
		tally_add(t, comm, (size_t)(pp - comm), pid, prio, state[0] == 'R', ts - t->woken);
	t->woken = 0;
}

/*
 * One line of the instance's trace file. A sched_wakeup of the task opens a
 * wake-up; the sched_switch that next puts it on a CPU closes it, and the
 * task that switch took the CPU from (prev_*) is charged the time between
 * them: its queue wait as the trace saw it. A switch-in with no wake-up
 * before it (after a preemption) is not a wake-up and is not counted.
 */
void ran_tally_line(struct ran_tally *t, const char *line)
{
	const char *at;
	unsigned long long in, written;
	uint64_t ts;

	if (sscanf(line, "# entries-in-buffer/entries-written: %llu/%llu", &in, &written) == 2) {
		t->lost |= in != written;
		return;
	}
	if (!strncmp(line, "CPU:", 4) && strstr(line, "[LOST ")) {
		t->lost = true;
		return;
	}
	if ((at = strstr(line, ": sched_wakeup: "))) {
		int pid;
		const char *pp = last_in(at, at + strlen(at), " pid=");

		ts = stamp_before(line, at);
		if (pp && sscanf(pp, " pid=%d", &pid) == 1 && pid == t->pid && ts >= t->t0)
			t->woken = ts ? ts : 1;
		return;
	}
	if ((at = strstr(line, ": sched_switch: "))) {
		ts = stamp_before(line, at);
		if (ts >= t->t0)
			tally_switch(t, at + strlen(": sched_switch: "), ts);
	}
}

/* A name's share: the threads of one load share it, each per-CPU kworker has its own. */
struct ran_group {
	uint64_t ns, preempted_ns;
	int top;			/* its slot with the most wait */
	int threads;
};

/* The slots named like slot i, summed; false when an earlier slot has that name. */
static bool group_of(const struct ran_tally *t, int i, struct ran_group *g)
{
	memset(g, 0, sizeof(*g));
	g->top = i;
	for (int j = 0; j < t->n; j++) {
		if (strcmp(t->slot[j].comm, t->slot[i].comm))
			continue;
		if (j < i)
			return false;
		g->ns += t->slot[j].ns;
		g->preempted_ns += t->slot[j].preempted_ns;
		g->threads++;
		if (t->slot[j].ns > t->slot[g->top].ns)
			g->top = j;
	}
	return g->ns > 0;
}

/* The RAN_TOP names with the most queue wait, largest first. */
void ran_tally_result(const struct ran_tally *t, struct ran_instead *out)
{
	struct ran_group g[RAN_SLOTS];
	bool used[RAN_SLOTS] = { false };

	memset(out, 0, sizeof(*out));
	out->state = RAN_OK;
	out->matched = t->matched;
	out->lost = t->lost;
	for (int i = 0; i < t->n; i++)
		used[i] = !group_of(t, i, &g[i]);
	while (t->total && out->n < RAN_TOP) {
		struct ran_task *o = &out->top[out->n];
		int best = -1;

		for (int i = 0; i < t->n; i++)
			if (!used[i] && (best < 0 || g[i].ns > g[best].ns))
				best = i;
		if (best < 0)
			break;
		used[best] = true;
		snprintf(o->comm, RAN_COMM, "%s", t->slot[best].comm);
		o->pid = t->slot[g[best].top].pid;
		o->prio = t->slot[g[best].top].prio;
		o->threads = g[best].threads;
		o->share = (double)g[best].ns / (double)t->total;
		o->preempted = (double)g[best].preempted_ns / (double)g[best].ns;
		out->n++;
	}
}

/* ---- the text line ---- */

static void cat(char *buf, size_t len, size_t *at, const char *fmt, ...) PRINTF(4, 5);
static void cat(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n;
}

/* A share of the samples, as the line prints it: "48", "0.4", "100". */
static const char *pct_of(char *buf, size_t len, double part, double whole)
{
	fmt_pct(buf, len, whole > 0 ? 100.0 * part / whole : NAN, 3);
	return buf;
}

static void ran_part(char *buf, size_t len, size_t *at, const struct ran_instead *ri)
{
	char p[16];

	if (!ri || ri->state == RAN_UNKNOWN)
		return;
	if (ri->state == RAN_FAILED) {
		cat(buf, len, at, "; ran instead: not known (the trace could not be read)");
		return;
	}
	cat(buf, len, at, "; ran instead: %s", ri->n ? "" : "nothing (no wake-up waited)");
	for (int i = 0; i < ri->n; i++)
		cat(buf, len, at, "%s%s %s %%", i ? ", " : "", ri->top[i].comm,
		    pct_of(p, sizeof(p), ri->top[i].share, 1.0));
	if (ri->lost)
		cat(buf, len, at, " (the trace lost events)");
}

/*
 * "Burn: queue wait 0.91 mean / 3.7 p99, wake path 0.06 / 0.12; 48 % of
 * wake-ups queued behind another task, 51 % woken from another CPU, 3 %
 * migrated; ran instead: ibload-Burn 97 %, kworker/1:1 3 %"
 */
void explain_line(char *buf, size_t len, const struct result *r, double unit_ns)
{
	char a[32], b[32], c[32], d[32], e[16];
	double n = r->v[RF_SAMPLES];
	size_t at = 0;

	buf[0] = '\0';
	cat(buf, len, &at, "%s: ", r->load);
	if (!isfinite(r->v[RF_CROSS_CPU])) {
		cat(buf, len, &at, "%s", isfinite(r->v[RF_TMEAN]) ? "not split (--no-split)" :
		    "no wake-ups to split");
		return;
	}
	if (isfinite(r->v[RF_QMEAN])) {
		fmt_sig3(a, sizeof(a), r->v[RF_QMEAN] / unit_ns);
		fmt_sig3(b, sizeof(b), r->v[RF_QP99] / unit_ns);
		fmt_sig3(c, sizeof(c), r->v[RF_PMEAN] / unit_ns);
		fmt_sig3(d, sizeof(d), r->v[RF_PP99] / unit_ns);
		cat(buf, len, &at, "queue wait %s mean / %s p99, wake path %s / %s; %s %% of "
		    "wake-ups queued behind another task, ", a, b, c, d,
		    pct_of(e, sizeof(e), r->v[RF_QUEUED], n));
	} else {
		cat(buf, len, &at, "no queue wait / wake path (the kernel keeps no schedstat); ");
	}
	cat(buf, len, &at, "%s %% woken from another CPU, ",
	    pct_of(a, sizeof(a), r->v[RF_CROSS_CPU], n));
	cat(buf, len, &at, "%s %% migrated", pct_of(a, sizeof(a), r->v[RF_MIGRATIONS], n));
	ran_part(buf, len, &at, r->ran);
}
