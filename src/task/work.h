/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/work.h - the simulated work: the busy loop, burnt as CPU time or as loops, in slices
 * that stop. */
#ifndef WORK_H
#define WORK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum work_mode {
	WORK_CPU,			/* default: the thread's CPU clock advances by the work */
	WORK_LOOPS,			/* 0.31's: work x loops_per_ms iterations of the loop */
};

const char *work_mode_name(enum work_mode m);	/* "cpu" or "loops" */

void burn_loops(uint64_t loops);

/* What a burn reads and spins: the real clocks, or a fake one in the unit tests. */
struct burn_clock {
	uint64_t (*cpu_ns)(void *arg);		/* the thread's CPU clock */
	uint64_t (*wall_ns)(void *arg);		/* CLOCK_MONOTONIC */
	void (*spin)(uint64_t loops, void *arg);
	void *arg;
};

/* One task's work: how it is burnt, and what it has done so far. */
struct burner {
	enum work_mode mode;
	unsigned long loops_per_ms;	/* loops mode */
	uint64_t end_ns;		/* wall time at which a burn stops, done or not; 0: none */
	atomic_int *stop;		/* a burn also stops once this is set; or NULL */
	const struct burn_clock *clk;	/* NULL: the real clocks */
	double rate;			/* loops per CPU ns, learnt from the chunks (CPU mode) */
	uint64_t loops;			/* iterations spun so far (CPU mode: in chunks long */
	uint64_t cpu_ns;		/* enough to time) and the CPU time they took */
	uint64_t from_cpu;		/* CPU mode: the thread's CPU clock from which the */
					/* next burn counts; 0: from when it starts */
	uint64_t end_cpu;		/* CPU mode: the clock when the last burn ended */
};

#define BURN_TAIL_NS 2000ULL		/* the last chunk: all that is left, at most this */
#define BURN_CHUNK_MAX_NS 500000ULL	/* no chunk is meant to take longer */

uint64_t burn_chunk_loops(double rate, uint64_t left_ns);
uint64_t burn_work(struct burner *b, uint64_t ns, bool *cut);
double burner_loop_speed(const struct burner *b);	/* loops per CPU us, 0: none */

#endif
