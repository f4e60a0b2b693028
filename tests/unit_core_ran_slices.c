// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_ran_slices.c - unit tests of the core: who ran instead paired from synthetic
 * scheduler events, and the load's value a second in merging bins. */
#include <math.h>
#include <string.h>

#include "core/defs.h"
#include "core/ran_slices.h"
#include "core/series.h"

#include "tests/unit.h"

#define WAKE(t, c) { .ts = (t), .cpu = (c), .type = SE_WAKEUP }
#define IN(t, c, p, pr, n) { .ts = (t), .cpu = (c), .pid = (p), .prio = (pr), .comm = n, \
			     .type = SE_SWITCH_IN }
#define OUT(t, c, p, pr, n, st) { .ts = (t), .cpu = (c), .pid = (p), .prio = (pr), .comm = n, \
				  .type = SE_SWITCH_OUT, .state = (st) }
#define MIG(t, c) { .ts = (t), .cpu = (c), .type = SE_MIGRATE }

struct want {
	uint64_t t0, t1;
	int cpu, pid, prio;
	const char *comm;
	bool preempted;
};

static const struct {
	const char *name;
	struct sched_ev ev[6];
	size_t n;
	struct want w[3];
	size_t nw;
} cases[] = {
	{ "a wake-up behind Burn: the switch-in's previous task, on its CPU",
	  { WAKE(100, 1), IN(150, 1, 42, 120, "ibload-Burn") }, 2,
	  { { 100, 150, 1, 42, 120, "ibload-Burn", false } }, 1 },
	{ "a preemption: the next task, on the CPU it took, until the task runs again",
	  { OUT(200, 0, 7, 120, "kworker/0:1", 'R'), IN(260, 1, 9, 120, "other") }, 2,
	  { { 200, 260, 0, 7, 120, "kworker/0:1", true } }, 1 },
	{ "asleep, then switched in with no wake-up seen: no wait",
	  { OUT(200, 0, 7, 120, "a", 'S'), IN(260, 0, 9, 120, "b") }, 2, { { 0 } }, 0 },
	{ "the idle task before the switch-in ran no one instead",
	  { WAKE(100, 1), IN(150, 1, 0, 120, "swapper/1") }, 2, { { 0 } }, 0 },
	{ "a migration between wake-up and switch-in: the switch-in's CPU",
	  { WAKE(100, 1), MIG(110, 0), IN(170, 0, 5, 100, "rt") }, 3,
	  { { 100, 170, 0, 5, 100, "rt", false } }, 1 },
	{ "a switch-in lost: the later wake-up opens the wait",
	  { WAKE(100, 1), WAKE(300, 1), IN(320, 1, 4, 139, "nice19") }, 3,
	  { { 300, 320, 1, 4, 139, "nice19", false } }, 1 },
	{ "a switch-in before its wake-up (out of order): nothing",
	  { WAKE(100, 1), IN(90, 1, 4, 120, "x") }, 2, { { 0 } }, 0 },
	{ "a wake-up, then preempted twice: three waits in order",
	  { WAKE(10, 0), IN(20, 0, 3, 120, "a"), OUT(30, 0, 4, 110, "b", 'R'),
	    IN(45, 1, 5, 120, "c"), OUT(50, 1, 6, 120, "d", 'R'), IN(58, 1, 6, 120, "d") }, 6,
	  { { 10, 20, 0, 3, 120, "a", false }, { 30, 45, 0, 4, 110, "b", true },
	    { 50, 58, 1, 6, 120, "d", true } }, 3 },
};

static bool test_pairing(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ran_walk w;
		struct ran_slice s;
		size_t got = 0;

		ran_walk_init(&w, cases[i].ev, cases[i].n);
		while (ran_walk_next(&w, &s)) {
			const struct want *x = &cases[i].w[got];

			EXPECT(got < cases[i].nw, "%s: more than %zu waits", cases[i].name,
			       cases[i].nw);
			EXPECT(s.t0 == x->t0 && s.t1 == x->t1 && s.cpu == x->cpu && s.pid == x->pid &&
			       s.prio == x->prio && !strcmp(s.comm, x->comm) &&
			       s.preempted == x->preempted,
			       "%s: wait %zu is [%llu, %llu] cpu %d %s[%d] prio %d %s", cases[i].name,
			       got, (unsigned long long)s.t0, (unsigned long long)s.t1, s.cpu, s.comm,
			       s.pid, s.prio, s.preempted ? "preempted" : "woken");
			got++;
		}
		EXPECT(got == cases[i].nw, "%s: %zu waits, want %zu", cases[i].name, got,
		       cases[i].nw);
	}
	return true;
}

static bool test_pairing_none(void)
{
	struct ran_walk w;
	struct ran_slice s;

	ran_walk_init(&w, NULL, 5);
	EXPECT(!ran_walk_next(&w, &s), "no events gave a wait");
	return true;
}

/* n samples i = 0..n-1 of value i, then the close: the bins and their width. */
static bool series_after(uint32_t n, uint32_t want_n, uint32_t want_per, double want_first,
			 double want_last)
{
	static struct series s;

	series_init(&s, 1000, NSEC_PER_SEC);
	for (uint32_t i = 0; i < n; i++)
		series_add(&s, (double)i);
	series_close(&s);
	EXPECT(s.n == want_n && s.per_bin == want_per, "%u samples: %u bins of %u, want %u of %u",
	       n, s.n, s.per_bin, want_n, want_per);
	if (!n)
		return true;
	EXPECT(fabs(s.v[0] - want_first) < 1e-9 && fabs(s.v[s.n - 1] - want_last) < 1e-9,
	       "%u samples: first %g last %g, want %g and %g", n, s.v[0], s.v[s.n - 1],
	       want_first, want_last);
	EXPECT(series_bin_start(&s, 1) == 1000 + (uint64_t)want_per * NSEC_PER_SEC,
	       "%u samples: bin 1 starts at %llu", n, (unsigned long long)series_bin_start(&s, 1));
	return true;
}

static bool test_series(void)
{
	struct series never = { 0 };

	series_add(&never, 1.0);	/* never initialised: nothing happens */
	EXPECT(never.n == 0, "an uninitialised series took a value");
	return series_after(0, 0, 1, 0, 0) && series_after(3, 3, 1, 0, 2) &&
	       series_after(SERIES_BINS, SERIES_BINS, 1, 0, SERIES_BINS - 1) &&
	       series_after(SERIES_BINS + 1, SERIES_BINS / 2 + 1, 2, 0.5, SERIES_BINS) &&
	       series_after(2 * SERIES_BINS, SERIES_BINS, 2, 0.5, 2 * SERIES_BINS - 1.5) &&
	       series_after(4 * SERIES_BINS + 3, SERIES_BINS / 2 + 1, 8, 3.5,
			    4 * SERIES_BINS + 1);
}

void unit_core_ranslice(void)
{
	check("ran instead: wake-ups and preemptions paired with their switch-ins", test_pairing());
	check("ran instead: no events, no waits", test_pairing_none());
	check("series: a value a second, bins merged in pairs when full, the last one partial",
	      test_series());
}
