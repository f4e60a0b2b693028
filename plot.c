// SPDX-License-Identifier: GPL-2.0-or-later
/* plot.c - --plot: the latency distributions of a run as a self-contained SVG. */
#include <errno.h>

#include "interbench.h"

int plot_run(const char *path, const struct run *run)
{
	(void)path;
	(void)run;
	return -ENOSYS;
}
