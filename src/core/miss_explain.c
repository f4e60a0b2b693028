// SPDX-License-Identifier: GPL-2.0-or-later
/* core/miss_explain.c - each missed period's story from its record and the task's events, the row's
 * worst misses and where their time went. */
#include <math.h>
#include <string.h>

#include "core/defs.h"
#include "core/miss_explain.h"
#include "core/split.h"

_Static_assert(sizeof(struct miss) <= 96, "a miss's size is part of a kept row's budget");

#define SWITCH_BACK_MAX 64		/* events looked back for the task's state at a wake-up */

/* One miss's time in ns, from its wake-up to its work's end: the shares' parts. */
struct story {
	uint64_t part[MS_COUNT];
	bool traced;
};

static uint32_t us_of(uint64_t ns)
{
	ns = (ns + NSEC_PER_USEC / 2) / NSEC_PER_USEC;
	return ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

/* The trace prints whole microseconds: an event after ts is stamped no earlier than this. */
static uint64_t floor_us(uint64_t ts)
{
	return ts - ts % NSEC_PER_USEC;
}

static void task_of(struct miss_task *t, const struct sched_ev *ev)
{
	memcpy(t->comm, ev->comm, sizeof(t->comm));
	t->comm[sizeof(t->comm) - 1] = '\0';
	t->pid = ev->pid;
	t->prio = ev->prio;
}

/* Was the task on its CPU just before event i: is its last switch before i one in? */
static bool on_cpu_before(const struct sched_trace *tr, size_t i)
{
	for (size_t k = 0; k < SWITCH_BACK_MAX && k < i; k++) {
		const struct sched_ev *e = &tr->ev[i - 1 - k];

		if (e->type == SE_SWITCH_IN || e->type == SE_SWITCH_OUT)
			return e->type == SE_SWITCH_IN;
	}
	return false;
}

/*
 * Does the trace tell this period's story? When it does, who had the CPU
 * until the wake-up's switch-in (none when the task never left its CPU),
 * and where the events of its run begin, into *from. Where the trace lost
 * events, only a period between its first and last event is told.
 */
static bool trace_covers(const struct sched_trace *tr, const struct period_rec *p, bool overran,
			 struct miss *m, size_t *from)
{
	uint64_t t = floor_us(overran ? p->t_run : p->t_wake);
	bool woke = false;
	size_t i;

	if (!tr || !tr->read)
		return false;
	if (tr->lost && (!tr->n || tr->ev[0].ts > t || tr->ev[tr->n - 1].ts < p->t_done))
		return false;
	*from = i = sched_trace_from(tr, t);
	if (overran)
		return true;		/* on its CPU since its last period's work */
	for (; i < tr->n && tr->ev[i].ts <= p->t_run; i++) {
		if (tr->ev[i].type == SE_WAKEUP)
			woke = true;
		if (tr->ev[i].type != SE_SWITCH_IN)
			continue;
		task_of(&m->behind, &tr->ev[i]);
		if (m->cpu < 0)
			m->cpu = (int16_t)tr->ev[i].cpu;
		*from = i + 1;
		return true;
	}
	/*
	 * Woken, and running by t_run, with no switch-in: one the trace did not
	 * keep (this kernel drops some from the idle task). Who had the CPU is
	 * not known; the rest of the story is.
	 */
	if (woke && !on_cpu_before(tr, *from)) {
		m->flags |= MISS_NO_SWITCH_IN;
		*from = i;
		return true;
	}
	return on_cpu_before(tr, *from);
}

/* A time off the CPU, from switch-out out until back, within the period's run. */
static void off_cpu(struct miss *m, struct story *s, const struct period_rec *p,
		    const struct sched_ev *out, uint64_t back, uint64_t *longest)
{
	uint64_t a = out->ts > p->t_run ? out->ts : p->t_run;
	uint64_t b = back < p->t_done ? back : p->t_done;
	uint64_t d = b > a ? b - a : 0;

	if (b <= p->t_run)
		return;			/* before it ran: part of its wait */
	if (out->state != 'R') {
		s->part[MS_BLOCKED] += d;
		return;
	}
	s->part[MS_PREEMPTED] += d;
	if (m->npreempt < UINT16_MAX)
		m->npreempt++;
	if (d > *longest || m->by.pid < 0) {
		*longest = d;
		task_of(&m->by, out);
	}
}

/*
 * From event i on, the run's switches out and back in until t_done. A
 * switch-out stamped in t_done's own microsecond may be after it, so none
 * counts there; a switch-in then still ends the time off before it.
 */
static void walk_run(const struct sched_trace *tr, size_t i, const struct period_rec *p,
		     struct miss *m, struct story *s)
{
	uint64_t last = floor_us(p->t_done), longest = 0, woken = 0;
	const struct sched_ev *out = NULL;

	for (; i < tr->n && tr->ev[i].ts <= p->t_done; i++) {
		const struct sched_ev *e = &tr->ev[i];

		if (e->type == SE_WAKEUP && out) {
			woken = e->ts;
		} else if (e->type == SE_SWITCH_OUT && out && e->ts < last) {
			/* back in unseen: at its wake-up (a blocked time), else now */
			off_cpu(m, s, p, out, woken ? woken : e->ts, &longest);
			out = e;
			woken = 0;
		} else if (e->type == SE_SWITCH_OUT && !out && e->ts < last) {
			out = e;
		} else if (e->type == SE_SWITCH_IN && out) {
			off_cpu(m, s, p, out, e->ts, &longest);
			out = NULL;
			woken = 0;
		}
	}
	if (out)
		off_cpu(m, s, p, out, woken ? woken : p->t_done, &longest);
}

/* A period that began with no wake-up: on its CPU since the period before's work. */
static bool overran_of(const struct period_rec *p)
{
	return !(p->flags & PREC_WOKEN) && p->t_wake == p->t_run;
}

/*
 * Where record p's wake-up began: the waker's or a hop's stamp, or for the
 * task's own timer the kernel's sched_waking where the trace holds it; else
 * the instant its timer was set for (MISS_UNSTAMPED: its wait holds the
 * timer's part).
 */
static uint64_t woke_at(const struct sched_trace *tr, const struct period_rec *p, struct miss *m)
{
	uint64_t w;
	int cpu;

	if (!(p->flags & PREC_TIMER))
		return p->t_wake;
	w = kernel_waking(tr, p, &cpu);
	if (w)
		return w;
	m->flags |= MISS_UNSTAMPED;
	return p->t_wake;
}

/*
 * The story of one thread's run, from record p's wake-up to its work's end,
 * told with that thread's events tr: its wait, and where the trace holds
 * them, the times it ran, was preempted and blocked, who it waited behind
 * and who preempted it. A task's missed period and a chain stage's part in
 * a missed frame are both told by it, into m's story and s.
 */
static void tell(const struct period_rec *p, const struct sched_trace *tr, struct miss *m,
		 struct story *s)
{
	uint64_t run, off, woke;
	size_t from;

	memset(s, 0, sizeof(*s));
	memset(&m->behind, 0, sizeof(m->behind));
	memset(&m->by, 0, sizeof(m->by));
	m->behind.pid = m->by.pid = -1;
	m->npreempt = 0;
	m->cpu = p->run_cpu;
	m->flags &= (uint8_t)~(MISS_TRACED | MISS_NO_SWITCH_IN | MISS_UNSTAMPED);
	woke = woke_at(tr, p, m);
	s->part[MS_QUEUED] = p->t_run > woke ? p->t_run - woke : 0;
	run = p->t_done > p->t_run ? p->t_done - p->t_run : 0;
	if (trace_covers(tr, p, overran_of(p), m, &from)) {
		walk_run(tr, from, p, m, s);
		m->flags |= MISS_TRACED;
		s->traced = true;
	}
	off = s->part[MS_PREEMPTED] + s->part[MS_BLOCKED];
	s->part[MS_RUNNING] = run > off ? run - off : 0;
	m->waited_us = us_of(s->part[MS_QUEUED]);
	m->ran_us = us_of(s->part[MS_RUNNING]);
	m->preempted_us = us_of(s->part[MS_PREEMPTED]);
	m->blocked_us = us_of(s->part[MS_BLOCKED]);
}

/* The story of missed period p; t0 is the row's start, which at_ns counts from. */
static void story_of(const struct period_log *h, const struct period_rec *p,
		     const struct sched_trace *tr, uint64_t t0, struct miss *m, struct story *s)
{
	struct period_clock c = period_log_clock(h);
	uint64_t start = period_start(&c, p->k), dl = period_rec_deadline(h, p);
	uint64_t k = (uint64_t)p->k + p->skipped, woke;

	memset(m, 0, sizeof(*m));
	m->hop = -1;
	m->at_ns = dl > t0 ? dl - t0 : 0;
	m->period = k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
	m->late_us = us_of(period_rec_late_ns(h, p));
	m->flags = (uint8_t)((overran_of(p) ? MISS_OVERRAN : 0) |
			     (p->flags & PREC_DONE ? 0 : MISS_CUT));
	tell(p, tr, m, s);
	woke = woke_at(tr, p, m);
	m->woke_us = us_of(woke > start ? woke - start : 0);
}

/* Keep m among the worst, the most late first (of equals, the earlier). */
static void keep_worst(struct miss_report *r, const struct miss *m)
{
	int at = r->n;

	while (at > 0 && r->worst[at - 1].late_us < m->late_us)
		at--;
	if (at == MISS_WORST)
		return;
	if (r->n < MISS_WORST)
		r->n++;
	memmove(&r->worst[at + 1], &r->worst[at], (size_t)(r->n - 1 - at) * sizeof(*m));
	r->worst[at] = *m;
}

/* The shares of the traced misses' time; untraced, only the queued share of all of it. */
static void shares_of(struct miss_report *r, const uint64_t traced[MS_COUNT],
		      const uint64_t all[MS_COUNT])
{
	uint64_t sum_t = 0, sum_a = 0;

	for (int i = 0; i < MS_COUNT; i++) {
		sum_t += traced[i];
		sum_a += all[i];
		r->share[i] = NAN;
	}
	if (r->traced && sum_t) {
		for (int i = 0; i < MS_COUNT; i++)
			r->share[i] = (double)traced[i] / (double)sum_t;
	} else if (sum_a) {
		r->share[MS_QUEUED] = (double)all[MS_QUEUED] / (double)sum_a;
	}
}

/*
 * A row's missed periods among its n records (oldest first, of the period
 * log h), told with the task's events tr (NULL or unread: none): the
 * MISS_WORST worst (by how late), and where all their time went. t0 is the row's start.
 */
void missx_explain(const struct period_log *h, const struct period_rec *rec, size_t n,
		   const struct sched_trace *tr, uint64_t t0, struct miss_report *out)
{
	uint64_t traced[MS_COUNT] = { 0 }, all[MS_COUNT] = { 0 };

	memset(out, 0, sizeof(*out));
	out->partial = h->lost > 0;
	for (size_t i = 0; i < n; i++) {
		struct miss m;
		struct story s;

		if (!period_rec_missed(h, &rec[i]))
			continue;
		story_of(h, &rec[i], tr, t0, &m, &s);
		out->missed++;
		out->traced += s.traced;
		for (int k = 0; k < MS_COUNT; k++) {
			all[k] += s.part[k];
			traced[k] += s.traced ? s.part[k] : 0;
		}
		keep_worst(out, &m);
	}
	shares_of(out, traced, all);
}

/* ---- a chain: which stage made a frame late ---- */

/* The frame a record is of: the head's work's (after the periods it dropped), a stage's k. */
static uint64_t frame_of(const struct period_rec *p, bool head)
{
	return head ? (uint64_t)p->k + p->skipped : p->k;
}

/* A stage's record of frame k (its records are in frame order), or NULL. */
static const struct period_rec *rec_of(const struct missx_stage *st, bool head, uint64_t k)
{
	size_t lo = 0, hi = st->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (frame_of(&st->rec[mid], head) < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < st->n && frame_of(&st->rec[lo], head) == k ? &st->rec[lo] : NULL;
}

/*
 * The head's own part of its frame p: from its period's start to the first
 * hop it stamped for a stage (t_done there, in *own), or false when no
 * stage has a record of the frame (its part is not told apart).
 */
static bool head_part(const struct missx_stage *st, int nst, const struct period_rec *p,
		      struct period_rec *own)
{
	uint64_t k = frame_of(p, true), end = UINT64_MAX;

	for (int i = 1; i < nst; i++) {
		const struct period_rec *r = rec_of(&st[i], false, k);

		if (r && (r->flags & PREC_WOKEN) && r->t_wake >= p->t_run && r->t_wake < end)
			end = r->t_wake;
	}
	if (end == UINT64_MAX)
		return false;
	*own = *p;
	own->t_done = end < p->t_done ? end : p->t_done;
	own->flags |= PREC_DONE;
	return true;
}

/*
 * Stage i's time in the frame of the head's record p (false: the stage has
 * none): from its hop's stamp (the head: its period's start, or its start
 * when the frame before overran) to its work's end; its record (the head's
 * own part) into *r.
 */
static bool span_of(const struct period_log *h, const struct missx_stage *st, int nst, int i,
		    const struct period_rec *p, struct period_rec *r, uint64_t *span)
{
	uint64_t from;

	if (i == 0) {
		if (!head_part(st, nst, p, r))
			return false;
		/* a frame begun when the one before ended: that lateness is the one before's */
		from = overran_of(p) ? p->t_run : period_rec_start(h, p);
	} else {
		const struct period_rec *q = rec_of(&st[i], false, frame_of(p, true));

		if (!q || !(q->flags & PREC_DONE))
			return false;
		*r = *q;
		from = q->t_wake;
	}
	*span = r->t_done > from ? r->t_done - from : 0;
	return true;
}

/* Each stage's shortest time in a frame, over the head's records: what its part can take. */
static void shortest_spans(const struct period_log *h, const struct missx_stage *st, int nst,
			   uint64_t *least)
{
	for (int i = 0; i < nst; i++) {
		least[i] = UINT64_MAX;
		for (size_t j = 0; j < st[0].n; j++) {
			struct period_rec r;
			uint64_t span;

			if (span_of(h, st, nst, i, &st[0].rec[j], &r, &span) && span < least[i])
				least[i] = span;
		}
	}
}

/*
 * A chain's misses (r, from missx_explain on the head's records), each told
 * again as the story of the stage that made its frame late: of the head
 * (its own part, up to the first hop it stamps) and the stages st[1..],
 * the one whose time in the frame (from its hop's stamp to its work's end)
 * exceeds its shortest in the row the most. A frame begun late because the
 * one before overran (MISS_OVERRAN, kept: the frame's) counts the head's
 * part from its start, so the stage named is the one that added the most
 * in this frame. Its wake-up (woke) is its hop's stamp past the frame's
 * start; how late the frame was stays the frame's. A frame no stage
 * recorded keeps the head's whole story.
 */
void missx_blame(const struct period_log *h, const struct missx_stage *st, int nst,
		 struct miss_report *r)
{
	uint64_t least[1 + MISS_STAGES_MAX];

	if (nst < 2 || !st[0].n)
		return;
	if (nst > 1 + MISS_STAGES_MAX)
		nst = 1 + MISS_STAGES_MAX;
	shortest_spans(h, st, nst, least);
	for (int w = 0; w < r->n; w++) {
		struct miss *m = &r->worst[w];
		const struct period_rec *p = rec_of(&st[0], true, m->period);
		struct period_rec best_rec, rec;
		uint64_t best = 0, span, start;
		int who = -1;
		struct story s;

		for (int i = 0; p && i < nst; i++) {
			if (!span_of(h, st, nst, i, p, &rec, &span))
				continue;
			span = span > least[i] ? span - least[i] : 0;
			if (who < 0 || span > best) {
				best = span;
				who = i;
				best_rec = rec;
			}
		}
		if (who < 0)
			continue;
		start = period_rec_start(h, p);
		m->hop = (int8_t)st[who].hop;
		if (who > 0)		/* a stage's wake-up, not the head's */
			m->woke_us = us_of(best_rec.t_wake > start ? best_rec.t_wake - start : 0);
		tell(&best_rec, st[who].tr, m, &s);
	}
}
