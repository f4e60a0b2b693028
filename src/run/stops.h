/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/stops.h - a stop that no signal told of (a suspend, a paused VM), seen by the orchestrator's
 * clocks. */
#ifndef RUN_STOPS_H
#define RUN_STOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* stops.c: a stop that no signal told of, seen by the orchestrator's clocks */
#define STOP_REDO_MAX 3			/* tries of a row the clocks may send round again */
void stops_begin(bool judge);
void stops_test_jump(void);
bool stops_waited(uint64_t asked_ns, uint64_t took_ns);
bool stops_check(void);
void stops_describe(char *buf, size_t len);

#endif
