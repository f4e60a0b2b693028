/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli/vary.h - --vary: the knob and its values, parsed with the options. */
#ifndef CLI_VARY_H
#define CLI_VARY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/config.h"

/* vary.c: the spec, parsed once with the options */
int vary_parse(struct config *cfg, char *err, size_t errlen);	/* 0, or -1 with err */
bool vary_runs_program(const struct config *cfg);		/* scx=, exec= */
int vary_order_option(struct config *cfg, const char *arg, char *err, size_t errlen);
int vary_ready_option(struct config *cfg, const char *arg, char *err, size_t errlen);
int vary_preempt_modes(struct config *cfg, char *err, size_t errlen);	/* the kernel's */

/* options.c: variant v's configuration, a copy of base with its value applied and checked */
int variant_config_of(const struct config *base, int v, struct config *out, char *err,
		      size_t errlen);

#endif
