// SPDX-License-Identifier: GPL-2.0-or-later
/* core/tickphase.c - periods shortened so that a row's wake-ups sweep their phase against the
 * tick: pure arithmetic on the period's fraction. */
#include <stddef.h>

#include "core/accounting.h"
#include "core/tickphase.h"

const char *const period_mode_names[] = {
	[PERIOD_SWEPT] = "swept", [PERIOD_EXACT] = "exact", NULL,
};

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* a / b in lowest terms into *num, *den (b > 0). */
static void reduce(uint64_t a, uint64_t b, uint64_t *num, uint64_t *den)
{
	uint64_t g = gcd(a, b);

	*num = a / g;
	*den = b / g;
}

void period_exact(uint64_t num, uint64_t den, struct period_scale *s)
{
	*s = (struct period_scale){ .wnum = 1, .wden = 1 };
	reduce(num, den ? den : 1, &s->num, &s->den);
}

/*
 * n = the whole nominal periods a row holds. The period is shortened by
 * drift / n: P - drift / n = (num * n - drift * den) / (den * n), so the row
 * still counts its n periods (ending one drift early), and the work's factor
 * is (num * n - drift * den) / (num * n). A drift over an eighth of the n
 * periods (a row of a period or two) is cut to that eighth. A nominal period
 * in lowest terms (ProAudio's 128 / 48000 s is 8000000 / 3 ns) keeps these
 * products far below 2^64 for rows of days.
 */
void period_swept(uint64_t num, uint64_t den, uint64_t row_ns, uint64_t drift_ns,
		  struct period_scale *s)
{
	uint64_t n, span, bottom;

	period_exact(num, den, s);
	if (!drift_ns || !s->num)
		return;
	n = mul_div(row_ns, s->den, s->num);
	if (!n)
		return;		/* not one period in the row: nothing to sweep */
	span = s->num * n;	/* the n periods, in 1 / den ns */
	if (drift_ns * s->den > span / 8)
		drift_ns = span / 8 / s->den;
	bottom = span - drift_ns * s->den;
	reduce(bottom, span, &s->wnum, &s->wden);
	reduce(bottom, s->den * n, &s->num, &s->den);
	s->periods = n;
}

uint64_t scale_work(const struct period_scale *s, uint64_t work_ns)
{
	return mul_div(work_ns, s->wnum, s->wden);
}
