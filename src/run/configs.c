// SPDX-License-Identifier: GPL-2.0-or-later
/* run/configs.c - the run's configurations, copies of the parsed one made once: the base with
 * what set-up measured, and each --vary variant's (cli/options.c applies and checks it). */
#include <stdlib.h>

#include "cli/vary.h"
#include "lib/util.h"
#include "run/configs.h"

/* 0, or -1 with one line in err (no memory; a variant parsing accepted cannot fail here). */
int run_configs_build(struct run_configs *rc, const struct config *parsed,
		      const struct run_facts *facts, char *err, size_t errlen)
{
	rc->base = *parsed;
	rc->base.loops_per_ms = facts->loops_per_ms;
	rc->base.period_drift_ns = facts->period_drift_ns;
	rc->variant = NULL;
	if (!parsed->vary_spec)
		return 0;
	rc->variant = calloc(MAX_VARIANTS, sizeof(*rc->variant));
	if (!rc->variant)
		return set_err(err, errlen, "out of memory for --vary's configurations");
	for (int v = 0; v < MAX_VARIANTS; v++)
		if (variant_config_of(&rc->base, v, &rc->variant[v], err, errlen))
			return -1;
	return 0;
}

/* What variant v runs with: --vary's value applied, or the run's own configuration. */
const struct config *run_config(const struct run_configs *rc, int variant)
{
	return rc->variant ? &rc->variant[variant] : &rc->base;
}
