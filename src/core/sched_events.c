// SPDX-License-Identifier: GPL-2.0-or-later
/* core/sched_events.c - a row's threads' scheduler events from a trace instance's text lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/defs.h"
#include "core/sched_events.h"

/*
 * A line of the instance's trace file, with context-info on:
 *
 *     python3-21013   [000] d..2. 15149.997771: sched_switch: prev_comm=...
 *
 * the current task ("comm-pid", "<...>" when its name was not saved, and a
 * comm may hold spaces), its CPU, the flags, the timestamp in seconds with
 * six decimals, the event and its fields.
 */

/* The timestamp that ends just before at, in ns; its first character into *start. */
static uint64_t stamp_before(const char *line, const char *at, const char **start)
{
	const char *p = at;
	uint64_t sec = 0, frac = 0, scale = NSEC_PER_SEC;

	while (p > line && (p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9')))
		p--;
	*start = p;
	for (; p < at && *p != '.'; p++)
		sec = sec * 10 + (uint64_t)(*p - '0');
	for (p++; p < at && scale > 1; p++) {
		scale /= 10;
		frac += (uint64_t)(*p - '0') * scale;
	}
	return sec * NSEC_PER_SEC + frac;
}

/* The last occurrence of needle in [s, end), or NULL. */
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

static void copy_comm(char *dst, const char *src, size_t n)
{
	if (n >= SE_COMM)
		n = SE_COMM - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The current task ("comm-pid") and CPU ("[001]") before the timestamp at stamp. */
static void line_context(const char *line, const char *stamp, struct sched_ev *ev)
{
	const char *b = stamp, *s = line, *dash;

	ev->cpu = -1;
	ev->pid = -1;
	while (b > line && b[-1] != '[')
		b--;
	if (b == line)
		return;
	ev->cpu = (int32_t)strtol(b, NULL, 10);
	b--;					/* the '[' */
	while (b > line && b[-1] == ' ')
		b--;
	while (s < b && *s == ' ')
		s++;
	for (dash = b; dash > s && dash[-1] != '-'; dash--)
		;
	if (dash <= s + 1)
		return;
	ev->pid = (int32_t)strtol(dash, NULL, 10);
	copy_comm(ev->comm, s, (size_t)(dash - 1 - s));
}

/* The index of tid among ids, or -1. */
int sched_tids_find(const struct sched_tids *ids, int32_t tid)
{
	for (int i = 0; ids && i < ids->n && i < SE_TIDS_MAX; i++)
		if (ids->tid[i] == tid)
			return i;
	return -1;
}

/* One side of a switch line, about our thread who: type, and the other task's pid, prio, comm. */
static void switch_side(struct sched_ev *ev, int type, int who, int pid, int prio,
			const char *comm, const char *comm_end)
{
	ev->type = (uint8_t)type;
	ev->who = (uint8_t)who;
	ev->pid = pid;
	ev->prio = prio;
	copy_comm(ev->comm, comm, (size_t)(comm_end - comm));
}

/*
 * "prev_comm=C prev_pid=P prev_prio=Q prev_state=S ==> next_comm=N next_pid=T next_prio=R":
 * the switch out of prev, then the switch in of next, for each that is ours; how many.
 */
static int parse_switch(const char *f, const struct sched_tids *ids, struct sched_ev ev[])
{
	const char *end = f + strlen(f), *pc = strstr(f, "prev_comm="), *arrow, *pp, *np, *nc;
	int prev, prev_prio, next, next_prio, out, in, n = 0;
	char state[8];

	arrow = last_in(f, end, " ==> next_comm=");
	if (!pc || !arrow || pc > arrow)
		return 0;
	pc += strlen("prev_comm=");
	nc = arrow + strlen(" ==> next_comm=");
	pp = last_in(pc, arrow, " prev_pid=");
	np = last_in(nc, end, " next_pid=");
	if (!pp || !np ||
	    sscanf(pp, " prev_pid=%d prev_prio=%d prev_state=%7s", &prev, &prev_prio, state) != 3 ||
	    sscanf(np, " next_pid=%d next_prio=%d", &next, &next_prio) != 2)
		return 0;
	ev[0].state = state[0];
	out = prev > 0 ? sched_tids_find(ids, prev) : -1;
	in = next > 0 ? sched_tids_find(ids, next) : -1;
	if (out >= 0)		/* ours switched out: the other is the next task */
		switch_side(&ev[n++], SE_SWITCH_OUT, out, next, next_prio, nc, np);
	if (in >= 0) {		/* ours switched in: the other is the previous task */
		if (n)
			ev[n] = ev[0];		/* the line's stamp, CPU and state */
		switch_side(&ev[n++], SE_SWITCH_IN, in, prev, prev_prio, pc, pp);
	}
	return n;
}

/*
 * "comm=C pid=P prio=Q target_cpu=N" or "... orig_cpu=M dest_cpu=N" of one
 * of ours: ev->cpu the field cpu_key names, or with none the line's CPU.
 */
static int parse_about(const char *f, const struct sched_tids *ids, const char *cpu_key,
		       struct sched_ev *ev)
{
	const char *pp = last_in(f, f + strlen(f), " pid="), *c = NULL;
	int p, who;

	if (!pp || sscanf(pp, " pid=%d", &p) != 1 || p <= 0 ||
	    (who = sched_tids_find(ids, p)) < 0 || (cpu_key && !(c = strstr(pp, cpu_key))))
		return 0;
	if (c)
		ev->cpu = (int32_t)strtol(c + strlen(cpu_key), NULL, 10);
	ev->prio = -1;				/* the task that did it: the line's */
	ev->who = (uint8_t)who;
	return 1;
}

/*
 * One line of the trace as events about the threads ids: how many, into ev
 * (0: another event, others' threads, a comment line). A switch from one of
 * ours to another is two: the switch out, then the switch in. Who an event
 * names besides its thread is in the types' comments.
 */
int sched_ev_parse(const char *line, const struct sched_tids *ids, struct sched_ev ev[SE_PER_LINE])
{
	static const struct {
		const char *name;
		int type;
	} kinds[] = {
		{ ": sched_switch: ", SE_SWITCH_IN },
		{ ": sched_wakeup: ", SE_WAKEUP },
		{ ": sched_migrate_task: ", SE_MIGRATE },
		{ ": sched_waking: ", SE_WAKING },
	};
	static const char *const cpu_key[] = {
		[SE_WAKEUP] = " target_cpu=", [SE_MIGRATE] = " dest_cpu=", [SE_WAKING] = NULL,
	};
	const char *at = NULL, *stamp, *f;
	size_t k;

	if (line[0] == '#')
		return 0;
	for (k = 0; k < ARRAY_SIZE(kinds) && !at; k++)
		at = strstr(line, kinds[k].name);
	if (!at)
		return 0;
	k--;
	memset(ev, 0, sizeof(*ev));
	ev->ts = stamp_before(line, at, &stamp);
	if (stamp == at)
		return 0;
	line_context(line, stamp, ev);
	f = at + strlen(kinds[k].name);
	ev->type = (uint8_t)kinds[k].type;
	if (kinds[k].type == SE_SWITCH_IN)
		return parse_switch(f, ids, ev);	/* the others are not the line's */
	return parse_about(f, ids, cpu_key[kinds[k].type], ev);
}

/* The first event of tr stamped at or after ts (events are in time order). */
size_t sched_trace_from(const struct sched_trace *tr, uint64_t ts)
{
	size_t lo = 0, hi = tr->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tr->ev[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A line that says the kernel dropped events: overwritten entries, or a [LOST] mark. */
bool sched_trace_says_lost(const char *line)
{
	unsigned long long in, written;

	if (sscanf(line, "# entries-in-buffer/entries-written: %llu/%llu", &in, &written) == 2)
		return in != written;
	return !strncmp(line, "CPU:", 4) && strstr(line, "[LOST ");
}

/* Append ev, the array grown as needed up to most events; false (and lost) past that. */
bool sched_trace_add(struct sched_trace *t, const struct sched_ev *ev, size_t most)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct sched_ev *p;

		if (cap > most)
			cap = most;
		p = cap > t->cap ? realloc(t->ev, cap * sizeof(*p)) : NULL;
		if (!p) {
			t->lost = true;
			return false;
		}
		t->ev = p;
		t->cap = cap;
	}
	t->ev[t->n++] = *ev;
	return true;
}

void sched_trace_free(struct sched_trace *t)
{
	free(t->ev);
	*t = (struct sched_trace){ 0 };
}
