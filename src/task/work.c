// SPDX-License-Identifier: GPL-2.0-or-later
/* task/work.c - the simulated work: CPU time burnt in short chunks between clock reads, or
 * loops. */
#include "lib/util.h"
#include "task/work.h"

const char *work_mode_name(enum work_mode m)
{
	return m == WORK_LOOPS ? "loops" : "cpu";
}

/* The unit of simulated work; the empty asm keeps the compiler from folding it. */
void burn_loops(uint64_t loops)
{
	for (uint64_t i = 0; i < loops; i++)
		__asm__ __volatile__("" : "+r"(i));
}

static uint64_t real_cpu(void *arg)
{
	(void)arg;
	return thread_cpu_ns();
}

static uint64_t real_wall(void *arg)
{
	(void)arg;
	return now_ns();
}

static void real_spin(uint64_t loops, void *arg)
{
	(void)arg;
	burn_loops(loops);
}

static const struct burn_clock real_clock = { real_cpu, real_wall, real_spin, NULL };

#define BURN_LEARN_NS 20000ULL	/* a chunk this long teaches the rate (one clock read is noise) */
#define BURN_FIRST_LOOPS 1000	/* before the rate is known: about a microsecond */

/*
 * How many loops the next chunk spins, left_ns of CPU work before the target,
 * at rate loops per CPU ns (0: not known yet). Half of what is left, so that
 * even a loop that suddenly runs twice as slow (a busy SMT sibling, a lower
 * frequency) does not pass the target; all of it once no more than
 * BURN_TAIL_NS is left, so the overshoot is at most that tail's error and
 * one clock read; never more than BURN_CHUNK_MAX_NS, so the end is seen.
 */
uint64_t burn_chunk_loops(double rate, uint64_t left_ns)
{
	uint64_t ns = left_ns <= BURN_TAIL_NS ? left_ns : left_ns / 2;
	double loops;

	if (ns > BURN_CHUNK_MAX_NS)
		ns = BURN_CHUNK_MAX_NS;
	if (rate <= 0.0)
		return BURN_FIRST_LOOPS;
	loops = rate * (double)ns;
	return loops < 1.0 ? 1 : (uint64_t)loops;
}

static bool burn_stopping(const struct burner *b, const struct burn_clock *c)
{
	return (b->stop && atomic_load_explicit(b->stop, memory_order_relaxed)) ||
	       (b->end_ns && c->wall_ns(c->arg) >= b->end_ns);
}

/*
 * CPU mode: spin until the thread's CPU clock has advanced by ns since
 * b->from_cpu (the end of the previous period's burn, so that what the task
 * does between its periods, waiting and waking, is part of its work and not
 * on top of it), else since the burn began; the CPU time it took.
 */
static uint64_t burn_cpu(struct burner *b, const struct burn_clock *c, uint64_t ns, bool *cut)
{
	uint64_t spin0 = c->cpu_ns(c->arg), now = spin0;
	uint64_t t0 = b->from_cpu && b->from_cpu <= spin0 ? b->from_cpu : spin0, target = t0 + ns;

	b->from_cpu = 0;

	while (now < target) {
		uint64_t loops = burn_chunk_loops(b->rate, target - now), before = now;
		/* meant to be long enough to time: chosen by plan, not by what it took */
		bool timed = b->rate > 0.0 && (double)loops >= b->rate * (double)BURN_LEARN_NS;

		if (burn_stopping(b, c)) {
			*cut = true;
			break;
		}
		c->spin(loops, c->arg);
		now = c->cpu_ns(c->arg);
		/*
		 * The read's own cost makes the rate look low: safe, never an
		 * overshoot, but only a long chunk tells the loop's speed. A
		 * chunk planned long also teaches it when it ran short, so that
		 * a rate once made low by an interrupt does not stay low.
		 */
		if (now > before && (timed || now - before >= BURN_LEARN_NS || b->rate <= 0.0))
			b->rate = (double)loops / (double)(now - before);
		if (timed && now > before) {
			b->loops += loops;
			b->cpu_ns += now - before;
		}
	}
	b->end_cpu = now;
	return now - t0;
}

/* Loops mode: ns x loops_per_ms iterations, in slices of 100 us; the work done, in ns. */
static uint64_t burn_counted(struct burner *b, const struct burn_clock *c, uint64_t ns, bool *cut)
{
	uint64_t want = (uint64_t)((double)ns * (double)b->loops_per_ms / 1e6), done = 0;
	uint64_t slice = b->loops_per_ms / 10 + 1, c0 = c->cpu_ns(c->arg);

	while (done < want) {
		uint64_t n = want - done < slice ? want - done : slice;

		if (burn_stopping(b, c)) {
			*cut = true;
			break;
		}
		c->spin(n, c->arg);
		done += n;
	}
	b->loops += done;
	b->cpu_ns += c->cpu_ns(c->arg) - c0;
	if (done == want)
		return ns;
	return (uint64_t)((double)done * 1e6 / (double)b->loops_per_ms);
}

/*
 * Do ns of work, stopping early at b->end_ns or b->stop (*cut is then set).
 * Returns the work done: ns when it was all done, else the part that was.
 */
uint64_t burn_work(struct burner *b, uint64_t ns, bool *cut)
{
	const struct burn_clock *c = b->clk ? b->clk : &real_clock;
	uint64_t done;

	*cut = false;
	if (!ns)
		return 0;
	if (b->mode == WORK_LOOPS)
		return burn_counted(b, c, ns, cut);
	done = burn_cpu(b, c, ns, cut);
	return *cut ? done : ns;
}

/* Loop iterations per CPU microsecond while spinning: the CPU's speed during the row. */
double burner_loop_speed(const struct burner *b)
{
	return b->cpu_ns ? (double)b->loops * 1e3 / (double)b->cpu_ns : 0.0;
}
