// SPDX-License-Identifier: GPL-2.0-or-later
/* core/split.c - where a wake-up's latency went, and who ran instead, as pure arithmetic on
 * text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/defs.h"
#include "core/split.h"

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

