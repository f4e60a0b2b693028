// SPDX-License-Identifier: GPL-2.0-or-later
/* core/schedev.c - one task's scheduler events from a trace instance's text lines. */
#include <stdlib.h>

#include "core/schedev.h"

void sched_trace_free(struct sched_trace *t)
{
	free(t->ev);
	*t = (struct sched_trace){ 0 };
}
