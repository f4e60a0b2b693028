/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/row_parts.h - what a row's own sources share: the signals' flags and the watch; only
 * run/row*.c use it (the children's bodies: child/row_child.h). */
#ifndef RUN_ROW_PARTS_H
#define RUN_ROW_PARTS_H

#include <signal.h>
#include <stdbool.h>

#include "child/child.h"
#include "run/row.h"

/* row_signals.c: what ends a row's waits, or has it run again */
extern volatile sig_atomic_t got_tstp;	/* SIGTSTP (Ctrl-Z): pause, then redo the row */
extern volatile sig_atomic_t got_cont;	/* SIGCONT: we were stopped, by whatever */
extern volatile sig_atomic_t got_redo;	/* either, or the clocks saw a lapse: the row in */
					/* progress runs again */
extern struct child_watch row_watch;	/* every wait of the orchestrator's in a row */
bool interrupted(void);			/* an ending signal, or a pause or lapse that */
					/* discards the row */
void signals_after_pause(void);

#endif
