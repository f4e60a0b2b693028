// SPDX-License-Identifier: GPL-2.0-or-later
/* core/rtapp_periods.c - an rt-app workload's timer periods: the timer rule, slack, met or
 * missed, and the spans of rt-app's own figures. */
#include "core/rtapp_periods.h"

/* Signed ns between two instants; no instant of CLOCK_MONOTONIC is 2^63 ns apart. */
static int64_t diff_ns(uint64_t a, uint64_t b)
{
	return a >= b ? (int64_t)(a - b) : -(int64_t)(b - a);
}

struct timer_use rtapp_timer_reach(struct rtapp_timer *t, uint64_t base, uint64_t period_ns,
				   uint64_t reached, bool absolute)
{
	struct timer_use u;

	if (!t->used) {
		t->used = true;
		t->last = base;
	}
	t->last += period_ns;
	u.expiry = t->last;
	u.slack = diff_ns(u.expiry, reached);
	u.wait = reached < u.expiry;
	if (!u.wait && !absolute)
		t->last = reached;
	return u;
}

void span_add(struct rtapp_span *s, int64_t v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	s->n++;
	s->sum += (double)v;
}

void span_merge(struct rtapp_span *m, const struct rtapp_span *add)
{
	if (!add->n)
		return;
	if (!m->n || add->min < m->min)
		m->min = add->min;
	if (!m->n || add->max > m->max)
		m->max = add->max;
	m->n += add->n;
	m->sum += add->sum;
}

double span_mean(const struct rtapp_span *s)
{
	return s->n ? s->sum / (double)s->n : 0.0;
}

/* t_run: when a use that waited was woken (a late one has none). */
void timer_period_close(struct timer_periods *tp, const struct timer_use *u, uint64_t t_run)
{
	if (u->slack >= 0)
		tp->met++;
	else
		tp->missed++;
	span_add(&tp->slack, u->slack);
	span_add(&tp->wu_lat, u->wait && t_run > u->expiry ? diff_ns(t_run, u->expiry) : 0);
}

void timer_periods_merge(struct timer_periods *m, const struct timer_periods *add)
{
	m->met += add->met;
	m->missed += add->missed;
	span_merge(&m->slack, &add->slack);
	span_merge(&m->wu_lat, &add->wu_lat);
}
