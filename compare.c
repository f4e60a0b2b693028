// SPDX-License-Identifier: GPL-2.0-or-later
/* compare.c - --compare: read logs (ours and interbench 0.31's) and CSV files, print the comparison. */
#include "interbench.h"

int compare_main(const struct config *cfg)
{
	(void)cfg;
	error("--compare is not available in this build");
	return 1;
}
