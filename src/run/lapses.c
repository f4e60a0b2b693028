// SPDX-License-Identifier: GPL-2.0-or-later
/* run/lapses.c - how the orchestrator learns that a row ran across a lapse (the machine stopped
 * under it, no signal told of it): its three clocks (core/stop.h), and the tests' simulated
 * jump of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/stop.h"
#include "lib/util.h"
#include "run/lapses.h"

/*
 * For the tests only: INTERBENCH_TEST_CLOCK_JUMP=KIND:SECONDS makes the
 * clocks read, from the first row's measured window on, as if the machine
 * had been suspended (suspend), the VM paused with its clocks running on
 * (pause: the wait it fell in then ends that much late), or the wall clock
 * set (wall).
 * Once a run; anything else in the variable is ignored.
 */
#define JUMP_ENV "INTERBENCH_TEST_CLOCK_JUMP"

static struct {
	bool judge;			/* this try of a row is judged by the clocks */
	struct clock_sample start;	/* when it began */
	enum stop_kind kind;		/* what they said, STOP_NONE */
	uint64_t len_ns;
	bool jump_read, jumped;		/* the tests' jump: looked for, done */
	enum stop_kind jump;		/* STOP_SUSPEND, STOP_GAP or STOP_WALL; STOP_NONE */
	uint64_t jump_ns;
	struct clock_sample off;	/* added to what the clocks say since the jump */
	uint64_t late_once;		/* added to the wait the jump fell in */
} st;

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* The three clocks close together: a sample that a preemption spread is taken again. */
static void sample(struct clock_sample *s)
{
	for (int i = 0; i < 3; i++) {
		uint64_t m0 = clock_ns(CLOCK_MONOTONIC);

		s->boot = clock_ns(CLOCK_BOOTTIME);
		s->real = clock_ns(CLOCK_REALTIME);
		s->mono = clock_ns(CLOCK_MONOTONIC);
		if (s->mono - m0 < 100 * NSEC_PER_USEC)
			break;
	}
	s->mono += st.off.mono;
	s->boot += st.off.boot;
	s->real += st.off.real;
}

static void read_jump(void)
{
	static const struct { const char *name; enum stop_kind kind; } kinds[] = {
		{ "suspend:", STOP_SUSPEND }, { "pause:", STOP_GAP }, { "wall:", STOP_WALL },
	};
	const char *env = getenv(JUMP_ENV);
	double s;

	st.jump_read = true;
	for (size_t i = 0; env && i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].name);

		if (!strncmp(env, kinds[i].name, n) && !parse_double(env + n, 0.001, 3600, &s)) {
			st.jump = kinds[i].kind;
			st.jump_ns = (uint64_t)(s * 1e9);
		}
	}
}

/* A try of a row begins; judge: whether the clocks may send it round again. */
void lapses_begin(bool judge)
{
	st.judge = judge;
	st.kind = STOP_NONE;
	st.len_ns = 0;
	sample(&st.start);
}

/* The row's measured window opened: where the tests' jump, if asked for, happens. */
void lapses_test_jump(void)
{
	uint64_t j;

	if (!st.jump_read)
		read_jump();
	if (st.jumped || st.jump == STOP_NONE)
		return;
	st.jumped = true;
	j = st.jump_ns;
	st.off.real += j;		/* every kind moves the wall clock */
	if (st.jump != STOP_WALL)
		st.off.boot += j;	/* a suspend or a pause moves the boot clock too */
	if (st.jump == STOP_GAP) {
		st.off.mono += j;	/* and a pause the monotonic clock, in one wait */
		st.late_once = j;
	}
}

static bool judge(uint64_t late_ns)
{
	struct clock_sample now;

	if (!st.judge || st.kind != STOP_NONE)
		return st.kind != STOP_NONE;
	sample(&now);
	st.kind = stop_judge(&st.start, &now, late_ns, &st.len_ns);
	return st.kind != STOP_NONE;
}

/*
 * After one of the orchestrator's waits (asked_ns, it took took_ns): true
 * once a lapse is seen. A lapse of P in a wait of A (at most 1 s) makes it
 * at least P - A late: one of 2 s or more is always seen.
 */
bool lapses_waited(uint64_t asked_ns, uint64_t took_ns)
{
	uint64_t late = (took_ns > asked_ns ? took_ns - asked_ns : 0) + st.late_once;

	st.late_once = 0;	/* the tests' pause: as if it came as the wait ended */
	return judge(late);
}

/* At the try's end: true if a lapse is seen. */
bool lapses_check(void)
{
	return judge(0);
}

/* What the clocks said, for the line that says the row runs again. */
void lapses_describe(char *buf, size_t len)
{
	double s = (double)st.len_ns / 1e9;

	switch (st.kind) {
	case STOP_SUSPEND:
		snprintf(buf, len, "the machine was suspended for %.1f s", s);
		break;
	case STOP_GAP:
		snprintf(buf, len, "this process did not run for %.1f s or more (a paused VM?)", s);
		break;
	case STOP_WALL:
		snprintf(buf, len, "the wall clock moved %.1f s against the boot clock (set, or "
			 "a VM paused with its clocks)", s);
		break;
	default:
		snprintf(buf, len, "a stop");
		break;
	}
}
