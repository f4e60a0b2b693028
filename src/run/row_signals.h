/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/row_signals.h - the signals that end a row or run it again, and the run lock that
 * children do not keep (row_signals.c). */
#ifndef RUN_ROW_SIGNALS_H
#define RUN_ROW_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

extern volatile sig_atomic_t got_signal;	/* SIGINT, SIGTERM or SIGHUP */
extern int lock_fd;				/* the run lock: children do not keep it */
void install_signals(void);
void catch_tstp(bool on);
void drop_sig_pipe(void);		/* a child's first act: row_env's drop_inherited */

#endif
