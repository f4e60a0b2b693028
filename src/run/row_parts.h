/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/row_parts.h - what a row's own sources share: the signals' flags and the watch, the
 * children's start and bodies, what a bench sends; only run/row*.c use it. */
#ifndef RUN_ROW_PARTS_H
#define RUN_ROW_PARTS_H

#include <signal.h>
#include <stdbool.h>

#include "run/child.h"
#include "run/row.h"

struct row_ctx {		/* what the row's children start from */
	const struct row_env *env;
	const struct config *cfg;
	int bench, load;
	int ncpus;			/* --ncpus: the CPUs its children may use; 0: all */
	int proc;			/* the bench process being forked: 0 the first, a */
					/* group's next member or a copy beside it after */
};

/* row_signals.c: what ends a row's waits, or has it run again */
extern volatile sig_atomic_t got_tstp;	/* SIGTSTP (Ctrl-Z): pause, then redo the row */
extern volatile sig_atomic_t got_cont;	/* SIGCONT: we were stopped, by whatever */
extern volatile sig_atomic_t got_redo;	/* either, or the clocks saw a stop: the row in */
					/* progress runs again */
extern struct child_watch row_watch;	/* every wait of the orchestrator's in a row */
bool interrupted(void);			/* a stop signal, or a stop that discards the row */
void drop_sig_pipe(void);
void signals_after_pause(void);

/* row_children.c: the load's and a simulated task's bench process */
int confine(const struct row_ctx *rc, int res);
int load_body(void *arg, int ctl, int res);
int bench_body(void *arg, int ctl, int res);
int ring_setup(const struct row_env *env, struct period_ring *ring);
bool chain_pooled(const struct row_ctx *rc, const struct bench_result *b);
void send_periods(int res, struct bench_result *b, const struct period_ring *ring,
		  const struct stage_set *st);

/* row_rtapp.c: a workload file's bench process, a result per thread object */
int rtapp_body(void *arg, int ctl, int res);
void rtapp_traced(const struct config *cfg, bool *traced);	/* [thread objects] */
#define RTAPP_ROW_GRACE_NS (5 * NSEC_PER_SEC)	/* its threads' end: rtapp_run()'s bound */

#endif
