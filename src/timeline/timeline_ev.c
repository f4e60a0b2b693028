// SPDX-License-Identifier: GPL-2.0-or-later
/* timeline/timeline_ev.c - one row's trace events: its tracks, a slice per wake-up and per
 * work, an instant per miss and drop, the load's intensity, who ran instead. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/accounting.h"
#include "core/frames.h"
#include "core/ran_slices.h"
#include "core/split.h"
#include "model/kinds.h"
#include "timeline/timeline.h"

/*
 * Every event is written by one function that also counts it, in two
 * modes: counting only (tl_emit.sb NULL), to find how much of a row fits
 * its budget, and writing. So the count that decides the cut is the count
 * written, exactly.
 *
 * The tracks: a process per row (pid = the row's number), with the task's
 * thread and the waker's (tid = their real ids; a made-up one above any
 * real tid when unknown), a chain's stages' threads (their real tids, in
 * whatever process they ran: the file keeps one process per row), and one
 * "CPUs" process after the rows with a
 * thread per CPU (tid = TID_CPU + the CPU). Timestamps are CLOCK_MONOTONIC
 * in µs with three decimals: every nanosecond exactly, so that a slice
 * nested in another never sticks out by a rounding.
 */
#define TID_MADE_UP (1 << 23)		/* above PID_MAX_LIMIT (4194304): no real tid */
#define TID_STAGE (TID_MADE_UP + (1 << 22))	/* made-up stage tids: + row * STAGES_MAX */
#define TID_CPU (1 << 24)
#define BATCH 65536			/* bytes built before they are written */

struct tl_ctx {			/* a row being counted or written */
	const struct tl_row *r;
	const struct period_log *h;	/* NULL: no periods */
	const struct period_rec *p;
	uint64_t nrec;
	struct tl_emit *e;
	struct tl_names *named;
	const struct tl_cut *cut;
	uint64_t t_cut;			/* CPU slices and counters before it are left out */
	uint64_t k_cut;			/* the stages' frames before it are left out */
	int tid_task, tid_waker;
	int tid_stage[STAGES_MAX];
	const struct stage_set *stages;	/* NULL: not a chain */
	struct stutter_rule stut;	/* Game: over every frame, the ones left out too */
	bool any_arg;			/* the open event has args */
};

static void put_us(struct sbuf *sb, uint64_t ns)
{
	sb_printf(sb, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

static void put_ms(struct sbuf *sb, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)-ns : (uint64_t)ns;

	sb_printf(sb, "%s%" PRIu64 ".%06" PRIu64, ns < 0 ? "-" : "", a / 1000000, a % 1000000);
}

/*
 * An event's common fields; false when only counting (it is counted all
 * the same), else its args and the closing brace follow. M events have ts 0.
 */
static bool ev_open(struct tl_ctx *c, char ph, const char *name, int pid, int tid,
		    uint64_t ts)
{
	struct sbuf *sb = c->e->sb;

	c->e->n++;
	if (!sb)
		return false;
	sb_puts(sb, c->e->comma ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
	c->e->comma = true;
	sb_add(sb, &ph, 1);
	sb_puts(sb, "\",\"name\":");
	json_string(sb, name);
	sb_printf(sb, ",\"pid\":%d,\"tid\":%d,\"ts\":", pid, tid);
	if (ph == 'M')
		sb_puts(sb, "0");
	else
		put_us(sb, ts);
	if (ph == 'i')
		sb_puts(sb, ",\"s\":\"t\"");
	c->any_arg = false;
	return true;
}

static void ev_dur(struct tl_ctx *c, uint64_t ns)
{
	sb_puts(c->e->sb, ",\"dur\":");
	put_us(c->e->sb, ns);
}

static void arg_key(struct tl_ctx *c, const char *key)
{
	sb_puts(c->e->sb, c->any_arg ? ",\"" : ",\"args\":{\"");
	sb_puts(c->e->sb, key);
	sb_puts(c->e->sb, "\":");
	c->any_arg = true;
}

static void arg_int(struct tl_ctx *c, const char *key, int64_t v)
{
	arg_key(c, key);
	sb_printf(c->e->sb, "%" PRId64, v);
}

static void arg_cpu(struct tl_ctx *c, const char *key, int cpu)	/* -1: not known */
{
	if (cpu >= 0)
		arg_int(c, key, cpu);
}

static void arg_ms(struct tl_ctx *c, const char *key, int64_t ns)
{
	arg_key(c, key);
	put_ms(c->e->sb, ns);
}

static void arg_str(struct tl_ctx *c, const char *key, const char *v)
{
	arg_key(c, key);
	json_string(c->e->sb, v);
}

static void ev_close(struct tl_ctx *c)
{
	struct tl_emit *e = c->e;

	sb_puts(e->sb, c->any_arg ? "}}" : "}");
	if (e->flush && e->sb->len >= BATCH)
		e->flush(e->arg);
}

/* An M event: name, the args' key and its value (a string, or a number when s is NULL). */
static void ev_meta(struct tl_ctx *c, const char *name, int pid, int tid, const char *key,
		    const char *s, int64_t v)
{
	if (!ev_open(c, 'M', name, pid, tid, 0))
		return;
	if (s)
		arg_str(c, key, s);
	else
		arg_int(c, key, v);
	ev_close(c);
}

/* The start of period k of the row's clock. */
static uint64_t pstart(const struct tl_ctx *c, uint64_t k)
{
	struct period_clock pc = period_log_clock(c->h);

	return period_start(&pc, k);
}

static int64_t since_go(const struct tl_ctx *c, uint64_t t)
{
	return (int64_t)(t - c->r->d->t_go);
}

/* The row's process, named with what the file says of it, its threads, and its start (none
 * for a row that failed before it measured). */
static void row_names(struct tl_ctx *c)
{
	const struct tl_row *r = c->r;
	char thread[48];

	if (ev_open(c, 'M', "process_name", r->pid, c->tid_task, 0)) {
		arg_str(c, "name", r->name);
		arg_int(c, "row", r->pid);
		if (r->d->t_go) {
			arg_key(c, "start_us");
			put_us(c->e->sb, r->d->t_go);
		}
		arg_int(c, "periods", c->h ? (int64_t)c->h->counted : 0);
		arg_int(c, "dropped_periods", (int64_t)c->cut->dropped);
		arg_str(c, "status", r->status);
		if (r->reason[0])
			arg_str(c, "reason", r->reason);
		if (r->rtapp)	/* what of a workload file's thread object is drawn */
			arg_str(c, "recorded", "its first instance: each wake-up, each timer "
				"period missed");
		ev_close(c);
	}
	ev_meta(c, "process_sort_index", r->pid, c->tid_task, "sort_index", NULL, r->pid);
	snprintf(thread, sizeof(thread), "%s%s", r->rtapp ? "" : "ib-", r->bench);
	ev_meta(c, "thread_name", r->pid, c->tid_task, "name", thread, 0);
	if (c->h && c->h->tid_waker > 0)	/* --wake waker */
		ev_meta(c, "thread_name", r->pid, c->tid_waker, "name", "ib-waker", 0);
	for (uint32_t i = 0; c->stages && i < c->stages->n; i++)
		ev_meta(c, "thread_name", r->pid, c->tid_stage[i], "name",
			c->stages->s[i].h.comm, 0);
	if (r->d->t_go && ev_open(c, 'i', "row start", r->pid, c->tid_task, r->d->t_go)) {
		arg_int(c, "row", r->pid);
		arg_int(c, "dropped_periods", (int64_t)c->cut->dropped);
		if (c->h && c->h->num) {
			arg_key(c, "first_period_us");
			put_us(c->e->sb, c->h->start0);
			arg_key(c, "period_ns");
			json_number(c->e->sb, (double)c->h->num / (double)c->h->den);
		}
		ev_close(c);
	}
}

/* An instant "dropped period" at the deadline of each period in [from, to). */
static void drops(struct tl_ctx *c, uint64_t from, uint64_t to)
{
	for (uint64_t j = from; j < to; j++) {
		if (!ev_open(c, 'i', "dropped period", c->r->pid, c->tid_task, pstart(c, j + 1)))
			continue;
		arg_int(c, "period", (int64_t)j);
		ev_close(c);
	}
}

/* A sub-slice of a wake-up on track tid: name from at for dur, when it lasted at all. */
static void part_slice(struct tl_ctx *c, int tid, const char *name, uint64_t at, uint64_t dur)
{
	if (dur && ev_open(c, 'X', name, c->r->pid, tid, at)) {
		ev_dur(c, dur);
		ev_close(c);
	}
}

/*
 * A wake-up's latency slice on track tid, split where known; key names its
 * period or frame. A wake-up by the task's own timer (PREC_TIMER) runs from
 * the instant it asked for ("latency"); where the trace holds the kernel's
 * sched_waking of it, its "timer" part comes first, then the wake path and
 * the queue wait. A waker's or a chain's hop runs from the waker's stamp
 * ("wakeup latency").
 */
static void wake_slices(struct tl_ctx *c, int tid, const struct period_rec *p, const char *key)
{
	uint64_t lat = p->t_run - p->t_wake, waking = 0, timer = 0;
	uint64_t q = p->queue_ns < lat ? p->queue_ns : lat, path;
	bool split = p->flags & PREC_QUEUE;
	int wcpu = p->wake_cpu;

	if ((p->flags & PREC_TIMER) && tid == c->tid_task &&
	    (waking = kernel_waking(c->r->d->trace, p, &wcpu)))
		timer = waking - p->t_wake;
	q = q < lat - timer ? q : lat - timer;
	path = lat - timer - q;
	if (ev_open(c, 'X', p->flags & PREC_TIMER ? "latency" : "wakeup latency", c->r->pid, tid,
		    p->t_wake)) {
		ev_dur(c, lat);
		arg_int(c, key, p->k);
		arg_ms(c, "latency_ms", (int64_t)lat);
		if (waking) {
			arg_ms(c, "timer_ms", (int64_t)timer);
			arg_ms(c, "sched_ms", (int64_t)(lat - timer));
		}
		if (split) {
			arg_ms(c, "wake_path_ms", (int64_t)path);
			arg_ms(c, "queue_wait_ms", (int64_t)q);
		}
		arg_cpu(c, "wake_cpu", wcpu);
		arg_cpu(c, "run_cpu", p->run_cpu);
		ev_close(c);
	}
	part_slice(c, tid, "timer", p->t_wake, timer);
	if (split) {
		part_slice(c, tid, "wake path", p->t_wake + timer, path);
		part_slice(c, tid, "queue wait", p->t_wake + timer + path, q);
	}
}

/* The waker's timer latency (--wake waker) and the task's latency. */
static void wakeup(struct tl_ctx *c, const struct period_rec *p)
{
	uint64_t s = pstart(c, p->k);

	if (!(p->flags & PREC_TIMER) &&
	    ev_open(c, 'X', "timer latency", c->r->pid, c->tid_waker, s)) {
		ev_dur(c, p->t_wake > s ? p->t_wake - s : 0);
		arg_int(c, "period", p->k);
		arg_ms(c, "timer_latency_ms", p->t_wake > s ? (int64_t)(p->t_wake - s) : 0);
		arg_cpu(c, "cpu", p->wake_cpu);
		ev_close(c);
	}
	wake_slices(c, c->tid_task, p, "period");
}

/* The period's work, and its miss at the deadline. */
static void work(struct tl_ctx *c, const struct period_rec *p)
{
	uint64_t kw = (uint64_t)p->k + p->skipped, dl = period_rec_deadline(c->h, p);
	uint64_t late = period_rec_late_ns(c->h, p), ran = p->t_done - p->t_run;
	bool missed = period_rec_missed(c->h, p);

	if (ev_open(c, 'X', "work", c->r->pid, c->tid_task, p->t_run)) {
		ev_dur(c, ran);
		arg_int(c, "period", (int64_t)kw);
		arg_ms(c, "deadline_ms", since_go(c, dl));
		arg_str(c, "outcome", missed ? "missed" : "met");
		if (missed)
			arg_ms(c, "missed_by_ms", (int64_t)late);
		if (!(p->flags & PREC_DONE))
			arg_str(c, "cut", "by the row's end");
		if (p->skipped)
			arg_int(c, "dropped_before", p->skipped);
		arg_cpu(c, "cpu", p->run_cpu);
		ev_close(c);
	}
	if (missed && ev_open(c, 'i', "missed deadline", c->r->pid, c->tid_task, dl)) {
		arg_int(c, "period", (int64_t)kw);
		arg_ms(c, "missed_by_ms", (int64_t)late);
		arg_ms(c, "deadline_ms", since_go(c, dl));
		if (p->flags & PREC_WOKEN)
			arg_ms(c, "latency_ms", (int64_t)(p->t_run - p->t_wake));
		if (p->flags & PREC_QUEUE)
			arg_ms(c, "queue_wait_ms", (int64_t)p->queue_ns);
		arg_ms(c, "started_ms", (int64_t)(p->t_run - period_rec_start(c->h, p)));
		arg_ms(c, "work_wall_ms", (int64_t)ran);	/* to its end, preemptions and all */
		ev_close(c);
	}
}

/* A Gaming unit: its work, with the latency it was charged (wall time less CPU time). */
static void unit(struct tl_ctx *c, const struct period_rec *p)
{
	if (!ev_open(c, 'X', "work", c->r->pid, c->tid_task, p->t_run))
		return;
	ev_dur(c, p->t_done - p->t_run);
	arg_int(c, "unit", p->k);
	arg_ms(c, "latency_ms", p->queue_ns);
	arg_cpu(c, "cpu", p->run_cpu);
	ev_close(c);
}

/*
 * Game: a "stutter" instant at the present of each frame that CapFrameX's
 * rule calls one (core/frames.h), the rule fed every frame of the row as
 * the bench fed it (a frame is a period whose work was presented), the
 * frames the budget leaves out too; emit false: fed only.
 */
static void stutter(struct tl_ctx *c, const struct period_rec *p, bool emit)
{
	uint64_t s, ft, sum = c->stut.sum;

	if (!(p->flags & PREC_DONE) || (p->flags & (PREC_NOWORK | PREC_UNIT)))
		return;
	s = period_rec_start(c->h, p);
	ft = p->t_done > s ? p->t_done - s : 0;
	if (!stutter_push(&c->stut, ft) || !emit ||
	    !ev_open(c, 'i', "stutter", c->r->pid, c->tid_task, p->t_done))
		return;
	arg_int(c, "frame", (int64_t)p->k + p->skipped);
	arg_ms(c, "frame_time_ms", (int64_t)ft);
	arg_ms(c, "average_of_previous_20_ms", (int64_t)(sum / STUTTER_WINDOW));
	ev_close(c);
}

/* An "xrun" instant at the end of cycle k's quantum; cycle_ns < 0: no cycle ran in it. */
static void xrun(struct tl_ctx *c, uint64_t k, int64_t cycle_ns)
{
	if (!ev_open(c, 'i', "xrun", c->r->pid, c->tid_task, pstart(c, k + 1)))
		return;
	arg_int(c, "cycle", (int64_t)k);
	if (cycle_ns >= 0)
		arg_ms(c, "cycle_ms", cycle_ns);
	arg_ms(c, "quantum_ms", (int64_t)(c->h->num / c->h->den));
	arg_str(c, "why", cycle_ns >= 0 ? "completed after its quantum's end" :
				       "the driver started after its quantum's end");
	ev_close(c);
}

/*
 * AudioGraph's xruns as task/audiograph.c counts them: a quantum whose driver
 * started after its end (the record found its period over: one xrun, the
 * quanta it skipped are dropped), and a cycle that completed after its
 * quantum's end (cycle time > the quantum).
 */
static void xruns(struct tl_ctx *c, const struct period_rec *p)
{
	uint64_t s, cycle;

	if ((p->flags & PREC_NOWORK) || p->skipped)
		xrun(c, p->k, -1);
	if (!(p->flags & PREC_DONE) || (p->flags & PREC_NOWORK))
		return;
	s = period_rec_start(c->h, p);
	cycle = p->t_done > s ? p->t_done - s : 0;
	if (cycle > c->h->num / c->h->den)
		xrun(c, (uint64_t)p->k + p->skipped, (int64_t)cycle);
}

/*
 * A workload file's thread's record (core/period.h's PREC_RTAPP): a wake-up,
 * after its timer's latency on the waker's track when its waker's; or the
 * instant a timer period was found missed, reached after its expiry.
 */
static void rtapp_record(struct tl_ctx *c, const struct period_rec *p)
{
	if (!(p->flags & PREC_WOKEN)) {
		if (!ev_open(c, 'i', "missed deadline", c->r->pid, c->tid_task, p->t_run))
			return;
		arg_int(c, "record", p->k);
		arg_ms(c, "missed_by_ms", (int64_t)(p->t_run - p->t_done));
		arg_str(c, "rt-app", "slack < 0: the timer reached after its expiry");
		ev_close(c);
		return;
	}
	if (p->t_done && !(p->flags & PREC_TIMER) &&
	    ev_open(c, 'X', "timer latency", c->r->pid, c->tid_waker, p->t_done)) {
		ev_dur(c, p->t_wake > p->t_done ? p->t_wake - p->t_done : 0);
		arg_int(c, "record", p->k);
		arg_ms(c, "timer_latency_ms", p->t_wake > p->t_done ?
		       (int64_t)(p->t_wake - p->t_done) : 0);
		arg_cpu(c, "cpu", p->wake_cpu);
		ev_close(c);
	}
	wake_slices(c, c->tid_task, p, "record");
}

/*
 * Record i's events. The periods it dropped are its own: those it found
 * already over when it ran (k..k+skipped-1), and those that passed during
 * its overrun, up to the next record's period (for the last, the row's
 * count); after the row's last period (PREC_NOWORK), all from k.
 */
static void record(struct tl_ctx *c, uint64_t i)
{
	const struct period_rec *p = &c->p[i];
	uint64_t next = i + 1 < c->nrec ? c->p[i + 1].k : c->h->counted;
	uint64_t kw = (uint64_t)p->k + p->skipped;

	if (p->flags & PREC_UNIT) {
		unit(c, p);
		return;
	}
	if (p->flags & PREC_RTAPP) {
		rtapp_record(c, p);
		return;
	}
	if (!c->h->num)
		return;
	if (c->r->d->metrics & KM_FRAMES)
		stutter(c, p, true);
	else if (c->r->d->metrics & KM_XRUNS)
		xruns(c, p);
	if (p->flags & PREC_WOKEN)
		wakeup(c, p);
	if (p->flags & PREC_NOWORK) {
		drops(c, p->k, next);
		return;
	}
	drops(c, p->k, kw);
	work(c, p);
	drops(c, kw + 1, next);
}

/* A chain's stages: each frame's wake-up and work on the stage's own track, from k_cut on. */
static void stage_tracks(struct tl_ctx *c)
{
	const char *key = c->r->d->metrics & KM_XRUNS ? "cycle" : "frame";

	for (uint32_t i = 0; c->stages && i < c->stages->n; i++) {
		const struct stage_periods *sp = &c->stages->s[i];

		for (uint64_t j = 0; sp->rec && j < sp->h.nrec; j++) {
			const struct period_rec *p = &sp->rec[j];

			if (p->k < c->k_cut)
				continue;
			if (p->flags & PREC_WOKEN)
				wake_slices(c, c->tid_stage[i], p, key);
			if (!ev_open(c, 'X', "work", c->r->pid, c->tid_stage[i], p->t_run))
				continue;
			ev_dur(c, p->t_done > p->t_run ? p->t_done - p->t_run : 0);
			arg_int(c, key, p->k);
			arg_cpu(c, "cpu", p->run_cpu);
			ev_close(c);
		}
	}
}

/* The CPU's track, named the first time the file uses it; false past the CPUs it can name. */
static bool cpu_track(struct tl_ctx *c, int cpu)
{
	struct tl_names *nm = c->named;
	char name[24];

	if (cpu < 0 || cpu >= TL_CPUS)
		return false;
	if (!nm->proc) {
		ev_meta(c, "process_name", c->r->cpus_pid, TID_CPU, "name", "CPUs", 0);
		ev_meta(c, "process_sort_index", c->r->cpus_pid, TID_CPU, "sort_index", NULL,
			c->r->cpus_pid);
		nm->proc = true;
	}
	if (nm->cpu[cpu / 64] & (1ull << (cpu % 64)))
		return true;
	snprintf(name, sizeof(name), "CPU %d", cpu);
	ev_meta(c, "thread_name", c->r->cpus_pid, TID_CPU + cpu, "name", name, 0);
	nm->cpu[cpu / 64] |= 1ull << (cpu % 64);
	return true;
}

/* --explain: who had a CPU while the task waited, a slice on that CPU's track each. */
static void ran_instead(struct tl_ctx *c)
{
	const struct sched_trace *t = c->r->d->trace;
	struct ran_slice s;
	struct ran_walk w;

	if (!t)
		return;
	ran_walk_init(&w, t->ev, t->n);
	while (ran_walk_next(&w, &s)) {
		if (s.t0 < c->t_cut || !cpu_track(c, s.cpu) ||
		    !ev_open(c, 'X', s.comm[0] ? s.comm : "?", c->r->cpus_pid, TID_CPU + s.cpu,
			     s.t0))
			continue;
		ev_dur(c, s.t1 - s.t0);
		arg_int(c, "pid", s.pid);
		arg_int(c, "prio", s.prio);
		arg_str(c, "while", s.preempted ? "preempted" : "woken, waiting to run");
		arg_int(c, "row", c->r->pid);
		ev_close(c);
	}
}

/* The load's intensity, a counter value per bin. */
static void intensity(struct tl_ctx *c)
{
	const struct series *s = c->r->d->persec;

	for (uint32_t i = 0; s && i < s->n && i < SERIES_BINS; i++) {
		uint64_t ts = series_bin_start(s, i);

		if (ts < c->t_cut ||
		    !ev_open(c, 'C', "load intensity", c->r->pid, c->tid_task, ts))
			continue;
		arg_key(c, c->r->unit[0] ? c->r->unit : "value");
		json_number(c->e->sb, s->v[i]);
		ev_close(c);
	}
}

/*
 * The row's events from record cut->first on: its names and start first
 * (always, unless the cut says the row is out), then its periods, who ran
 * instead and the load's intensity from the first kept record's wake-up on
 * (all of them when nothing is cut).
 */
void tl_row_events(const struct tl_row *r, const struct tl_cut *cut, struct tl_names *named,
		   struct tl_emit *e)
{
	const struct period_log *h = r->d->period_log;
	struct tl_ctx c = { .r = r, .h = h, .p = r->d->periods, .e = e, .named = named,
			    .cut = cut };

	c.nrec = h && c.p ? h->nrec : 0;
	c.tid_task = h && h->tid_task > 0 ? h->tid_task : TID_MADE_UP + 2 * r->pid;
	c.tid_waker = h && h->tid_waker > 0 ? h->tid_waker : TID_MADE_UP + 2 * r->pid + 1;
	c.stages = r->d->stages && r->d->stages->n && c.nrec ? r->d->stages : NULL;
	for (uint32_t i = 0; c.stages && i < c.stages->n && i < STAGES_MAX; i++)
		c.tid_stage[i] = c.stages->s[i].h.tid > 0 ? c.stages->s[i].h.tid :
				 TID_STAGE + r->pid * STAGES_MAX + (int)i;
	if (cut->out)
		return;
	c.t_cut = !cut->first ? 0 : cut->first < c.nrec ? c.p[cut->first].t_wake : UINT64_MAX;
	c.k_cut = !cut->first ? 0 : cut->first < c.nrec ? c.p[cut->first].k : UINT64_MAX;
	stutter_init(&c.stut);
	for (uint64_t i = 0; i < cut->first && i < c.nrec && (r->d->metrics & KM_FRAMES); i++)
		stutter(&c, &c.p[i], false);
	row_names(&c);
	for (uint64_t i = cut->first; i < c.nrec; i++)
		record(&c, i);
	stage_tracks(&c);
	ran_instead(&c);
	intensity(&c);
}

/* The events the row has when it keeps the records from first on. */
static uint64_t count_from(const struct tl_row *r, const struct tl_names *named, uint64_t first)
{
	struct tl_names nm = *named;
	struct tl_emit e = { 0 };
	struct tl_cut cut = { .first = first };

	tl_row_events(r, &cut, &nm, &e);
	return e.n;
}

/*
 * The least of the row to leave out so that its events fit budget: none,
 * or its oldest records (and with them their periods, and who ran instead
 * and the intensity before the first one kept), found by bisection, since
 * the count only falls as the cut moves on; or the whole row, when not
 * even its names and start fit.
 */
void tl_row_cut(const struct tl_row *r, const struct tl_names *named, uint64_t budget,
		struct tl_cut *cut)
{
	const struct period_log *h = r->d->period_log;
	uint64_t nrec = h && r->d->periods ? h->nrec : 0, lo = 0, hi = nrec, n;

	*cut = (struct tl_cut){ 0 };
	n = count_from(r, named, 0);
	if (n > budget) {
		if (count_from(r, named, nrec) > budget) {
			*cut = (struct tl_cut){ .first = nrec, .out = true };
			cut->dropped = h ? h->counted : 0;
			return;
		}
		while (lo + 1 < hi) {		/* count(lo) > budget >= count(hi) */
			uint64_t mid = lo + (hi - lo) / 2;

			if (count_from(r, named, mid) > budget)
				lo = mid;
			else
				hi = mid;
		}
		cut->first = hi;
		n = count_from(r, named, hi);
	}
	cut->events = n;
	if (h)
		cut->dropped = cut->first < nrec ? r->d->periods[cut->first].k : h->counted;
}
