// SPDX-License-Identifier: GPL-2.0-or-later
/* core/period.c - the ring of a row's periods, and what one period's record says. */
#include <stdlib.h>
#include <string.h>

#include "core/period.h"

/* Push p, over the oldest record once the ring is full; nothing when it has no room at all. */
void period_ring_push(struct period_ring *r, const struct period_rec *p)
{
	if (!r->cap)
		return;
	r->rec[r->pushed % r->cap] = *p;
	r->pushed++;
}

uint64_t period_ring_kept(const struct period_ring *r)
{
	return r->pushed < r->cap ? r->pushed : r->cap;
}

uint64_t period_ring_lost(const struct period_ring *r)
{
	return r->pushed - period_ring_kept(r);
}

/* The kept records into out, oldest first. */
void period_ring_copy(const struct period_ring *r, struct period_rec *out)
{
	uint64_t kept = period_ring_kept(r), first;

	if (!kept)
		return;
	first = r->pushed % r->cap;	/* the oldest, once the ring has wrapped */
	if (r->pushed <= r->cap) {
		memcpy(out, r->rec, kept * sizeof(*out));
		return;
	}
	memcpy(out, r->rec + first, (r->cap - first) * sizeof(*out));
	memcpy(out + (r->cap - first), r->rec, first * sizeof(*out));
}

/* The stages' records freed, none left. */
void stage_set_free(struct stage_set *s)
{
	for (uint32_t i = 0; i < s->n && i < STAGES_MAX; i++)
		free(s->s[i].rec);
	*s = (struct stage_set){ 0 };
}

struct period_clock period_log_clock(const struct period_log *h)
{
	return (struct period_clock){ .start0 = h->start0, .num = h->num ? h->num : 1,
				      .den = h->den ? h->den : 1, .nperiods = UINT64_MAX };
}

/* The start of the period its work was for (Gaming: the unit's start). */
uint64_t period_rec_start(const struct period_log *h, const struct period_rec *p)
{
	struct period_clock c = period_log_clock(h);

	if (!h->num)
		return p->t_run;
	return period_start(&c, (uint64_t)p->k + p->skipped);
}

/* Its deadline: the end of the period its work was for (Gaming: none, 0). */
uint64_t period_rec_deadline(const struct period_log *h, const struct period_rec *p)
{
	struct period_clock c = period_log_clock(h);

	if (!h->num)
		return 0;
	return period_start(&c, (uint64_t)p->k + p->skipped + 1);
}

/* The rule of core/accounting.c: missed when its work ended after its period, or never ended. */
bool period_rec_missed(const struct period_log *h, const struct period_rec *p)
{
	if (!h->num || (p->flags & PREC_NOWORK))
		return false;
	return !(p->flags & PREC_DONE) || p->t_done > period_rec_deadline(h, p);
}

/* How late its work ended past its deadline; 0 when met. */
uint64_t period_rec_late_ns(const struct period_log *h, const struct period_rec *p)
{
	uint64_t d = period_rec_deadline(h, p);

	return period_rec_missed(h, p) && p->t_done > d ? p->t_done - d : 0;
}
