// SPDX-License-Identifier: GPL-2.0-or-later
/* report/explain_text.c - --explain's text lines under a table: where a row's latency went, who ran
 * instead, its worst misses. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/frames.h"
#include "core/miss_explain.h"
#include "core/sched_events.h"
#include "model/kinds.h"
#include "report/report.h"
#include "lib/numfmt.h"

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

	if (ri->state == RAN_UNKNOWN)
		return;
	if (ri->state == RAN_FAILED) {
		cat(buf, len, at, "; ran instead: not known (the trace could not be read)");
		return;
	}
	if (ri->state == RAN_NOT_TRACED) {
		cat(buf, len, at, "; ran instead: not traced (a row traces the first %d threads "
		    "that wait on a timer or a condition)", SE_TIDS_MAX);
		return;
	}
	cat(buf, len, at, "; ran instead: %s", ri->n ? "" : "nothing (no wake-up waited)");
	for (int i = 0; i < ri->n; i++)
		cat(buf, len, at, "%s%s %s %%", i ? ", " : "", ri->top[i].comm,
		    pct_of(p, sizeof(p), ri->top[i].share, 1.0));
	if (ri->lost)
		cat(buf, len, at, " (the trace lost events)");
}

/* "NAME 0.91 mean / 3.7 p99" (with mean: the first of a list) or "NAME 0.06 / 0.12". */
static void mean_p99(char *buf, size_t len, size_t *at, const char *name, const struct result *r,
		     int base, double unit_ns, bool first)
{
	char a[32], b[32];

	fmt_sig3(a, sizeof(a), r->value[base + 1] / unit_ns);	/* struct summary's order */
	fmt_sig3(b, sizeof(b), r->value[base + 6] / unit_ns);
	cat(buf, len, at, first ? "%s %s mean / %s p99" : "%s %s / %s", name, a, b);
}

/* Whether r had wake-ups to split: periods, or a workload file's thread's wake-ups. */
static bool had_wakeups(const struct result *r)
{
	return r->value[RF_SAMPLES] > 0 && (isfinite(r->value[RF_MET]) ||
					    r->value[RF_TIMER_WAKEUPS] > 0 ||
					    r->value[RF_RESUME_WAKEUPS] > 0);
}

/*
 * "Burn: queue wait 0.91 mean / 3.7 p99, wake path 0.06 / 0.12; 48 % of
 * wake-ups queued behind another task, 51 % woken from another CPU, 3 %
 * migrated; ran instead: ibload-Burn 97 %, kworker/1:1 3 %". A task woken
 * by its own timer (own_timer) has no waker's stamp: its wake path holds
 * the timer's part, which the kernel's sched_waking in the trace splits
 * off, first: "Burn: timer 0.006 mean / 0.012 p99, scheduler 0.055 /
 * 0.11 (at the kernel's sched_waking, 598 of 600 wake-ups); queue wait ...".
 */
void explain_line(char *buf, size_t len, const struct result *r, double unit_ns,
		  const char *label, bool own_timer)
{
	char a[32], e[16];
	double n = r->value[RF_SAMPLES];
	size_t at = 0;

	own_timer &= !r->rtapp || r->value[RF_TIMER_WAKEUPS] > 0;	/* a resumed one: none */
	buf[0] = '\0';
	cat(buf, len, &at, "%s: ", label ? label : r->load);
	if (!isfinite(r->value[RF_MIGRATIONS])) {
		cat(buf, len, &at, "%s", had_wakeups(r) ? "not split (--no-split)" :
		    "no wake-ups to split");
		return;
	}
	if (isfinite(r->value[RF_STAMPED])) {
		mean_p99(buf, len, &at, "timer", r, RF_TMIN, unit_ns, true);
		mean_p99(buf, len, &at, ", scheduler", r, RF_SMIN, unit_ns, false);
		cat(buf, len, &at, " (at the kernel's sched_waking, %.0f of %.0f wake-ups); ",
		    r->value[RF_STAMPED], n);
	}
	if (isfinite(r->value[RF_QMEAN])) {
		mean_p99(buf, len, &at, "queue wait", r, RF_QMIN, unit_ns, true);
		mean_p99(buf, len, &at, own_timer ? ", timer and wake path" : ", wake path", r,
			 RF_PATH_MIN, unit_ns, false);
		cat(buf, len, &at, "; %s %% of wake-ups queued behind another task, ",
		    pct_of(e, sizeof(e), r->value[RF_QUEUED], n));
	} else {
		cat(buf, len, &at, "no queue wait / wake path (the kernel keeps no schedstat); ");
	}
	if (isfinite(r->value[RF_CROSS_CPU]))
		cat(buf, len, &at, "%s %% woken from another CPU, ",
		    pct_of(a, sizeof(a), r->value[RF_CROSS_CPU], r->value[RF_CPU_KNOWN]));
	cat(buf, len, &at, "%s %% migrated", pct_of(a, sizeof(a), r->value[RF_MIGRATIONS], n));
	ran_part(buf, len, &at, &r->ran);
}

/* "; ran instead: ibload-Burn 97 %, ..." alone (a chain's hop line), "" where not traced. */
void ran_instead_part(char *buf, size_t len, const struct ran_instead *ri)
{
	size_t at = 0;

	buf[0] = '\0';
	ran_part(buf, len, &at, ri);
}


/* ---- the misses' lines ---- */

/* A time in the table's unit as the misses' lines print it: "4.1", "0.05", "1234". */
static const char *time_of(char *buf, size_t len, uint32_t us, double unit_ns)
{
	double v = (double)us * 1e3 / unit_ns;

	snprintf(buf, len, v >= 1000.0 ? "%.0f" : "%.3g", v);
	return buf;
}

/* "Video/Burn pass 2", with --vary "Video/Burn load-nice=19 pass 2". */
static void row_name(char *buf, size_t len, size_t *at, const struct result *r)
{
	cat(buf, len, at, "%s/%s%s%s pass %d", r->bench, r->load, r->variant[0] ? " " : "",
	    r->variant, r->pass + 1);
}

/*
 * "Video/Burn pass 1: 37 deadlines missed; of their time from wake-up to the
 * work's end: 52 % queued, 30 % running, 15 % preempted, 3 % blocked"; empty
 * when the row missed none.
 */
void miss_total_line(char *buf, size_t len, const struct result *r)
{
	static const char *const names[MS_COUNT] = { "queued", "running", "preempted", "blocked" };
	const struct miss_report *m = r->misses;
	char p[16];
	size_t at = 0;

	buf[0] = '\0';
	if (!m || !m->missed)
		return;
	row_name(buf, len, &at, r);
	cat(buf, len, &at, ": %llu deadline%s missed%s; of their time from wake-up to the work's "
	    "end", (unsigned long long)m->missed, m->missed == 1 ? "" : "s",
	    m->partial ? " (in the periods kept: the oldest were dropped)" : "");
	if (m->traced && m->traced < m->missed)
		cat(buf, len, &at, " (the %llu traced)", (unsigned long long)m->traced);
	if (!m->traced) {
		cat(buf, len, &at, ": %s %% queued, the rest running, preempted or blocked (not "
		    "traced: not told apart)", pct_of(p, sizeof(p), m->share[MS_QUEUED], 1.0));
		return;
	}
	for (int i = 0; i < MS_COUNT; i++)
		cat(buf, len, &at, "%s%s %% %s", i ? ", " : ": ", pct_of(p, sizeof(p), m->share[i],
		    1.0), names[i]);
}

/*
 * Its wake-up and wait: "woke +0.05 ms on CPU 1, waited 3.9 ms behind X[812] (prio 120)";
 * a wake-up by its own timer whose kernel stamp was not traced, "its timer +0 ms ...";
 * a chain's stage's (stage) is its hop's, whether or not its frame began late.
 */
static void miss_wait(char *buf, size_t len, size_t *at, const struct miss *m, bool stage,
		      double u, const char *unit)
{
	char a[24], b[24];
	bool overran = (m->flags & MISS_OVERRAN) && !stage;

	if (overran)
		cat(buf, len, at, "started +%s %s (the period before overran)",
		    time_of(a, sizeof(a), m->woke_us, u), unit);
	else if (m->flags & MISS_UNSTAMPED)	/* its own timer, its waking not traced */
		cat(buf, len, at, "its timer +%s %s", time_of(a, sizeof(a), m->woke_us, u), unit);
	else
		cat(buf, len, at, "woke +%s %s", time_of(a, sizeof(a), m->woke_us, u), unit);
	if (m->cpu >= 0)
		cat(buf, len, at, " on CPU %d", m->cpu);
	if (overran)
		return;
	cat(buf, len, at, ", waited %s %s", time_of(b, sizeof(b), m->waited_us, u), unit);
	if (m->behind.pid == 0)
		cat(buf, len, at, ", its CPU idle (%s)", m->behind.comm);
	else if (m->behind.pid > 0)
		cat(buf, len, at, " behind %s[%d] (prio %d)", m->behind.comm, m->behind.pid,
		    m->behind.prio);
	else if (m->flags & MISS_NO_SWITCH_IN)
		cat(buf, len, at, " (its switch-in is not in the trace)");
}

/*
 * "Video/Burn pass 2 +12.304 s: missed by 4.1 ms: woke +0.05 ms on CPU 1,
 * waited 3.9 ms behind ibload-Burn[812] (prio 120), ran 2.6 ms, preempted
 * once by kworker/1:0 for 0.3 ms": a miss, its deadline from the row's start.
 * A chain's says whose story it tells: "missed by 19.7 ms: made late by
 * ib-Game-render (main>render): woke +5.2 ms ...", and when a stage's, if
 * its frame began late because the one before overran.
 */
void miss_line(char *buf, size_t len, const struct result *r, const struct miss *m,
	       double unit_ns, const char *unit)
{
	char a[24], b[24];
	size_t at = 0;
	const struct hop_stats *hop = result_hop(r, m->hop);
	bool stage = hop && m->hop > 0;

	buf[0] = '\0';
	row_name(buf, len, &at, r);
	cat(buf, len, &at, " +%.3f s: missed by %s %s: ", (double)m->at_ns / 1e9,
	    time_of(a, sizeof(a), m->late_us, unit_ns), unit);
	if (hop)
		cat(buf, len, &at, "made late by %s (%s)", hop->thread, hop->name);
	if (stage && (m->flags & MISS_OVERRAN))
		cat(buf, len, &at, ", in a %s begun late (the one before overran)",
		    result_chain_unit(r));
	if (hop)
		cat(buf, len, &at, ": ");
	miss_wait(buf, len, &at, m, stage, unit_ns, unit);
	cat(buf, len, &at, ", ran %s %s", time_of(a, sizeof(a), m->ran_us, unit_ns), unit);
	if (!(m->flags & MISS_TRACED)) {
		cat(buf, len, &at, " (not traced: who had the CPU, preemptions and blocking are "
		    "not known)");
	} else if (m->npreempt == 1) {
		cat(buf, len, &at, ", preempted once by %s for %s %s", m->by.comm,
		    time_of(a, sizeof(a), m->preempted_us, unit_ns), unit);
	} else if (m->npreempt > 1) {
		cat(buf, len, &at, ", preempted %d times for %s %s, longest by %s", m->npreempt,
		    time_of(a, sizeof(a), m->preempted_us, unit_ns), unit, m->by.comm);
	}
	if (m->blocked_us)
		cat(buf, len, &at, ", blocked %s %s", time_of(b, sizeof(b), m->blocked_us, unit_ns),
		    unit);
	if (m->flags & MISS_CUT)
		cat(buf, len, &at, ", cut by the row's end");
}
