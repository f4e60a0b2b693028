/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/configs.h - the configurations a run's rows use: copies of the parsed one, made once
 * after set-up, with what it measured and each --vary variant applied. */
#ifndef RUN_CONFIGS_H
#define RUN_CONFIGS_H

#include <stddef.h>
#include <stdint.h>

#include "model/config.h"

/* What set-up measures, which the parsed configuration cannot know. */
struct run_facts {
	unsigned long loops_per_ms;	/* loops mode: -l's or calibration's; else 0 */
	uint64_t period_drift_ns;	/* swept periods' drift a row: one tick */
};

struct run_configs {
	struct config base;		/* the parsed one, with the facts: the record's */
	struct config *variant;		/* [MAX_VARIANTS] with --vary, each applied; NULL */
};

/* configs.c */
int run_configs_build(struct run_configs *rc, const struct config *parsed,
		      const struct run_facts *facts, char *err, size_t errlen);
const struct config *run_config(const struct run_configs *rc, int variant);

#endif
