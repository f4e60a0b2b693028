/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tests/split_samples.h - wake-ups recorded by the task, for the split's unit tests (core and
 * probe). */
#ifndef TESTS_SPLIT_SAMPLES_H
#define TESTS_SPLIT_SAMPLES_H

#include <stdint.h>

/*
 * (latency, run delay before blocking, run delay after running), as recorded
 * by the task of Audio runs against None, Burn and with -u; two had the run
 * delay grow by more than the latency (a preemption outside t_wake..t_run).
 */
static const uint64_t recorded[][3] = {
	{ 9698, 712697, 715702 },	{ 53432, 10110455, 10110455 },
	{ 61658, 14738033, 14738033 },	{ 64684, 28088724, 28088724 },
	{ 2524517, 17236130, 19738436 },	{ 2551337, 66378937, 68910386 },
	{ 12547074, 109583632, 122108155 },	{ 12373, 116086, 120504 },
	{ 21641, 11704312, 11713079 },	{ 2030667, 19818171, 21797141 },
	{ 11381, 3983650, 4024025 },	{ 9267, 46266, 71374 },
	{ 0, 500, 700 },		{ 1000, 900, 800 },	/* and two made up: no */
};							/* latency; a delay that shrank */

#endif
