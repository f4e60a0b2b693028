/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/vary.h - --vary: the knob and its values, and the system knobs set, read back and put
 * back. */
#ifndef RUN_VARY_H
#define RUN_VARY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/config.h"

/* vary.c: the spec, parsed once with the options */
int vary_parse(struct config *cfg, char *err, size_t errlen);	/* 0, or -1 with err */

/*
 * sysknob.c: a system knob (sysctl:, sched-debug:, sched-feature:, preempt).
 * Its original value goes to the journal before the first write; every
 * write is read back. The journal lives under JOURNAL_DIR, so that a run
 * after a SIGKILL or a crash finds what to put back.
 */
#define JOURNAL_DIR "/run/interbench"
#define SYSKNOB_VALUE_LEN 256

int sysknob_resolve(struct config *cfg, char *err, size_t errlen);	/* preempt's modes */
int sysknob_prepare(const struct config *cfg, char *err, size_t errlen);	/* journal, probe */
int sysknob_check(const struct config *cfg, char *err, size_t errlen);	/* --dry-run: a read */
int sysknob_apply(const struct config *cfg, int variant, char *got, size_t len, char *err,
		  size_t errlen);		/* set the variant's value; got: read back */
void sysknob_restore(bool end);		/* the original back; at the end, the journal gone */
void sysknob_atexit(void);		/* the same, for die() and exit() */
int journal_restore(bool verbose, char *err, size_t errlen);	/* a dead run's */
bool sysknob_matches(const char *want, const char *got);

#endif
