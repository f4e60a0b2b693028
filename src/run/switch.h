/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/switch.h - the system knobs that --vary sets, read back and puts back (sysknob.c), and
 * entering and leaving a variant (switch.c). */
#ifndef RUN_SWITCH_H
#define RUN_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/config.h"

/*
 * sysknob.c: a system knob (sysctl:, sched-debug:, sched-feature:, preempt).
 * Its original value goes to the journal before the first write; every
 * write is read back. The journal lives under JOURNAL_DIR, so that a run
 * after a SIGKILL or a crash finds what to put back.
 */
#define JOURNAL_DIR "/run/interbench"
#define SYSKNOB_VALUE_LEN 256

int sysknob_prepare(const struct config *cfg, char *err, size_t errlen);	/* journal, probe */
int sysknob_check(const struct config *cfg, char *err, size_t errlen);	/* --dry-run: a read */
int sysknob_apply(const struct config *cfg, int variant, char *got, size_t len, char *err,
		  size_t errlen);		/* set the variant's value; got: read back */
void sysknob_restore(bool end);		/* the original back; at the end, the journal gone */
void sysknob_atexit(void);		/* the same, for die() and exit() */
int journal_restore(bool verbose, char *err, size_t errlen);	/* a dead run's */
bool sysknob_matches(const char *want, const char *got);
const char *sysknob_read_back(int v);	/* variant v's value as tried before the run */

/* sysknob.c: a variant's program group in the journal, and what a dead run left of one */
unsigned long long proc_start_time(pid_t pid);	/* clock ticks after boot; 0: gone */
int group_signal(pid_t pgid, unsigned long long start, int sig);	/* processes found */
int journal_group(pid_t pgid, unsigned long long start, char *err, size_t errlen);
void journal_group_done(void);

/*
 * switch.c: entering and leaving a variant. A knob is written before each
 * row; a program (scx=, exec=) starts in a process group of its own when
 * its variant's first cell comes, and stops (SIGTERM, then SIGKILL) when
 * another variant's does. sched_ext's files are read under SCX_ROOT_ENV
 * when it is set, so that tests can stand in for the kernel.
 */
#define SCX_ROOT_ENV "INTERBENCH_SCX_ROOT"
#define SCX_ROOT "/sys/kernel/sched_ext"
#define SWITCH_TIMEOUT_ENV "INTERBENCH_TEST_SWITCH_S"	/* tests: a shorter bound */
#define SWITCH_TIMEOUT_S 30		/* a program's start, and sched_ext's stop */

struct variant_seen {		/* what entering a variant found */
	pid_t pid;			/* its program's, 0: none */
	char value[VARIANT_VALUE_LEN];	/* the knob read back; scx=: sched_ext's ops */
	char scx[64];			/* scx=: "enabled: ops", "disabled"; else "" */
};

int switch_prepare(const struct config *cfg, char *err, size_t errlen);	/* before all */
int switch_check_unchanged(const struct config *cfg, char *err, size_t errlen);	/* --dry-run */
void switch_states(const struct config *cfg, char (*state)[VARIANT_STATE_LEN]);
int switch_enter(const struct config *cfg, int v, struct variant_seen *seen, char *err,
		 size_t errlen);		/* 0, 1: read back otherwise; -1: not entered */
int switch_check(const struct config *cfg, char *reason, size_t len);	/* after a row */
void switch_leave(const struct config *cfg, bool failed);	/* all put back */

#endif
