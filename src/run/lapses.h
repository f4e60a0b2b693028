/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/lapses.h - a lapse: the machine stopped under the run (a suspend, a paused VM) with no
 * signal to tell of it, seen by the orchestrator's clocks. */
#ifndef RUN_LAPSES_H
#define RUN_LAPSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* lapses.c: a lapse, seen by the orchestrator's clocks */
#define LAPSE_REDO_MAX 3		/* tries of a row the clocks may send round again */
void lapses_begin(bool judge);
void lapses_test_jump(void);
bool lapses_waited(uint64_t asked_ns, uint64_t took_ns);
bool lapses_check(void);
void lapses_describe(char *buf, size_t len);

#endif
