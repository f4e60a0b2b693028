// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_period.c - unit tests of the core: the period ring and what a record says. */
#include <stdint.h>

#include "core/defs.h"
#include "core/period.h"

#include "tests/unit.h"

/* A ring of 4, pushed 0..n-1 (k = i): what it keeps, oldest first, and how many it lost. */
static bool ring_after(uint64_t n, uint64_t want_lost, uint32_t want_first)
{
	struct period_rec store[4], out[4];
	struct period_ring r = { .rec = store, .cap = 4 };

	for (uint64_t i = 0; i < n; i++)
		period_ring_push(&r, &(struct period_rec){ .k = (uint32_t)i });
	EXPECT(period_ring_lost(&r) == want_lost, "%llu pushed: %llu lost",
	       (unsigned long long)n, (unsigned long long)period_ring_lost(&r));
	period_ring_copy(&r, out);
	for (uint64_t i = 0; i < period_ring_kept(&r); i++)
		EXPECT(out[i].k == want_first + i, "%llu pushed: [%llu] is %u", (unsigned long long)n,
		       (unsigned long long)i, out[i].k);
	return true;
}

static bool test_ring(void)
{
	struct period_ring none = { 0 };

	period_ring_push(&none, &(struct period_rec){ .k = 1 });
	EXPECT(!period_ring_kept(&none) && !period_ring_lost(&none), "a ring of 0 kept one");
	return ring_after(0, 0, 0) && ring_after(3, 0, 0) && ring_after(4, 0, 0) &&
	       ring_after(5, 1, 1) && ring_after(11, 7, 7);
}

/* Video's clock (1/60 s): deadlines, misses and lateness as core/accounting.c counts them. */
static bool test_record(void)
{
	const struct period_log h = { .start0 = 1000, .num = NSEC_PER_SEC, .den = 60 };
	const uint64_t p1 = 1000 + 16666667, p2 = 1000 + 33333334;
	struct {
		struct period_rec r;
		uint64_t deadline, late;
		bool missed;
	} cases[] = {
		{ { .k = 0, .t_run = 1100, .t_done = p1, .flags = PREC_WOKEN | PREC_DONE }, p1, 0, false },
		{ { .k = 0, .t_run = 1100, .t_done = p1 + 5, .flags = PREC_WOKEN | PREC_DONE },
		  p1, 5, true },
		{ { .k = 0, .skipped = 1, .t_run = p1 + 1, .t_done = p2 + 7,
		    .flags = PREC_WOKEN | PREC_DONE }, p2, 7, true },
		{ { .k = 0, .t_run = 1100, .t_done = 1200, .flags = PREC_WOKEN }, p1, 0, true },
		{ { .k = 0, .t_run = p2, .t_done = p2, .flags = PREC_WOKEN | PREC_NOWORK }, p1, 0, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct period_rec *r = &cases[i].r;

		EXPECT(period_rec_deadline(&h, r) == cases[i].deadline, "case %zu: deadline %llu",
		       i, (unsigned long long)period_rec_deadline(&h, r));
		EXPECT(period_rec_missed(&h, r) == cases[i].missed, "case %zu: missed", i);
		EXPECT(period_rec_late_ns(&h, r) == cases[i].late, "case %zu: late %llu", i,
		       (unsigned long long)period_rec_late_ns(&h, r));
	}
	EXPECT(period_rec_start(&h, &cases[2].r) == p1, "the start of the period worked");
	return true;
}

void unit_core_period(void)
{
	check("period ring: keeps the newest, oldest first, and counts the lost", test_ring());
	check("period record: deadline, missed and late by core/accounting.c's rule", test_record());
}
